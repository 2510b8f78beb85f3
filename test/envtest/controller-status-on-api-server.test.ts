/**
 * The status controller as a real process (`cdk8s-inference controller`, from the sources: see
 * controller-status-process.ts) against a real kube-apiserver and etcd (control-plane.ts). Records and
 * upstream objects are created for real, upstream statuses are written through their /status
 * subresources as the operators would write them, and what the controller wrote is read back
 * from the API server, together with its /metrics and its JSON logs:
 *
 * 1. the lifecycle of one deployment per shipped provider, one status patch per observable change;
 * 2. GatewayReady and status.gateway from the route, pool and Gateway statuses;
 * 3. a kube-apiserver restart under a running controller (a ServiceAccount with Roles): the change
 *    made meanwhile is caught up, and so is the next one while the records' cache is still the
 *    pre-outage copy (it was skipped as "already so" before record-reconciler.ts remembered its
 *    own writes);
 * 4. leader election between controller processes: one writer; SIGKILL and SIGTERM failovers;
 * 5. status patches racing label updates (409 Conflict): retried, the final status right.
 *
 * One control plane for the file; each test runs its controller(s) in a namespace of its own and
 * stops them (by pid) when it ends. The figures (patch counts, failover and catch-up times) are
 * printed at the end.
 */
import { isDeepStrictEqual } from 'util';
import { Chart } from 'cdk8s';
import { ControlPlane, serviceAccountUser } from './control-plane';
import {
  createAll, ensureNamespaces, installControllerCrds, ProviderCase, providerCases,
  recordsOf, setStatus, synthesize, synthesizeCases, upstreamOf, vllmProps,
} from './controller-status-fixtures';
import { ControllerProcess } from './controller-status-process';
import { KubeClient, waitFor } from './kube-client';
import { gateway, GatewayRef, ModelDeployment, ProviderRegistry } from '../../src';
import { deploymentStatuses } from '../support/operator-statuses';
import { statusCondition } from '../support/status-conditions';

