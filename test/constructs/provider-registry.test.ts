import { ApiObject, Chart, Size, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import {
  DynamoProvider,
  EngineType,
  FieldError,
  FieldErrorKind,
  InferenceProvider,
  InferenceProviderConfig,
  KaitoProvider,
  ModelDeployment,
  ProviderRegistry,
  ResolvedDeployment,
  VolumePurpose,
} from '../../src';

describe('ProviderRegistry', () => {
  test('tryOf finds the nearest registry up the tree: the first added to a scope, another one if that is removed, none from a sibling', () => {
    const app = Testing.app();
    const appRegistry = new ProviderRegistry(app, 'AppProviders');
    const chart = new Chart(app, 'team-a');
    const deployment = new Construct(chart, 'deployment');
    expect(ProviderRegistry.tryOf(deployment)).toBe(appRegistry);
    const first = new ProviderRegistry(chart, 'First');
    const second = new ProviderRegistry(chart, 'Second');
    expect(ProviderRegistry.tryOf(deployment)).toBe(first);
    expect(ProviderRegistry.tryOf(new Construct(new Chart(app, 'team-b'), 'deployment'))).toBe(appRegistry);
    chart.node.tryRemoveChild('First');
    expect(ProviderRegistry.tryOf(deployment)).toBe(second);
    chart.node.tryRemoveChild('Second');
    expect(ProviderRegistry.tryOf(deployment)).toBe(appRegistry);
    expect(ProviderRegistry.tryOf(new Construct(Testing.app(), 'alone'))).toBeUndefined();
  });

  test('starts with the shipped providers, all ready; register replaces by name', () => {
    const registry = new ProviderRegistry(Testing.app(), 'Providers');
    expect(registry.providerNames).toEqual(['dynamo', 'flexinfer', 'kaito', 'kthena', 'kuberay', 'llmd', 'modelplane', 'vllm']);
    expect(registry.providerNames.every((n) => registry.tryGet(n)!.ready)).toBe(true);
    registry.register(new InferenceProviderConfig({ name: 'vllm', ready: false }));
    expect(registry.tryGet('vllm')!.ready).toBe(false);
    expect(registry.tryGet('vllm')!.toManifest().spec).toEqual({});
  });

  test('holds provider objects: addProvider replaces by name, register keeps the translation and takes the config', () => {
    const registry = new ProviderRegistry(Testing.app(), 'Providers');
    const shipped = registry.tryGetProvider('kaito');
    expect(shipped).toBeInstanceOf(KaitoProvider);
    const mine = new KaitoProvider({ gpuInstanceType: 'Standard_NC24ads_A100_v4' });
    registry.addProvider(mine);
    expect(registry.tryGetProvider('kaito')).toBe(mine);
    expect(registry.tryGet('kaito')).toBe(mine.config);
    registry.register(new InferenceProviderConfig({ name: 'kaito', ready: false }));
    expect(registry.tryGetProvider('kaito')).toBe(mine);
    expect(registry.tryGet('kaito')!.ready).toBe(false);
    registry.register(new InferenceProviderConfig({ name: 'tgi' }));
    expect(registry.tryGetProvider('tgi')).toBeUndefined();
    expect(registry.providerNames).toEqual(['dynamo', 'flexinfer', 'kaito', 'kthena', 'kuberay', 'llmd', 'modelplane', 'tgi', 'vllm']);
  });

  test('its catalog is built once and rebuilt after a change', () => {
    const registry = new ProviderRegistry(Testing.app(), 'Providers');
    const first = registry._catalog();
    expect(registry._catalog()).toBe(first);
    registry.addProvider(new KaitoProvider({ gpuInstanceType: 'Standard_NC24ads_A100_v4' }));
    expect(registry._catalog()).not.toBe(first);
    expect(registry._catalog().provider('kaito')).toBe(registry.tryGetProvider('kaito'));
    const second = registry._catalog();
    registry.setReady('vllm', false);
    expect(registry._catalog().entries.find((e) => e.name === 'vllm')!.ready).toBe(false);
    expect(second.entries.find((e) => e.name === 'vllm')!.ready).toBe(true);
  });

  test('fails when addProvider is given something that is not an InferenceProvider', () => {
    const registry = new ProviderRegistry(Testing.app(), 'Providers');
    expect(() => registry.addProvider(new InferenceProviderConfig({ name: 'x' }) as any)).toThrow('ProviderRegistry Providers: addProvider() expects an InferenceProvider');
  });

  test("a user's provider is selected by its CEL rule, validates and translates like a shipped one", () => {
    class TgiProvider extends InferenceProvider {
      public constructor() {
        super({
          config: new InferenceProviderConfig({
            name: 'tgi',
            engines: [{ engineType: EngineType.VLLM, gpuSupport: true }],
            selectionRules: [{ condition: "spec.model.id.startsWith('mistralai/')", priority: 500 }],
          }),
        });
      }
      public validate(d: ResolvedDeployment): FieldError[] {
        return d.spec.model.id.endsWith('-Instruct') ? [] : [{ path: 'spec.model.id', kind: FieldErrorKind.INVALID, value: d.spec.model.id, message: 'instruct models only' }];
      }
      public translate(scope: Construct, d: ResolvedDeployment): ApiObject[] {
        return [new ApiObject(scope, 'ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: d.name }, data: { model: d.spec.model.id, engine: d.engineType } })];
      }
    }
    const app = Testing.app();
    new ProviderRegistry(app, 'Providers', { providers: [new TgiProvider()] });
    const chart = new Chart(app, 'c', { namespace: 'ml' });
    const mistral = new ModelDeployment(chart, 'mistral', { model: { id: 'mistralai/Mistral-7B-Instruct' }, resources: { gpu: { count: 1 } } });
    const qwen = new ModelDeployment(chart, 'qwen', { model: { id: 'Qwen/Qwen3-8B' }, resources: { gpu: { count: 1 } } });
    expect([mistral.providerName, qwen.providerName]).toEqual(['tgi', 'dynamo']);
    expect(mistral.providerSelectedReason).toBe('matched capabilities: engine=vllm, gpu=true, mode=aggregated');
    expect(Testing.synth(chart).find((m) => m.kind === 'ConfigMap')).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mistral', namespace: 'ml' }, data: { model: 'mistralai/Mistral-7B-Instruct', engine: 'vllm' } });

    const rejected = Testing.app();
    new ProviderRegistry(rejected, 'Providers', { providers: [new TgiProvider()] });
    const base = new ModelDeployment(new Chart(rejected, 'c'), 'base', { model: { id: 'mistralai/Mistral-7B' }, resources: { gpu: { count: 1 } } });
    expect(base.node.validate()).toEqual(['spec.model.id: Invalid value: "mistralai/Mistral-7B": instruct models only']);
    expect(base.apiObjects).toEqual([]);
  });

  test('includeShippedProviders: false starts empty', () => {
    expect(new ProviderRegistry(Testing.app(), 'Providers', { includeShippedProviders: false }).providerNames).toEqual([]);
  });

  test('fails when setReady names an unknown provider', () => {
    const registry = new ProviderRegistry(Testing.app(), 'Providers');
    expect(() => registry.setReady('tgi', false)).toThrow('ProviderRegistry: no provider named "tgi" (registered: dynamo, flexinfer, kaito, kthena, kuberay, llmd, modelplane, vllm)');
  });

  test('fails when it is changed after a deployment selected from it (the change would not apply)', () => {
    const app = Testing.app();
    const registry = new ProviderRegistry(app, 'Providers');
    new ModelDeployment(new Chart(app, 'c'), 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });
    const expected =
      'ProviderRegistry Providers: setReady() after c/qwen already selected its provider from this registry; register providers and set readiness before creating ModelDeployments';
    expect(() => registry.setReady('dynamo', false)).toThrow(expected);
    expect(() => registry.register(new InferenceProviderConfig({ name: 'x' }))).toThrow(/register\(\) after c\/qwen/);
  });

  test('KAITO instance types come from the KaitoProvider registered in place of the shipped one', () => {
    const app = Testing.app();
    new ProviderRegistry(app, 'Providers', { providers: [new KaitoProvider({ gpuInstanceType: 'Standard_NC24ads_A100_v4', cpuInstanceType: 'Standard_D8s_v5' })] });
    const chart = new Chart(app, 'c', { namespace: 'ml' });
    new ModelDeployment(chart, 'gpu', { model: { id: 'microsoft/phi-4' }, provider: { name: 'kaito' }, engine: { engineType: EngineType.VLLM }, resources: { gpu: { count: 1 } } });
    new ModelDeployment(chart, 'cpu', { model: { id: 'x/y-gguf' }, provider: { name: 'kaito' }, engine: { engineType: EngineType.LLAMACPP, image: 'example.com/llama:1' } });
    const workspaces = Testing.synth(chart).filter((m) => m.kind === 'Workspace');
    expect(workspaces.map((w) => [w.metadata.name, w.resource.instanceType])).toEqual([
      ['gpu', 'Standard_NC24ads_A100_v4'],
      ['cpu', 'Standard_D8s_v5'],
    ]);
  });

  test('Dynamo image tag and the download Job image come from the DynamoProvider registered in place of the shipped one', () => {
    const app = Testing.app();
    new ProviderRegistry(app, 'Providers', { providers: [new DynamoProvider({ dynamoVersion: '1.4.0', modelDownloadImage: 'registry.example.com/downloader:2' })] });
    const chart = new Chart(app, 'c', { namespace: 'ml' });
    new ModelDeployment(chart, 'qwen', {
      model: { id: 'Qwen/Qwen3-8B' },
      provider: { name: 'dynamo' },
      engine: { engineType: EngineType.VLLM },
      resources: { gpu: { count: 1 } },
      storage: [{ name: 'cache', purpose: VolumePurpose.MODEL_CACHE, size: Size.gibibytes(50) }],
    });
    const manifests = Testing.synth(chart);
    const yaml = JSON.stringify(manifests.find((m) => m.kind === 'DynamoGraphDeployment'));
    expect(yaml).toContain('nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0');
    expect(yaml).not.toContain(':1.1.1');
    expect(manifests.find((m) => m.kind === 'Job').spec.template.spec.containers[0].image).toBe('registry.example.com/downloader:2');
  });
});
