import { FakeClock, settle } from './support/fake-clock';
import { FakeKubeApi } from './support/fake-kube-api';
import { stubComputeStatus, stubIsRendered } from './support/stub-status';
import { KubeApiError, LEASE_KIND, MODEL_DEPLOYMENT_KIND } from '../../../src/controller/runtime/kube-api';
import { jsonLogger } from '../../../src/controller/runtime/logger';
import { Manager, ManagerOptions } from '../../../src/controller/runtime/manager';
import { ControllerOptions, DEFAULT_CONTROLLER_OPTIONS } from '../../../src/controller/runtime/options';
import { WatchedKind } from '../../../src/controller/runtime/watched-kinds';

const DEPLOYMENT: WatchedKind = { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments', labelSelector: 'airunway.ai/managed-by=airunway' };
const LOCAL = { host: '127.0.0.1', port: 0 };

function record(name: string) {
  return { metadata: { name, namespace: 'ml', labels: { 'inference.cdk8s.io/rendered-by': 'cdk8s-inference' } }, spec: {} };
}

function manager(
  api: FakeKubeApi,
  clock: FakeClock,
  identity: string,
  options: Partial<ControllerOptions> = {},
  extra: Partial<ManagerOptions> = {},
) {
  const logs: any[] = [];
  const m = new Manager({
    options: { ...DEFAULT_CONTROLLER_OPTIONS, leaderElect: true, metricsBindAddress: LOCAL, healthProbeBindAddress: LOCAL, ...options },
    api,
    clock,
    logger: jsonLogger({ level: 'debug', write: (l) => logs.push(JSON.parse(l)) }),
    computeStatus: stubComputeStatus,
    isRendered: stubIsRendered,
    dependencyKinds: [DEPLOYMENT],
    identity,
    leaderElectionNamespace: 'cdk8s-inference-system',
    random: () => 1,
    informerTuning: { random: () => 0, watchTimeoutSeconds: () => 300 },
    ...extra,
  });
  return { m, logs };
}

async function get(port: number, path: string): Promise<{ status: number; body: string; type: string | null }> {
  const r = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: r.status, body: await r.text(), type: r.headers.get('content-type') };
}

function fakeApi() {
  return new FakeKubeApi().serve(MODEL_DEPLOYMENT_KIND, DEPLOYMENT, LEASE_KIND);
}

const lease = (api: FakeKubeApi) => api.object(LEASE_KIND, 'cdk8s-inference-system', 'cdk8s-inference-controller');

