import { FakeClock, settle } from './support/fake-clock';
import { FakeKubeApi } from './support/fake-kube-api';
import { stubComputeStatus, stubIsRendered } from './support/stub-status';
import { ControllerMetrics } from '../../../src/controller/runtime/controller-metrics';
import { EVENT_KIND, EventRecorder } from '../../../src/controller/runtime/event-recorder';
import { KubeApiError, MODEL_DEPLOYMENT_KIND } from '../../../src/controller/runtime/kube-api';
import { jsonLogger } from '../../../src/controller/runtime/logger';
import { MetricsRegistry } from '../../../src/controller/runtime/metrics';
import { OwnerReferenceSetter } from '../../../src/controller/runtime/owner-reference-setter';
import type { ComputeStatus } from '../../../src/controller/runtime/record-reconciler';
import { StatusController, StatusControllerOptions } from '../../../src/controller/runtime/status-controller';
import { ROUTING_KINDS, WatchedKind } from '../../../src/controller/runtime/watched-kinds';

const DEPLOYMENT: WatchedKind = { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments', labelSelector: 'airunway.ai/managed-by=airunway' };
const RAY: WatchedKind = { apiVersion: 'ray.io/v1', kind: 'RayService', resource: 'rayservices', labelSelector: 'airunway.ai/managed-by=airunway' };
const GATEWAY = ROUTING_KINDS.find((k) => k.kind === 'Gateway')!;
const MANAGED = { 'airunway.ai/managed-by': 'airunway' };

function record(name: string, spec: any = {}, extra: any = {}, namespace = 'ml') {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name, namespace, labels: { 'inference.cdk8s.io/rendered-by': 'cdk8s-inference' } },
    spec,
    ...extra,
  };
}

function upstream(name: string, readyReplicas?: number, namespace = 'ml') {
  return { metadata: { name, namespace, labels: MANAGED }, spec: {}, ...(readyReplicas !== undefined && { status: { readyReplicas } }) };
}

type Overrides = Partial<StatusControllerOptions> | ((api: FakeKubeApi, clock: FakeClock) => Partial<StatusControllerOptions>);

function setup(overridesOf: Overrides = {}, kinds: readonly WatchedKind[] = [DEPLOYMENT, GATEWAY]) {
  const clock = new FakeClock();
  const api = new FakeKubeApi().serve(MODEL_DEPLOYMENT_KIND, DEPLOYMENT, GATEWAY);
  const overrides = typeof overridesOf === 'function' ? overridesOf(api, clock) : overridesOf;
  const registry = new MetricsRegistry();
  const metrics = new ControllerMetrics(registry, 'modeldeployment-status');
  const logs: any[] = [];
  let leader = true;
  const computed: string[] = [];
  const compute: ComputeStatus = (r, lookup, now) => {
    computed.push(`${r.metadata.name}@${r.metadata.resourceVersion}`);
    return stubComputeStatus(r, lookup, now);
  };
  const controller = new StatusController({
    name: 'modeldeployment-status',
    api,
    clock,
    logger: jsonLogger({ level: 'debug', write: (l) => logs.push(JSON.parse(l)) }),
    metrics,
    computeStatus: compute,
    isRendered: stubIsRendered,
    dependencyKinds: kinds,
    canWrite: () => leader,
    random: () => 0,
    informerTuning: { random: () => 0, watchTimeoutSeconds: () => 300 },
    ...overrides,
  });
  const patches = () => api.callsOf('patchStatus');
  const statusOf = (name: string, ns = 'ml') => api.object(MODEL_DEPLOYMENT_KIND, ns, name)?.status;
  return { clock, api, controller, metrics, registry, logs, patches, statusOf, computed, setLeader: (l: boolean) => (leader = l) };
}

async function started(s: ReturnType<typeof setup>) {
  s.controller.startCaches();
  await s.controller.startWorkers();
  await settle();
}

