/**
 * What the envtest controller tests create on the real API server: the CRDs the controller reads,
 * one deployment per shipped provider (synthesized through the real `ModelDeployment` construct),
 * and the upstream statuses the real operators write, with the shapes the providers' status tests
 * build (test/providers/<provider>/status.test.ts, test/controller/status/lifecycles.ts).
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, Chart, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { installCrds, InstalledCrd, useStorageVersion } from './crds';
import { KubeApiError, KubeClient, KubeObject } from './kube-client';
import { EngineType, ModelDeployment, ModelDeploymentProps, ServingMode } from '../../src';
import { modelDeploymentCrd } from '../../src/controller-contract/crds';
import { upstreamDir } from '../../src/schema-validation/upstream-schemas';
import { deploymentStatuses, dynamoStatuses, rayServiceStatuses, UpstreamStatuses, WORKSPACE_STATUSES } from '../support/operator-statuses';

/** Upstream CRDs of the kinds the controller reads (status sources and routing). */
const UPSTREAM_CRDS = [
  'dynamo/nvidia.com_dynamographdeployments.yaml',
  'kuberay/ray.io_rayservices.yaml',
  'kaito/kaito.sh_workspaces.yaml',
  'gateway-api-inference-extension/inference.networking.k8s.io_inferencepools.yaml',
  'gateway-api-inference-extension/inference.networking.x-k8s.io_inferencepools.yaml',
  'gateway-api/gateway.networking.k8s.io_gateways.yaml',
  'gateway-api/gateway.networking.k8s.io_httproutes.yaml',
];

/**
 * Installs the ModelDeployment CRD the controller construct ships (`modelDeploymentCrd()`) and the
 * upstream CRDs, all before any controller starts (an informer finds a kind installed later only
 * at its next "absent" retry, a minute on).
 *
 * Dynamo: its CRD's conversion webhook is replaced by `strategy: None` (crds.ts), so every
 * DynamoGraphDeployment is stored in one version's schema, whichever version it was written in,
 * and pruned by it. The v1alpha1 status carries `services` (replica counts) that v1beta1's lacks
 * (`components` instead); `state` and `conditions` are in both. So v1alpha1 is made the storage
 * version: a v1alpha1 graph keeps its whole status, and a v1beta1 graph keeps `state` and
 * `conditions` — its `components` counts are pruned, so its record counts no ready replicas
 * (`runningReady: 0`), and its v1beta1-only spec fields are pruned in storage too, which nothing
 * here reads.
 */
export async function installControllerCrds(client: KubeClient, workDir: string): Promise<InstalledCrd[]> {
  const mdFile = path.join(workDir, 'airunway.ai_modeldeployments.controller.yaml');
  fs.writeFileSync(mdFile, YAML.stringify(modelDeploymentCrd()));
  const upstream = upstreamDir();
  const crds = await installCrds(client, [mdFile, ...UPSTREAM_CRDS.map((f) => path.join(upstream, f))]);
  const dgd = crds.find((c) => c.kind === 'DynamoGraphDeployment')!;
  await useStorageVersion(client, dgd, 'v1alpha1');
  return crds;
}

/** Every object of every chart of an app (validations first, as `app.synth()` does). */
export function synthesize(build: (app: App) => void): KubeObject[] {
  const app = Testing.app();
  build(app);
  const errors = app.node.findAll().flatMap((c) => c.node.validate().map((e) => `[${c.node.path}] ${e}`));
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return app.charts.flatMap((chart) => Testing.synth(chart)) as KubeObject[];
}

/** The ModelDeployment records among synthesized objects. */
export function recordsOf(objects: KubeObject[]): KubeObject[] {
  return objects.filter((o) => o.apiVersion === 'airunway.ai/v1alpha1' && o.kind === 'ModelDeployment');
}

/** Everything but the records. */
export function upstreamOf(objects: KubeObject[]): KubeObject[] {
  return objects.filter((o) => !(o.apiVersion === 'airunway.ai/v1alpha1' && o.kind === 'ModelDeployment'));
}

/** Creates namespaces (those that exist already are fine). */
export async function ensureNamespaces(client: KubeClient, names: Iterable<string>): Promise<void> {
  for (const name of new Set(names)) {
    try {
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    } catch (e) {
      if (!(e instanceof KubeApiError && e.status === 409)) throw e;
    }
  }
}

/** Creates each object for real (fieldValidation=Strict: nothing the server would drop is sent). */
export async function createAll(client: KubeClient, objects: KubeObject[]): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (const o of objects) out.push(await client.create(o, { fieldValidation: 'Strict' }));
  return out;
}

/**
 * Sets the whole `status` of an object through its /status subresource, as an operator's status
 * update does (a JSON patch `add /status` replaces it, so no field of the previous status lingers
 * as it would under a merge patch).
 */
export async function setStatus(client: KubeClient, ref: NamespacedRef, status: unknown): Promise<KubeObject> {
  return client.patchStatus(ref, [{ op: 'add', path: '/status', value: status }], 'json');
}

