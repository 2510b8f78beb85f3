import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, JsonPatch, Size, Testing } from 'cdk8s';
import { Cpu, PersistentVolumeAccessMode } from 'cdk8s-plus-34';
import {
  DirectVllmProvider,
  EngineType,
  InferenceProviderConfig,
  ModelDeployment,
  ModelSource,
  ProviderRegistry,
  ServingMode,
  VolumePurpose,
} from '../../src';
import { expectValidManifests } from '../support/schema-validator';

/** A chart whose app has a registry where only the Direct vLLM provider is installed. */
function vllmOnlyChart(namespace = 'ml'): Chart {
  const app = Testing.app();
  const registry = new ProviderRegistry(app, 'Providers');
  for (const p of ['dynamo', 'kaito', 'kuberay', 'llmd']) registry.setReady(p, false);
  return new Chart(app, 'test', { namespace });
}

/** Every validation message of the app, as `App.synth()` would report them. */
function validationErrors(scope: Chart): string[] {
  return scope.node.root.node.findAll().flatMap((c) => c.node.validate());
}

describe('ModelDeployment', () => {
  test('auto-selects engine and provider and synthesizes schema-valid objects plus the record', () => {
    const chart = vllmOnlyChart();
    const md = new ModelDeployment(chart, 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });

    const manifests = Testing.synth(chart);
    expect(manifests.map((m) => `${m.kind}/${m.metadata.name}`)).toEqual(['Deployment/qwen', 'Service/qwen', 'ModelDeployment/qwen']);
    expectValidManifests(manifests);
    expect(validationErrors(chart)).toEqual([]);
    expect(md.engineType).toBe(EngineType.VLLM);
    expect(md.providerName).toBe('vllm');
    expect(md.engineSelectedReason).toBe('auto-selected from provider vllm capabilities');
    expect(md.providerSelectedReason).toBe('matched capabilities: engine=vllm, gpu=true, mode=aggregated');
    expect(manifests).toMatchSnapshot();
  });

  test('the record carries the defaulted spec, the choice and its reasons', () => {
    const chart = vllmOnlyChart();
    new ModelDeployment(chart, 'qwen', {
      metadata: { labels: { team: 'a' }, annotations: { owner: 'ml' } },
      model: { id: 'Qwen/Qwen3-0.6B' },
      resources: { gpu: { count: 1 } },
    });
    const record = Testing.synth(chart).find((m) => m.kind === 'ModelDeployment');
    expect(record.apiVersion).toBe('airunway.ai/v1alpha1');
    expect(record.metadata).toEqual({
      name: 'qwen',
      namespace: 'ml',
      // Marked for our controller; AI Runway's controllers pause on it.
      labels: { 'team': 'a', 'inference.cdk8s.io/rendered-by': 'cdk8s-inference' },
      annotations: {
        'owner': 'ml',
        'airunway.ai/reconcile-paused': 'true',
        'inference.cdk8s.io/engine-selected-reason': 'auto-selected from provider vllm capabilities',
        'inference.cdk8s.io/provider-selected-reason': 'matched capabilities: engine=vllm, gpu=true, mode=aggregated',
        // What was synthesized for it (the controller's optional ownerReferences).
        'inference.cdk8s.io/rendered-objects': JSON.stringify([
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'qwen' },
          { apiVersion: 'v1', kind: 'Service', name: 'qwen' },
        ]),
      },
    });
    expect(record.spec).toEqual({
      model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
      engine: { type: 'vllm', enablePrefixCaching: true, trustRemoteCode: false, enforceEager: false },
      provider: { name: 'vllm' },
      serving: { mode: 'aggregated' },
      scaling: { replicas: 1 },
      resources: { gpu: { count: 1, type: 'nvidia.com/gpu' } },
      gateway: { enabled: false }, // no Gateway known: the build-time routing decision is recorded
    });
  });

  test('emitRecord: false omits the record', () => {
    const chart = vllmOnlyChart();
    const md = new ModelDeployment(chart, 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'vllm' }, engine: { engineType: EngineType.VLLM }, emitRecord: false });
    expect(md.record).toBeUndefined();
    expect(Testing.synth(chart).map((m) => m.kind)).toEqual(['Deployment', 'Service']);
  });

  test('props map onto the whole spec', () => {
    const chart = vllmOnlyChart();
    new ModelDeployment(chart, 'llama', {
      metadata: { name: 'llama-8b', namespace: 'inference' },
      model: { id: 'meta-llama/Llama-3.1-8B-Instruct', servedName: 'llama', source: ModelSource.HUGGINGFACE },
      provider: { name: 'vllm', overrides: { spec: { revisionHistoryLimit: 3 } } },
      engine: {
        engineType: EngineType.VLLM,
        image: 'vllm/vllm-openai:v0.11.0',
        contextLength: 4096,
        trustRemoteCode: true,
        enablePrefixCaching: false,
        enforceEager: true,
        args: { 'gpu-memory-utilization': '0.9' },
        extraArgs: ['--max-num-seqs=64'],
      },
      servingMode: ServingMode.AGGREGATED,
      scaling: { replicas: 2 },
      resources: { gpu: { count: 2, resourceName: 'nvidia.com/gpu' }, cpu: Cpu.units(8), memory: Size.gibibytes(64) },
      storage: [{ name: 'cache', purpose: VolumePurpose.MODEL_CACHE, size: Size.gibibytes(50), accessMode: PersistentVolumeAccessMode.READ_WRITE_ONCE, storageClassName: '' }],
      env: [{ name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' }],
      podLabels: { team: 'search' },
      podAnnotations: { 'prometheus.io/scrape': 'true' },
      huggingFaceTokenSecret: 'hf',
      gateway: { enabled: false, modelName: 'llama' },
      nodeSelector: { pool: 'gpu' },
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
    });
    const manifests = Testing.synth(chart);
    expectValidManifests(manifests);
    const record = manifests.find((m) => m.kind === 'ModelDeployment');
    expect(record.spec).toEqual({
      model: {
        id: 'meta-llama/Llama-3.1-8B-Instruct',
        servedName: 'llama',
        source: 'huggingface',
        storage: {
          volumes: [
            { name: 'cache', purpose: 'modelCache', size: '50Gi', readOnly: false, storageClassName: '', accessMode: 'ReadWriteOnce', claimName: 'llama-8b-cache', mountPath: '/model-cache' },
          ],
        },
      },
      provider: { name: 'vllm', overrides: { spec: { revisionHistoryLimit: 3 } } },
      engine: {
        type: 'vllm',
        image: 'vllm/vllm-openai:v0.11.0',
        contextLength: 4096,
        trustRemoteCode: true,
        enablePrefixCaching: false,
        enforceEager: true,
        args: { 'gpu-memory-utilization': '0.9' },
        extraArgs: ['--max-num-seqs=64'],
      },
      serving: { mode: 'aggregated' },
      scaling: { replicas: 2 },
      resources: { gpu: { count: 2, type: 'nvidia.com/gpu' }, cpu: '8', memory: '64Gi' },
      env: [{ name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' }],
      podTemplate: { metadata: { labels: { team: 'search' }, annotations: { 'prometheus.io/scrape': 'true' } } },
      secrets: { huggingFaceToken: 'hf' },
      gateway: { enabled: false, modelName: 'llama' },
      nodeSelector: { pool: 'gpu' },
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
    });
    expect(manifests.map((m) => `${m.kind}/${m.metadata.namespace}/${m.metadata.name}`)).toEqual([
      'Deployment/inference/llama-8b',
      'Service/inference/llama-8b',
      'PersistentVolumeClaim/inference/llama-8b-cache',
      'ModelDeployment/inference/llama-8b',
    ]);
    expect(manifests[0].spec.revisionHistoryLimit).toBe(3);
  });

  test('default name comes from the construct id, namespace from the chart', () => {
    const chart = vllmOnlyChart('team-b');
    const md = new ModelDeployment(chart, 'Qwen_Small', { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });
    expect(md.name).toBe('qwen-small');
    expect(md.namespace).toBe('team-b');
  });

  test('a long construct id gets a stable hashed name that fits every derived object', () => {
    const chart = vllmOnlyChart();
    const id = 'a-very-long-construct-id-for-a-model-deployment-that-keeps-going-and-going';
    const md = new ModelDeployment(chart, id, { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });
    expect(md.name.length).toBeLessThanOrEqual(48);
    expect(md.name).toMatch(/^a-very-long-construct-id-for-a-model-de-[0-9a-f]{8}$/);
    expect(validationErrors(chart)).toEqual([]);
    const again = new ModelDeployment(vllmOnlyChart(), id, { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });
    expect(again.name).toBe(md.name);
  });

  test('fails when an explicit name is longer than a Service name may be', () => {
    const chart = vllmOnlyChart();
    const name = 'x'.repeat(70);
    const md = new ModelDeployment(chart, 'long', { metadata: { name }, model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });
    expect(validationErrors(chart)).toEqual([
      `metadata.name: Invalid value: "${name}": must be a lowercase RFC 1123 label of at most 63 characters (it names Services and is a label value): ` +
        "lowercase letters, digits and '-', starting and ending with a letter or digit",
    ]);
    expect(md.apiObjects).toEqual([]);
    expect(md.node.children.map((c) => c.node.id)).toEqual([]);
  });

  test('fails when an explicit name does not fit the derived Service', () => {
    const chart = vllmOnlyChart();
    const md = new ModelDeployment(chart, 'digit', { metadata: { name: '3-qwen' }, model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });
    expect(validationErrors(chart)).toEqual([
      'metadata.name: Invalid value: "3-qwen": derived Service name "3-qwen" must be a DNS-1035 label ' +
        '(lowercase letters, digits and "-", starting with a letter and ending with a letter or digit)',
    ]);
    expect(md.apiObjects).toEqual([]);
    expect(md.node.children.map((c) => c.node.id)).toEqual([]);
  });

  test('fails when two deployments synthesize the same object', () => {
    const chart = vllmOnlyChart();
    new ModelDeployment(chart, 'a', { metadata: { name: 'same' }, model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });
    new ModelDeployment(chart, 'b', { metadata: { name: 'same' }, model: { id: 'Qwen/Qwen3-8B' }, resources: { gpu: { count: 1 } } });
    const errors = validationErrors(chart);
    expect(errors).toContain('Deployment "ml/same" is synthesized twice: by test/a/Deployment and by test/b/Deployment; give one of the deployments another name or namespace');
    expect(errors).toHaveLength(3);
  });

  test('fails with every admission error of the deployment together, and synthesizes nothing', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'test');
    const md = new ModelDeployment(chart, 'bad', {
      model: { source: ModelSource.HUGGINGFACE },
      scaling: { replicas: 40 },
      resources: { gpu: { count: 65 } },
      provider: { overrides: { spec: { template: { spec: { hostNetwork: true } } } } },
    });
    expect(validationErrors(chart)).toEqual([
      'spec.model.id: Required value: model.id is required when source is huggingface',
      'spec.provider.overrides.spec.template.spec.hostNetwork: Forbidden: overriding "hostNetwork" is not allowed for security reasons',
      'spec.resources.gpu.count: Invalid value: 65: exceeds maximum allowed (64)',
      'spec.scaling.replicas: Invalid value: 40: exceeds maximum allowed (32)',
    ]);
    expect(md.apiObjects).toEqual([]);
    expect(md.record).toBeUndefined();
    expect(() => app.synth()).toThrow(/\[test\/bad\] spec\.model\.id: Required value/);
  });

  test('fails when props break the CRD schema, as YAML input would', () => {
    const chart = vllmOnlyChart();
    const md = new ModelDeployment(chart, 'qwen', {
      model: { id: 'Qwen/Qwen3-0.6B' },
      scaling: { replicas: 2.5 },
      resources: { gpu: { count: -1 } },
      storage: Array.from({ length: 9 }, (_, i) => ({ name: `v${i}`, claimName: `c${i}`, mountPath: `/v${i}` })),
    });
    expect(validationErrors(chart)).toEqual([
      'spec.model.storage.volumes: Invalid value: 9: must have at most 8 items',
      'spec.resources.gpu.count: Invalid value: -1: must be greater than or equal to 0',
      'spec.scaling.replicas: Invalid value: 2.5: must be of type integer',
    ]);
    expect(md.apiObjects).toEqual([]);
  });

  test('the record keeps nulls of provider.overrides, which the provider applied', () => {
    const chart = vllmOnlyChart();
    new ModelDeployment(chart, 'qwen', {
      model: { id: 'Qwen/Qwen3-0.6B' },
      provider: { name: 'vllm', overrides: { spec: { strategy: null, paused: true } } },
      engine: { engineType: EngineType.VLLM },
    });
    const manifests = Testing.synth(chart);
    expect(manifests.find((m) => m.kind === 'ModelDeployment').spec.provider.overrides).toEqual({ spec: { strategy: null, paused: true } });
    expect(manifests.find((m) => m.kind === 'Deployment').spec.strategy).toBeNull();
  });

  test('fails when the selected provider has no translation, naming it', () => {
    const app = Testing.app();
    const registry = new ProviderRegistry(app, 'Providers');
    registry.register(new InferenceProviderConfig({
      name: 'inhouse',
      engines: [{ engineType: EngineType.VLLM, gpuSupport: true }],
      selectionRules: [{ condition: "spec.model.id.startsWith('Qwen/')", priority: 500 }],
    }));
    const chart = new Chart(app, 'test');
    new ModelDeployment(chart, 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, engine: { engineType: EngineType.VLLM } });
    expect(validationErrors(chart)).toEqual([
      'spec.provider.name: Invalid value: "inhouse": provider "inhouse" (matched capabilities: engine=vllm, gpu=true, mode=aggregated) is only an InferenceProviderConfig, with no InferenceProvider to translate it; add one (ProviderRegistry.addProvider), set spec.provider.name to another provider, or declare "inhouse" not ready (ProviderRegistry.setReady, or an InferenceProviderConfig document with status.ready: false)',
    ]);
  });

  test('fails when the provider rejects the deployment (Direct vLLM without GPU)', () => {
    const chart = vllmOnlyChart();
    new ModelDeployment(chart, 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'vllm' }, engine: { engineType: EngineType.VLLM }, resources: { gpu: { count: 0 } } });
    expect(validationErrors(chart)).toEqual([
      'spec.resources.gpu.count: Invalid value: 0: vllm engine on provider vllm requires GPU (set resources.gpu.count > 0)',
    ]);
  });

  test('warnings are recorded, not thrown', () => {
    const chart = vllmOnlyChart();
    const md = new ModelDeployment(chart, 'qwen', {
      model: { id: 'Qwen/Qwen3-0.6B' },
      engine: { trustRemoteCode: true },
      resources: { gpu: { count: 1 } },
    });
    expect(md.warnings).toEqual(['trustRemoteCode=true allows execution of arbitrary code from HuggingFace']);
    expect(validationErrors(chart)).toEqual([]);
  });

  test('a user-registered provider with a higher-priority rule wins selection', () => {
    const app = Testing.app();
    const registry = new ProviderRegistry(app, 'Providers', { includeShippedProviders: false, providers: [new DirectVllmProvider()] });
    registry.register(InferenceProviderConfig.fromManifest({
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'InferenceProviderConfig',
      metadata: { name: 'vllm' },
      spec: { capabilities: { engines: [{ name: 'vllm', servingModes: ['aggregated'], gpuSupport: true }] }, selectionRules: [{ condition: "spec.model.id.startsWith('Qwen/')", priority: 10 }] },
    }));
    registry.register(new InferenceProviderConfig({ name: 'other', engines: [{ engineType: EngineType.VLLM, gpuSupport: true }] }));
    const md = new ModelDeployment(new Chart(app, 'c'), 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });
    expect(md.providerName).toBe('vllm');
  });

  test('an explicit registry prop wins over the one in scope', () => {
    const app = Testing.app();
    new ProviderRegistry(app, 'InScope');
    const own = new ProviderRegistry(app, 'Own', { includeShippedProviders: false, providers: [new DirectVllmProvider()] });
    const md = new ModelDeployment(new Chart(app, 'c'), 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } }, providerRegistry: own });
    expect(md.providerName).toBe('vllm');
  });

  test('fromManifest accepts an AI Runway object and synthesizes the same objects as props', () => {
    const fromYaml = vllmOnlyChart();
    ModelDeployment.fromManifest(fromYaml, 'qwen', {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: { name: 'qwen' },
      spec: { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } },
    });
    const fromProps = vllmOnlyChart();
    new ModelDeployment(fromProps, 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });
    expect(Testing.synth(fromYaml)).toEqual(Testing.synth(fromProps));
  });

  test('fromManifest fails on schema errors with their field paths', () => {
    const chart = vllmOnlyChart();
    ModelDeployment.fromManifest(chart, 'bad', {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: { name: 'bad' },
      spec: { model: { id: 'x/y', storage: { volumes: [{ name: 'Bad_Name', size: '1Gi' }] } }, engine: { type: 'vlm' }, resouces: {} },
    });
    expect(validationErrors(chart)).toEqual([
      'spec.resouces: Forbidden: unknown field (not in the schema); did you mean "resources"?',
      'spec.engine.type: Unsupported value: "vlm": supported values: "vllm", "sglang", "trtllm", "llamacpp"; did you mean "vllm"?',
      'spec.model.storage.volumes[0].name: Invalid value: "Bad_Name": must match the regular expression ^[a-z0-9]([a-z0-9\\-]*[a-z0-9])?$',
    ]);
  });

  test('escape hatch: addJsonPatch reaches the final JSON of a synthesized object', () => {
    const chart = vllmOnlyChart();
    const md = new ModelDeployment(chart, 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });
    md.apiObjects[0].addJsonPatch(JsonPatch.add('/spec/minReadySeconds', 30));
    expect(Testing.synth(chart)[0].spec.minReadySeconds).toBe(30);
  });

  test('App.synth writes the YAML', () => {
    const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'md-')) });
    const registry = new ProviderRegistry(app, 'Providers');
    for (const p of ['dynamo', 'kaito', 'kuberay', 'llmd']) registry.setReady(p, false);
    new ModelDeployment(new Chart(app, 'llm'), 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });
    expect(app.synthYaml()).toContain('kind: ModelDeployment');
  });
});
