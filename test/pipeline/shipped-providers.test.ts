/**
 * What every shipped provider object promises the pipeline and the controller: its status source
 * is an object its own translation emits, its status mapping reads that object, and the routing
 * and admission hooks answer for the cases they exist for.
 */
import { Chart, Testing } from 'cdk8s';
import { ConditionStatus, DeploymentPhase, DynamoApiVersion, DynamoProvider, EngineType, InferenceProvider, ModelDeployment, ProviderRegistry, ServingMode } from '../../src';
import { ResolvedModelDeployment, toResolvedDeployment } from '../../src/api/resolved-model-deployment';
import { shippedProviders } from '../../src/pipeline/shipped-providers';
import { LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG, LLMD_ENDPOINT_PICKER_CONFIG } from '../../src/providers/llmd/config';
import { dynamoDeployment, disaggregatedDeployment as dynamoDisaggregated, mockerDeployment } from '../providers/dynamo/fixtures';
import { flexInferDeployment, llamaCppCpuDeployment } from '../providers/flexinfer/fixtures';
import { kaitoLlamaCppDeployment, kaitoVllmDeployment } from '../providers/kaito/fixtures';
import { disaggregatedDeployment as kthenaDisaggregated, kthenaDeployment, sglangDeployment as kthenaSglang } from '../providers/kthena/fixtures';
import { disaggregatedDeployment as kuberayDisaggregated, kuberayDeployment } from '../providers/kuberay/fixtures';
import { disaggregatedLlmdDeployment, llmdDeployment } from '../providers/llmd/fixtures';
import { modelplaneDeployment, prefillDecodeDeployment as modelplanePrefillDecode } from '../providers/modelplane/fixtures';
import { vllmDeployment } from '../providers/vllm/fixtures';

const providers = Object.fromEntries(shippedProviders().map((p) => [p.name, p])) as Record<string, InferenceProvider>;

const CASES: Array<[string, InferenceProvider, ResolvedModelDeployment]> = [
  ['dynamo aggregated', providers.dynamo, dynamoDeployment()],
  ['dynamo disaggregated', providers.dynamo, dynamoDisaggregated()],
  ['dynamo v1beta1', new DynamoProvider({ apiVersion: DynamoApiVersion.V1BETA1 }), dynamoDeployment()],
  ['flexinfer vLLM', providers.flexinfer, flexInferDeployment()],
  ['flexinfer llama.cpp on CPU', providers.flexinfer, llamaCppCpuDeployment()],
  ['kaito vLLM preset', providers.kaito, kaitoVllmDeployment()],
  ['kaito llama.cpp', providers.kaito, kaitoLlamaCppDeployment()],
  ['kthena aggregated', providers.kthena, kthenaDeployment()],
  ['kthena SGLang', providers.kthena, kthenaSglang()],
  ['kthena prefill/decode', providers.kthena, kthenaDisaggregated()],
  ['kuberay aggregated', providers.kuberay, kuberayDeployment()],
  ['kuberay disaggregated', providers.kuberay, kuberayDisaggregated()],
  ['llmd aggregated', providers.llmd, llmdDeployment()],
  ['llmd disaggregated', providers.llmd, disaggregatedLlmdDeployment()],
  ['modelplane aggregated', providers.modelplane, modelplaneDeployment()],
  ['modelplane PrefillDecode', providers.modelplane, modelplanePrefillDecode()],
  ['vllm', providers.vllm, vllmDeployment()],
];