describe('Manager', () => {
  test('serves /metrics, /healthz and /readyz; the leader is ready once its caches synced', async () => {
    const clock = new FakeClock();
    const api = fakeApi();
    api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    let listOpen!: () => void;
    api.gate = (call) => (call.op === 'list' && call.kind.endsWith('/deployments') ? new Promise<void>((r) => (listOpen = r)) : undefined);
    const { m } = manager(api, clock, 'pod-0');
    const run = m.run();
    await settle();
    const [metricsPort, probePort] = m.serverPorts;
    expect(m.isLeader).toBe(true);
    expect(await get(probePort, '/healthz')).toEqual({ status: 200, body: 'ok', type: 'text/plain; charset=utf-8' });
    const notReady = await get(probePort, '/readyz');
    expect(notReady.status).toBe(500);
    expect(notReady.body).toMatch(/caches not synced: apps\/v1 Deployment/);
    listOpen();
    await settle();
    expect(await get(probePort, '/readyz')).toEqual(expect.objectContaining({ status: 200, body: 'ok' }));
    expect(api.object(MODEL_DEPLOYMENT_KIND, 'ml', 'a').status).toEqual({ phase: 'Pending' });
    const metrics = await get(metricsPort, '/metrics');
    expect(metrics.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(metrics.body).toContain('leader_election_master_status{name="cdk8s-inference-controller"} 1\n');
    expect(metrics.body).toContain('cdk8s_inference_status_patches_total{controller="modeldeployment-status"} 1\n');
    expect(metrics.body).toContain('controller_runtime_reconcile_total{controller="modeldeployment-status",result="success"}');
    expect(metrics.body).toContain('controller_runtime_max_concurrent_reconciles{controller="modeldeployment-status"} 4\n');
    expect((await get(metricsPort, '/nope')).status).toBe(404);
    m.shutdown();
    expect(await run).toBe(0);
  });

  test('a standby is ready once started, keeps its caches warm, and writes nothing', async () => {
    const clock = new FakeClock();
    const api = fakeApi();
    api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    const leader = manager(api, clock, 'pod-0', { metricsBindAddress: undefined, healthProbeBindAddress: undefined });
    const leaderRun = leader.m.run();
    await settle();
    const standby = manager(api, clock, 'pod-1');
    api.gate = (call) => (call.op === 'list' && call.kind.endsWith('/deployments') ? new Promise<void>(() => undefined) : undefined);
    const standbyRun = standby.m.run();
    await settle();
    expect(standby.m.isLeader).toBe(false);
    const [metricsPort, probePort] = standby.m.serverPorts;
    expect((await get(probePort, '/readyz')).status).toBe(200);
    expect((await get(metricsPort, '/metrics')).body).toContain('leader_election_master_status{name="cdk8s-inference-controller"} 0\n');
    const patches = api.callsOf('patchStatus').length;
    api.put(MODEL_DEPLOYMENT_KIND, record('b'));
    await clock.advance(10_000);
    // The leader wrote b's status; the standby ran no reconcile at all.
    expect(api.callsOf('patchStatus').length).toBe(patches + 1);
    expect(standby.m.metrics.statusPatches.get({ controller: 'modeldeployment-status' })).toBe(0);
    expect(standby.m.metrics.reconcileTime.get({ controller: 'modeldeployment-status' }).count).toBe(0);
    expect(standby.m.controller.cache.informer(MODEL_DEPLOYMENT_KIND)!.get('ml', 'b')).toBeDefined();
    leader.m.shutdown();
    standby.m.shutdown();
    expect(await Promise.all([leaderRun, standbyRun])).toEqual([0, 0]);
  });

  test('SIGTERM: informers stop, the running reconcile finishes, then the Lease is released, then the servers close (exit 0)', async () => {
    const clock = new FakeClock();
    const api = fakeApi();
    api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    let releasePatch!: () => void;
    api.gate = (call) => (call.op === 'patchStatus' ? new Promise<void>((r) => (releasePatch = r)) : undefined);
    const { m, logs } = manager(api, clock, 'pod-0');
    const run = m.run();
    await settle();
    const [, probePort] = m.serverPorts;
    expect(lease(api).spec.holderIdentity).toBe('pod-0');
    let code: number | undefined;
    void run.then((c) => (code = c));
    m.shutdown('received SIGTERM');
    await settle();
    // 1. informers stopped; 2. the reconcile in flight still runs and the Lease is still held.
    expect(api.openWatches()).toBe(0);
    expect(lease(api).spec.holderIdentity).toBe('pod-0');
    expect((await get(probePort, '/healthz')).status).toBe(200);
    expect(code).toBeUndefined();
    releasePatch();
    await settle();
    // 3. the reconcile wrote its status; 4. the Lease was released; 5. servers closed; exit 0.
    expect(api.object(MODEL_DEPLOYMENT_KIND, 'ml', 'a').status).toEqual({ phase: 'Pending' });
    expect(lease(api).spec.holderIdentity).toBe('');
    expect(code).toBe(0);
    await expect(get(probePort, '/healthz')).rejects.toThrow();
    const order = logs.map((l) => l.msg).filter((msg) => ['stopping', 'released leader lease', 'stopped'].includes(msg));
    expect(order).toEqual(['stopping', 'released leader lease', 'stopped']);
    expect(logs.find((l) => l.msg === 'stopping').reason).toBe('received SIGTERM');
    expect(clock.pending).toBe(0);
  });

  test('the graceful shutdown is bounded: a reconcile that hangs is abandoned after the timeout', async () => {
    const clock = new FakeClock();
    const api = fakeApi();
    api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    api.gate = (call) => (call.op === 'patchStatus' ? new Promise<void>(() => undefined) : undefined);
    const { m } = manager(api, clock, 'pod-0', { gracefulShutdownTimeoutMs: 30_000, metricsBindAddress: undefined, healthProbeBindAddress: undefined });
    const run = m.run();
    await settle();
    m.shutdown();
    await clock.advance(30_000);
    expect(await run).toBe(0);
    expect(lease(api).spec.holderIdentity).toBe('');
  });

  test('on SIGTERM, a standby takes over at once: failover without waiting for the lease to expire', async () => {
    const clock = new FakeClock();
    const api = fakeApi();
    api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    const none = { metricsBindAddress: undefined, healthProbeBindAddress: undefined };
    const a = manager(api, clock, 'pod-0', none);
    const aRun = a.m.run();
    await settle();
    const b = manager(api, clock, 'pod-1', none);
    const bRun = b.m.run();
    await clock.advance(5_000);
    a.m.shutdown();
    expect(await aRun).toBe(0);
    const took = await clock.advanceUntil(() => b.m.isLeader, 15_000, 10);
    expect(took).toBeLessThanOrEqual(4_400);
    api.put(DEPLOYMENT, { metadata: { name: 'a', namespace: 'ml', labels: { 'airunway.ai/managed-by': 'airunway' } }, status: { readyReplicas: 1 } });
    await settle();
    expect(api.object(MODEL_DEPLOYMENT_KIND, 'ml', 'a').status.phase).toBe('Running');
    b.m.shutdown();
    expect(await bRun).toBe(0);
  });

  test('losing the Lease stops writing at once and exits 1 without releasing it', async () => {
    const clock = new FakeClock();
    const api = fakeApi();
    api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    const { m, logs } = manager(api, clock, 'pod-0', { metricsBindAddress: undefined, healthProbeBindAddress: undefined });
    const run = m.run();
    await settle();
    let code: number | undefined;
    void run.then((c) => (code = c));
    const patches = api.callsOf('patchStatus').length;
    api.fail('replace', () => new KubeApiError(500, 'etcdserver: request timed out'), 1000, LEASE_KIND);
    api.fail('get', () => new KubeApiError(500, 'etcdserver: request timed out'), 1000, LEASE_KIND);
    await clock.advanceUntil(() => !m.isLeader, 15_000, 100);
    api.put(MODEL_DEPLOYMENT_KIND, record('b'));
    await clock.advance(100);
    expect(code).toBe(1);
    expect(api.callsOf('patchStatus').length).toBe(patches);
    expect(lease(api).spec.holderIdentity).toBe('pod-0');
    expect(logs.some((l) => l.level === 'error' && /leader election lost/.test(l.msg))).toBe(true);
    expect(logs.find((l) => l.msg === 'stopped').exitCode).toBe(1);
  });

  test('without leader election it reconciles at once and reports itself as the leader', async () => {
    const clock = new FakeClock();
    const api = fakeApi();
    api.put(MODEL_DEPLOYMENT_KIND, record('a'));
    const { m } = manager(api, clock, 'pod-0', { leaderElect: false, metricsBindAddress: undefined, healthProbeBindAddress: undefined });
    const run = m.run();
    await settle();
    expect(api.object(MODEL_DEPLOYMENT_KIND, 'ml', 'a').status).toEqual({ phase: 'Pending' });
    expect(api.callsOf('get', LEASE_KIND)).toHaveLength(0);
    expect(m.metrics.leaderElectionMasterStatus.get({ name: 'cdk8s-inference-controller' })).toBe(1);
    m.shutdown();
    expect(await run).toBe(0);
  });

  test('exits 1 when the caches cannot sync in time (e.g. RBAC forbids a list)', async () => {
    const clock = new FakeClock();
    const api = fakeApi();
    api.fail('list', () => new KubeApiError(403, 'deployments.apps is forbidden', 'Forbidden'), 1000, DEPLOYMENT);
    const { m, logs } = manager(api, clock, 'pod-0', { leaderElect: false, metricsBindAddress: undefined, healthProbeBindAddress: undefined }, { cacheSyncTimeoutMs: 120_000 });
    const run = m.run();
    let code: number | undefined;
    void run.then((c) => (code = c));
    await clock.advance(119_000);
    expect(code).toBeUndefined();
    await clock.advance(1_000);
    expect(code).toBe(1);
    expect(logs.find((l) => /timed out waiting for caches/.test(l.msg)).kinds).toEqual(['apps/v1 Deployment']);
    expect(logs.filter((l) => l.msg === 'list failed; retrying')[0].error).toBe('deployments.apps is forbidden');
  });

  test('exits 1 when a server cannot listen', async () => {
    const clock = new FakeClock();
    const first = manager(fakeApi(), clock, 'pod-0', { leaderElect: false });
    const firstRun = first.m.run();
    await settle();
    const taken = { host: '127.0.0.1', port: first.m.serverPorts[0] };
    const { m, logs } = manager(fakeApi(), clock, 'pod-1', { leaderElect: false, metricsBindAddress: taken });
    expect(await m.run()).toBe(1);
    expect(logs.find((l) => l.level === 'error').error).toMatch(/EADDRINUSE/);
    first.m.shutdown();
    expect(await firstRun).toBe(0);
  });
});
