import { FakeClock, settle } from './support/fake-clock';
import { FakeKubeApi } from './support/fake-kube-api';
import { NULL_LOGGER } from '../../../src/controller/runtime/logger';
import { ObjectCache } from '../../../src/controller/runtime/object-cache';
import type { WatchedKind } from '../../../src/controller/runtime/watched-kinds';

const DEPLOYMENT: WatchedKind = { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' };
const DGD_ALPHA: WatchedKind = { apiVersion: 'nvidia.com/v1alpha1', kind: 'DynamoGraphDeployment', resource: 'dynamographdeployments' };
const DGD_BETA: WatchedKind = { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', resource: 'dynamographdeployments' };

function setup(namespace?: string) {
  const clock = new FakeClock();
  const api = new FakeKubeApi().serve(DEPLOYMENT, DGD_BETA);
  const events: string[] = [];
  const cache = new ObjectCache({ api, clock, logger: NULL_LOGGER, namespace, onEvent: (k, e) => events.push(`${k.apiVersion} ${e.type} ${e.object.metadata.name}`) });
  return { clock, api, cache, events };
}

const ref = (k: WatchedKind, name: string, namespace = 'ml') => ({ apiVersion: k.apiVersion, kind: k.kind, namespace, name });

describe('ObjectCache', () => {
  test('lookups are not ready before the kind is listed; then found or not found', async () => {
    const { api, cache } = setup();
    cache.add(DEPLOYMENT);
    api.put(DEPLOYMENT, { metadata: { name: 'a', namespace: 'ml' } });
    expect(cache.lookup(ref(DEPLOYMENT, 'a'))).toEqual({ ready: false });
    cache.start();
    await settle();
    expect(cache.lookup(ref(DEPLOYMENT, 'a'))).toEqual({ ready: true, object: expect.objectContaining({ kind: 'Deployment' }) });
    expect(cache.lookup(ref(DEPLOYMENT, 'b'))).toEqual({ ready: true, object: undefined });
    expect(cache.lookup(ref(DGD_ALPHA, 'a'))).toEqual({ ready: false });
  });

  test('one informer per apiVersion and kind: two served versions of a kind are two caches; an unserved one is empty but ready', async () => {
    const { api, cache, events } = setup();
    cache.add(DGD_ALPHA);
    cache.add(DGD_BETA);
    expect(cache.add(DGD_BETA)).toBe(cache.informer(DGD_BETA));
    cache.start();
    api.put(DGD_BETA, { metadata: { name: 'q', namespace: 'ml' } });
    await settle();
    expect(cache.hasSynced).toBe(true);
    expect(cache.lookup(ref(DGD_ALPHA, 'q'))).toEqual({ ready: true, object: undefined });
    expect(cache.lookup(ref(DGD_BETA, 'q')).object).toBeDefined();
    expect(events).toEqual(['nvidia.com/v1beta1 add q']);
  });

  test('keeps only the cachedFields of a kind that declares them; a kind that does not is cached whole', async () => {
    const { api, cache } = setup();
    cache.add({ ...DEPLOYMENT, cachedFields: ['metadata.name', 'metadata.namespace', 'metadata.resourceVersion', 'status.readyReplicas'] });
    cache.add(DGD_BETA);
    const template = { spec: { containers: [{ name: 'vllm', image: 'vllm/vllm-openai' }] } };
    api.put(DEPLOYMENT, { metadata: { name: 'a', namespace: 'ml', labels: { app: 'a' } }, spec: { replicas: 1, template }, status: { readyReplicas: 1, replicas: 1 } });
    api.put(DGD_BETA, { metadata: { name: 'q', namespace: 'ml', labels: { app: 'q' } }, spec: { services: { Frontend: { replicas: 1 } } } });
    cache.start();
    await settle();
    expect(cache.lookup(ref(DEPLOYMENT, 'a')).object).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'a', namespace: 'ml', resourceVersion: expect.any(String) },
      status: { readyReplicas: 1 },
    });
    expect(cache.lookup(ref(DGD_BETA, 'q')).object).toEqual(expect.objectContaining({
      metadata: expect.objectContaining({ labels: { app: 'q' } }),
      spec: { services: { Frontend: { replicas: 1 } } },
    }));
  });

  test('a kind added while running starts at once', async () => {
    const { api, cache } = setup();
    cache.start();
    cache.add(DEPLOYMENT);
    expect(cache.unsyncedKinds).toEqual(['apps/v1 Deployment']);
    await settle();
    expect(cache.unsyncedKinds).toEqual([]);
    expect(api.openWatches(DEPLOYMENT)).toBe(1);
    cache.stop();
    expect(api.openWatches()).toBe(0);
  });

  test('with a namespace, objects elsewhere are not visible (and not guessed: ready, absent)', async () => {
    const { api, cache } = setup('team-a');
    cache.add(DEPLOYMENT);
    api.put(DEPLOYMENT, { metadata: { name: 'a', namespace: 'team-b' } });
    cache.start();
    await settle();
    expect(cache.lookup(ref(DEPLOYMENT, 'a', 'team-b'))).toEqual({ ready: true });
    expect(api.callsOf('list')[0].options.namespace).toBe('team-a');
  });

  test('a cluster-scoped kind cached by object name: listed and watched across namespaces with a metadata.name field selector, transformed', async () => {
    const { api, cache, events } = setup('team-a');
    const CRD: WatchedKind = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', resource: 'customresourcedefinitions', clusterScoped: true };
    api.serve(CRD);
    const named = (objectName: string): WatchedKind => ({ ...CRD, objectName, transform: (o: any) => ({ ...o, spec: { group: o.spec.group } }) });
    cache.add(named('rayservices.ray.io'));
    cache.add(named('workspaces.kaito.sh'));
    expect(cache.add(named('rayservices.ray.io'))).toBe(cache.add(named('rayservices.ray.io')));
    api.put(CRD, { metadata: { name: 'rayservices.ray.io' }, spec: { group: 'ray.io', versions: [{ name: 'v1' }] } });
    api.put(CRD, { metadata: { name: 'other.example.com' }, spec: { group: 'example.com' } });
    cache.start();
    await settle();
    const lists = api.callsOf('list', CRD).map((c) => c.options);
    expect(lists.map((o) => [o.namespace, o.fieldSelector])).toEqual([[undefined, 'metadata.name=rayservices.ray.io'], [undefined, 'metadata.name=workspaces.kaito.sh']]);
    expect(api.callsOf('watch', CRD).map((c) => c.options.fieldSelector)).toEqual(['metadata.name=rayservices.ray.io', 'metadata.name=workspaces.kaito.sh']);
    const crdRef = (name: string) => ({ apiVersion: CRD.apiVersion, kind: CRD.kind, namespace: '', name });
    expect(cache.lookup(crdRef('rayservices.ray.io'))).toEqual({ ready: true, object: { apiVersion: CRD.apiVersion, kind: CRD.kind, metadata: expect.objectContaining({ name: 'rayservices.ray.io' }), spec: { group: 'ray.io' } } });
    // Installed later: its watch delivers it; a CRD of another name is never cached.
    api.put(CRD, { metadata: { name: 'workspaces.kaito.sh' }, spec: { group: 'kaito.sh' } });
    await settle();
    expect(cache.lookup(crdRef('workspaces.kaito.sh')).object?.spec).toEqual({ group: 'kaito.sh' });
    expect(cache.lookup(crdRef('other.example.com'))).toEqual({ ready: false });
    expect(events.filter((e) => e.includes('other.example.com'))).toEqual([]);
  });
});