describe('shipped provider objects', () => {
  test('the registry order and names: one object per shipped provider', () => {
    expect(shippedProviders().map((p) => [p.name, p.displayName])).toEqual([
      ['dynamo', 'Dynamo'], ['flexinfer', 'FlexInfer'], ['kaito', 'KAITO'], ['kthena', 'Kthena'], ['kuberay', 'KubeRay'], ['llmd', 'llm-d'],
      ['modelplane', 'modelplane'], ['vllm', 'vLLM'],
    ]);
    expect(shippedProviders().every((p) => InferenceProvider.isInferenceProvider(p))).toBe(true);
    expect(InferenceProvider.isInferenceProvider({ name: 'vllm' })).toBe(false);
  });

  test.each(CASES)('%s: the status source is an object the translation emits, and maps to a reconciled report', (_name, provider, md) => {
    const deployment = toResolvedDeployment(md);
    expect(provider.validate(deployment)).toEqual([]);
    const chart = Testing.chart();
    provider.translate(chart, deployment);
    const manifests = Testing.synth(chart);
    const source = provider.statusSource(deployment)!;
    const upstream = manifests.find((m) => m.apiVersion === source.apiVersion && m.kind === source.kind && m.metadata.name === source.name);
    expect(upstream).toBeDefined();
    // Freshly applied: no status yet, so the deployment is on its way and not ready.
    const report = provider.mapStatus(upstream);
    expect(report.phase).toBe(DeploymentPhase.DEPLOYING);
    expect(report.ready).toMatchObject({ type: 'Ready', status: ConditionStatus.FALSE, reason: 'DeploymentInProgress' });
    // modelplane waits for ModelReplicas (on other clusters), the others for pods.
    expect(report.message).toMatch(/created, waiting for (pods|replicas) to be ready$/);
  });

  test.each(CASES)('%s: every object the translation emits is of a kind the provider declares', (_name, provider, md) => {
    const chart = Testing.chart();
    provider.translate(chart, toResolvedDeployment(md));
    const declared = provider.emittedKinds().map((k) => `${k.apiVersion} ${k.kind}`);
    for (const m of Testing.synth(chart)) expect(declared).toContain(`${m.apiVersion} ${m.kind}`);
    expect(new Set(provider.emittedKinds().map((k) => k.resource)).size).toBeGreaterThan(0);
  });

  test('a Running upstream object maps to Running with the Ready condition', () => {
    const md = llmdDeployment();
    const chart = Testing.chart();
    providers.llmd.translate(chart, toResolvedDeployment(md));
    const deployment = Testing.synth(chart).find((m) => m.kind === 'Deployment');
    const report = providers.llmd.mapStatus({
      ...deployment,
      status: { readyReplicas: 1, availableReplicas: 1, conditions: [{ type: 'Available', status: 'True' }] },
    });
    expect(report).toEqual({
      phase: DeploymentPhase.RUNNING,
      message: 'Deployments created, pods are ready',
      replicas: { desired: 1, ready: 1, available: 1 },
      endpoint: { service: md.name, port: 8000 },
      ready: { type: 'Ready', status: ConditionStatus.TRUE, reason: 'DeploymentReady', message: 'All replicas are ready' },
    });
  });

  test('pool targets: the model server pods and port of each controller-managed provider; none for Dynamo', () => {
    const deployment = toResolvedDeployment(vllmDeployment());
    const targets = Object.fromEntries(Object.entries(providers).map(([name, p]) => [name, p.inferencePoolTarget(deployment)]));
    expect(targets).toEqual({
      dynamo: undefined,
      flexinfer: { selector: { 'flexinfer.ai/model': 'qwen' }, targetPort: 8000 },
      kaito: { selector: { 'kaito.sh/workspace': 'qwen' }, targetPort: 5000 },
      kthena: { selector: { 'airunway.ai/model-deployment': 'qwen' }, targetPort: 8000 },
      kuberay: { selector: { 'airunway.ai/model-deployment': 'qwen' }, targetPort: 8000 },
      llmd: { selector: { 'airunway.ai/model-deployment': 'qwen' }, targetPort: 8000 },
      // modelplane serves behind its own gateways on the workload clusters.
      modelplane: undefined,
      vllm: { selector: { 'airunway.ai/model-deployment': 'qwen' }, targetPort: 8000 },
    });
  });

  test("endpoint picker configuration: llm-d's prefill/decode one replaces its shipped one when disaggregated", () => {
    const aggregated = toResolvedDeployment(llmdDeployment());
    const disaggregated = toResolvedDeployment(disaggregatedLlmdDeployment());
    expect(disaggregated.servingMode).toBe(ServingMode.DISAGGREGATED);
    expect(providers.llmd.endpointPickerConfig(aggregated, LLMD_ENDPOINT_PICKER_CONFIG)).toBe(LLMD_ENDPOINT_PICKER_CONFIG);
    expect(providers.llmd.endpointPickerConfig(disaggregated, LLMD_ENDPOINT_PICKER_CONFIG)).toBe(LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG);
    expect(providers.llmd.endpointPickerConfig(disaggregated, undefined)).toBe(LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG);
    // A configuration of the user's own is kept, and other providers pass theirs through.
    expect(providers.llmd.endpointPickerConfig(disaggregated, 'kind: EndpointPickerConfig\n')).toBe('kind: EndpointPickerConfig\n');
    expect(providers.vllm.endpointPickerConfig(toResolvedDeployment(vllmDeployment()), undefined)).toBeUndefined();
  });

  test("record annotations: a DynamoProvider set to v1beta1 writes the version into the record, so the controller's default Dynamo reads v1beta1", () => {
    const app = Testing.app();
    new ProviderRegistry(app, 'Providers', { providers: [new DynamoProvider({ apiVersion: DynamoApiVersion.V1BETA1 })] });
    const chart = new Chart(app, 'c', { namespace: 'ml' });
    new ModelDeployment(chart, 'qwen', { model: { id: 'Qwen/Qwen3-8B' }, provider: { name: 'dynamo' }, engine: { engineType: EngineType.VLLM }, resources: { gpu: { count: 1 } } });
    const manifests = Testing.synth(chart);
    const record = manifests.find((m) => m.kind === 'ModelDeployment');
    expect(record.metadata.annotations['inference.cdk8s.io/dynamo-api-version']).toBe('nvidia.com/v1beta1');
    expect(manifests.find((m) => m.kind === 'DynamoGraphDeployment').apiVersion).toBe('nvidia.com/v1beta1');
    // The controller runs the shipped DynamoProvider with default settings: the record decides.
    const asController = { ...toResolvedDeployment(dynamoDeployment()), annotations: record.metadata.annotations };
    expect(providers.dynamo.statusSource(asController)).toEqual({ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', name: 'qwen' });
    // Default settings, or a deployment that chose its version itself: nothing to add.
    expect(providers.dynamo.recordAnnotations(toResolvedDeployment(dynamoDeployment()))).toEqual({});
    const annotated = toResolvedDeployment(dynamoDeployment({ annotations: { 'inference.cdk8s.io/dynamo-api-version': 'nvidia.com/v1alpha1' } }));
    expect(new DynamoProvider({ apiVersion: DynamoApiVersion.V1BETA1 }).recordAnnotations(annotated)).toEqual({});
  });

  test("simulated backend: only Dynamo's mocker, and only when the deployment names dynamo", () => {
    expect(providers.dynamo.simulatedBackend(toResolvedDeployment(mockerDeployment()))).toEqual({ name: 'mocker', engines: ['vllm'] });
    expect(providers.dynamo.simulatedBackend(toResolvedDeployment(dynamoDeployment()))).toBeUndefined();
    const namedElsewhere = toResolvedDeployment(mockerDeployment({ spec: { provider: { name: 'vllm' } } }));
    expect(providers.dynamo.simulatedBackend(namedElsewhere)).toBeUndefined();
    for (const p of [providers.kaito, providers.kuberay, providers.llmd, providers.vllm]) {
      expect(p.simulatedBackend(toResolvedDeployment(mockerDeployment()))).toBeUndefined();
    }
  });
});
