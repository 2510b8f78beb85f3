/**
 * Every target's form of the serving-at-scale features — autoscaling (KEDA ScaledObject, HPA,
 * PodMonitor, Kthena AutoscalingPolicy, Ray Serve), multi-node replicas (LeaderWorkerSet, Dynamo
 * `multinode`, KubeRay worker groups, Kthena worker pods, modelplane Leader/Worker members) and
 * LoRA adapters (init containers, engine flags, routes by adapter name) — sent to a real API
 * server with dryRun=All and fieldValidation=Strict: each object is accepted and comes back with
 * every field as sent (nothing pruned). The schema tests check the same against the CRDs offline;
 * this is the server's own word, CEL rules and structural pruning included.
 */
import { App, Chart, Testing } from 'cdk8s';
import { ControlPlane } from './control-plane';
import { installCrds, InstalledCrd, upstreamCrdIndex, useStorageVersion } from './crds';
import { KubeApiError, KubeClient, KubeObject, splitApiVersion } from './kube-client';
import { fieldDifferences, formatDifferences } from './object-diff';
import { GatewayRef, ModelDeployment } from '../../src';
import { upstreamDir } from '../../src/schema-validation/upstream-schemas';

const SETUP_TIMEOUT_MS = 45 * 60_000;
const NAMESPACE = 'scale';

const MULTI_NODE = { 'inference.cdk8s.io/multi-node': 'gpusPerNode: 8' };
const LORA = {
  'inference.cdk8s.io/lora': [
    'adapters:',
    '  - {name: sql, source: "hf://acme-ml/qwen3-8b-sql-lora@v1.2"}',
    '  - {name: support, source: "pvc://lora-adapters/support"}',
    'maxRank: 32',
  ].join('\n'),
};
const KEDA = { 'inference.cdk8s.io/autoscaling': 'maxReplicas: 4\nmetrics: [{type: queueDepth, target: 5}, {type: kvCacheUsage, target: 80}]' };
const KEDA_TO_ZERO = {
  'inference.cdk8s.io/autoscaling': 'minReplicas: 0\nmaxReplicas: 4\ncooldownSeconds: 600\nmetrics: [{type: queueDepth, target: 5}, {type: prometheus, query: "sum(rate(x[1m]))", target: 2, activationTarget: 0.1}]',
};
const HPA = { 'inference.cdk8s.io/autoscaling': 'maxReplicas: 4\nautoscaler: hpa\ncooldownSeconds: 120\nmetrics: [{type: queueDepth, target: 5}, {type: kvCacheUsage, target: 75}, {type: requestRate, target: 1.5}]' };
const RAY = { 'inference.cdk8s.io/autoscaling': 'minReplicas: 0\nmaxReplicas: 4\nmetrics: [{type: inFlightRequests, target: 8}]' };

const SIXTEEN_GPUS = { resources: { gpu: { count: 16 } } };
const ONE_GPU = { resources: { gpu: { count: 1 } } };
const DISAGGREGATED_MULTI_NODE = {
  serving: { mode: 'disaggregated' },
  scaling: { prefill: { replicas: 1, gpu: { count: 8 } }, decode: { replicas: 1, gpu: { count: 16 } } },
};
const MODEL_CACHE = { model: { id: 'Qwen/Qwen3-8B', storage: { volumes: [{ name: 'cache', purpose: 'modelCache', size: '200Gi', accessMode: 'ReadWriteMany' }] } } };

