import { Chart, Size, Testing } from 'cdk8s';
import { ModelDeployment, ProviderRegistry, VolumePurpose } from '../src';

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

describe('ModelDeployment input limits', () => {
  test('fails when an int32 field of the props is out of range, as the CRD field could not hold it', () => {
    const chart = vllmOnlyChart();
    const md = new ModelDeployment(chart, 'qwen', {
      model: { id: 'Qwen/Qwen3-0.6B' },
      engine: { contextLength: 3000000000 },
      resources: { gpu: { count: 4294967297 } },
    });
    expect(validationErrors(chart)).toEqual([
      'spec.engine.contextLength: Invalid value: 3000000000: must be between -2147483648 and 2147483647, inclusive (format int32)',
      'spec.resources.gpu.count: Invalid value: 4294967297: must be between -2147483648 and 2147483647, inclusive (format int32)',
    ]);
    expect(md.apiObjects).toEqual([]);
  });

  test('fromManifest fails when an int32 field is out of range', () => {
    const chart = vllmOnlyChart();
    ModelDeployment.fromManifest(chart, 'qwen', {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: { name: 'qwen' },
      spec: { model: { id: 'Qwen/Qwen3-0.6B' }, engine: { contextLength: 3000000000 }, resources: { gpu: { count: 1 } } },
    });
    expect(validationErrors(chart)).toEqual([
      'spec.engine.contextLength: Invalid value: 3000000000: must be between -2147483648 and 2147483647, inclusive (format int32)',
    ]);
  });

  test.each(['vllm', 'dynamo', 'kuberay'])('volumes a-b and a--b both get their PVC on provider %s', (provider) => {
    const app = Testing.app();
    new ProviderRegistry(app, 'Providers');
    const chart = new Chart(app, 'test', { namespace: 'ml' });
    new ModelDeployment(chart, 'qwen', {
      model: { id: 'Qwen/Qwen3-0.6B' },
      provider: { name: provider },
      resources: { gpu: { count: 1 } },
      storage: [
        { name: 'a-b', purpose: VolumePurpose.CUSTOM, size: Size.gibibytes(1), mountPath: '/a' },
        { name: 'a--b', purpose: VolumePurpose.CUSTOM, size: Size.gibibytes(1), mountPath: '/b' },
      ],
    });
    expect(validationErrors(chart)).toEqual([]);
    const manifests = Testing.synth(chart);
    expect(manifests.filter((m) => m.kind === 'PersistentVolumeClaim').map((m) => m.metadata.name)).toEqual(['qwen-a-b', 'qwen-a--b']);
  });

  test('a repeated volume name is a field error, not a construct id clash', () => {
    const chart = vllmOnlyChart();
    const md = new ModelDeployment(chart, 'qwen', {
      model: { id: 'Qwen/Qwen3-0.6B' },
      resources: { gpu: { count: 1 } },
      storage: [
        { name: 'a-b', purpose: VolumePurpose.CUSTOM, size: Size.gibibytes(1), mountPath: '/a' },
        { name: 'a-b', purpose: VolumePurpose.CUSTOM, size: Size.gibibytes(1), mountPath: '/b' },
      ],
    });
    expect(validationErrors(chart)).toEqual([
      'spec.model.storage.volumes[1].name: Invalid value: "a-b": duplicate volume name',
      // defaulting names both claims qwen-a-b, as the webhook would
      'spec.model.storage.volumes[1].claimName: Invalid value: "qwen-a-b": duplicate claim name',
    ]);
    expect(md.apiObjects).toEqual([]);
  });
});
