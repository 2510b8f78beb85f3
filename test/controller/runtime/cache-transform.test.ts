import { parseFieldPaths, pruneToFields, StringPool } from '../../../src/controller/runtime/cache-transform';

const prune = (obj: any, fields: string[]) => pruneToFields(obj, parseFieldPaths(fields));

describe('pruneToFields', () => {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'qwen', namespace: 'ml', uid: 'u1', labels: { app: 'qwen' } },
    spec: { replicas: 2, template: { spec: { containers: [{ name: 'vllm', image: 'vllm/vllm-openai' }] } } },
    status: {
      readyReplicas: 1,
      conditions: [
        { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'ok', lastUpdateTime: '2026-03-01T10:00:00Z' },
        'not an object',
      ],
    },
  };

  test('keeps apiVersion, kind and the named fields only; the input is not modified', () => {
    const before = structuredClone(deployment);
    const out = prune(deployment, ['metadata.name', 'spec.replicas', 'status.readyReplicas', 'status.conditions.*.type', 'status.conditions.*.status']);
    expect(out).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'qwen' },
      spec: { replicas: 2 },
      // A list stays a list of the same length; an element that is not an object is kept as it is.
      status: { readyReplicas: 1, conditions: [{ type: 'Available', status: 'True' }, 'not an object'] },
    });
    expect(deployment).toEqual(before);
  });

  test('a path ending at an object keeps it whole (the same value), also when a longer path names part of it', () => {
    for (const fields of [['status', 'status.readyReplicas'], ['status.readyReplicas', 'status']]) {
      const out = prune(deployment, fields);
      expect(out.status).toBe(deployment.status);
    }
    const lists = prune(deployment, ['status.conditions', 'status.conditions.*.type']);
    expect(lists.status.conditions).toBe(deployment.status.conditions);
  });

  test('`*` over a map keeps every key, each value pruned; absent fields stay absent, objects on the way stay objects', () => {
    const dgd = { spec: { services: { Frontend: { replicas: 1, extraPodSpec: { big: true } }, Worker: { envs: [] } } } };
    expect(prune(dgd, ['spec.services.*.replicas', 'spec.components.*.replicas'])).toEqual({ spec: { services: { Frontend: { replicas: 1 }, Worker: {} } } });
    expect(prune({ kind: 'X' }, ['spec.replicas'])).toEqual({ kind: 'X' });
    expect(prune({ spec: {} }, ['spec.replicas'])).toEqual({ spec: {} });
  });

  test('a value of an unexpected shape along a path is kept as it is, so a mapping checking the shape sees it', () => {
    expect(prune({ spec: 'oops', status: { conditions: { not: 'a list' } } }, ['spec.replicas', 'status.conditions.*.type']))
      .toEqual({ spec: 'oops', status: { conditions: { not: 'a list' } } });
    expect(prune({ status: { conditions: 'broken' } }, ['status.conditions.*.type'])).toEqual({ status: { conditions: 'broken' } });
    expect(prune({ spec: { rules: [{ matches: [1] }] } }, ['spec.rules.replicas'])).toEqual({ spec: { rules: [{ matches: [1] }] } });
    expect(prune(null, ['spec'])).toBeNull();
  });
});

describe('StringPool', () => {
  test('replaces string values in place, in objects and lists, with equal values', () => {
    const pool = new StringPool();
    const obj = { a: 'True', b: ['True', { c: 'Ready' }], n: 1, z: null };
    const before = structuredClone(obj);
    expect(pool.internValues(obj)).toBe(obj);
    expect(obj).toEqual(before);
    expect(pool.size).toBe(2);
  });

  test('skips long strings and starts over when full, so values seen once cannot grow it without bound', () => {
    const pool = new StringPool();
    expect(pool.intern('x'.repeat(200))).toBe('x'.repeat(200));
    expect(pool.size).toBe(0);
    let equal = 0;
    for (let i = 0; i < 10_000; i++) if (pool.intern(`uid-${i}`) === `uid-${i}`) equal++;
    expect(equal).toBe(10_000);
    expect(pool.size).toBeLessThanOrEqual(4096);
    expect(pool.size).toBeGreaterThan(0);
  });
});
