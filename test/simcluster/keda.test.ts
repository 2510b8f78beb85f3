/**
 * Our KEDA ScaledObjects before the real KEDA operator (v2.21.0, `keda-operator`) on the
 * simulated cluster: KEDA reads each one, checks its target through the target's /scale
 * subresource, builds a scaler from every trigger's metadata and makes the HorizontalPodAutoscaler
 * it drives. A ScaledObject KEDA cannot use says so in its `Ready` condition; one it can becomes an
 * HPA whose bounds, behaviour and metrics are the ones we asked for.
 *
 * - `autoscaled-scale-to-zero.ts`, the example: a Direct vLLM Deployment, 0 to 4 replicas on three
 *   Prometheus queries (queue depth, KV cache, the gateway's request rate with an activation
 *   threshold), ten minutes' cooldown.
 * - A multi-node Direct vLLM deployment with autoscaling: the target is its LeaderWorkerSet (the
 *   CRD from ../shared/upstream, whose /scale KEDA reads; no LWS controller runs here).
 *
 * No Prometheus runs here, so KEDA's queries fail: what is asserted is what KEDA does with our
 * objects before any metric value — and that the failure it reports is the query to the address we
 * wrote, not an error in a trigger's metadata.
 *
 * Needs the envtest and simulated cluster binaries (scripts/envtest/build-binaries.sh,
 * scripts/simcluster/build-binaries.sh).
 */
import * as path from 'path';
import { Chart } from 'cdk8s';
import { GPUS, NodePool } from './gpu-pools';
import { crdFilesFor, ensureNamespaces } from './scenario';
import { SimCluster } from './sim-cluster';
import { AutoscalingMetric, ModelDeployment } from '../../src';
import { upstreamDir } from '../../src/schema-validation/upstream-schemas';
import { synthesize } from '../envtest/controller-status-fixtures';
import { synthesizeExample } from '../envtest/examples';
import { KubeObject, waitFor } from '../envtest/kube-client';
import { statusCondition } from '../support/status-conditions';

const SETUP_TIMEOUT_MS = 60 * 60_000;
const FIELD_MANAGER = 'cdk8s-inference-keda-test';
const POOLS: NodePool[] = [
  { name: 'g2-l4', cloud: 'gke', instanceType: 'g2-standard-24', zone: 'us-central1-a', cpu: 24, memoryGiB: 96, diskGiB: 100, gpu: GPUS.L4, gpuCount: 2, count: 2 },
];

/** The example's objects, and a multi-node deployment's whose scale target is a LeaderWorkerSet. */
async function objects(): Promise<KubeObject[]> {
  const example = (await synthesizeExample('autoscaled-scale-to-zero.ts')).objects;
  const multiNode = synthesize((app) => {
    const chart = new Chart(app, 'ml-lws', { namespace: 'ml-lws' });
    new ModelDeployment(chart, 'llama', {
      metadata: { name: 'llama' },
      model: { id: 'meta-llama/Llama-3.1-70B-Instruct' },
      provider: { name: 'vllm' },
      resources: { gpu: { count: 4 } },
      multiNode: { gpusPerNode: 2 },
      scaling: { autoscaling: { minReplicas: 1, maxReplicas: 3, metrics: [AutoscalingMetric.queueDepth(8)] } },
    });
  });
  return [...example, ...multiNode].filter((o) => o.kind !== 'ModelDeployment');
}

let cluster: SimCluster | undefined;
let all: KubeObject[] = [];

beforeAll(async () => {
  all = await objects();
  const crdFiles = [...crdFilesFor(all), path.join(upstreamDir(), 'lws', 'leaderworkerset.x-k8s.io_leaderworkersets.yaml')];
  cluster = await SimCluster.start({ pools: POOLS, kuberay: false, dra: false, keda: true, crdFiles });
  await ensureNamespaces(cluster.client, new Set(all.map((o) => o.metadata?.namespace).filter((n): n is string => !!n)));
  for (const o of all) {
    await cluster.client.apply(o, { fieldManager: FIELD_MANAGER, force: true, query: { fieldValidation: 'Strict' } });
  }
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  if (cluster) process.stdout.write(`\nKEDA on the simulated cluster: cluster start ${cluster.timings.totalMs} ms (KEDA ${cluster.timings.kedaMs} ms)\n`);
  await cluster?.stop();
}, 120_000);


function scaledObjectOf(namespace: string): KubeObject {
  const so = all.find((o) => o.kind === 'ScaledObject' && o.metadata?.namespace === namespace);
  if (!so) throw new Error(`no ScaledObject synthesized in ${namespace}`);
  return so;
}

/** The HPA KEDA made for a ScaledObject (`keda-hpa-<name>`), once it exists. */
async function hpaOf(so: KubeObject): Promise<any> {
  const ref = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', namespace: so.metadata!.namespace, name: `keda-hpa-${so.metadata!.name}` };
  return waitFor(() => cluster!.client.get<any>(ref).catch(() => false), 120_000, `KEDA's HPA ${ref.namespace}/${ref.name}`, 500);
}