describe('StatusController', () => {
  test('reconciles every record once the caches synced, writing status only where it changed', async () => {
    const s = setup();
    s.api.put(DEPLOYMENT, upstream('a', 1));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('b'));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('c', {}, { status: { phase: 'Pending' } }));
    await started(s);
    expect(s.statusOf('a')).toEqual({ phase: 'Running', replicas: { ready: 1 } });
    expect(s.statusOf('b')).toEqual({ phase: 'Pending' });
    expect(s.patches().map((p) => p.name).sort()).toEqual(['a', 'b']);
    // The merge patch carries the record's resourceVersion: a status from a stale record is refused.
    expect(s.patches()[0].body.metadata.resourceVersion).toEqual(expect.any(String));
    expect(s.metrics.statusPatches.get({ controller: 'modeldeployment-status' })).toBe(2);
  });

  test('a resync of unchanged records writes nothing', async () => {
    const s = setup({ syncPeriodMs: 60_000 });
    s.api.put(DEPLOYMENT, upstream('a', 1));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('b'));
    await started(s);
    const written = s.patches().length;
    const computedBefore = s.computed.length;
    await s.clock.advance(60_000);
    await s.clock.advance(60_000);
    expect(s.computed.length).toBe(computedBefore + 4);
    expect(s.patches().length).toBe(written);
    // ... and a broken watch (relist + resync) writes nothing either.
    s.api.closeWatches(new Error('connection reset'));
    await s.clock.advance(2_000);
    expect(s.computed.length).toBeGreaterThan(computedBefore + 4);
    expect(s.patches().length).toBe(written);
  });

  test('a status that changes back while the records\' cache lags compares with what was written, not the stale cache', async () => {
    const s = setup();
    s.api.put(DEPLOYMENT, upstream('a', 1));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    await started(s);
    expect(s.statusOf('a')).toEqual({ phase: 'Running', replicas: { ready: 1 } });
    // The records' watch breaks and backs off: the cache keeps the Running record.
    s.api.closeWatches(new Error('connection reset'), MODEL_DEPLOYMENT_KIND);
    await settle();
    s.api.put(DEPLOYMENT, upstream('a', 0));
    await settle();
    expect(s.statusOf('a')).toEqual({ phase: 'Deploying', replicas: { ready: 0 } });
    // Back to ready: the stale cache says Running already, but the last write said Deploying.
    s.api.put(DEPLOYMENT, upstream('a', 1));
    await settle();
    expect(s.statusOf('a')).toEqual({ phase: 'Running', replicas: { ready: 1 } });
    expect(s.patches().map((p) => p.body.status.phase)).toEqual(['Running', 'Deploying', 'Running']);
  });

  test('an event on a watched object queues exactly the records that read it', async () => {
    const s = setup();
    s.api.put(DEPLOYMENT, upstream('a', 0));
    s.api.put(DEPLOYMENT, upstream('b', 0));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('b'));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('shares-a', { statusFrom: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ml', name: 'a' } }));
    await started(s);
    expect(s.controller.index.recordsWatching('apps/v1 Deployment ml/a').sort()).toEqual(['ml/a', 'ml/shares-a']);
    s.computed.length = 0;
    const written = s.patches().length;
    s.api.put(DEPLOYMENT, upstream('a', 1));
    await settle();
    // Once each: the watch events of their own status writes are not reconciled again.
    expect(s.computed.map((c) => c.split('@')[0]).sort()).toEqual(['a', 'shares-a']);
    expect(s.patches().slice(written).map((p) => p.name).sort()).toEqual(['a', 'shares-a']);
    expect(s.statusOf('a').phase).toBe('Running');
    expect(s.statusOf('shares-a').phase).toBe('Running');
    expect(s.statusOf('b').phase).toBe('Deploying');
    // A deleted object too.
    s.computed.length = 0;
    s.api.remove(DEPLOYMENT, 'ml', 'b');
    await settle();
    expect([...new Set(s.computed.map((c) => c.split('@')[0]))]).toEqual(['b']);
    expect(s.statusOf('b').phase).toBe('Pending');
  });

  test('the watch echo of its own status patch is not reconciled; any other change of the record is', async () => {
    const s = setup();
    s.api.put(DEPLOYMENT, upstream('a', 1));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    await started(s);
    // One reconcile wrote Running; the record's event carrying that write queued nothing.
    expect(s.computed).toEqual(['a@102']);
    expect(s.statusOf('a').phase).toBe('Running');
    // Someone else writes the status (the same resourceVersion trick cannot hide it): reconciled and put back.
    const stored = s.api.object(MODEL_DEPLOYMENT_KIND, 'ml', 'a');
    s.api.put(MODEL_DEPLOYMENT_KIND, { ...stored, status: { phase: 'Failed' } });
    await settle();
    expect(s.computed).toHaveLength(2);
    expect(s.statusOf('a').phase).toBe('Running');
    // An edit of the record after our write: reconciled.
    s.api.put(MODEL_DEPLOYMENT_KIND, { ...s.api.object(MODEL_DEPLOYMENT_KIND, 'ml', 'a'), metadata: { ...s.api.object(MODEL_DEPLOYMENT_KIND, 'ml', 'a').metadata, annotations: { note: 'x' } } });
    await settle();
    expect(s.computed).toHaveLength(3);
    expect(s.patches()).toHaveLength(2);
  });

  test('a change of the record while its status patch is in flight is reconciled once the patch answered', async () => {
    const s = setup();
    s.api.put(DEPLOYMENT, upstream('a', 1));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    // The record is edited after the API server applied the status patch and before its answer
    // arrives: the edit's event comes while the patch is in flight, with the echo's.
    const patchStatus = s.api.patchStatus.bind(s.api);
    let edited: string | undefined;
    s.api.patchStatus = async (...args) => {
      const answer = await patchStatus(...args);
      if (edited === undefined) {
        const stored = s.api.object(MODEL_DEPLOYMENT_KIND, 'ml', 'a');
        edited = s.api.put(MODEL_DEPLOYMENT_KIND, { ...stored, metadata: { ...stored.metadata, annotations: { note: 'edited' } } }).metadata.resourceVersion;
      }
      return answer;
    };
    await started(s);
    expect(s.computed).toEqual(['a@102', `a@${edited}`]);
    expect(s.patches()).toHaveLength(1);
  });

  test('an object created after the record (a Gateway, not ours, in another namespace) updates it', async () => {
    const s = setup();
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a', { gateway: { namespace: 'gateway-system', name: 'inference' } }));
    await started(s);
    expect(s.statusOf('a').gateway).toBe('missing');
    s.api.put(GATEWAY, { metadata: { name: 'inference', namespace: 'gateway-system' }, spec: {} });
    await settle();
    expect(s.statusOf('a').gateway).toBe('attached');
  });

  test('a record that is not ours, or deleted, is forgotten', async () => {
    const s = setup();
    s.api.put(MODEL_DEPLOYMENT_KIND, { ...record('theirs'), metadata: { name: 'theirs', namespace: 'ml' } });
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    await started(s);
    expect(s.patches().map((p) => p.name)).toEqual(['a']);
    expect(s.controller.index.watchedBy('ml/a')).toEqual(['apps/v1 Deployment ml/a']);
    s.api.remove(MODEL_DEPLOYMENT_KIND, 'ml', 'a');
    await settle();
    expect(s.controller.index.watchedBy('ml/a')).toEqual([]);
    expect(s.controller.index.objectCount).toBe(0);
  });

  test('409 Conflict: reads the record again and recomputes from it', async () => {
    const s = setup();
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    s.api.fail('patchStatus', () => new KubeApiError(409, 'the object has been modified', 'Conflict'));
    await started(s);
    expect(s.api.callsOf('get', MODEL_DEPLOYMENT_KIND)).toHaveLength(1);
    expect(s.patches()).toHaveLength(2);
    expect(s.statusOf('a')).toEqual({ phase: 'Pending' });
    expect(s.metrics.reconcileTotal.get({ controller: 'modeldeployment-status', result: 'error' })).toBe(0);
  });

  test('a record changed between the cache read and the patch is recomputed from its new version', async () => {
    const s = setup();
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    s.controller.startCaches();
    await settle();
    // The record changes on the server; the patch computed from the cached version is refused.
    let changed = false;
    s.api.gate = (call) => {
      if (call.op === 'patchStatus' && !changed) {
        changed = true;
        s.api.put(MODEL_DEPLOYMENT_KIND, record('a', { statusFrom: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ml', name: 'other' } }));
      }
      return undefined;
    };
    s.api.put(DEPLOYMENT, upstream('other', 1));
    await s.controller.startWorkers();
    await settle();
    expect(s.api.callsOf('get', MODEL_DEPLOYMENT_KIND)).toHaveLength(1);
    expect(s.statusOf('a').phase).toBe('Running');
    expect(s.controller.index.watchedBy('ml/a')).toEqual(['apps/v1 Deployment ml/other']);
  });

  test('404 on the patch drops the record', async () => {
    const s = setup();
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    s.api.fail('patchStatus', () => new KubeApiError(404, 'not found', 'NotFound'));
    await started(s);
    expect(s.patches()).toHaveLength(1);
    expect(s.controller.index.watchedBy('ml/a')).toEqual([]);
    expect(s.metrics.reconcileErrors.get({ controller: 'modeldeployment-status' })).toBe(0);
    await s.clock.advance(60_000);
    expect(s.patches()).toHaveLength(1);
  });

  test('a failed patch is retried with exponential backoff, logged as JSON, and counted', async () => {
    const s = setup();
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    s.api.fail('patchStatus', () => new KubeApiError(500, 'etcdserver: leader changed'), 3);
    await started(s);
    expect(s.patches()).toHaveLength(1);
    await s.clock.advance(5);
    expect(s.patches()).toHaveLength(2);
    await s.clock.advance(9);
    expect(s.patches()).toHaveLength(2);
    await s.clock.advance(1);
    expect(s.patches()).toHaveLength(3);
    await s.clock.advance(20);
    expect(s.patches()).toHaveLength(4);
    expect(s.statusOf('a')).toEqual({ phase: 'Pending' });
    const c = { controller: 'modeldeployment-status' };
    expect(s.metrics.reconcileTotal.get({ ...c, result: 'error' })).toBe(3);
    expect(s.metrics.reconcileTotal.get({ ...c, result: 'success' })).toBeGreaterThanOrEqual(1);
    expect(s.metrics.workqueueRetries.get({ name: 'modeldeployment-status', controller: 'modeldeployment-status' })).toBe(3);
    expect(s.logs.filter((l) => l.msg === 'Reconciler error')[0]).toEqual({
      ts: expect.any(String),
      level: 'error',
      msg: 'Reconciler error',
      controller: 'modeldeployment-status',
      namespace: 'ml',
      name: 'a',
      error: 'etcdserver: leader changed',
    });
    // Success forgets the failures: the next error starts again at 5 ms.
    expect(s.controller.queue.numRequeues('ml/a')).toBe(0);
  });

  test('never runs two reconciles of one record at once, with several workers', async () => {
    const s = setup({ maxConcurrentReconciles: 4 });
    for (const n of ['a', 'b', 'c']) s.api.put(MODEL_DEPLOYMENT_KIND, record(n));
    const inFlight = new Map<string, number>();
    let overlaps = 0;
    let maxParallel = 0;
    const release: Array<() => void> = [];
    s.api.gate = (call) => {
      if (call.op !== 'patchStatus') return undefined;
      const n = (inFlight.get(call.name!) ?? 0) + 1;
      if (n > 1) overlaps++;
      inFlight.set(call.name!, n);
      maxParallel = Math.max(maxParallel, [...inFlight.values()].reduce((x, y) => x + y, 0));
      return new Promise<void>((resolve) =>
        release.push(() => {
          inFlight.set(call.name!, inFlight.get(call.name!)! - 1);
          resolve();
        }),
      );
    };
    await started(s);
    expect(release).toHaveLength(3);
    // Events for a record whose reconcile is in flight: it is queued once more, not run in parallel.
    for (let i = 0; i < 5; i++) s.api.put(DEPLOYMENT, upstream('a', i));
    await settle();
    expect(s.metrics.activeWorkers.get({ controller: 'modeldeployment-status' })).toBe(3);
    while (release.length) {
      release.shift()!();
      await settle();
    }
    expect(overlaps).toBe(0);
    expect(maxParallel).toBe(3);
    expect(s.statusOf('a').phase).toBe('Running');
  });

  test('a status that reads a kind not cached yet starts caching it and writes once it is listed', async () => {
    const s = setup({ resolveKind: (apiVersion, kind) => (kind === 'RayService' ? { ...RAY, apiVersion } : undefined) });
    s.api.serve(RAY);
    s.api.put(RAY, { ...upstream('r', 1), apiVersion: 'ray.io/v1', kind: 'RayService' });
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a', { statusFrom: { apiVersion: 'ray.io/v1', kind: 'RayService', namespace: 'ml', name: 'r' } }));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('b', { statusFrom: { apiVersion: 'example.com/v1', kind: 'Unknown', namespace: 'ml', name: 'x' } }));
    await started(s);
    await s.clock.advance(100);
    expect(s.controller.cache.kinds.map((k) => k.kind)).toContain('RayService');
    expect(s.statusOf('a')).toEqual({ phase: 'Running', replicas: { ready: 1 } });
    expect(s.metrics.reconcileTotal.get({ controller: 'modeldeployment-status', result: 'requeue' })).toBeGreaterThan(0);
    // A kind nobody emits is logged once and never written from a guess.
    expect(s.statusOf('b')).toBeUndefined();
    expect(s.logs.filter((l) => /does not know how to watch/.test(l.msg))).toHaveLength(1);
  });

  test('a kind whose CRD is missing does not hold the controller back; its objects count as missing', async () => {
    const s = setup({}, [DEPLOYMENT, RAY]);
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a', { statusFrom: { apiVersion: 'ray.io/v1', kind: 'RayService', namespace: 'ml', name: 'a' } }));
    await started(s);
    expect(s.controller.cache.informer(RAY)!.state).toBe('absent');
    expect(s.statusOf('a')).toEqual({ phase: 'Pending' });
    // The CRD is installed and the object appears: picked up at the next retry.
    s.api.serve(RAY);
    s.api.put(RAY, upstream('a', 1));
    await s.clock.advance(60_000);
    expect(s.statusOf('a').phase).toBe('Running');
  });

  test('a process that may not write (not the leader) computes but never patches', async () => {
    const s = setup();
    s.setLeader(false);
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    await started(s);
    expect(s.computed).toHaveLength(1);
    expect(s.patches()).toHaveLength(0);
  });

  test('the leader records an Event for each phase change it writes, none for other changes', async () => {
    let events!: EventRecorder;
    const s = setup((api, clock) => ({
      events: (events = new EventRecorder({ api, clock, logger: jsonLogger({ level: 'error', write: () => undefined }), component: 'test', instance: 'me' })),
    }));
    s.api.serve(EVENT_KIND);
    s.api.put(DEPLOYMENT, upstream('a', 0));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    await started(s);
    s.api.put(DEPLOYMENT, upstream('a', 1));
    await settle();
    s.api.put(DEPLOYMENT, upstream('a', 2)); // Running still: the status changes, the phase does not
    await settle();
    expect(s.statusOf('a')).toEqual({ phase: 'Running', replicas: { ready: 2 } });
    await events.flush();
    const stored = (await s.api.list(EVENT_KIND, {})).items;
    expect(stored.map((e: any) => [e.type, e.reason, e.involvedObject.name])).toEqual([['Normal', 'Deploying', 'a'], ['Normal', 'Running', 'a']]);
  });

  test('with ownerReferences on, the leader sets them once the objects exist, requeueing meanwhile; standbys never', async () => {
    const SERVICE = { apiVersion: 'v1', kind: 'Service', resource: 'services' };
    const withOwnerReferences = (api: FakeKubeApi) => ({
      ownerReferences: new OwnerReferenceSetter({
        api,
        logger: jsonLogger({ level: 'error', write: () => undefined }),
        resolveKind: (apiVersion: string, kind: string) => [DEPLOYMENT, SERVICE].find((k) => k.apiVersion === apiVersion && k.kind === kind),
      }),
    });
    const listed = JSON.stringify([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'a' }, { apiVersion: 'v1', kind: 'Service', name: 'a' }]);
    const md: any = record('a');
    md.metadata.uid = 'uid-a';
    md.metadata.annotations = { 'inference.cdk8s.io/rendered-objects': listed };
    const owner = { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'a', uid: 'uid-a' };

    const s = setup(withOwnerReferences);
    s.api.serve(SERVICE);
    s.api.put(DEPLOYMENT, upstream('a', 1));
    s.api.put(MODEL_DEPLOYMENT_KIND, md);
    await started(s);
    expect(s.api.object(DEPLOYMENT, 'ml', 'a').metadata.ownerReferences).toEqual([owner]);
    expect(s.api.object(SERVICE, 'ml', 'a')).toBeUndefined();
    s.api.put(SERVICE, { metadata: { name: 'a', namespace: 'ml' } });
    await s.clock.advance(1_000); // the rate limiter's backoff
    expect(s.api.object(SERVICE, 'ml', 'a').metadata.ownerReferences).toEqual([owner]);

    const standby = setup(withOwnerReferences);
    standby.setLeader(false);
    standby.api.put(DEPLOYMENT, upstream('a', 1));
    standby.api.put(MODEL_DEPLOYMENT_KIND, md);
    await started(standby);
    expect(standby.api.callsOf('patch')).toHaveLength(0);
  });

  test('watches one namespace when told to', async () => {
    const s = setup({ namespace: 'team-a' });
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a', {}, {}, 'team-a'));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('b', {}, {}, 'team-b'));
    await started(s);
    expect(s.patches().map((p) => `${p.namespace}/${p.name}`)).toEqual(['team-a/a']);
    expect(s.api.callsOf('list').every((c) => c.options.namespace === 'team-a')).toBe(true);
    expect(s.api.callsOf('watch').every((c) => c.options.namespace === 'team-a')).toBe(true);
  });

  test('stop: informers first, then no new work; waits for the running reconcile within the grace period', async () => {
    const s = setup({ maxConcurrentReconciles: 2 });
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    s.api.put(MODEL_DEPLOYMENT_KIND, record('b'));
    let release!: () => void;
    s.api.gate = (call) => (call.op === 'patchStatus' && call.name === 'a' ? new Promise<void>((r) => (release = r)) : undefined);
    await started(s);
    expect(s.statusOf('b')).toBeDefined();
    let stopped: boolean | undefined;
    void s.controller.stop(30_000).then((f) => (stopped = f));
    await settle();
    expect(s.api.openWatches()).toBe(0);
    expect(stopped).toBeUndefined();
    s.api.put(MODEL_DEPLOYMENT_KIND, record('c'));
    release();
    await settle();
    expect(stopped).toBe(true);
    expect(s.statusOf('a')).toBeDefined();
    expect(s.statusOf('c')).toBeUndefined();
  });

  test('stop gives up on a reconcile that outlasts the grace period', async () => {
    const s = setup();
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    s.api.gate = (call) => (call.op === 'patchStatus' ? new Promise<void>(() => undefined) : undefined);
    await started(s);
    let stopped: boolean | undefined;
    void s.controller.stop(5_000).then((f) => (stopped = f));
    await s.clock.advance(4_999);
    expect(stopped).toBeUndefined();
    await s.clock.advance(1);
    expect(stopped).toBe(false);
    expect(s.logs.some((l) => /graceful shutdown timeout/.test(l.msg))).toBe(true);
  });
});

describe('ReverseIndex via the controller', () => {
  test('a record that stops reading an object stops being queued by it', async () => {
    const s = setup();
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    await started(s);
    s.api.put(MODEL_DEPLOYMENT_KIND, record('a', { statusFrom: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ml', name: 'z' } }));
    await settle();
    s.computed.length = 0;
    s.api.put(DEPLOYMENT, upstream('a', 1));
    await settle();
    expect(s.computed).toEqual([]);
  });
});