/** A namespaced object's reference. */
export interface NamespacedRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

/** One deployment of the lifecycle test: its props and the object its status comes from. */
export interface ProviderCase {
  readonly title: string;
  /** The record's name. */
  readonly name: string;
  readonly props: ModelDeploymentProps;
  readonly source: { readonly apiVersion: string; readonly kind: string; readonly name: string };
  readonly statuses: UpstreamStatuses;
  /** `status.replicas.ready` once Running. */
  readonly runningReady: number;
  /** Further status sources, reported through the same stages as `source` (llm-d's prefill Deployment). */
  readonly alongside?: ReadonlyArray<{ readonly source: ProviderCase['source']; readonly statuses: UpstreamStatuses }>;
}

/** One deployment per shipped provider (and serving mode / Dynamo version), by explicit provider name. */
export function providerCases(): ProviderCase[] {
  const gpu = { gpu: { count: 1 } };
  return [
    {
      title: 'vllm (Direct vLLM Deployment)',
      name: 'vllm-qwen',
      props: { metadata: { name: 'vllm-qwen' }, model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'vllm' }, resources: gpu },
      source: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'vllm-qwen' },
      statuses: deploymentStatuses(1),
      runningReady: 1,
    },
    {
      title: 'llmd (aggregated Deployment)',
      name: 'llmd-llama',
      props: { metadata: { name: 'llmd-llama' }, model: { id: 'meta-llama/Llama-3.1-8B-Instruct' }, provider: { name: 'llmd' }, resources: gpu },
      source: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'llmd-llama' },
      statuses: deploymentStatuses(1),
      runningReady: 1,
    },
    {
      title: 'llmd (prefill/decode: the decode Deployment)',
      name: 'llmd-pd',
      props: {
        metadata: { name: 'llmd-pd' },
        model: { id: 'Qwen/Qwen3-14B' },
        provider: { name: 'llmd' },
        servingMode: ServingMode.DISAGGREGATED,
        scaling: { prefill: { replicas: 1, gpu: { count: 2 } }, decode: { replicas: 2, gpu: { count: 1 } } },
      },
      source: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'llmd-pd-decode' },
      statuses: deploymentStatuses(2),
      // Decode's 2 and prefill's 1: the record counts both sides.
      runningReady: 3,
      alongside: [{ source: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'llmd-pd-prefill' }, statuses: deploymentStatuses(1) }],
    },
    {
      title: 'dynamo (DynamoGraphDeployment v1alpha1, by annotation)',
      name: 'dynamo-a',
      props: { metadata: { name: 'dynamo-a', annotations: { 'inference.cdk8s.io/dynamo-api-version': 'nvidia.com/v1alpha1' } }, model: { id: 'Qwen/Qwen3-8B' }, provider: { name: 'dynamo' }, engine: { engineType: EngineType.VLLM }, resources: gpu },
      source: { apiVersion: 'nvidia.com/v1alpha1', kind: 'DynamoGraphDeployment', name: 'dynamo-a' },
      statuses: dynamoStatuses('dynamo-a', 'v1alpha1'),
      runningReady: 2,
    },
    {
      title: 'dynamo (DynamoGraphDeployment v1beta1, the default)',
      name: 'dynamo-b',
      props: {
        metadata: { name: 'dynamo-b' },
        model: { id: 'Qwen/Qwen3-8B' },
        provider: { name: 'dynamo' },
        engine: { engineType: EngineType.VLLM },
        resources: gpu,
      },
      source: { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', name: 'dynamo-b' },
      statuses: dynamoStatuses('dynamo-b', 'v1beta1'),
      runningReady: 0,
    },
    {
      title: 'kuberay (RayService)',
      name: 'ray-llama',
      props: { metadata: { name: 'ray-llama' }, model: { id: 'meta-llama/Llama-3.1-8B-Instruct' }, provider: { name: 'kuberay' }, resources: gpu },
      source: { apiVersion: 'ray.io/v1', kind: 'RayService', name: 'ray-llama' },
      statuses: rayServiceStatuses(1),
      runningReady: 1,
    },
    {
      title: 'kaito (Workspace, vLLM preset)',
      name: 'kaito-qwen',
      props: { metadata: { name: 'kaito-qwen' }, model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'kaito' }, resources: gpu },
      source: { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: 'kaito-qwen' },
      statuses: WORKSPACE_STATUSES,
      runningReady: 1,
    },
  ];
}

/** The objects of `cases`, each deployment in `namespace`. */
export function synthesizeCases(cases: readonly ProviderCase[], namespace: string): KubeObject[] {
  return synthesize((app) => {
    const chart = new Chart(app, namespace, { namespace });
    for (const c of cases) new ModelDeployment(chart, c.name, c.props);
  });
}

/** A vLLM deployment named `name` (the quickest status source: one Deployment). */
export function vllmProps(name: string): ModelDeploymentProps {
  return { metadata: { name }, model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } };
}