/** name, provider, spec fields, annotations. */
const CASES: Array<[string, string, Record<string, unknown>, Record<string, string>]> = [
  ['vllm: multi-node (LeaderWorkerSet), autoscaled by KEDA, with LoRA adapters', 'vllm', SIXTEEN_GPUS, { ...MULTI_NODE, ...KEDA, ...LORA }],
  ['vllm: KEDA down to zero', 'vllm', ONE_GPU, KEDA_TO_ZERO],
  ['vllm: replicas 0', 'vllm', { ...ONE_GPU, scaling: { replicas: 0 } }, {}],
  ['llmd: HPA with LoRA adapters', 'llmd', ONE_GPU, { ...HPA, ...LORA }],
  ['llmd: prefill on one node, decode over two', 'llmd', DISAGGREGATED_MULTI_NODE, MULTI_NODE],
  ['dynamo v1alpha1: multi-node worker', 'dynamo', { ...SIXTEEN_GPUS, engine: { type: 'vllm' } }, MULTI_NODE],
  ['dynamo v1beta1: multi-node prefill/decode', 'dynamo', { ...DISAGGREGATED_MULTI_NODE, engine: { type: 'vllm' } }, {
    ...MULTI_NODE,
    'inference.cdk8s.io/dynamo-api-version': 'nvidia.com/v1beta1',
  }],
  ['kuberay: multi-node Serve replicas autoscaled by Ray', 'kuberay', SIXTEEN_GPUS, { ...MULTI_NODE, ...RAY }],
  ['kthena: multi-node, AutoscalingPolicy, LoRA adapters', 'kthena', { ...SIXTEEN_GPUS, engine: { type: 'vllm' } }, { ...MULTI_NODE, ...KEDA, ...LORA }],
  ['modelplane: Leader/Worker members', 'modelplane', { ...SIXTEEN_GPUS, ...MODEL_CACHE, engine: { type: 'vllm' } }, MULTI_NODE],
];

let cp: ControlPlane | undefined;
let client: KubeClient;
let crds: InstalledCrd[] = [];
const synthesized = new Map<string, KubeObject[]>();

/** Routed through a Gateway (an InferencePool and an HTTPRoute) only where the target uses ours. */
const ROUTED = new Set(['vllm', 'llmd']);

function synthesize(provider: string, spec: Record<string, unknown>, annotations: Record<string, string>): KubeObject[] {
  const app: App = Testing.app();
  const chart = new Chart(app, 'scale', { namespace: NAMESPACE });
  const { model, ...rest } = spec;
  ModelDeployment.fromManifest(chart, 'qwen', {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'qwen', annotations },
    spec: { model: { id: 'Qwen/Qwen3-8B', ...(model as object) }, provider: { name: provider }, ...rest },
  }, ROUTED.has(provider) ? { gatewayRef: GatewayRef.fromName('inference-gateway', 'gateway-system') } : {});
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return Testing.synth(chart);
}

beforeAll(async () => {
  for (const [name, provider, spec, annotations] of CASES) synthesized.set(name, synthesize(provider, spec, annotations));
  cp = await ControlPlane.start();
  client = cp.client();
  const upstream = upstreamDir();
  const index = upstreamCrdIndex(upstream);
  const files = new Set<string>();
  for (const obj of [...synthesized.values()].flat()) {
    const file = index.get(`${splitApiVersion(obj.apiVersion).group}/${obj.kind}`);
    if (file) files.add(file);
  }
  crds = await installCrds(client, [...files]);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await cp?.stop();
}, 60_000);

/** What is wrong with the server's answer to a dry-run create of `obj`; undefined when nothing. */
async function check(obj: KubeObject): Promise<string | undefined> {
  let returned: KubeObject;
  try {
    returned = await client.create(obj, { dryRun: 'All', fieldValidation: 'Strict' });
  } catch (e) {
    if (e instanceof KubeApiError) return `rejected: ${e.message}`;
    throw e;
  }
  const lost = fieldDifferences(obj, returned).filter((d) => d.kind !== 'normalized');
  return lost.length > 0 ? `not returned as sent:\n    ${formatDifferences(lost).join('\n    ')}` : undefined;
}

test('the cases render every form of the features', () => {
  const kinds = new Set([...synthesized.values()].flat().map((o) => o.kind));
  for (const kind of ['LeaderWorkerSet', 'ScaledObject', 'HorizontalPodAutoscaler', 'PodMonitor', 'AutoscalingPolicy', 'RayService', 'DynamoGraphDeployment', 'ModelServing', 'HTTPRoute']) {
    expect([kind, kinds.has(kind)]).toEqual([kind, true]);
  }
});

test.each(CASES.map(([name]) => name))('%s: every object is accepted as sent', async (name) => {
  const objects = synthesized.get(name)!;
  const problems: string[] = [];
  for (const obj of objects) {
    const { group, version } = splitApiVersion(obj.apiVersion);
    const crd = crds.find((c) => c.group === group && c.kind === obj.kind);
    if (crd?.conversionReplaced) await useStorageVersion(client, crd, version);
    const problem = await check(obj);
    if (problem) problems.push(`${obj.kind} ${obj.metadata?.name}: ${problem}`);
  }
  expect(problems).toEqual([]);
}, 5 * 60_000);
