/**
 * The simulated cluster at scale: 250 KWOK nodes of 8 `nvidia.com/gpu` each (an H100 pool,
 * untainted, 2,000 GPUs), 1,000 bare pods of 2 GPUs each — exactly enough to fill every GPU —
 * bound by the real kube-scheduler and made Running by KWOK; then one more pod asking for a GPU
 * stays Pending, and the scheduler's FailedScheduling event says why (Insufficient nvidia.com/gpu).
 *
 * Bare pods rather than a Deployment: the pods are created by the test (20 at a time), so the time
 * measured is the scheduler's and KWOK's, not the controller-manager's client rate limit.
 *
 * Timings (cluster start, pods created, all bound, all Running, the extra pod's event) are printed.
 * Needs the envtest and simulated cluster binaries (scripts/envtest/build-binaries.sh,
 * scripts/simcluster/build-binaries.sh).
 */
import { GPUS, NodePool } from './gpu-pools';
import { SimCluster } from './sim-cluster';
import { ensureNamespaces } from '../envtest/controller-status-fixtures';
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

let cluster: SimCluster | undefined;
const timings: Record<string, number> = {};

function gpuPod(name: string, gpus: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS, labels: { app: 'scale' } },
    spec: {
      terminationGracePeriodSeconds: 0,
      containers: [{
        name: 'vllm',
        image: 'vllm/vllm-openai:v0.11.0',
        resources: {
          requests: { 'cpu': '1', 'memory': '4Gi', 'nvidia.com/gpu': String(gpus) },
          limits: { 'nvidia.com/gpu': String(gpus) },
        },
      }],
    },
  };
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
  await ensureNamespaces(cluster.client, [NS]);
  // The ServiceAccount admission plugin needs the namespace's `default` ServiceAccount.
  await waitFor(async () => {
    const sas = await cluster!.client.list<KubeObject>({ apiVersion: 'v1', kind: 'ServiceAccount', namespace: NS });
    return sas.items.some((s) => s.metadata?.name === 'default');
  }, 60_000, `the default ServiceAccount of ${NS}`, 200);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  process.stdout.write(`\nsimcluster scale (${NODES} nodes x ${GPUS_PER_NODE} GPUs, ${PODS} pods x ${GPUS_PER_POD} GPUs):\n` +
    Object.entries(timings).map(([k, v]) => `  ${k}: ${v} ms`).join('\n') +
    (cluster ? `\n  kube-apiserver peak RSS: ${cluster.peakRssKiB()} KiB` : '') + '\n');
  await cluster?.stop();
}, 120_000);

test(`${PODS} pods of ${GPUS_PER_POD} GPUs fill ${NODES} nodes of ${GPUS_PER_NODE}; one more stays Pending for Insufficient nvidia.com/gpu`, async () => {
  const c = cluster!;
  const t0 = Date.now();
  const names = Array.from({ length: PODS }, (_, i) => `gpu-${String(i).padStart(4, '0')}`);
  await pool(names, 20, (name) => c.client.create(gpuPod(name, GPUS_PER_POD)));
  timings.podsCreatedMs = Date.now() - t0;

  let pods: any[] = [];
  const listPods = async () => (pods = (await c.client.list<any>({ apiVersion: 'v1', kind: 'Pod', namespace: NS }, { labelSelector: 'app=scale' })).items);
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

  // Every GPU is taken, none twice: 4 pods (8 GPUs) on each node.
  const perNode = new Map<string, number>();
  for (const p of pods) perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + GPUS_PER_POD);
  expect(perNode.size).toBe(NODES);
  expect([...perNode.values()].every((g) => g === GPUS_PER_NODE)).toBe(true);

  // One more pod (1 GPU): no node has a GPU left.
  const t1 = Date.now();
  await c.client.create({ ...gpuPod('one-more', 1), metadata: { name: 'one-more', namespace: NS, labels: { app: 'extra' } } });
  const event = await waitFor(async () => {
    const events = await c.client.list<any>({ apiVersion: 'v1', kind: 'Event', namespace: NS }, { fieldSelector: 'involvedObject.name=one-more' });
    return events.items.find((e) => e.reason === 'FailedScheduling');
  }, 120_000, 'the FailedScheduling event of one-more', 500);
  timings.failedSchedulingEventMs = Date.now() - t1;
  process.stdout.write(`FailedScheduling: ${event.message}\n`);
  expect(event.message).toContain('Insufficient nvidia.com/gpu');
  expect(event.message).toContain(`0/${NODES} nodes are available`);
  const extra = await c.client.get<any>({ apiVersion: 'v1', kind: 'Pod', namespace: NS, name: 'one-more' });
  expect(extra.status.phase).toBe('Pending');
  expect(extra.spec.nodeName).toBeUndefined();
  expect(extra.status.conditions.find((x: any) => x.type === 'PodScheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable' });
}, 30 * 60_000);
