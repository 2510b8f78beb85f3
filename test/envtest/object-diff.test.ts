import { fieldDifferences, formatDifferences, quantityValue } from './object-diff';

describe('fieldDifferences', () => {
  test('fields the server adds are not differences', () => {
    const sent = { kind: 'Service', spec: { ports: [{ port: 80 }] } };
    const returned = { kind: 'Service', metadata: { uid: 'u' }, spec: { clusterIP: '10.0.0.7', ports: [{ port: 80, protocol: 'TCP' }], type: 'ClusterIP' } };
    expect(fieldDifferences(sent, returned)).toEqual([]);
  });

  test('a field sent and missing from the reply is pruned, one that comes back different is changed', () => {
    const sent = { spec: { 'a': 1, 'b': { c: 'x' }, 'list': [1, 2, 3], 'odd.key': true } };
    const returned = { spec: { a: 2, b: {}, list: [1, 2] } };
    expect(formatDifferences(fieldDifferences(sent, returned))).toEqual([
      'changed spec.a: sent 1, got 2',
      'pruned spec.b.c (sent "x")',
      'pruned spec.list[2] (sent 3)',
      'pruned spec["odd.key"] (sent true)',
    ]);
  });

  test('a type change is a change; empty values are not special', () => {
    expect(formatDifferences(fieldDifferences({ a: { b: 1 }, c: [], d: {} }, { a: 'b', c: null }))).toEqual([
      'changed a: sent {"b":1}, got "b"',
      'changed c: sent [], got null',
      'pruned d (sent {})',
    ]);
  });

  test('server-owned fields are ignored even when sent', () => {
    const sent = { metadata: { name: 'n', creationTimestamp: null, resourceVersion: '1', labels: { 'app.kubernetes.io/name': 'x' } }, status: { phase: 'Running' } };
    const returned = { metadata: { name: 'n', creationTimestamp: '2026-01-01T00:00:00Z', resourceVersion: '42' } };
    expect(formatDifferences(fieldDifferences(sent, returned))).toEqual(['pruned metadata.labels (sent {"app.kubernetes.io/name":"x"})']);
  });

  test('a quantity respelled with the same value is normalized, with another value changed', () => {
    const limits = (v: unknown): unknown => ({ resources: { limits: { 'nvidia.com/gpu': v } } });
    expect(fieldDifferences(limits(1), limits('1'))).toEqual([{ path: 'resources.limits["nvidia.com/gpu"]', kind: 'normalized', sent: 1, returned: '1' }]);
    expect(fieldDifferences(limits('0.5'), limits('500m'))[0].kind).toBe('normalized');
    expect(fieldDifferences(limits('1024Mi'), limits('1Gi'))[0].kind).toBe('normalized');
    expect(fieldDifferences(limits('2'), limits('1'))[0].kind).toBe('changed');
    // A number that comes back as a number is unchanged, not normalized; a string that is not a quantity is changed.
    expect(fieldDifferences(limits(1), limits(1))).toEqual([]);
    expect(fieldDifferences({ s: 'abc' }, { s: 'abd' })[0].kind).toBe('changed');
  });
});

test('quantityValue reads Kubernetes quantities', () => {
  expect(quantityValue('1Gi')).toBe(1024 ** 3);
  expect(quantityValue('500m')).toBe(0.5);
  expect(quantityValue('1e3')).toBe(1000);
  expect(quantityValue('2k')).toBe(2000);
  expect(quantityValue(3)).toBe(3);
  expect(quantityValue('1 Gi')).toBeUndefined();
  expect(quantityValue('Gi')).toBeUndefined();
});
