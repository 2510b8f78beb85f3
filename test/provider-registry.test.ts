import { Chart, Size, Testing } from 'cdk8s';
import { DynamoProvider, EngineType, InferenceProviderConfig, KaitoProvider, ModelDeployment, ProviderRegistry, VolumePurpose } from '../src';

describe('ProviderRegistry', () => {
  test('starts with the shipped providers, all ready; register replaces by name', () => {
    const registry = new ProviderRegistry(Testing.app(), 'Providers');
    expect(registry.providerNames).toEqual(['dynamo', 'kaito', 'kuberay', 'llmd', 'vllm']);
    expect(registry.providerNames.every((n) => registry.tryGet(n)!.ready)).toBe(true);
    registry.register(new InferenceProviderConfig({ name: 'vllm', ready: false }));
    expect(registry.tryGet('vllm')!.ready).toBe(false);
    expect(registry.tryGet('vllm')!.toManifest().spec).toEqual({});
  });

  test('includeShippedProviders: false starts empty', () => {
    expect(new ProviderRegistry(Testing.app(), 'Providers', { includeShippedProviders: false }).providerNames).toEqual([]);
  });

  test('fails when setReady names an unknown provider', () => {
    const registry = new ProviderRegistry(Testing.app(), 'Providers');
    expect(() => registry.setReady('tgi', false)).toThrow('ProviderRegistry: no provider named "tgi" (registered: dynamo, kaito, kuberay, llmd, vllm)');
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
