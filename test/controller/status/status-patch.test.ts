import { applyMergePatch } from './support';
import { jsonEqual, mergePatch, statusPatch } from '../../../src/controller/status/status-patch';

describe('jsonEqual', () => {
  test('compares objects structurally, whatever the key order', () => {
    expect(jsonEqual({ a: 1, b: { c: [1, { d: 'x', e: true }] } }, { b: { c: [1, { e: true, d: 'x' }] }, a: 1 })).toBe(true);
  });

  test('fails when values, key sets, list order or types differ', () => {
    expect(jsonEqual({ a: 1 }, { a: 2 })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1, c: undefined })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });
});

describe('mergePatch', () => {
  test('is undefined when nothing changed (key order irrelevant)', () => {
    expect(mergePatch({ phase: 'Running', replicas: { desired: 1, ready: 1 } }, { replicas: { ready: 1, desired: 1 }, phase: 'Running' })).toBeUndefined();
  });

  test('sets changed and added fields, recursing into objects', () => {
    expect(mergePatch(
      { phase: 'Pending', replicas: { desired: 2, ready: 0, available: 0 }, provider: { name: 'vllm' } },
      { phase: 'Running', replicas: { desired: 2, ready: 2, available: 2 }, provider: { name: 'vllm' }, endpoint: { service: 'qwen', port: 8000 } },
    )).toEqual({ phase: 'Running', replicas: { ready: 2, available: 2 }, endpoint: { service: 'qwen', port: 8000 } });
  });

  test('sets removed fields to null, at any depth', () => {
    expect(mergePatch({ phase: 'Running', gateway: { endpoint: '10.0.0.1', modelName: 'm' }, endpoint: { service: 's', port: 1 } }, { phase: 'Running', endpoint: { service: 's' } }))
      .toEqual({ gateway: null, endpoint: { port: null } });
  });

  test('sends lists whole', () => {
    const before = [{ type: 'Ready', status: 'False' }, { type: 'Other', status: 'True' }];
    const after = [{ type: 'Ready', status: 'True' }, { type: 'Other', status: 'True' }];
    expect(mergePatch({ conditions: before }, { conditions: after })).toEqual({ conditions: after });
  });

  test('replaces a value whose type changed', () => {
    expect(mergePatch({ a: 'x', b: { c: 1 }, d: [1] }, { a: { x: 1 }, b: 'c', d: { e: 1 } })).toEqual({ a: { x: 1 }, b: 'c', d: { e: 1 } });
  });
});

describe('statusPatch', () => {
  test('is undefined when the stored status equals the desired one', () => {
    expect(statusPatch({ phase: 'Running' }, { phase: 'Running' })).toBeUndefined();
  });

  test('wraps the patch in { status }', () => {
    expect(statusPatch({ phase: 'Pending' }, { phase: 'Running' })).toEqual({ status: { phase: 'Running' } });
  });

  test('fails when the stored status is not an object: the desired status replaces it whole', () => {
    for (const storedStatus of [undefined, null, 'Running', 3, ['x']]) {
      expect(statusPatch(storedStatus, { phase: 'Running' })).toEqual({ status: { phase: 'Running' } });
    }
  });

  test('applying the patch (RFC 7386) to the stored status yields exactly the desired status', () => {
    const cases: Array<[unknown, Record<string, unknown>]> = [
      [undefined, { phase: 'Pending', conditions: [{ type: 'Validated' }] }],
      [{}, { phase: 'Pending' }],
      [{ phase: 'Running', gateway: { endpoint: 'e', modelName: 'm', gatewayNamespace: 'g' }, image: { tag: 'x' } },
        { phase: 'Failed', gateway: { modelName: 'm2' }, image: { tag: 'x' } }],
      [{ a: { b: { c: 1, d: 2 } }, e: [1, 2, 3] }, { a: { b: { c: 1 }, f: 'new' }, e: [3] }],
      [{ a: { b: 1 } }, { a: {} }],
      [{ a: 1, b: 2 }, { c: 3 }],
    ];
    for (const [storedStatus, desired] of cases) {
      const patch = statusPatch(storedStatus, desired);
      expect(patch).toBeDefined();
      expect(applyMergePatch({ status: storedStatus }, patch)).toEqual({ status: desired });
    }
  });
});

describe('applyMergePatch (the test helper)', () => {
  test('follows RFC 7386 appendix A', () => {
    expect(applyMergePatch({ a: 'b' }, { a: 'c' })).toEqual({ a: 'c' });
    expect(applyMergePatch({ a: 'b' }, { b: 'c' })).toEqual({ a: 'b', b: 'c' });
    expect(applyMergePatch({ a: 'b' }, { a: null })).toEqual({});
    expect(applyMergePatch({ a: 'b', b: 'c' }, { a: null })).toEqual({ b: 'c' });
    expect(applyMergePatch({ a: ['b'] }, { a: 'c' })).toEqual({ a: 'c' });
    expect(applyMergePatch({ a: 'c' }, { a: ['b'] })).toEqual({ a: ['b'] });
    expect(applyMergePatch({ a: { b: 'c' } }, { a: { b: 'd', c: null } })).toEqual({ a: { b: 'd' } });
    expect(applyMergePatch({ a: [{ b: 'c' }] }, { a: [1] })).toEqual({ a: [1] });
    expect(applyMergePatch(['a', 'b'], ['c', 'd'])).toEqual(['c', 'd']);
    expect(applyMergePatch({ a: 'b' }, ['c'])).toEqual(['c']);
    expect(applyMergePatch({ a: 'foo' }, null)).toBeNull();
    expect(applyMergePatch({ a: 'foo' }, 'bar')).toBe('bar');
    expect(applyMergePatch({ e: null }, { a: 1 })).toEqual({ e: null, a: 1 });
    expect(applyMergePatch([1, 2], { a: 'b', c: null })).toEqual({ a: 'b' });
    expect(applyMergePatch({}, { a: { bb: { ccc: null } } })).toEqual({ a: { bb: {} } });
  });
});