const SETUP_TIMEOUT_MS = 45 * 60_000; // the first run on a machine may compile the binaries
const CONTROLLER = 'modeldeployment-status';
const MD = { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment' };
const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment' };
const LEASE = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' };
/** The identity of the controller of test 3: a ServiceAccount, with what Roles grant it. */
const RESTART_SA = serviceAccountUser('restart', 'status-controller');

let cp: ControlPlane;
let client: KubeClient;
let kubeconfig: string;
/** Controllers of the running test: stopped after it. */
let controllers: ControllerProcess[] = [];
/** Figures for the summary printed at the end. */
const report: string[] = [];
const fileStart = Date.now();

beforeAll(async () => {
  // Stop timeout 3 s: with the controllers' watches open, a SIGTERMed kube-apiserver does not exit
  // within the default 10 s, and the outage of test 3 is as real when it ends in a SIGKILL.
  cp = await ControlPlane.start({ users: [RESTART_SA], stopTimeoutMs: 3_000 });
  client = cp.client();
  kubeconfig = cp.writeKubeconfig();
  const t0 = Date.now();
  await installControllerCrds(client, cp.dir);
  report.push(`control plane start ${cp.startTimings.totalMs} ms, CRD install ${Date.now() - t0} ms`);
}, SETUP_TIMEOUT_MS);

afterEach(async () => {
  await Promise.all(controllers.map((c) => c.stop()));
  controllers = [];
}, 60_000);

afterAll(async () => {
  await Promise.all(controllers.map((c) => c.stop()));
  await cp?.stop();
  report.push(`file total ${Date.now() - fileStart} ms`);
  process.stdout.write(`\ncontroller on the API server:\n  ${report.join('\n  ')}\n`);
}, 60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a controller with the file's kubeconfig (stopped after the test); waits until it is ready unless told not to. */
async function startController(name: string, args: string[], ready = true): Promise<ControllerProcess> {
  const c = await ControllerProcess.start({ kubeconfig, name, args });
  controllers.push(c);
  if (ready) await c.waitReady();
  return c;
}

/** A test body whose failure carries the log tails of the test's controllers. */
function withControllerLogs(body: () => Promise<void>): () => Promise<void> {
  return async () => {
    try {
      await body();
    } catch (e) {
      const logs = controllers.map((c) => c.logTail(40)).join('\n');
      // (a timeout of `ControllerProcess.waitUntil` carries its controller's log tail already)
      if (e instanceof Error && logs && !e.message.includes('log lines:')) e.message = `${e.message}\n\n${logs}`;
      throw e;
    }
  };
}

/** Every record of a namespace: name → the record as the API server returns it. */
async function records(namespace: string): Promise<Map<string, any>> {
  const list = await client.list<any>({ ...MD, namespace });
  return new Map(list.items.map((r) => [r.metadata.name, r]));
}


const patches = (c: ControllerProcess): Promise<number> => c.metric('cdk8s_inference_status_patches_total', { controller: CONTROLLER });
const queueAdds = (c: ControllerProcess): Promise<number> => c.metric('workqueue_adds_total', { name: CONTROLLER });

/**
 * Waits until the controller is idle: its status patch count unchanged for `quietMs`, nothing
 * queued and no reconcile running.
 */
async function settle(c: ControllerProcess, quietMs = 1000): Promise<void> {
  let last = -1;
  let since = Date.now();
  await c.waitUntil(async () => {
    const m = await c.metrics();
    const value = m.get(`cdk8s_inference_status_patches_total{controller="${CONTROLLER}"}`) ?? -1;
    const depth = m.get(`workqueue_depth{name="${CONTROLLER}",controller="${CONTROLLER}"}`) ?? 0;
    const active = m.get(`controller_runtime_active_workers{controller="${CONTROLLER}"}`) ?? 0;
    if (value !== last || depth > 0 || active > 0) {
      last = value;
      since = Date.now();
      return false;
    }
    return Date.now() - since >= quietMs;
  }, 30_000, 'the controller to be idle', 200);
}

/** `until` for `StatusSteps.step`: every named record in its phase (or what is seen instead). */
function phases(expected: Record<string, string>): (now: Map<string, any>) => true | string {
  return (now) => {
    const wrong = Object.entries(expected).filter(([name, phase]) => now.get(name)?.status?.phase !== phase);
    return wrong.length === 0 || wrong.map(([name, phase]) => `${name}: ${now.get(name)?.status?.phase} (want ${phase})`).join(', ');
  };
}

/**
 * Follows the records of a namespace through steps: each step acts, waits until the controller
 * queued a record and the records show what the step expects, lets the controller settle, and
 * checks what was written since the last step:
 *
 * - the controller's status patch count rose by exactly the number of records whose stored status
 *   changed (no intermediate or repeated writes);
 * - `status.observedGeneration` and every condition's `observedGeneration` equal
 *   `metadata.generation`;
 * - a condition's `lastTransitionTime` moved exactly when its status flipped, and forward (steps
 *   are more than a second apart, `settle`, and condition times have whole seconds).
 */
class StatusSteps {
  readonly lines: string[] = [];
  previous = new Map<string, any>();

  constructor(private readonly ctl: ControllerProcess, private readonly namespace: string, private readonly names: readonly string[]) {}

  /**
   * `act`, then waits until `until` holds, and checks one status patch per changed status. A record
   * whose status reads several objects may be written once more while they are created one after
   * the other (llm-d prefill/decode: "waiting for the prefill Deployment", then Deploying): up to
   * `interimPatches` more are allowed.
   */
  async step(
    label: string, act: () => Promise<unknown>, until: (now: Map<string, any>) => true | string, interimPatches = 0,
  ): Promise<Map<string, any>> {
    const p0 = await patches(this.ctl);
    const a0 = await queueAdds(this.ctl);
    const t0 = Date.now();
    await act();
    let seen = '';
    try {
      await this.ctl.waitUntil(async () => {
        // The controller saw the change (a record was queued), whether or not it is one to write.
        if ((await queueAdds(this.ctl)) === a0) {
          seen = 'nothing queued yet';
          return false;
        }
        const r = until(await records(this.namespace));
        if (r === true) return true;
        seen = r;
        return false;
      }, 30_000, label);
    } catch (e) {
      throw new Error(`${(e as Error).message}\nlast seen: ${seen}`);
    }
    const seenMs = Date.now() - t0;
    await settle(this.ctl);
    const after = await records(this.namespace);
    const written = (await patches(this.ctl)) - p0;
    const changed = this.names.filter((n) => !isDeepStrictEqual(this.previous.get(n)?.status, after.get(n)?.status));
    const which = changed.length === this.names.length ? 'every status' : `${changed.length} of ${this.names.length} statuses (${changed.join(', ') || 'none'})`;
    this.lines.push(`${label}: ${which} changed, ${written} patches; seen after ${seenMs} ms`);
    if (written < changed.length || written > changed.length + interimPatches) {
      throw new Error(`${label}: ${written} status patches for ${changed.length} changed statuses (${changed.join(', ')})\n${this.ctl.logTail()}`);
    }
    for (const name of this.names) checkConditions(label, name, this.previous.get(name), after.get(name));
    this.previous = after;
    return after;
  }
}

function checkConditions(step: string, name: string, before: any, now: any): void {
  const generation = now.metadata.generation;
  expect({ step, name, observedGeneration: now.status?.observedGeneration }).toEqual({ step, name, observedGeneration: generation });
  for (const c of now.status.conditions) {
    const where = { step, name, type: c.type };
    expect({ ...where, observedGeneration: c.observedGeneration }).toEqual({ ...where, observedGeneration: generation });
    const old = statusCondition(before, c.type);
    if (!old) continue;
    const flipped = old.status !== c.status;
    expect({ ...where, flipped, moved: old.lastTransitionTime !== c.lastTransitionTime }).toEqual({ ...where, flipped, moved: flipped });
    if (flipped) expect(Date.parse(c.lastTransitionTime)).toBeGreaterThan(Date.parse(old.lastTransitionTime));
  }
}

describe('1. lifecycle of every shipped provider', () => {
  const NS = 'lifecycle';
  const cases = providerCases();

  test('Pending (record first) → Deploying → Running → Failed → Running; one status patch per change, none on a resync', withControllerLogs(async () => {
    const objects = synthesizeCases(cases, NS);
    await ensureNamespaces(client, [NS]);
    const ctl = await startController('lifecycle', ['--namespace', NS, '--sync-period', '2s']);
    const steps = new StatusSteps(ctl, NS, cases.map((c) => c.name));
    const all = (phase: string) => phases(Object.fromEntries(cases.map((c) => [c.name, phase])));
    const setAll = (stage: keyof ProviderCase['statuses']) => async () => {
      for (const c of cases) {
        for (const a of c.alongside ?? []) await setStatus(client, { ...a.source, namespace: NS }, a.statuses[stage]);
        await setStatus(client, { ...c.source, namespace: NS }, c.statuses[stage]);
      }
    };

    // The records first: nothing to observe yet.
    let now = await steps.step('records created, upstream absent', () => createAll(client, recordsOf(objects)), all('Pending'));
    for (const c of cases) {
      const r = now.get(c.name);
      expect({ name: c.name, ready: statusCondition(r, 'Ready') }).toMatchObject({ name: c.name, ready: { status: 'False', reason: 'ResourceNotFound' } });
      expect(r.status.message).toBe(`waiting for ${c.source.kind} ${NS}/${c.source.name} (${c.source.apiVersion}) to be created`);
      expect(r.status.provider).toMatchObject({ name: c.props.provider!.name, resourceName: c.source.name, resourceKind: c.source.kind });
      for (const type of ['Validated', 'EngineSelected', 'ProviderSelected']) expect(statusCondition(r, type)).toMatchObject({ status: 'True' });
    }

    // The upstream objects as the synth wrote them; no operator has reported yet.
    // llm-d prefill/decode reads two Deployments, created (and reported) one after the other.
    const multiSource = cases.filter((c) => (c.alongside ?? []).length > 0).length;
    now = await steps.step('upstream objects created', () => createAll(client, upstreamOf(objects)), all('Deploying'), multiSource);
    for (const c of cases) expect({ name: c.name, message: now.get(c.name).status.message }).toEqual({ name: c.name, message: expect.stringMatching(/created/) });

    // The operators report.
    await steps.step('operators report deploying', setAll('deploying'), all('Deploying'), multiSource);
    const firstRunning = await steps.step('operators report running', setAll('running'), all('Running'), multiSource);
    for (const c of cases) {
      const r = firstRunning.get(c.name);
      expect({ name: c.name, ready: statusCondition(r, 'Ready')?.status, replicas: r.status.replicas.ready })
        .toEqual({ name: c.name, ready: 'True', replicas: c.runningReady });
      expect(r.status.endpoint?.service).toBeTruthy();
    }
    now = await steps.step('operators report failed', setAll('failed'), all('Failed'), multiSource);
    for (const c of cases) expect({ name: c.name, ready: statusCondition(now.get(c.name), 'Ready')?.status }).toEqual({ name: c.name, ready: 'False' });
    now = await steps.step('operators report running again', setAll('running'), all('Running'), multiSource);
    for (const c of cases) {
      const again = statusCondition(now.get(c.name), 'Ready');
      expect(again.status).toBe('True');
      expect(Date.parse(again.lastTransitionTime)).toBeGreaterThan(Date.parse(statusCondition(firstRunning.get(c.name), 'Ready').lastTransitionTime));
    }

    // A spec change (generation 2) is one more observable change: observedGeneration.
    const target = cases[0].name;
    now = await steps.step('spec of one record changed (generation 2)', () =>
      client.patch({ ...MD, namespace: NS, name: target }, { spec: { engine: { contextLength: 4096 } } }, 'merge'),
    (n) => n.get(target)?.status?.observedGeneration === 2 || `observedGeneration ${n.get(target)?.status?.observedGeneration}`);
    expect(now.get(target).metadata.generation).toBe(2);

    // Unchanged resyncs (sync period 2 s) write nothing.
    const p0 = await patches(ctl);
    const reconciles = () => ctl.metric('controller_runtime_reconcile_total', { controller: CONTROLLER, result: 'success' });
    const r0 = await reconciles();
    await sleep(5_000);
    const resynced = (await reconciles()) - r0;
    const written = (await patches(ctl)) - p0;
    steps.lines.push(`5 s unchanged, resync every 2 s: ${resynced} reconciles, ${written} patches`);
    expect(resynced).toBeGreaterThanOrEqual(2 * cases.length);
    expect(written).toBe(0);
    expect(await records(NS)).toEqual(steps.previous);
    report.push(`1. lifecycle, ${cases.length} records (${cases.map((c) => c.name).join(', ')}):\n    ${steps.lines.join('\n    ')}`);
  }), 180_000);
});

describe('2. gateway', () => {
  const NS = 'gw-models';
  const GW_NS = 'gw-system';
  const GW_NAME = 'inference-gateway';
  const GW_PARENT = { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: GW_NAME, namespace: GW_NS };
  const cond = (type: string, status: 'True' | 'False', reason: string, message = '') =>
    ({ type, status, reason, message, lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), observedGeneration: 1 });

  test('GatewayReady goes True and status.gateway appears as the gateway implementation reports on the route, pool and Gateway', withControllerLogs(async () => {
    const objects = synthesize((app) => {
      const infra = new Chart(app, 'gateway', { namespace: GW_NS });
      const gw = new gateway.Gateway(infra, 'Gateway', {
        metadata: { name: GW_NAME },
        spec: { gatewayClassName: 'istio', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] },
      });
      new ProviderRegistry(app, 'Providers', { gateway: GatewayRef.fromGateway(gw) });
      new ModelDeployment(new Chart(app, 'models', { namespace: NS }), 'qwen', {
        model: { id: 'Qwen/Qwen3-8B', servedName: 'qwen3-8b' },
        provider: { name: 'vllm' },
        resources: { gpu: { count: 1 } },
      });
    });
    const kinds = objects.map((o) => `${o.kind}/${o.metadata?.name}`);
    expect(kinds).toEqual(expect.arrayContaining(['Gateway/inference-gateway', 'HTTPRoute/qwen', 'InferencePool/qwen', 'Deployment/qwen', 'ModelDeployment/qwen']));
    await ensureNamespaces(client, [NS, GW_NS]);
    // All namespaces: the Gateway is in another one than the route.
    const ctl = await startController('gateway', []);
    const steps = new StatusSteps(ctl, NS, ['qwen']);
    const route = { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', namespace: NS, name: 'qwen' };
    const pool = { apiVersion: 'inference.networking.k8s.io/v1', kind: 'InferencePool', namespace: NS, name: 'qwen' };
    const gw = { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', namespace: GW_NS, name: GW_NAME };
    const gatewayReady = (status: string, reason: string) => (now: Map<string, any>) => {
      const c = statusCondition(now.get('qwen'), 'GatewayReady');
      return (c?.status === status && c?.reason === reason) || `GatewayReady ${c?.status}/${c?.reason}: ${c?.message}`;
    };
    const routeStatus = (resolved: ReturnType<typeof cond>) => ({
      parents: [{ parentRef: GW_PARENT, controllerName: 'istio.io/gateway-controller', conditions: [cond('Accepted', 'True', 'Accepted', 'Route was valid'), resolved] }],
    });

    // The objects first (each one appearing would be a change of its own), then the record.
    await createAll(client, upstreamOf(objects));
    await settle(ctl);
    let now = await steps.step('record created after its objects, nothing reported yet', () => createAll(client, recordsOf(objects)),
      gatewayReady('False', 'GatewayNotReported'));
    expect(now.get('qwen').status.phase).toBe('Deploying');
    expect(now.get('qwen').status.gateway).toEqual({ modelName: 'qwen3-8b', gatewayName: GW_NAME, gatewayNamespace: GW_NS });
    // AI Runway's newer status fields survive the API server (our CRD carries them): the pool by its uid.
    const livePool = await client.get<any>(pool);
    expect(now.get('qwen').status.provider.inferencePoolRef).toEqual({ ...pool, uid: livePool.metadata.uid });
    expect(now.get('qwen').status.provider.requestRef).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'qwen', namespace: NS, uid: expect.any(String) });

    now = await steps.step('model server running', () => setStatus(client, { ...DEPLOYMENT, namespace: NS, name: 'qwen' }, deploymentStatuses(1).running), phases({ qwen: 'Running' }));
    expect(statusCondition(now.get('qwen'), 'GatewayReady')).toMatchObject({ status: 'False', reason: 'GatewayNotReported' });

    now = await steps.step('Gateway programmed with an address', () => setStatus(client, gw, {
      addresses: [{ type: 'IPAddress', value: '10.0.0.7' }],
      conditions: [cond('Accepted', 'True', 'Accepted', 'Resource accepted'), cond('Programmed', 'True', 'Programmed', 'Resource programmed')],
    }), (n) => n.get('qwen')?.status?.gateway?.endpoint === '10.0.0.7' || `status.gateway ${JSON.stringify(n.get('qwen')?.status?.gateway)}`);
    expect(now.get('qwen').status.gateway).toEqual({ endpoint: '10.0.0.7', modelName: 'qwen3-8b', gatewayName: GW_NAME, gatewayNamespace: GW_NS });

    now = await steps.step('route accepted with its references resolved', () => setStatus(client, route, routeStatus(cond('ResolvedRefs', 'True', 'ResolvedRefs', 'All references resolved'))),
      gatewayReady('True', 'GatewayConfigured'));
    expect(statusCondition(now.get('qwen'), 'GatewayReady')).toMatchObject({ status: 'True', reason: 'GatewayConfigured', message: 'InferencePool and HTTPRoute created' });
    expect(now.get('qwen').status.phase).toBe('Running');

    // The pool accepted too: nothing new to say (no patch).
    await steps.step('pool accepted by the Gateway', () => setStatus(client, pool, {
      parents: [{ parentRef: GW_PARENT, controllerName: 'istio.io/gateway-controller', conditions: [cond('Accepted', 'True', 'Accepted', 'InferencePool accepted'), cond('ResolvedRefs', 'True', 'ResolvedRefs', 'Resolved')] }],
    }), gatewayReady('True', 'GatewayConfigured'));

    now = await steps.step('route loses its backend', () => setStatus(client, route, routeStatus(cond('ResolvedRefs', 'False', 'BackendNotFound', 'InferencePool qwen not found'))),
      gatewayReady('False', 'HTTPRouteFailed'));
    expect(statusCondition(now.get('qwen'), 'GatewayReady').message).toContain('InferencePool qwen not found');
    expect(statusCondition(now.get('qwen'), 'Ready').status).toBe('True'); // the model still serves
    await steps.step('route resolved again', () => setStatus(client, route, routeStatus(cond('ResolvedRefs', 'True', 'ResolvedRefs', 'All references resolved'))),
      gatewayReady('True', 'GatewayConfigured'));
    report.push(`2. gateway (vllm behind ${GW_NS}/${GW_NAME}):\n    ${steps.lines.join('\n    ')}`);
  }), 120_000);
});

