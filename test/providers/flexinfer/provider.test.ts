import { Chart, Size, Testing } from 'cdk8s';
import { flexInferDeployment } from './fixtures';
import { EngineType, GatewayRef, ModelDeployment, ProviderRegistry, ServingMode, VolumePurpose } from '../../../src';
import { toResolvedDeployment } from '../../../src/api/resolved-model-deployment';
import { FlexInferProvider } from '../../../src/providers/flexinfer';
import { flexInferProviderConfig } from '../../../src/providers/flexinfer/config';
import { expectValidManifests } from '../../support/schema-validator';

const DEVICES_YAML = `resources:
  - name: gpu
    deviceClassName: gpu.nvidia.com
    count: 1
`;

/** An app with FlexInfer registered beside the shipped providers, and a namespaced chart. */
function appWithFlexInfer(provider = new FlexInferProvider(), gateway?: GatewayRef) {
  const app = Testing.app();
  new ProviderRegistry(app, 'Providers', { providers: [provider], ...(gateway && { gateway }) });
  const chart = new Chart(app, 'llm', { namespace: 'ml' });
  return { app, chart };
}

describe('FlexInferProvider', () => {
  test('declares vllm (GPU) and llamacpp (GPU and CPU), aggregated only, explicit selection only', () => {
    const provider = new FlexInferProvider();
    expect(provider.name).toBe('flexinfer');
    expect(provider.config.explicitSelectionOnly).toBe(true);
    const engines = flexInferProviderConfig().spec.capabilities!.engines!;
    expect(engines.map((e) => [e.name, e.servingModes, e.gpuSupport ?? false, e.cpuSupport ?? false])).toEqual([
      ['vllm', ['aggregated'], true, false],
      ['llamacpp', ['aggregated'], true, true],
    ]);
    expect(flexInferProviderConfig(false).ready).toBe(false);
  });

  test('emits Models and PVCs, reads the Model named like the deployment, and cannot carry DRA claims', () => {
    const provider = new FlexInferProvider();
    const view = toResolvedDeployment(flexInferDeployment());
    expect(provider.emittedKinds()).toEqual([
      { apiVersion: 'ai.flexinfer/v1alpha2', kind: 'Model', resource: 'models' },
      { apiVersion: 'v1', kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims' },
    ]);
    expect(provider.statusSource(view)).toEqual({ apiVersion: 'ai.flexinfer/v1alpha2', kind: 'Model', name: 'qwen' });
    expect(provider.supportsDeviceClaims(view)).toBe(false);
  });

  test("pools FlexInfer's serving pods by their model label on the backend's port", () => {
    const provider = new FlexInferProvider();
    expect(provider.inferencePoolTarget(toResolvedDeployment(flexInferDeployment()))).toEqual({ selector: { 'flexinfer.ai/model': 'qwen' }, targetPort: 8000 });
    expect(provider.inferencePoolTarget(toResolvedDeployment(flexInferDeployment({ spec: { engine: { type: 'llamacpp' } } })))).toEqual({ selector: { 'flexinfer.ai/model': 'qwen' }, targetPort: 8080 });
    expect(provider.inferencePoolTarget(toResolvedDeployment(flexInferDeployment({ spec: { engine: { type: 'sglang' } } })))).toBeUndefined();
  });
});

describe('FlexInfer through the public ModelDeployment construct', () => {
  test('a deployment that names flexinfer synthesizes its Model and the record, all schema-valid', () => {
    const { chart } = appWithFlexInfer();
    const md = new ModelDeployment(chart, 'm', {
      metadata: { name: 'qwen', annotations: { 'inference.cdk8s.io/flexinfer-gpu-shared': 'rtx4090', 'inference.cdk8s.io/flexinfer-litellm': 'true' } },
      model: { id: 'Qwen/Qwen3-0.6B', servedName: 'qwen3' },
      engine: { contextLength: 32768 },
      resources: { gpu: { count: 1 } },
      storage: [{ name: 'model-cache', purpose: VolumePurpose.MODEL_CACHE, size: Size.gibibytes(100) }],
      provider: { name: 'flexinfer' },
    });
    expect([md.providerName, md.engineType, md.providerSelectedReason]).toEqual(['flexinfer', EngineType.VLLM, 'explicit provider selection']);
    const manifests = Testing.synth(chart);
    expectValidManifests(manifests);
    expect(manifests.map((m) => m.kind)).toEqual(['Model', 'PersistentVolumeClaim', 'ModelDeployment']);
    expect(manifests[0].spec).toEqual({
      backend: 'vllm',
      source: 'HF://Qwen/Qwen3-0.6B',
      gpu: { vendor: 'nvidia', count: 1, shared: 'rtx4090' },
      image: 'vllm/vllm-openai:v0.33.0',
      serverless: { enabled: false },
      cache: { strategy: 'SharedPVC', pvcName: 'qwen-model-cache' },
      config: { servedModelName: 'qwen3', maxModelLen: 32768 },
      litellm: { servedModelName: 'qwen3' },
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
    });
  });

  test('llama.cpp on CPU through the construct', () => {
    const { chart } = appWithFlexInfer(new FlexInferProvider({ llamaCppImage: 'ghcr.io/ggml-org/llama.cpp:server' }));
    new ModelDeployment(chart, 'm', {
      metadata: { name: 'tiny' },
      model: { id: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF' },
      engine: { engineType: EngineType.LLAMACPP, args: { 'hf-file': 'qwen2.5-0.5b-instruct-q4_k_m.gguf' } },
      storage: [{ name: 'cache', purpose: VolumePurpose.MODEL_CACHE, size: Size.gibibytes(5) }],
      provider: { name: 'flexinfer' },
    });
    const manifests = Testing.synth(chart);
    expectValidManifests(manifests);
    expect(manifests[0].spec).toMatchObject({ backend: 'llamacpp', gpu: { vendor: 'cpu' }, image: 'ghcr.io/ggml-org/llama.cpp:server', config: { ggufFile: 'qwen2.5-0.5b-instruct-q4_k_m.gguf' } });
  });

  test('is never auto-selected: a deployment that does not name it goes elsewhere', () => {
    const { chart } = appWithFlexInfer();
    const md = new ModelDeployment(chart, 'm', { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });
    expect(md.providerName).not.toBe('flexinfer');
  });

  test('fails when the deployment is disaggregated, naming the targets that support it', () => {
    const { chart } = appWithFlexInfer();
    const md = new ModelDeployment(chart, 'm', {
      model: { id: 'Qwen/Qwen3-0.6B' },
      servingMode: ServingMode.DISAGGREGATED,
      scaling: {
        prefill: { replicas: 1, gpu: { count: 1 }, memory: Size.gibibytes(32) },
        decode: { replicas: 1, gpu: { count: 1 }, memory: Size.gibibytes(32) },
      },
      engine: { engineType: EngineType.VLLM },
      provider: { name: 'flexinfer' },
    });
    expect(md.node.validate()).toEqual([expect.stringMatching(/^spec\.serving\.mode: Invalid value: "disaggregated": provider flexinfer does not support disaggregated mode for engine vllm.*dynamo.*llmd/)]);
  });

  test('fails when the engine is one FlexInfer cannot run', () => {
    const { chart } = appWithFlexInfer();
    const md = new ModelDeployment(chart, 'm', {
      model: { id: 'Qwen/Qwen3-0.6B' },
      engine: { engineType: EngineType.SGLANG },
      resources: { gpu: { count: 1 } },
      provider: { name: 'flexinfer' },
    });
    expect(md.node.validate()).toEqual([expect.stringMatching(/^spec\.engine\.type: Invalid value: "sglang": provider flexinfer does not support engine sglang.*dynamo/)]);
  });

  test('fails when the deployment claims DRA devices, naming the providers that can carry them', () => {
    const { chart } = appWithFlexInfer();
    const md = new ModelDeployment(chart, 'm', {
      metadata: { annotations: { 'inference.cdk8s.io/devices': DEVICES_YAML } },
      model: { id: 'Qwen/Qwen3-0.6B' },
      resources: { gpu: { count: 1 } },
      provider: { name: 'flexinfer' },
    });
    expect(md.node.validate()).toEqual([
      expect.stringMatching(/^metadata\.annotations\["inference\.cdk8s\.io\/devices"\]: Forbidden: provider FlexInfer \(explicit provider selection\) cannot carry DRA device claims in its pods; set spec\.provider\.name to one that can: .*vllm/),
    ]);
  });

  test('fails at synth with the provider\'s field errors (scale-to-zero with several replicas)', () => {
    const { app, chart } = appWithFlexInfer();
    new ModelDeployment(chart, 'm', {
      metadata: { name: 'qwen', annotations: { 'inference.cdk8s.io/flexinfer-scale-to-zero': 'true' } },
      model: { id: 'Qwen/Qwen3-0.6B' },
      resources: { gpu: { count: 1 } },
      scaling: { replicas: 2 },
      provider: { name: 'flexinfer' },
    });
    expect(() => app.synth()).toThrow(/\[llm\/m\] spec\.scaling\.replicas: Invalid value: 2: FlexInfer's scale-to-zero/);
  });

  test('behind a Gateway: an InferencePool over the FlexInfer pods, schema-valid', () => {
    const { chart } = appWithFlexInfer(new FlexInferProvider(), GatewayRef.fromName('inference-gateway', 'gateway-system'));
    new ModelDeployment(chart, 'm', {
      metadata: { name: 'qwen' },
      model: { id: 'Qwen/Qwen3-0.6B' },
      resources: { gpu: { count: 1 } },
      provider: { name: 'flexinfer' },
    });
    const manifests = Testing.synth(chart);
    expectValidManifests(manifests);
    const pool = manifests.find((m) => m.kind === 'InferencePool');
    expect(pool.spec.selector).toEqual({ matchLabels: { 'flexinfer.ai/model': 'qwen' } });
    expect(pool.spec.targetPorts).toEqual([{ number: 8000 }]);
    expect(manifests.map((m) => m.kind)).toContain('HTTPRoute');
  });
});
