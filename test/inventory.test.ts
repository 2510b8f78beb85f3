import { App, Chart, Size, Testing } from 'cdk8s';
import { DeviceSelector, EngineType, ModelDeployment, ModelDeploymentProps, NodePool, ProviderRegistry, ServingMode } from '../src';
import { expectValidManifests } from './support/schema-validator';

const H100_POOL: NodePool = {
  name: 'h100',
  nodes: 2,
  labels: { 'gpu.example.com/product': 'h100' },
  extendedResources: { 'nvidia.com/gpu': 8 },
  devices: [{
    driver: 'gpu.nvidia.com',
    deviceClassName: 'gpu.nvidia.com',
    count: 8,
    attributes: { productName: 'NVIDIA H100 80GB HBM3', architecture: 'Hopper' },
    capacity: { memory: '80Gi' },
  }],
};

const A10_POOL: NodePool = {
  name: 'a10',
  nodes: 4,
  extendedResources: { 'nvidia.com/gpu': 1 },
  devices: [{ driver: 'gpu.nvidia.com', deviceClassName: 'gpu.nvidia.com', attributes: { productName: 'NVIDIA A10G' }, capacity: { memory: '24Gi' } }],
};

const MODEL = { id: 'Qwen/Qwen3-0.6B' };

/** An app with a registry of `pools` and a chart of namespace ml. */
function appWith(pools?: NodePool[]): { app: App; chart: Chart; registry: ProviderRegistry } {
  const app = Testing.app();
  const registry = new ProviderRegistry(app, 'Providers', pools && { nodePools: pools });
  return { app, chart: new Chart(app, 'c', { namespace: 'ml' }), registry };
}

/** Every validation message of the app, as `App.synth()` reports them. */
function validationErrors(app: App): string[] {
  return app.node.findAll().flatMap((c) => c.node.validate());
}

