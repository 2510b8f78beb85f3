/**
 * The project's status controller (`cdk8s-inference controller`, a real process: see
 * test/envtest/controller-status-process.ts) on the simulated cluster, reporting each record's
 * phase, replicas and endpoint from what the real components wrote — nothing here writes an
 * upstream status by hand:
 *
 * - Running: a Direct vLLM Deployment of 1, 2 and 3 replicas whose pods the real scheduler binds to
 *   GKE-tainted L4/A10G/... nodes and KWOK runs; the deployment controller reports it Available.
 * - Deploying: the same Deployments with a node selector no pool meets (pods Pending); the
 *   deployment controller reports it progressing. A RayService the real KubeRay operator turned into
 *   a RayCluster with Running pods, waiting for a Ray head that never answers (KWOK's pods run
 *   nothing): KubeRay's "RayService is initializing".
 * - Failed: the unschedulable Deployments with a 10 s progress deadline, which the deployment
 *   controller marks `ProgressDeadlineExceeded`; the RayService with a 15 s
 *   `ray.io/initializing-timeout`, which KubeRay marks `InitializingTimeout`.
 *
 * Each case has a namespace of its own, so every object is called alike and the statuses differ
 * only where the components wrote them differently. Those statuses, normalized (real-statuses.ts),
 * must equal test/fixtures/operator-statuses/real-statuses.json, the fixture the status tests
 * elsewhere use; `CAPTURE_STATUSES=1` rewrites it from this run instead
 * (`npx projen simcluster:capture-statuses`).
 *
 * Needs the envtest and simulated cluster binaries (scripts/envtest/build-binaries.sh,
 * scripts/simcluster/build-binaries.sh); without them the setup fails saying so.
 */
import { Chart } from 'cdk8s';
import { DEPLOYMENT_REPLICA_COUNTS, normalizeStatus, Stage, writeRealStatuses } from './real-statuses';
import { ensureNamespaces } from './scenario';
import { SimCluster } from './sim-cluster';
import { ModelDeployment, ModelDeploymentProps } from '../../src';
import { createAll, installControllerCrds, recordsOf, synthesize, upstreamOf } from '../envtest/controller-status-fixtures';
import { ControllerProcess } from '../envtest/controller-status-process';
import { KubeObject, waitFor } from '../envtest/kube-client';
import { readRealStatuses, RealStatuses, REAL_STATUSES_FILE } from '../support/operator-statuses';
import { statusCondition } from '../support/status-conditions';

