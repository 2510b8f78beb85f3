import { FakeKubeApi } from './support/fake-kube-api';
import { KubeApiError, ResourceKind } from '../../../src/controller/runtime/kube-api';
import { jsonLogger } from '../../../src/controller/runtime/logger';
import { OwnerReferenceSetter } from '../../../src/controller/runtime/owner-reference-setter';

const DEPLOYMENT: ResourceKind = { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' };
const SERVICE: ResourceKind = { apiVersion: 'v1', kind: 'Service', resource: 'services' };
const KNOWN = [DEPLOYMENT, SERVICE];

function record(objects: any[], uid = 'uid-1') {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'qwen', namespace: 'ml', uid, annotations: { 'inference.cdk8s.io/rendered-objects': JSON.stringify(objects) } },
  };
}

const LISTED = [
  { apiVersion: 'apps/v1', kind: 'Deployment', name: 'qwen' },
  { apiVersion: 'v1', kind: 'Service', name: 'qwen' },
];

function setup() {
  const api = new FakeKubeApi().serve(DEPLOYMENT, SERVICE);
  const logs: any[] = [];
  const setter = new OwnerReferenceSetter({
    api,
    logger: jsonLogger({ level: 'debug', write: (l) => logs.push(JSON.parse(l)) }),
    resolveKind: (apiVersion, kind) => KNOWN.find((k) => k.apiVersion === apiVersion && k.kind === kind),
  });
  const owners = (kind: ResourceKind, name = 'qwen') => api.object(kind, 'ml', name)?.metadata?.ownerReferences;
  return { api, setter, logs, owners };
}

const OWNER = { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'qwen', uid: 'uid-1' };

describe('OwnerReferenceSetter', () => {
  test('gives every listed object the reference, then costs nothing for that record', async () => {
    const s = setup();
    s.api.put(DEPLOYMENT, { metadata: { name: 'qwen', namespace: 'ml' }, spec: { replicas: 1 } });
    s.api.put(SERVICE, { metadata: { name: 'qwen', namespace: 'ml', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u-c' }] } });
    await expect(s.setter.ensure(record(LISTED))).resolves.toEqual({ result: 'done' });
    expect(s.owners(DEPLOYMENT)).toEqual([OWNER]);
    expect(s.owners(SERVICE)).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u-c' }, OWNER]);
    expect(s.api.object(DEPLOYMENT, 'ml', 'qwen').spec).toEqual({ replicas: 1 });
    const calls = s.api.calls.length;
    await expect(s.setter.ensure(record(LISTED))).resolves.toEqual({ result: 'done' });
    expect(s.api.calls.length).toBe(calls);
  });

  test('objects that already name the record are read, not patched', async () => {
    const s = setup();
    s.api.put(DEPLOYMENT, { metadata: { name: 'qwen', namespace: 'ml', ownerReferences: [OWNER] } });
    await s.setter.ensure(record(LISTED.slice(0, 1)));
    expect(s.api.callsOf('patch')).toHaveLength(0);
  });

  test('an object not created yet leaves the record pending until it exists', async () => {
    const s = setup();
    s.api.put(DEPLOYMENT, { metadata: { name: 'qwen', namespace: 'ml' } });
    await expect(s.setter.ensure(record(LISTED))).resolves.toEqual({ result: 'pending', reason: 'waiting for Service qwen to exist' });
    expect(s.owners(DEPLOYMENT)).toEqual([OWNER]);
    s.api.put(SERVICE, { metadata: { name: 'qwen', namespace: 'ml' } });
    await expect(s.setter.ensure(record(LISTED))).resolves.toEqual({ result: 'done' });
    expect(s.owners(SERVICE)).toEqual([OWNER]);
  });

  test('a record created again (new uid) is checked again and replaces the stale reference', async () => {
    const s = setup();
    s.api.put(DEPLOYMENT, { metadata: { name: 'qwen', namespace: 'ml' } });
    await s.setter.ensure(record(LISTED.slice(0, 1)));
    await s.setter.ensure(record(LISTED.slice(0, 1), 'uid-2'));
    expect(s.owners(DEPLOYMENT)).toEqual([{ ...OWNER, uid: 'uid-2' }]);
  });

  test('409 Conflict: reads the object again and patches its new version', async () => {
    const s = setup();
    s.api.put(DEPLOYMENT, { metadata: { name: 'qwen', namespace: 'ml' } });
    s.api.fail('patch', () => new KubeApiError(409, 'the object has been modified', 'Conflict'));
    await expect(s.setter.ensure(record(LISTED.slice(0, 1)))).resolves.toEqual({ result: 'done' });
    expect(s.api.callsOf('get')).toHaveLength(2);
    expect(s.owners(DEPLOYMENT)).toEqual([OWNER]);
  });

  test('other API errors reject (the reconcile is retried with backoff)', async () => {
    const s = setup();
    s.api.put(DEPLOYMENT, { metadata: { name: 'qwen', namespace: 'ml' } });
    s.api.fail('patch', () => new KubeApiError(403, 'forbidden', 'Forbidden'));
    await expect(s.setter.ensure(record(LISTED.slice(0, 1)))).rejects.toThrow(/forbidden/);
  });

  test('unknown kinds and other namespaces are skipped and logged once; the rest is set', async () => {
    const s = setup();
    s.api.put(DEPLOYMENT, { metadata: { name: 'qwen', namespace: 'ml' } });
    const listed = [
      ...LISTED.slice(0, 1),
      { apiVersion: 'example.com/v1', kind: 'Widget', name: 'qwen' },
      { apiVersion: 'v1', kind: 'Service', name: 'qwen', namespace: 'elsewhere' },
    ];
    for (let i = 0; i < 2; i++) await expect(s.setter.ensure(record(listed))).resolves.toEqual({ result: 'done' });
    expect(s.owners(DEPLOYMENT)).toEqual([OWNER]);
    expect(s.logs.map((l) => l.msg).filter((m) => /keep no ownerReference/.test(m))).toHaveLength(2);
    expect(s.api.calls.filter((c) => c.namespace === 'elsewhere' || /example\.com/.test(c.kind))).toEqual([]);
  });

  test('a record without a uid is pending; an unreadable list is logged and sets nothing', async () => {
    const s = setup();
    const noUid: any = record(LISTED);
    delete noUid.metadata.uid;
    await expect(s.setter.ensure(noUid)).resolves.toEqual({ result: 'pending', reason: 'the record has no uid yet' });
    const bad: any = record([]);
    bad.metadata.annotations['inference.cdk8s.io/rendered-objects'] = '{oops';
    await expect(s.setter.ensure(bad)).resolves.toEqual({ result: 'done' });
    expect(s.logs.some((l) => /cannot read the objects/.test(l.msg) && /not JSON/.test(l.error))).toBe(true);
    expect(s.api.calls).toEqual([]);
  });
});