/** vllm, `count` GPUs claimed through DRA with 40Gi of memory each, `replicas` pods. */
function claiming(count: number, replicas = 1, extra: Partial<ModelDeploymentProps> = {}): ModelDeploymentProps {
  return {
    model: MODEL,
    provider: { name: 'vllm' },
    resources: { gpu: { count, devices: [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', count, selectors: [DeviceSelector.memoryAtLeast(Size.gibibytes(40))] }] } },
    scaling: { replicas },
    ...extra,
  };
}

describe('ProviderRegistry node pools', () => {
  test('nodePools and addNodePool declare pools, in order', () => {
    const { registry } = appWith([H100_POOL]);
    registry.addNodePool(A10_POOL);
    expect(registry.nodePoolNames).toEqual(['h100', 'a10']);
    expect(new ProviderRegistry(Testing.app(), 'Providers').nodePoolNames).toEqual([]);
  });

  test('an invalid pool is a validation error of the registry, and is not declared', () => {
    const { app, registry } = appWith([
      { ...H100_POOL, nodes: -1 },
      { name: 'bad-devices', nodes: 1, extendedResources: { gpu: 8 }, devices: [{ driver: 'Not A Driver', count: 0, capacity: { memory: 'lots' } }] },
      { ...A10_POOL, labels: { 'bad key!': 'x' } },
    ]);
    expect(registry.nodePoolNames).toEqual([]);
    expect(registry.node.validate()).toEqual([
      'nodePools["h100"].nodes: Invalid value: -1: must be a whole number of nodes, 0 or more',
      'nodePools["bad-devices"].extendedResources["gpu"]: Invalid value: 8: it has no domain prefix (a name without one is a native resource such as cpu or memory)',
      'nodePools["bad-devices"].devices[0].driver: Invalid value: "Not A Driver": must be a DNS subdomain',
      'nodePools["bad-devices"].devices[0].count: Invalid value: 0: must be a whole number of devices per node, 1 or more',
      'nodePools["bad-devices"].devices[0].capacity["memory"]: Invalid value: "lots": must be a Kubernetes quantity such as "80Gi"',
      'nodePools["a10"].labels["bad key!"]: Invalid value: "x": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character',
    ]);
    expect(() => app.synth()).toThrow(/\[Providers\] nodePools\["h100"\]\.nodes: Invalid value: -1/);
  });

  test('a pool needs a name', () => {
    const { registry } = appWith([{ ...H100_POOL, name: '' }]);
    expect(registry.nodePoolNames).toEqual([]);
    expect(registry.node.validate()).toEqual(['nodePools[].name: Invalid value: "": a node pool needs a name']);
  });

  test('a pool name declared twice is an error; the first declaration stays', () => {
    const { registry } = appWith([H100_POOL]);
    registry.addNodePool({ ...A10_POOL, name: 'h100' });
    expect(registry.nodePoolNames).toEqual(['h100']);
    expect(registry.node.validate()).toEqual(['nodePools["h100"].name: Invalid value: "h100": is declared twice; pool names are unique']);
  });

  test('the registry keeps its own copy of a pool', () => {
    const devices = [{ driver: 'gpu.nvidia.com', count: 8 }];
    const pool: NodePool = { name: 'mutable', nodes: 1, devices };
    const { chart, registry } = appWith();
    registry.addNodePool(pool);
    devices[0].count = 1;
    devices.push({ driver: 'gpu.nvidia.com', count: 1 });
    const md = new ModelDeployment(chart, 'qwen', { ...claiming(8), resources: { gpu: { count: 8, devices: [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 8 }] } } });
    expect(md.apiObjects.length).toBeGreaterThan(0);
  });

  test('addNodePool after a deployment read the registry throws, as addProvider does', () => {
    const { chart, registry } = appWith([H100_POOL]);
    new ModelDeployment(chart, 'qwen', claiming(2));
    expect(() => registry.addNodePool(A10_POOL)).toThrow(
      'ProviderRegistry Providers: addNodePool() after c/qwen already selected its provider from this registry; ' +
        'register providers and set readiness before creating ModelDeployments',
    );
    expect(registry.nodePoolNames).toEqual(['h100']);
  });
});

describe('ModelDeployment capacity check', () => {
  test('a deployment that fits a pool synthesizes schema-valid objects', () => {
    const { app, chart } = appWith([A10_POOL, H100_POOL]);
    const md = new ModelDeployment(chart, 'qwen', claiming(2, 8));
    expect(validationErrors(app)).toEqual([]);
    const manifests = Testing.synth(chart);
    expect(manifests.map((m) => m.kind)).toEqual(['Deployment', 'Service', 'ResourceClaimTemplate', 'ModelDeployment']);
    expectValidManifests(manifests);
    expect(md.apiObjects.map((o) => o.kind)).toEqual(['Deployment', 'Service', 'ResourceClaimTemplate']);
    expect(md.record).toBeDefined();
  });

  test('a deployment no pool holds fails the synth with InsufficientCapacity and synthesizes nothing', () => {
    const { app, chart } = appWith([A10_POOL, H100_POOL]);
    const md = new ModelDeployment(chart, 'qwen', claiming(2, 9));
    const expected =
      'metadata.annotations["inference.cdk8s.io/devices"].resources: Invalid value: "requests gpu (2 × gpu.nvidia.com) per pod": ' +
      'InsufficientCapacity: no node pool holds 9 serving pods: ' +
      'pool a10: request gpu (2 × gpu.nvidia.com) matches no device of a node: 1 × gpu.nvidia.com NVIDIA A10G: selector 1 (memory at least 40Gi) is false; ' +
      'pool h100: holds 8 of the 9 pods (2 nodes × 4 per node)';
    expect(validationErrors(app)).toEqual([expected]);
    expect(md.apiObjects).toEqual([]);
    expect(md.record).toBeUndefined();
    expect(md.providerName).toBeUndefined();
    expect(chart.node.findAll().filter((c) => c !== chart && c !== md)).toEqual([]);
    expect(() => app.synth()).toThrow(/\[c\/qwen\] .*InsufficientCapacity: no node pool holds 9 serving pods/);
  });

  test('extended-resource GPUs and the nodeSelector are checked against the pool labels', () => {
    const { app, chart } = appWith([H100_POOL]);
    const fits = new ModelDeployment(chart, 'fits', {
      model: MODEL, provider: { name: 'vllm' }, resources: { gpu: { count: 4 } }, scaling: { replicas: 4 }, nodeSelector: { 'gpu.example.com/product': 'h100' },
    });
    const wrongLabel = new ModelDeployment(chart, 'wrong-label', {
      model: MODEL, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } }, nodeSelector: { 'gpu.example.com/product': 'b200' },
    });
    const mig = new ModelDeployment(chart, 'mig', { model: MODEL, provider: { name: 'vllm' }, resources: { gpu: { count: 1, resourceName: 'nvidia.com/mig-1g.10gb' } } });
    expect(fits.apiObjects.length).toBeGreaterThan(0);
    expect(wrongLabel.apiObjects).toEqual([]);
    expect(mig.apiObjects).toEqual([]);
    expect(validationErrors(app)).toEqual([
      'spec.resources.gpu: Invalid value: "1 × nvidia.com/gpu per pod": InsufficientCapacity: no node pool holds 1 serving pod: ' +
        'pool h100: its nodes lack the label gpu.example.com/product=b200 of spec.nodeSelector',
      'spec.resources.gpu: Invalid value: "1 × nvidia.com/mig-1g.10gb per pod": InsufficientCapacity: no node pool holds 1 serving pod: ' +
        'pool h100: its nodes have no nvidia.com/mig-1g.10gb',
    ]);
    expectValidManifests(fits.apiObjects.map((o) => o.toJson()));
  });

  test('prefill and decode are checked alone; the component that does not fit is named', () => {
    const { app, chart } = appWith([{ name: 'four', nodes: 2, extendedResources: { 'nvidia.com/gpu': 4 } }]);
    const md = new ModelDeployment(chart, 'qwen', {
      model: MODEL,
      provider: { name: 'llmd' },
      servingMode: ServingMode.DISAGGREGATED,
      scaling: { prefill: { replicas: 8, gpu: { count: 1 } }, decode: { replicas: 3, gpu: { count: 4 } } },
    });
    expect(md.apiObjects).toEqual([]);
    expect(validationErrors(app)).toEqual([
      'spec.scaling.decode.gpu: Invalid value: "4 × nvidia.com/gpu per pod": InsufficientCapacity: no node pool holds 3 decode pods: ' +
        'pool four: holds 2 of the 3 pods (2 nodes × 1 per node)',
    ]);
  });

  test('deployments are checked alone: the inventory is not consumed across them', () => {
    const { app, chart } = appWith([{ ...H100_POOL, nodes: 1 }]);
    const a = new ModelDeployment(chart, 'a', claiming(8));
    const b = new ModelDeployment(chart, 'b', claiming(8));
    expect(validationErrors(app)).toEqual([]);
    expect([a, b].every((md) => md.apiObjects.length > 0)).toBe(true);
  });

  test('without pools, capacity is not checked; a deployment without GPUs is not either', () => {
    const none = appWith();
    new ModelDeployment(none.chart, 'qwen', claiming(32, 32));
    expect(validationErrors(none.app)).toEqual([]);

    const cpuOnly = appWith([{ name: 'cpu', nodes: 1 }]);
    const md = new ModelDeployment(cpuOnly.chart, 'cpu', {
      model: { id: 'x/y-gguf' }, provider: { name: 'kaito' }, engine: { engineType: EngineType.LLAMACPP, image: 'example.com/llama:1' },
    });
    expect(validationErrors(cpuOnly.app)).toEqual([]);
    expect(md.apiObjects.length).toBeGreaterThan(0);
  });

  test('an invalid pool is left out of the check and reported by the registry', () => {
    const { app, chart } = appWith([{ ...H100_POOL, nodes: -1 }, A10_POOL]);
    const md = new ModelDeployment(chart, 'qwen', claiming(2));
    expect(md.apiObjects).toEqual([]);
    const errors = validationErrors(app);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBe('nodePools["h100"].nodes: Invalid value: -1: must be a whole number of nodes, 0 or more');
    expect(errors[1]).toMatch(/InsufficientCapacity: no node pool holds 1 serving pod: pool a10: /);
    expect(errors[1]).not.toContain('pool h100');
  });
});