const SETUP_TIMEOUT_MS = 60 * 60_000;
const MD = { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment' };
const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment' };
const RAY_SERVICE = { apiVersion: 'ray.io/v1', kind: 'RayService' };
/** A GKE accelerator no pool of gpu-pools.ts has: the scheduler never finds a node. */
const NO_SUCH_GPU = { 'cloud.google.com/gke-accelerator': 'nvidia-b200' };
/** A GKE node pool that does not exist. */
const NO_SUCH_POOL = { 'cloud.google.com/gke-nodepool': 'no-such-pool' };
/** Short enough to wait out here; the defaults are 600 s (Deployment) and none (RayService). */
const PROGRESS_DEADLINE_SECONDS = 10;
const RAY_INITIALIZING_TIMEOUT = '15s';
const CAPTURE = process.env.CAPTURE_STATUSES === '1';

interface Case {
  readonly namespace: string;
  readonly name: string;
  readonly props: ModelDeploymentProps;
  readonly source: { readonly apiVersion: string; readonly kind: string };
  /** Changes a test makes to a synthesized upstream object before it is created. */
  readonly edit?: (o: KubeObject) => void;
}

function vllmCase(stage: Stage, replicas: number): Case {
  const namespace = `deployment-${stage}-${replicas}`;
  return {
    namespace,
    name: 'qwen',
    props: {
      metadata: { name: 'qwen' },
      model: { id: 'Qwen/Qwen3-0.6B' },
      provider: { name: 'vllm' },
      resources: { gpu: { count: 1 } },
      scaling: { replicas },
      ...(stage !== 'running' && { nodeSelector: NO_SUCH_GPU }),
    },
    source: DEPLOYMENT,
    edit: stage === 'failed' ? (o) => {
      if (o.kind === 'Deployment') o.spec.progressDeadlineSeconds = PROGRESS_DEADLINE_SECONDS;
    } : undefined,
  };
}

/**
 * A RayService. `running-head`: as synthesized — KubeRay makes its RayCluster, whose pods KWOK runs,
 * and then waits on a Ray dashboard that never answers (nothing runs in KWOK's pods). `deploying`
 * and `failed`: the head pod given a node selector no node meets, the way a head that does not fit
 * any CPU node stays Pending — KubeRay then re-evaluates the RayService every 2 s, so its status is
 * the same from run to run (with a head that is Ready, KubeRay stops at the unreachable dashboard
 * and never re-evaluates, and its initializing timeout never fires); `failed` adds the timeout.
 */
function rayCase(variant: 'running-head' | 'deploying' | 'failed'): Case {
  return {
    namespace: `rayservice-${variant}`,
    name: 'llama',
    props: { metadata: { name: 'llama' }, model: { id: 'meta-llama/Llama-3.1-8B-Instruct' }, provider: { name: 'kuberay' }, resources: { gpu: { count: 1 } } },
    source: RAY_SERVICE,
    edit: variant === 'running-head' ? undefined : (o) => {
      if (o.kind !== 'RayService') return;
      o.spec.rayClusterConfig.headGroupSpec.template.spec.nodeSelector = NO_SUCH_POOL;
      if (variant === 'failed') o.metadata!.annotations = { ...o.metadata!.annotations, 'ray.io/initializing-timeout': RAY_INITIALIZING_TIMEOUT };
    },
  };
}

const STAGES: Stage[] = ['deploying', 'running', 'failed'];
const DEPLOYMENT_CASES = new Map(DEPLOYMENT_REPLICA_COUNTS.flatMap((n) => STAGES.map((s) => [`${s}-${n}`, vllmCase(s, n)] as const)));
const RAY_CASES = { runningHead: rayCase('running-head'), deploying: rayCase('deploying'), failed: rayCase('failed') };
const CASES = [...DEPLOYMENT_CASES.values(), ...Object.values(RAY_CASES)];

let cluster: SimCluster | undefined;
let controller: ControllerProcess | undefined;
const report: string[] = [];

beforeAll(async () => {
  const t0 = Date.now();
  cluster = await SimCluster.start({ taintGpuNodes: true });
  await installControllerCrds(cluster.client, cluster.cp.dir);
  report.push(`cluster start ${cluster.timings.totalMs} ms, controller CRDs ${Date.now() - t0 - cluster.timings.totalMs} ms`);
  controller = await ControllerProcess.start({ kubeconfig: cluster.cp.writeKubeconfig(), name: 'controller' });
  await controller.waitReady(120_000);

  await ensureNamespaces(cluster.client, CASES.map((c) => c.namespace));
  const t1 = Date.now();
  for (const c of CASES) {
    const objects = synthesize((app) => new ModelDeployment(new Chart(app, c.namespace, { namespace: c.namespace }), c.name, c.props));
    for (const o of upstreamOf(objects)) c.edit?.(o);
    // The record first, as `kubectl apply` of the synthesized file does it (it is the first object).
    await createAll(cluster.client, [...recordsOf(objects), ...upstreamOf(objects)]);
  }
  report.push(`${CASES.length} deployments created in ${Date.now() - t1} ms`);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  process.stdout.write(`\ncontroller on the simulated cluster:\n  ${report.join('\n  ')}\n`);
  await controller?.stop();
  await cluster?.stop();
}, 120_000);

const get = (ref: { apiVersion: string; kind: string }, c: Case) => cluster!.client.get<any>({ ...ref, namespace: c.namespace, name: c.name });

/** Waits until the record of `c` is in `phase`; returns it. */
async function recordIn(c: Case, phase: string, timeoutMs: number): Promise<any> {
  let last: any;
  try {
    return await waitFor(async () => {
      last = await get(MD, c);
      return last.status?.phase === phase ? last : false;
    }, timeoutMs, `record ${c.namespace}/${c.name} to be ${phase}`, 250);
  } catch (e) {
    throw new Error(`${(e as Error).message}\nlast status: ${JSON.stringify(last?.status)}\n${controller!.logTail(20)}`);
  }
}

/** Waits until the upstream object of `c` satisfies `ready`; returns it. */
async function upstreamWhen(c: Case, what: string, ready: (o: any) => boolean, timeoutMs: number): Promise<any> {
  let last: any;
  try {
    return await waitFor(async () => {
      last = await get(c.source, c);
      return ready(last) ? last : false;
    }, timeoutMs, `${c.source.kind} ${c.namespace}/${c.name}: ${what}`, 250);
  } catch (e) {
    throw new Error(`${(e as Error).message}\nlast status: ${JSON.stringify(last?.status)}`);
  }
}

const captured: { deployment: Record<string, Partial<Record<Stage, unknown>>>; rayService: Partial<Record<'deploying' | 'failed', unknown>> } = {
  deployment: {},
  rayService: {},
};
const capture = (stage: Stage, replicas: number, o: any) => {
  (captured.deployment[replicas] ??= {})[stage] = normalizeStatus(o.status, { deployment: 'qwen' });
};

describe.each(DEPLOYMENT_REPLICA_COUNTS)('a Direct vLLM Deployment of %i replica(s)', (n) => {
  test('Running once KWOK runs its pods and the deployment controller reports it Available', async () => {
    const c = DEPLOYMENT_CASES.get(`running-${n}`)!;
    const d = await upstreamWhen(c, `${n} available replicas`, (o) => o.status?.availableReplicas === n && statusCondition(o, 'Available')?.status === 'True', 180_000);
    const record = await recordIn(c, 'Running', 60_000);
    expect(record.status.replicas).toEqual({ desired: n, ready: n, available: n });
    expect(record.status.endpoint).toMatchObject({ service: 'qwen', port: 8000 });
    expect(record.status.message).toBe('Deployments created, pods are ready');
    expect(statusCondition(record, 'Ready')).toMatchObject({ status: 'True', reason: 'DeploymentReady' });
    // The pods are where the scheduler put them: each on a GPU node, tainted like GKE's.
    const pods = await cluster!.client.list<any>({ apiVersion: 'v1', kind: 'Pod', namespace: c.namespace });
    expect(pods.items.filter((p) => p.status?.phase === 'Running' && p.spec.nodeName)).toHaveLength(n);
    capture('running', n, d);
  }, 300_000);

  test('Deploying while the scheduler finds no node, with the deployment controller\'s own conditions', async () => {
    const c = DEPLOYMENT_CASES.get(`deploying-${n}`)!;
    const d = await upstreamWhen(c, 'Progressing=True and Available=False', (o) =>
      statusCondition(o, 'Progressing')?.status === 'True' && statusCondition(o, 'Available')?.status === 'False' && o.status?.replicas === n, 120_000);
    const record = await recordIn(c, 'Deploying', 60_000);
    expect(record.status.replicas).toEqual({ desired: n, ready: 0, available: 0 });
    expect(record.status.message).toBe('Deployments created, waiting for pods to be ready');
    expect(statusCondition(record, 'Ready')).toMatchObject({ status: 'False', reason: 'DeploymentInProgress' });
    // Every pod Pending for the scheduler's reason.
    const pods = await cluster!.client.list<any>({ apiVersion: 'v1', kind: 'Pod', namespace: c.namespace });
    expect(pods.items).toHaveLength(n);
    for (const p of pods.items) {
      expect(statusCondition(p, 'PodScheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable' });
      expect(statusCondition(p, 'PodScheduled').message).toContain("didn't match Pod's node affinity/selector");
    }
    capture('deploying', n, d);
  }, 300_000);

  test(`Failed from the deployment controller's ProgressDeadlineExceeded (${PROGRESS_DEADLINE_SECONDS} s deadline)`, async () => {
    const c = DEPLOYMENT_CASES.get(`failed-${n}`)!;
    const d = await upstreamWhen(c, 'Progressing=False ProgressDeadlineExceeded', (o) =>
      statusCondition(o, 'Progressing')?.reason === 'ProgressDeadlineExceeded', 180_000);
    const record = await recordIn(c, 'Failed', 60_000);
    const message: string = statusCondition(d, 'Progressing').message;
    expect(message).toMatch(/^ReplicaSet "qwen-[a-z0-9]+" has timed out progressing\.$/);
    expect(record.status.message).toBe(message);
    expect(statusCondition(record, 'Ready')).toMatchObject({ status: 'False', reason: 'DeploymentFailed', message });
    capture('failed', n, d);
  }, 300_000);
});

describe('a RayService, reconciled by the real KubeRay operator', () => {
  const RAY_DEPLOYING_MESSAGE = 'RayService created, waiting for pods to be ready';

  test('a RayCluster with Running head and GPU worker pods; the record Deploying', async () => {
    const c = RAY_CASES.runningHead;
    const rs = await upstreamWhen(c, 'a RayCluster named in its status', (o) =>
      statusCondition(o, 'Ready')?.reason === 'Initializing' && !!(o.status?.pendingServiceStatus?.rayClusterName || o.status?.activeServiceStatus?.rayClusterName), 180_000);
    const rayClusterName = rs.status.pendingServiceStatus?.rayClusterName || rs.status.activeServiceStatus?.rayClusterName;
    const pods = await waitFor(async () => {
      const list = await cluster!.client.list<any>({ apiVersion: 'v1', kind: 'Pod', namespace: c.namespace }, { labelSelector: `ray.io/cluster=${rayClusterName}` });
      const running = list.items.filter((p) => p.status?.phase === 'Running');
      return running.length >= 2 && running.length === list.items.length ? running : false;
    }, 180_000, `the pods of RayCluster ${rayClusterName} to be Running`, 500);
    expect(pods.map((p: any) => p.metadata.labels['ray.io/node-type']).sort()).toEqual(['head', 'worker']);
    const worker = pods.find((p: any) => p.metadata.labels['ray.io/node-type'] === 'worker');
    expect(worker.spec.containers[0].resources.limits['nvidia.com/gpu']).toBe('1');
    const record = await recordIn(c, 'Deploying', 60_000);
    expect(statusCondition(rs, 'Ready')).toMatchObject({ status: 'False', reason: 'Initializing', message: 'RayService is initializing' });
    // AI Runway's reconcile step words every Deploying record alike, whatever the upstream message.
    expect(record.status.message).toBe(RAY_DEPLOYING_MESSAGE);
    expect(record.status.replicas).toEqual({ desired: 1, ready: 0, available: 0 });
    expect(record.status.endpoint).toMatchObject({ service: 'llama-serve-svc', port: 8000 });
  }, 300_000);

  test('Deploying while its head pod cannot be scheduled', async () => {
    const c = RAY_CASES.deploying;
    // KubeRay writes a RayService's status only when a part it compares changed (conditions, the
    // clusters' names, the applications): the copy of the RayCluster's status in it stays the one
    // of the first write, taken before the RayCluster had a status.
    await upstreamWhen(c, 'a RayCluster named in its status', (o) =>
      statusCondition(o, 'Ready')?.reason === 'Initializing' && !!o.status?.pendingServiceStatus?.rayClusterName, 180_000);
    const head = await waitFor(async () => {
      const list = await cluster!.client.list<any>({ apiVersion: 'v1', kind: 'Pod', namespace: c.namespace }, { labelSelector: 'ray.io/node-type=head' });
      return list.items.find((p) => statusCondition(p, 'PodScheduled')?.reason === 'Unschedulable');
    }, 120_000, 'the head pod to be Unschedulable', 500);
    expect(head.status.phase).toBe('Pending');
    const record = await recordIn(c, 'Deploying', 60_000);
    expect(record.status.message).toBe(RAY_DEPLOYING_MESSAGE);
    // A few of KubeRay's 2 s re-evaluations later, the picture is the one it keeps.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    captured.rayService.deploying = normalizeStatus((await get(RAY_SERVICE, c)).status, { rayService: 'llama' });
  }, 300_000);

  test(`Failed from KubeRay's InitializingTimeout (ray.io/initializing-timeout: ${RAY_INITIALIZING_TIMEOUT})`, async () => {
    const c = RAY_CASES.failed;
    const rs = await upstreamWhen(c, 'Ready=False InitializingTimeout', (o) => statusCondition(o, 'Ready')?.reason === 'InitializingTimeout', 180_000);
    const record = await recordIn(c, 'Failed', 60_000);
    const message: string = statusCondition(rs, 'Ready').message;
    expect(message).toMatch(new RegExp(`^RayService failed to become ready within the configured timeout of ${RAY_INITIALIZING_TIMEOUT}\\. Time spent initializing: `));
    expect(record.status.message).toBe(message);
    expect(statusCondition(record, 'Ready')).toMatchObject({ status: 'False', reason: 'DeploymentFailed', message });
    // KubeRay tears the RayCluster down once it gave up.
    await waitFor(async () => {
      const list = await cluster!.client.list<any>({ apiVersion: 'ray.io/v1', kind: 'RayCluster', namespace: c.namespace });
      return list.items.length === 0 || false;
    }, 120_000, 'KubeRay to delete the timed-out RayService\'s RayCluster', 500);
    captured.rayService.failed = normalizeStatus((await get(RAY_SERVICE, c)).status, { rayService: 'llama' });
  }, 300_000);
});

describe('the captured statuses', () => {
  test(`equal the committed fixture (${REAL_STATUSES_FILE.replace(/.*\/test\//, 'test/')})`, () => {
    const fresh: RealStatuses = {
      capturedWith: CAPTURED_WITH,
      deployment: captured.deployment as RealStatuses['deployment'],
      rayService: captured.rayService as RealStatuses['rayService'],
    };
    expect(Object.keys(fresh.deployment).sort()).toEqual(DEPLOYMENT_REPLICA_COUNTS.map(String));
    for (const byStage of Object.values(fresh.deployment)) expect(Object.keys(byStage).sort()).toEqual(['deploying', 'failed', 'running']);
    expect(Object.keys(fresh.rayService).sort()).toEqual(['deploying', 'failed']);
    if (CAPTURE) {
      writeRealStatuses(fresh);
      return;
    }
    const committed = readRealStatuses();
    const hint = 'the statuses the real components write changed: review, then `npx projen simcluster:capture-statuses`';
    expect({ hint, deployment: fresh.deployment, rayService: fresh.rayService })
      .toEqual({ hint, deployment: committed.deployment, rayService: committed.rayService });
  });
});

const CAPTURED_WITH: RealStatuses['capturedWith'] = {
  kubernetes: 'kube-controller-manager, kube-scheduler and kube-apiserver 1.35.4 (scripts/envtest/build-binaries.sh)',
  kuberay: 'ray-operator v1.5.0 (scripts/simcluster/build-binaries.sh)',
  kwok: 'sigs.k8s.io/kwok v0.8.0, kwokctl\'s default stages',
  command: 'npx projen simcluster:capture-statuses',
};
