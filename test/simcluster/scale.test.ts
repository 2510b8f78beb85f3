/**
 * The simulated cluster at scale: 250 KWOK nodes of 8 `nvidia.com/gpu` each (an H100 pool,
 * untainted, 2,000 GPUs) and 1,000 ModelDeployments of 2 GPUs each — exactly enough to fill every
 * GPU — synthesized by the library (Direct vLLM: a Deployment and a Service each) and created with
 * their records. The real deployment and replicaset controllers make the pods, the real
 * kube-scheduler binds them, KWOK runs them, and the project's status controller (a real process)
 * brings the 1,000 records to Running. Then a 1,001st deployment asking for one GPU stays Pending:
 * the scheduler's FailedScheduling event says why (Insufficient nvidia.com/gpu) and its record is
 * Deploying.
 *
 * kube-controller-manager runs with a client rate of 100 requests/s (sim-cluster.ts), so the time
 * measured is the scheduler's, KWOK's and our controller's rather than the default 20/s limit's.
 *
 * Timings (cluster start, objects created, pods bound, pods Running, records Running, the extra
 * pod's event) are printed. Needs the envtest and simulated cluster binaries
 * (scripts/envtest/build-binaries.sh, scripts/simcluster/build-binaries.sh).
 */
import { Chart } from 'cdk8s';
import { GPUS, NodePool } from './gpu-pools';
import { ensureNamespaces } from './scenario';
import { SimCluster } from './sim-cluster';
import { ModelDeployment, ModelDeploymentProps } from '../../src';
import { installControllerCrds, recordsOf, synthesize, upstreamOf } from '../envtest/controller-status-fixtures';
import { ControllerProcess } from '../envtest/controller-status-process';
import { KubeObject, waitFor } from '../envtest/kube-client';

const SETUP_TIMEOUT_MS = 30 * 60_000;
const NODES = 250;
const GPUS_PER_NODE = 8;
const GPUS_PER_POD = 2;
const PODS = (NODES * GPUS_PER_NODE) / GPUS_PER_POD; // 1,000
const NS = 'scale';

const POOL: NodePool = {
  name: 'h100',
  cloud: 'eks',
  instanceType: 'p5.48xlarge',
  zone: 'us-east-1a',
  cpu: 192,
  memoryGiB: 2048,
  diskGiB: 200,
  gpu: GPUS.H100_80GB,
  gpuCount: GPUS_PER_NODE,
  count: NODES,
};