describe('3. API server restart', () => {
  const NS = 'restart';
  const rbac = (kind: 'Role' | 'RoleBinding', name: string, rest: Record<string, unknown>) =>
    ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name, namespace: NS }, ...rest });
  const binding = (role: string) => rbac('RoleBinding', role, {
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role },
    subjects: [{ kind: 'ServiceAccount', name: 'status-controller', namespace: NS }],
  });
  const read = ['get', 'list', 'watch'];

  test('changes made while the controller is cut off, and right after, are caught up without restarting the controller', withControllerLogs(async () => {
    const objects = synthesize((app) => new ModelDeployment(new Chart(app, 'm', { namespace: NS }), 'survivor', vllmProps('survivor')));
    await ensureNamespaces(client, [NS]);
    // The controller runs as a ServiceAccount: reading what statuses come from, reading the
    // records, writing their status — each granted by a Role of its own.
    await createAll(client, [
      rbac('Role', 'status-sources-reader', {
        rules: [
          { apiGroups: ['apps'], resources: ['deployments'], verbs: read },
          { apiGroups: ['kaito.sh'], resources: ['workspaces'], verbs: read },
          { apiGroups: ['nvidia.com'], resources: ['dynamographdeployments'], verbs: read },
          { apiGroups: ['ray.io'], resources: ['rayservices'], verbs: read },
          { apiGroups: ['workload.serving.volcano.sh'], resources: ['modelservings'], verbs: read },
          { apiGroups: ['modelplane.ai'], resources: ['modeldeployments'], verbs: read },
          { apiGroups: ['ai.flexinfer'], resources: ['models'], verbs: read },
          { apiGroups: ['gateway.networking.k8s.io'], resources: ['httproutes', 'gateways'], verbs: read },
          { apiGroups: ['inference.networking.k8s.io', 'inference.networking.x-k8s.io'], resources: ['inferencepools'], verbs: read },
        ],
      }),
      rbac('Role', 'records-reader', { rules: [{ apiGroups: ['airunway.ai'], resources: ['modeldeployments'], verbs: read }] }),
      rbac('Role', 'records-status-writer', { rules: [{ apiGroups: ['airunway.ai'], resources: ['modeldeployments/status'], verbs: ['patch'] }] }),
      binding('status-sources-reader'),
      binding('records-reader'),
      binding('records-status-writer'),
    ]);
    const sa = cp.client(RESTART_SA.name);
    await waitFor(() => sa.list({ ...MD, namespace: NS }).then(() => true), 10_000, 'the RoleBindings to take effect');
    const ctl = await ControllerProcess.start({ kubeconfig: cp.writeKubeconfig(RESTART_SA.name), name: 'restart', args: ['--namespace', NS, '--log-level', 'debug'] });
    controllers.push(ctl);
    await ctl.waitReady();
    const steps = new StatusSteps(ctl, NS, ['survivor']);
    const deployment = { ...DEPLOYMENT, namespace: NS, name: 'survivor' };
    const phase = async () => (await records(NS)).get('survivor')?.status?.phase;
    /** When an informer of `kind` first listed since `since` (debug log `listed`). */
    const listedAt = (kind: string, since: number) => {
      const line = ctl.lines.find((l) => l.msg === 'listed' && l.kind === kind && Date.parse(String(l.ts)) >= since);
      return line ? Date.parse(String(line.ts)) : undefined;
    };
    await steps.step('created', () => createAll(client, objects), phases({ survivor: 'Deploying' }));
    await steps.step('running', () => setStatus(client, deployment, deploymentStatuses(1).running), phases({ survivor: 'Running' }));
    const p0 = await patches(ctl);

    // Meanwhile the controller loses the right to list the records: its open watch of them goes on
    // until the outage, after which its record cache stays as it was (the relists are refused)
    // while the Deployments' cache comes back.
    await client.delete({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', namespace: NS, name: 'records-reader' });

    const down = Date.now();
    await cp.stopApiServer();
    const stopMs = Date.now() - down;
    await ctl.waitUntil(() => ctl.lines.some((l) => /watch failed|list failed/.test(String(l.msg)) && Date.parse(String(l.ts)) >= down - 100), 20_000, 'the controller to notice the outage');
    const healthzDown = (await ctl.get('probes', '/healthz')).status;
    const readyzDown = (await ctl.get('probes', '/readyz')).status;
    await sleep(3_000);
    const starting = Date.now();
    await cp.startApiServer();
    const up = Date.now();

    // 1. A change made as soon as the server is back, before the controller's informers are
    //    (they back off): the Deployments' relist brings it.
    await setStatus(client, deployment, deploymentStatuses(1).failed);
    const changed1 = Date.now();
    await ctl.waitUntil(async () => (await phase()) === 'Failed', 60_000, 'the record to catch up (Failed)', 50);
    const catchUp1 = Date.now() - changed1;
    // Relisted after the outage began: the relist may even precede `up`, because the API server
    // answers lists before the harness sees its /readyz say ok; the change itself then comes on
    // the watch that follows the relist.
    const deploymentListed = listedAt('apps/v1 Deployment', down);

    // 2. The next change. The controller's copy of the record is still the one from before the
    //    outage, whose status says Running: the new status (Running) must be compared with what
    //    the controller itself wrote (Failed) and written, not skipped as "already so".
    await setStatus(client, deployment, deploymentStatuses(1).running);
    const changed2 = Date.now();
    await ctl.waitUntil(async () => (await phase()) === 'Running', 10_000, 'the record to catch up (Running)', 50);
    const catchUp2 = Date.now() - changed2;
    // (the records cannot have been listed since the outage: the controller may not)
    expect(listedAt('airunway.ai/v1alpha1 ModelDeployment', up)).toBeUndefined();
    await settle(ctl);
    expect((await patches(ctl)) - p0).toBe(2);

    // The right is given back: the records' cache relists (after its backoff) and finds nothing to write.
    await client.create(binding('records-reader'));
    const restored = Date.now();
    await ctl.waitUntil(() => listedAt('airunway.ai/v1alpha1 ModelDeployment', restored), 45_000, 'the records to be listed again', 200);
    const relistMs = listedAt('airunway.ai/v1alpha1 ModelDeployment', restored)! - restored;
    await settle(ctl);

    // One write per change; the relists' resyncs of unchanged objects wrote nothing.
    expect((await patches(ctl)) - p0).toBe(2);
    expect(ctl.exit).toBeUndefined();
    expect(healthzDown).toBe(200);
    expect(deploymentListed).toBeDefined();
    expect(catchUp1).toBeLessThan(45_000); // at most the informers' longest backoff (30 s) and a relist
    const refused = ctl.lines.filter((l) => l.msg === 'list failed; retrying' && l.kind === 'airunway.ai/v1alpha1 ModelDeployment' &&
      Date.parse(String(l.ts)) >= up && Date.parse(String(l.ts)) < restored);
    for (const l of refused) expect(String(l.error)).toMatch(/forbidden|storage is \(re\)initializing/);
    const record = (await records(NS)).get('survivor');
    expect(statusCondition(record, 'Ready')).toMatchObject({ status: 'True' });
    steps.previous = record ? new Map([['survivor', record]]) : steps.previous;
    await steps.step('failed, steady state again', () => setStatus(client, deployment, deploymentStatuses(1).failed), phases({ survivor: 'Failed' }));

    report.push(`3. API server restart: down ${up - down} ms (stop ${stopMs} ms: SIGTERM, SIGKILL after 3 s; held down 3 s, start ${up - starting} ms); ` +
      `change 1 written ${changed1 - up} ms after it was up, on the record ${catchUp1} ms later (Deployments relisted ${deploymentListed! - down} ms after the outage began); ` +
      `change 2 on the record ${catchUp2} ms after it was written, while the records' cache was still the pre-outage copy (${refused.length} relists of them refused meanwhile); ` +
      `2 patches, none more when the records were listed again ${relistMs} ms after the RoleBinding was restored; controller pid ${ctl.pid} never restarted; ` +
      `during the outage /healthz ${healthzDown}, /readyz ${readyzDown}`);
  }), 150_000);
});