/** The ScaledObject as KEDA left it once it reported on it (`Ready` set). */
async function reported(so: KubeObject): Promise<any> {
  const ref = { apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', namespace: so.metadata!.namespace, name: so.metadata!.name };
  return waitFor(async () => {
    const live = await cluster!.client.get<any>(ref);
    const ready = statusCondition(live, 'Ready');
    return ready && ready.status !== 'Unknown' && live.status?.externalMetricNames ? live : false;
  }, 120_000, `KEDA's Ready condition on ScaledObject ${ref.namespace}/${ref.name}`, 500);
}

/** `spec.metrics` of an HPA as `{ metric name: target }`. */
function externalTargets(hpa: any): Record<string, unknown> {
  return Object.fromEntries(hpa.spec.metrics.map((m: any) => [m.external.metric.name, m.external.target]));
}

describe('the real KEDA operator', () => {
  test('turns the scale-to-zero example into the HPA we asked for', async () => {
    const so = scaledObjectOf('ml');
    const hpa = await hpaOf(so);
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'qwen' });
    // KEDA's HPA never goes below 1; KEDA itself takes the Deployment to zero (minReplicaCount 0).
    expect(hpa.spec.minReplicas).toBe(1);
    expect(hpa.spec.maxReplicas).toBe(4);
    expect(hpa.spec.behavior.scaleDown.stabilizationWindowSeconds).toBe(600);
    // One External metric per trigger (KEDA names them s<index>-<scaler>), each at our threshold.
    expect(externalTargets(hpa)).toEqual({
      's0-prometheus': { type: 'AverageValue', averageValue: '4' },
      's1-prometheus': { type: 'AverageValue', averageValue: '850m' },
      's2-prometheus': { type: 'AverageValue', averageValue: '2' },
    });

    const live = await reported(so);
    expect(live.status.scaleTargetKind).toBe('apps/v1.Deployment');
    expect(live.status.externalMetricNames).toEqual(['s0-prometheus', 's1-prometheus', 's2-prometheus']);
    // KEDA built a scaler of every trigger and found the target scalable (see the control below):
    // ScaledObjectReady. Its scale loop then queries the example's Prometheus, which does not run
    // here, and turns Ready to TriggerError — on a loaded machine before we read it. Both say the
    // ScaledObject was accepted; the control's ScaledObjectCheckFailed is what a refusal looks like.
    expect(['ScaledObjectReady', 'TriggerError']).toContain(statusCondition(live, 'Ready')?.reason);
    expect(live.status.conditions.map((c: any) => c.reason)).not.toContain('ScaledObjectCheckFailed');
    process.stdout.write(`ScaledObject ml/qwen conditions: ${JSON.stringify(live.status.conditions)}\n`);
  }, 300_000);

  test('scales a multi-node deployment\'s LeaderWorkerSet through its /scale subresource', async () => {
    const so = scaledObjectOf('ml-lws');
    expect(so.spec.scaleTargetRef).toMatchObject({ apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet', name: 'llama' });
    const hpa = await hpaOf(so);
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet', name: 'llama' });
    expect([hpa.spec.minReplicas, hpa.spec.maxReplicas]).toEqual([1, 3]);
    expect(externalTargets(hpa)).toEqual({ 's0-prometheus': { type: 'AverageValue', averageValue: '8' } });
    const live = await reported(so);
    expect(live.status.scaleTargetKind).toBe('leaderworkerset.x-k8s.io/v1.LeaderWorkerSet');
    expect(statusCondition(live, 'Ready')).toMatchObject({ status: 'True', reason: 'ScaledObjectReady' });
    process.stdout.write(`ScaledObject ml-lws/llama conditions: ${JSON.stringify(live.status.conditions)}\n`);
  }, 300_000);

  test('reports a ScaledObject it cannot use (the control: a trigger without its query) Ready=False, with no HPA', async () => {
    const so = structuredClone(scaledObjectOf('ml'));
    so.metadata = { ...so.metadata, name: 'qwen-no-query' };
    delete so.spec.triggers[0].metadata.query;
    await cluster!.client.apply(so, { fieldManager: FIELD_MANAGER, force: true, query: { fieldValidation: 'Strict' } });
    const ref = { apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', namespace: 'ml', name: 'qwen-no-query' };
    const live = await waitFor(async () => {
      const o = await cluster!.client.get<any>(ref);
      return statusCondition(o, 'Ready')?.status === 'False' ? o : false;
    }, 120_000, 'KEDA to refuse ScaledObject ml/qwen-no-query', 500);
    expect(statusCondition(live, 'Ready').message).toMatch(/query/);
    await expect(cluster!.client.get({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', namespace: 'ml', name: 'keda-hpa-qwen-no-query' }))
      .rejects.toMatchObject({ status: 404 });
    process.stdout.write(`ScaledObject ml/qwen-no-query Ready: ${JSON.stringify(statusCondition(live, 'Ready'))}\n`);
  }, 300_000);
});