const MD = { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment' };

let cluster: SimCluster | undefined;
let controller: ControllerProcess | undefined;
const timings: Record<string, number> = {};

function props(name: string, gpus: number): ModelDeploymentProps {
  return { metadata: { name }, model: { id: 'Qwen/Qwen3-8B' }, provider: { name: 'vllm' }, resources: { gpu: { count: gpus } } };
}

/** Records first, then the workloads, as the synthesized file lists them for `kubectl apply`. */
function objectsOf(deployments: Array<[string, number]>): KubeObject[] {
  const objects = synthesize((app) => {
    const chart = new Chart(app, NS, { namespace: NS });
    for (const [name, gpus] of deployments) new ModelDeployment(chart, name, props(name, gpus));
  });
  return [...recordsOf(objects), ...upstreamOf(objects)];
}

/** Runs `fn` over `items`, `n` at a time. */
async function pool<T>(items: T[], n: number, fn: (t: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

beforeAll(async () => {
  const t0 = Date.now();
  cluster = await SimCluster.start({ pools: [POOL], taintGpuNodes: false, dra: false, kuberay: false });
  timings.clusterStartMs = Date.now() - t0;
  timings.nodesReadyMs = cluster.timings.nodesReadyMs;
  await installControllerCrds(cluster.client, cluster.cp.dir);
  await ensureNamespaces(cluster.client, [NS]);
  controller = await ControllerProcess.start({ kubeconfig: cluster.cp.writeKubeconfig(), name: 'controller' });
  await controller.waitReady(120_000);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  process.stdout.write(`\nsimcluster scale (${NODES} nodes x ${GPUS_PER_NODE} GPUs, ${PODS} deployments x ${GPUS_PER_POD} GPUs):\n` +
    Object.entries(timings).map(([k, v]) => `  ${k}: ${v} ms`).join('\n') +
    (cluster ? `\n  kube-apiserver peak RSS: ${cluster.peakRssKiB()} KiB` : '') + '\n');
  await controller?.stop();
  await cluster?.stop();
}, 120_000);

test(`${PODS} deployments of ${GPUS_PER_POD} GPUs fill ${NODES} nodes of ${GPUS_PER_NODE}, their records Running; one more stays Pending for Insufficient nvidia.com/gpu`, async () => {
  const c = cluster!;
  const t0 = Date.now();
  const names = Array.from({ length: PODS }, (_, i) => `m-${String(i).padStart(4, '0')}`);
  const objects = objectsOf(names.map((n) => [n, GPUS_PER_POD]));
  timings.synthMs = Date.now() - t0;
  await pool(objects, 20, (o) => c.client.create(o));
  timings.objectsCreatedMs = Date.now() - t0;

  let pods: any[] = [];
  const listPods = async () => (pods = (await c.client.list<any>({ apiVersion: 'v1', kind: 'Pod', namespace: NS })).items);
  await waitFor(async () => {
    await listPods();
    return pods.filter((p) => p.spec.nodeName).length === PODS || false;
  }, 15 * 60_000, `all ${PODS} pods to be bound`, 1000);
  timings.allBoundMs = Date.now() - t0;
  await waitFor(async () => {
    await listPods();
    return pods.filter((p) => p.status?.phase === 'Running').length === PODS || false;
  }, 10 * 60_000, `all ${PODS} pods to be Running (KWOK's pod-ready stage)`, 1000);
  timings.allRunningMs = Date.now() - t0;
  let records: any[] = [];
  await waitFor(async () => {
    records = (await c.client.list<any>({ ...MD, namespace: NS })).items;
    return records.filter((r) => r.status?.phase === 'Running').length === PODS || false;
  }, 10 * 60_000, `all ${PODS} records to be Running (the status controller)`, 500);
  timings.allRecordsRunningMs = Date.now() - t0;
  timings.recordsRunningAfterPodsMs = timings.allRecordsRunningMs - timings.allRunningMs;
  expect(records.every((r) => r.status.replicas.ready === 1 && r.status.endpoint.service === r.metadata.name)).toBe(true);

  // Every GPU is taken, none twice: 4 pods (8 GPUs) on each node.
  const perNode = new Map<string, number>();
  for (const p of pods) perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + GPUS_PER_POD);
  expect(perNode.size).toBe(NODES);
  expect([...perNode.values()].every((g) => g === GPUS_PER_NODE)).toBe(true);

  // One more deployment (1 GPU): no node has a GPU left.
  const t1 = Date.now();
  for (const o of objectsOf([['one-more', 1]])) await c.client.create(o);
  const pod = await waitFor(async () => {
    const list = await c.client.list<any>({ apiVersion: 'v1', kind: 'Pod', namespace: NS }, { labelSelector: 'airunway.ai/model-deployment=one-more' });
    return list.items[0] ?? false;
  }, 120_000, 'the pod of one-more', 500);
  const event = await waitFor(async () => {
    const events = await c.client.list<any>({ apiVersion: 'v1', kind: 'Event', namespace: NS }, { fieldSelector: `involvedObject.name=${pod.metadata.name}` });
    return events.items.find((e) => e.reason === 'FailedScheduling');
  }, 120_000, 'the FailedScheduling event of one-more\'s pod', 500);
  timings.failedSchedulingEventMs = Date.now() - t1;
  process.stdout.write(`FailedScheduling: ${event.message}\n`);
  expect(event.message).toContain('Insufficient nvidia.com/gpu');
  expect(event.message).toContain(`0/${NODES} nodes are available`);
  const extra = await c.client.get<any>({ apiVersion: 'v1', kind: 'Pod', namespace: NS, name: pod.metadata.name });
  expect(extra.status.phase).toBe('Pending');
  expect(extra.spec.nodeName).toBeUndefined();
  expect(extra.status.conditions.find((x: any) => x.type === 'PodScheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable' });
  const record = await waitFor(async () => {
    const r = await c.client.get<any>({ ...MD, namespace: NS, name: 'one-more' });
    return r.status?.phase === 'Deploying' ? r : false;
  }, 60_000, 'the record of one-more to be Deploying', 500);
  expect(record.status.replicas).toEqual({ desired: 1, ready: 0, available: 0 });
}, 30 * 60_000);