describe('4. leader election', () => {
  const NS = 'leader';
  const LEASE_ID = 'status-controller-envtest';
  const lease = { ...LEASE, namespace: NS, name: LEASE_ID };
  const args = ['--namespace', NS, '--leader-elect', '--leader-election-namespace', NS, '--leader-election-id', LEASE_ID];

  const holder = async (): Promise<string | undefined> => {
    try {
      return (await client.get<any>(lease)).spec?.holderIdentity || undefined;
    } catch {
      return undefined;
    }
  };
  const master = (c: ControllerProcess) => c.metric('leader_election_master_status', { name: LEASE_ID });
  const phaseOf = async () => (await records(NS)).get('elected')?.status?.phase;

  test('one leader writes; SIGKILL fails over within the lease duration; SIGTERM exits 0 and hands over at once', withControllerLogs(async () => {
    const objects = synthesize((app) => new ModelDeployment(new Chart(app, 'm', { namespace: NS }), 'elected', vllmProps('elected')));
    await ensureNamespaces(client, [NS]);
    await createAll(client, objects);
    const deployment = { ...DEPLOYMENT, namespace: NS, name: 'elected' };
    await setStatus(client, deployment, deploymentStatuses(1).deploying);

    const [a, b] = await Promise.all([startController('candidate-a', args, false), startController('candidate-b', args, false)]);
    await Promise.all([a.waitReady(), b.waitReady()]);
    const leaderId = await a.waitUntil(async () => {
      const h = await holder();
      return h !== undefined && [a.identity, b.identity].includes(h) && h;
    }, 30_000, 'a holder of the Lease among the two');
    const [leader, standby] = leaderId === a.identity ? [a, b] : [b, a];
    await leader.waitUntil(async () => (await master(leader)) === 1 && (await master(standby)) === 0, 10_000, 'leader_election_master_status 1 on the leader, 0 on the standby');
    await leader.waitUntil(async () => (await phaseOf()) === 'Deploying', 30_000, 'the leader to write the first status');
    await setStatus(client, deployment, deploymentStatuses(1).running);
    await leader.waitUntil(async () => (await phaseOf()) === 'Running', 30_000, 'the leader to write Running');
    await settle(leader);
    await sleep(1_000);
    const leaderWrites = await patches(leader);
    const standbyWrites = await patches(standby);
    expect(leaderWrites).toBe(2);
    expect(standbyWrites).toBe(0);
    expect(standby.logsMatching('status updated')).toEqual([]);
    expect(await holder()).toBe(leader.identity);
    const transitions0 = (await client.get<any>(lease)).spec.leaseTransitions ?? 0;

    // SIGKILL the leader: no release; the standby takes over when the lease expires.
    leader.signal('SIGKILL');
    const killed = Date.now();
    expect(await leader.waitExit()).toEqual({ code: null, signal: 'SIGKILL' });
    const lastRenewal = (await client.get<any>(lease)).spec;
    expect(lastRenewal.holderIdentity).toBe(leader.identity);
    await setStatus(client, deployment, deploymentStatuses(1).failed);
    await standby.waitUntil(async () => (await phaseOf()) === 'Failed', 30_000, 'the standby to take over and write Failed', 50);
    const failoverMs = Date.now() - killed;
    const acquired = standby.logsMatching('successfully acquired lease')[0];
    const acquiredMs = Date.parse(String(acquired?.ts)) - killed;
    const takenOver = (await client.get<any>(lease)).spec;
    expect(takenOver.holderIdentity).toBe(standby.identity);
    expect(takenOver.leaseTransitions).toBe(transitions0 + 1);
    expect(await master(standby)).toBe(1);
    // Never before the dead leader's lease expired: 15 s after its last renewal (one machine, one clock) ...
    const expiredMs = Date.parse(takenOver.acquireTime) - Date.parse(lastRenewal.renewTime);
    expect(expiredMs).toBeGreaterThanOrEqual(15_000);
    // ... and within the lease duration plus a retry period: the standby counts the 15 s from when it
    // last saw the Lease change, which it checks every retry period (2 s, jittered up to 2.2× = 4.4 s,
    // as client-go's JitterUntil with factor 1.2); then one status write.
    expect(expiredMs).toBeLessThan(15_000 + 4_400 + 500);
    expect(failoverMs).toBeLessThan(15_000 + 4_400 + 2_000);
    await settle(standby);
    expect(await patches(standby)).toBe(1);

    // SIGTERM the new leader with a third candidate waiting: exit 0, the Lease released, the third takes over at once.
    const third = await startController('candidate-c', args);
    expect(await master(third)).toBe(0);
    standby.signal('SIGTERM');
    const terminated = Date.now();
    const exit = await standby.waitExit(30_000);
    const exitMs = Date.now() - terminated;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(standby.logsMatching('released leader lease')).toHaveLength(1);
    // Released: no holder (unless the third candidate already took it).
    const released = (await client.get<any>(lease)).spec;
    if (released.holderIdentity !== third.identity) expect(released).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
    await third.waitUntil(async () => (await holder()) === third.identity, 10_000, 'the third candidate to take the released Lease', 50);
    const handoverMs = Date.now() - terminated;
    expect(handoverMs).toBeLessThan(7_000); // the next attempt (a retry period: ≤ 4.4 s) after the release, not a lease duration
    await setStatus(client, deployment, deploymentStatuses(1).running);
    await third.waitUntil(async () => (await phaseOf()) === 'Running', 30_000, 'the third to write Running');
    await settle(third);
    expect(await patches(third)).toBe(1);
    expect(await master(third)).toBe(1);
    report.push(`4. leader election (defaults: lease 15 s, renew 10 s, retry 2 s): leader wrote ${leaderWrites} patches, standby ${standbyWrites}; ` +
      `after SIGKILL the standby acquired the Lease ${acquiredMs} ms after the kill (${expiredMs} ms after the dead leader's last renewal) and the record showed its write ${failoverMs} ms after the kill; ` +
      `SIGTERM: exit 0 in ${exitMs} ms, Lease released, the third candidate held it ${handoverMs} ms after the signal and wrote 1 patch`);
  }), 150_000);
});

describe('5. conflicts', () => {
  const NS = 'conflicts';
  const NAMES = ['race-0', 'race-1', 'race-2'];
  const CONFLICT_LOG = 'record changed while its status was computed; reading it again';

  test('status patches racing label updates get 409 Conflict, are retried, and the final status is right', withControllerLogs(async () => {
    const objects = synthesize((app) => {
      const chart = new Chart(app, 'm', { namespace: NS });
      for (const n of NAMES) new ModelDeployment(chart, n, vllmProps(n));
    });
    await ensureNamespaces(client, [NS]);
    const ctl = await startController('conflicts', ['--namespace', NS, '--log-level', 'debug']);
    await createAll(client, objects);
    await ctl.waitUntil(async () => {
      const now = await records(NS);
      return NAMES.every((n) => now.get(n)?.status?.phase === 'Deploying');
    }, 30_000, 'the records Deploying');
    const deployment = (name: string) => ({ ...DEPLOYMENT, namespace: NS, name });
    const statuses = deploymentStatuses(1);

    let stop = false;
    let labelWrites = 0;
    let statusWrites = 0;
    /** `<record>/<label>` → the last value written. */
    const lastLabel = new Map<string, string>();
    // Two writers keep changing every record's labels, each its own label (each write a new resourceVersion) ...
    const labeller = async (worker: number) => {
      const label = `test.example/writer-${worker}`;
      while (!stop) {
        for (const n of NAMES) {
          const value = String(++labelWrites);
          await client.patch({ ...MD, namespace: NS, name: n }, { metadata: { labels: { [label]: value } } }, 'merge');
          lastLabel.set(`${n}/${label}`, value);
        }
      }
    };
    // ... while the model servers flap between deploying and running.
    const flapper = async () => {
      for (let k = 0; !stop; k++) {
        for (const n of NAMES) await setStatus(client, deployment(n), k % 2 === 0 ? statuses.running : statuses.deploying);
        statusWrites += NAMES.length;
        await sleep(100);
      }
    };
    const t0 = Date.now();
    const writers = [labeller(1), labeller(2), flapper()];
    try {
      await ctl.waitUntil(() => ctl.logsMatching(CONFLICT_LOG).length >= 20, 45_000, `at least 20 "${CONFLICT_LOG}" log lines`, 200);
    } finally {
      stop = true;
      await Promise.all(writers);
    }
    const raceMs = Date.now() - t0;

    // The final word: every server failed.
    for (const n of NAMES) await setStatus(client, deployment(n), statuses.failed);
    await ctl.waitUntil(async () => {
      const now = await records(NS);
      return NAMES.every((n) => now.get(n)?.status?.phase === 'Failed');
    }, 60_000, 'every record Failed');
    await settle(ctl);
    const final = await records(NS);
    for (const n of NAMES) {
      const r = final.get(n);
      expect({ name: n, phase: r.status.phase, ready: statusCondition(r, 'Ready')?.status, message: r.status.message })
        .toEqual({ name: n, phase: 'Failed', ready: 'False', message: expect.stringContaining('timed out progressing') });
      expect(r.status.observedGeneration).toBe(r.metadata.generation);
      // Status writes left the labels alone: ours is the last one written, the controller's selector label is intact.
      expect(r.metadata.labels).toEqual({
        'inference.cdk8s.io/rendered-by': 'cdk8s-inference',
        'test.example/writer-1': lastLabel.get(`${n}/test.example/writer-1`),
        'test.example/writer-2': lastLabel.get(`${n}/test.example/writer-2`),
      });
    }
    expect(ctl.exit).toBeUndefined();
    expect((await ctl.get('probes', '/healthz')).status).toBe(200);
    const conflicts = ctl.logsMatching(CONFLICT_LOG).length;
    const exhausted = ctl.logsMatching('Reconciler error');
    const errors = await ctl.metric('controller_runtime_reconcile_errors_total', { controller: CONTROLLER });
    // Only conflicts failed reconciles (retries exhausted), never anything else.
    for (const l of exhausted) expect(String(l.error)).toMatch(/conflict|the object has been modified/i);
    expect(errors).toBe(exhausted.length);
    report.push(`5. conflicts: ${raceMs} ms of ${labelWrites} label writes racing ${statusWrites} upstream status writes over ${NAMES.length} records; ` +
      `${conflicts} conflicts retried (logged), ${exhausted.length} reconciles gave up after 5 retries and were requeued; ` +
      `${await patches(ctl)} status patches; final statuses right, labels intact, no crash`);
  }), 150_000);
});
