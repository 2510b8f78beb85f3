import { FieldErrorKind } from '../../src';
import type { DeviceRequestSpec } from '../../src/api/devices/device-request';
import { describeNeed, fitDeployment, insufficientCapacityErrors, podNeeds } from '../../src/dra/capacity-fit';
import type { InventoryDeviceSpec, NodePoolSpec } from '../../src/dra/node-inventory';
import { DEVICES_ANNOTATION, DEVICES_ANNOTATION_PATH } from '../../src/provider-kit/device-annotation';
import { admittedDeployment, disaggregatedOf, FixtureOptions } from '../support/resolved-deployment';

/** An aggregated vllm deployment with `count` GPUs of `type` per pod and `replicas` pods. */
function gpus(count: number, replicas = 1, type = 'nvidia.com/gpu', extra: FixtureOptions['spec'] = {}) {
  return admittedDeployment('vllm', { spec: { resources: { gpu: { count, type } }, scaling: { replicas }, ...extra } });
}

/** The devices annotation holding `requests` per component. */
function devicesAnnotation(requests: Partial<Record<'resources' | 'prefill' | 'decode', DeviceRequestSpec[]>>): Record<string, string> {
  return { [DEVICES_ANNOTATION]: JSON.stringify(requests) };
}

/** An aggregated deployment claiming `requests` per pod through DRA. */
function claiming(requests: DeviceRequestSpec[], replicas = 1) {
  const count = requests.reduce((sum, r) => sum + (r.count ?? 1), 0);
  return admittedDeployment('vllm', {
    annotations: devicesAnnotation({ resources: requests }),
    spec: { resources: { gpu: { count, type: 'nvidia.com/gpu' } }, scaling: { replicas } },
  });
}

function pool(name: string, nodes: number, rest: Omit<NodePoolSpec, 'name' | 'nodes'> = {}): NodePoolSpec {
  return { name, nodes, ...rest };
}

const H100: InventoryDeviceSpec = {
  driver: 'gpu.nvidia.com',
  deviceClassName: 'gpu.nvidia.com',
  count: 8,
  attributes: { productName: 'NVIDIA H100 80GB HBM3', architecture: 'Hopper' },
  capacity: { memory: '80Gi' },
};

const A10: InventoryDeviceSpec = {
  driver: 'gpu.nvidia.com',
  deviceClassName: 'gpu.nvidia.com',
  count: 1,
  attributes: { productName: 'NVIDIA A10G', architecture: 'Ampere' },
  capacity: { memory: '24Gi' },
};

/** Each pool's fit of the only component, as [pool, fits, pods per node, reasons]. */
function onlyComponent(md: ReturnType<typeof gpus>, pools: NodePoolSpec[]) {
  const components = fitDeployment(md, pools);
  expect(components).toHaveLength(1);
  return components[0].pools.map((p) => [p.pool, p.fits, p.podsPerNode, p.reasons]);
}

describe('fitDeployment: extended resources', () => {
  test('a pool with enough GPUs per node and nodes fits', () => {
    const [c] = fitDeployment(gpus(2, 3), [pool('h100', 2, { extendedResources: { 'nvidia.com/gpu': 8 } })]);
    expect(c.need).toEqual({ component: 'resources', path: 'spec.resources.gpu', pods: 3, gpu: { resource: 'nvidia.com/gpu', count: 2 } });
    expect(c.fits).toBe(true);
    expect(c.pools).toEqual([{ pool: 'h100', fits: true, podsPerNode: 4, reasons: [] }]);
  });

  test('a node with fewer GPUs than a pod requests does not fit', () => {
    expect(onlyComponent(gpus(4), [pool('small', 10, { extendedResources: { 'nvidia.com/gpu': 2 } })])).toEqual([
      ['small', false, 0, ['a node has 2 nvidia.com/gpu, fewer than the 4 a pod requests']],
    ]);
  });

  test('a pool without the resource does not fit; a count of 0 is no resource', () => {
    expect(onlyComponent(gpus(1), [
      pool('cpu', 10),
      pool('amd', 10, { extendedResources: { 'amd.com/gpu': 8 } }),
      pool('zero', 10, { extendedResources: { 'nvidia.com/gpu': 0 } }),
    ])).toEqual([
      ['cpu', false, 0, ['its nodes have no nvidia.com/gpu']],
      ['amd', false, 0, ['its nodes have no nvidia.com/gpu']],
      ['zero', false, 0, ['its nodes have no nvidia.com/gpu']],
    ]);
  });

  test('a MIG profile is its own resource: whole GPUs do not satisfy it', () => {
    const mig = gpus(1, 7, 'nvidia.com/mig-1g.10gb');
    expect(onlyComponent(mig, [
      pool('whole', 4, { extendedResources: { 'nvidia.com/gpu': 8 } }),
      pool('mig', 1, { extendedResources: { 'nvidia.com/mig-1g.10gb': 7, 'nvidia.com/gpu': 0 } }),
    ])).toEqual([
      ['whole', false, 0, ['its nodes have no nvidia.com/mig-1g.10gb']],
      ['mig', true, 7, []],
    ]);
    expect(describeNeed(podNeeds(mig)[0])).toBe('1 × nvidia.com/mig-1g.10gb per pod');
  });

  test('an unset gpu.type means nvidia.com/gpu', () => {
    const md = admittedDeployment('vllm', { spec: { resources: { gpu: { count: 1 } } } });
    expect(podNeeds(md)[0].gpu).toEqual({ resource: 'nvidia.com/gpu', count: 1 });
  });

  describe('pods per node × nodes must hold the replicas', () => {
    const eightPerNode = (nodes: number) => pool('h100', nodes, { extendedResources: { 'nvidia.com/gpu': 8 } });

    test('8 GPUs per node, 3 per pod: 2 pods per node; 3 nodes hold 6 pods', () => {
      expect(onlyComponent(gpus(3, 6), [eightPerNode(3)])).toEqual([['h100', true, 2, []]]);
    });

    test('7 replicas do not fit 3 nodes of 2 pods', () => {
      expect(onlyComponent(gpus(3, 7), [eightPerNode(3)])).toEqual([
        ['h100', false, 2, ['holds 6 of the 7 pods (3 nodes × 2 per node)']],
      ]);
    });

    test('one node, and a pool of 0 nodes', () => {
      expect(onlyComponent(gpus(8, 2), [eightPerNode(1), eightPerNode(0)])).toEqual([
        ['h100', false, 1, ['holds 1 of the 2 pods (1 node × 1 per node)']],
        ['h100', false, 1, ['holds 0 of the 2 pods (0 nodes × 1 per node)']],
      ]);
    });

    test('exactly full fits; the unset or 0 replica count is one pod', () => {
      expect(onlyComponent(gpus(4, 4), [eightPerNode(2)])).toEqual([['h100', true, 2, []]]);
      const unset = admittedDeployment('vllm', { spec: { scaling: undefined, resources: { gpu: { count: 8 } } } });
      expect(podNeeds(unset)[0].pods).toBe(1);
      expect(podNeeds(gpus(8, 0))[0].pods).toBe(1);
    });

    test('pods per node are capped, whatever a node holds', () => {
      const [c] = fitDeployment(gpus(1), [pool('huge', 1, { extendedResources: { 'nvidia.com/gpu': 100_000 } })]);
      expect(c.pools[0].podsPerNode).toBe(256);
    });
  });

  test('one fitting pool among several is enough', () => {
    const [c] = fitDeployment(gpus(2, 2), [
      pool('a10', 8, { extendedResources: { 'nvidia.com/gpu': 1 } }),
      pool('h100', 1, { extendedResources: { 'nvidia.com/gpu': 8 } }),
    ]);
    expect(c.fits).toBe(true);
    expect(c.pools.map((p) => p.fits)).toEqual([false, true]);
    expect(insufficientCapacityErrors(gpus(2, 2), [
      pool('a10', 8, { extendedResources: { 'nvidia.com/gpu': 1 } }),
      pool('h100', 1, { extendedResources: { 'nvidia.com/gpu': 8 } }),
    ])).toEqual([]);
  });
});

describe('fitDeployment: nodeSelector', () => {
  const labelled = pool('h100', 4, { labels: { 'gpu': 'h100', 'topology.kubernetes.io/zone': 'a' }, extendedResources: { 'nvidia.com/gpu': 8 } });

  test('a pool whose labels include the nodeSelector is a candidate', () => {
    expect(onlyComponent(gpus(1, 1, 'nvidia.com/gpu', { nodeSelector: { gpu: 'h100' } }), [labelled])).toEqual([['h100', true, 8, []]]);
  });

  test('a pool lacking a selected label or value is not, whatever it holds; every missing label is named', () => {
    expect(onlyComponent(gpus(1, 1, 'nvidia.com/gpu', { nodeSelector: { gpu: 'a100' } }), [labelled])).toEqual([
      ['h100', false, 0, ['its nodes lack the label gpu=a100 of spec.nodeSelector']],
    ]);
    const md = gpus(1, 1, 'nvidia.com/gpu', { nodeSelector: { 'gpu': 'h100', 'pool': 'inference', 'topology.kubernetes.io/zone': 'b' } });
    expect(onlyComponent(md, [labelled, pool('bare', 4, { extendedResources: { 'nvidia.com/gpu': 8 } })])).toEqual([
      ['h100', false, 0, ['its nodes lack the labels pool=inference, topology.kubernetes.io/zone=b of spec.nodeSelector']],
      ['bare', false, 0, ['its nodes lack the labels gpu=h100, pool=inference, topology.kubernetes.io/zone=b of spec.nodeSelector']],
    ]);
  });
});

describe('fitDeployment: DRA device requests', () => {
  const memory40: DeviceRequestSpec = { name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 2, selectors: [{ memoryAtLeast: '40Gi' }] };

  test('the requests come from the annotation, with its path; extended-resource GPUs are then not counted', () => {
    const md = claiming([memory40]);
    const [need] = podNeeds(md);
    expect(need.path).toBe(`${DEVICES_ANNOTATION_PATH}.resources`);
    expect(need.gpu).toBeUndefined();
    expect(need.requests!.map((r) => [r.name, r.deviceClassName, r.count])).toEqual([['gpu', 'gpu.nvidia.com', 2]]);
    expect(describeNeed(need)).toBe('requests gpu (2 × gpu.nvidia.com) per pod');
    // Extended resources on the nodes do not satisfy a device claim.
    expect(onlyComponent(md, [pool('ext', 4, { extendedResources: { 'nvidia.com/gpu': 8 } })])).toEqual([
      ['ext', false, 0, ['request gpu: its nodes list no DRA devices']],
    ]);
  });

  test('devices meeting every selector fit, packed by count', () => {
    expect(onlyComponent(claiming([memory40], 8), [pool('h100', 2, { devices: [H100] })])).toEqual([['h100', true, 4, []]]);
    expect(onlyComponent(claiming([memory40], 9), [pool('h100', 2, { devices: [H100] })])).toEqual([
      ['h100', false, 4, ['holds 8 of the 9 pods (2 nodes × 4 per node)']],
    ]);
  });

  test('a false selector is named by number and description', () => {
    const md = claiming([{
      name: 'gpu',
      deviceClassName: 'gpu.nvidia.com',
      count: 1,
      selectors: [
        { driver: 'gpu.nvidia.com' },
        { memoryAtLeast: '40Gi' },
        { productName: 'NVIDIA H100 80GB HBM3' },
        { attribute: 'gpu.nvidia.com/architecture', equals: 'Blackwell' },
      ],
    }]);
    expect(onlyComponent(md, [pool('a10', 4, { devices: [A10] }), pool('h100', 2, { devices: [H100] })])).toEqual([
      ['a10', false, 0, ['request gpu (1 × gpu.nvidia.com) matches no device of a node: 1 × gpu.nvidia.com NVIDIA A10G: selector 2 (memory at least 40Gi) is false']],
      ['h100', false, 0, ['request gpu (1 × gpu.nvidia.com) matches no device of a node: 8 × gpu.nvidia.com NVIDIA H100 80GB HBM3: selector 4 (attribute gpu.nvidia.com/architecture equal to "Blackwell") is false']],
    ]);
  });

  test('every device kind of a node is listed with why it does not match', () => {
    const md = claiming([{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', selectors: [{ cel: 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("100Gi")) >= 0' }] }]);
    const [reason] = onlyComponent(md, [pool('mixed', 1, { devices: [A10, H100] })])[0][3] as string[];
    expect(reason).toBe(
      'request gpu (1 × gpu.nvidia.com) matches no device of a node: ' +
        '1 × gpu.nvidia.com NVIDIA A10G: selector 1 (CEL "device.capacity[\\"gpu.nvidia.com\\"].memory.compareTo(quantity(\\"100Gi\\")) >= 0") is false, ' +
        '8 × gpu.nvidia.com NVIDIA H100 80GB HBM3: selector 1 (CEL "device.capacity[\\"gpu.nvidia.com\\"].memory.compareTo(quantity(\\"100Gi\\")) >= 0") is false',
    );
  });

  test('a device of another DeviceClass is never given; a device without a class serves any', () => {
    const md = claiming([{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 1 }]);
    const otherClass = { ...H100, deviceClassName: 'mig.nvidia.com' };
    expect(onlyComponent(md, [pool('mig', 1, { devices: [otherClass] })])).toEqual([
      ['mig', false, 0, ['request gpu (1 × gpu.nvidia.com) matches no device of a node: 8 × gpu.nvidia.com NVIDIA H100 80GB HBM3: class mig.nvidia.com, not gpu.nvidia.com']],
    ]);
    const { deviceClassName: _, ...anyClass } = H100;
    expect(onlyComponent(md, [pool('any', 1, { devices: [anyClass] })])).toEqual([['any', true, 8, []]]);
  });

  test('fewer matching devices on a node than a request counts do not fit; count defaults to 1', () => {
    const md = claiming([{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 2, selectors: [{ productName: 'NVIDIA A10G' }] }]);
    expect(onlyComponent(md, [pool('a10', 16, { devices: [A10] })])).toEqual([
      ['a10', false, 0, ['request gpu (2 × gpu.nvidia.com) matches no device of a node: 1 × gpu.nvidia.com NVIDIA A10G: only 1 per node, the request needs 2']],
    ]);
    const { count: _, ...oneA10 } = A10;
    expect(onlyComponent(claiming([{ name: 'gpu', deviceClassName: 'gpu.nvidia.com' }], 3), [pool('a10', 3, { devices: [oneA10] })])).toEqual([
      ['a10', true, 1, []],
    ]);
  });

  test('a request takes its devices from one kind: two kinds that together have enough do not fit it', () => {
    const md = claiming([{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 4 }]);
    const [fit] = onlyComponent(md, [pool('split', 1, { devices: [{ ...H100, count: 2 }, { ...A10, count: 2 }] })]);
    expect(fit.slice(0, 3)).toEqual(['split', false, 0]);
  });

  test('two requests sharing one device kind consume it greedily, in order', () => {
    const big: DeviceRequestSpec = { name: 'main', deviceClassName: 'gpu.nvidia.com', count: 3 };
    const small: DeviceRequestSpec = { name: 'draft', deviceClassName: 'gpu.nvidia.com', count: 2 };
    // 8 per node: (3 + 2) once, then 3 left: main takes 3, draft finds none — 1 pod per node.
    expect(onlyComponent(claiming([big, small]), [pool('h100', 1, { devices: [H100] })])).toEqual([['h100', true, 1, []]]);
    // 2 + 2 per pod: 2 pods per node.
    expect(onlyComponent(claiming([small, { ...small, name: 'second' }], 3), [pool('h100', 2, { devices: [H100] })])).toEqual([['h100', true, 2, []]]);
    // Once the shared kind runs out, a request moves on to the next kind that matches.
    // 7 H100 and 1 A10: pod 1 takes 3 + 1 H100, pod 2 the last 3 H100 and the A10.
    const md = claiming([big, { name: 'small', deviceClassName: 'gpu.nvidia.com', count: 1 }], 2);
    expect(onlyComponent(md, [pool('mixed', 1, { devices: [{ ...H100, count: 7 }, { ...A10, count: 1 }] })])).toEqual([['mixed', true, 2, []]]);
    // 3 per pod on 8: the third pod's 2 draft devices are gone.
    expect(onlyComponent(claiming([big, small], 2), [pool('h100', 1, { devices: [H100] })])).toEqual([
      ['h100', false, 1, ['holds 1 of the 2 pods (1 node × 1 per node)']],
    ]);
  });

  test('a request whose devices were all taken by an earlier request of the pod does not fit', () => {
    const md = claiming([
      { name: 'main', deviceClassName: 'gpu.nvidia.com', count: 5 },
      { name: 'draft', deviceClassName: 'gpu.nvidia.com', count: 5 },
    ]);
    const [c] = fitDeployment(md, [pool('h100', 4, { devices: [H100] })]);
    expect(c.fits).toBe(false);
    expect(c.pools[0].podsPerNode).toBe(0);
    expect(c.pools[0].reasons).toHaveLength(1);
    expect(c.pools[0].reasons[0]).toMatch(/^request draft \(5 × gpu\.nvidia\.com\) matches no device of a node: /);
    expect(c.pools[0].reasons[0]).toMatch(/: 3 left per node after the pod's earlier requests, the request needs 5$/);
  });

  test('a selector reading an attribute the device lacks is an evaluation error in the reason, not a crash', () => {
    const md = claiming([{
      name: 'gpu',
      deviceClassName: 'gpu.nvidia.com',
      selectors: [
        { driver: 'gpu.nvidia.com' },
        { attribute: 'gpu.nvidia.com/cudaComputeCapabilityMajor', equals: 9 },
      ],
    }]);
    expect(onlyComponent(md, [pool('h100', 1, { devices: [H100] })])).toEqual([
      ['h100', false, 0, [
        'request gpu (1 × gpu.nvidia.com) matches no device of a node: 8 × gpu.nvidia.com NVIDIA H100 80GB HBM3: ' +
          'selector 2 (attribute gpu.nvidia.com/cudaComputeCapabilityMajor equal to 9) fails: no such key: cudaComputeCapabilityMajor',
      ]],
    ]);
    const errors = insufficientCapacityErrors(md, [pool('h100', 1, { devices: [H100] })]);
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toContain('fails: no such key: cudaComputeCapabilityMajor');
  });

  test('attributes and capacities given by qualified name, or of another driver, are read in their domain', () => {
    const device: InventoryDeviceSpec = {
      driver: 'gpu.nvidia.com',
      count: 4,
      attributes: { 'gpu.nvidia.com/productName': 'NVIDIA L40S', 'dra.example.com/rack': 'r1' },
      capacity: { 'gpu.nvidia.com/memory': '48Gi' },
    };
    const md = claiming([{
      name: 'gpu',
      deviceClassName: 'gpu.nvidia.com',
      selectors: [
        { productName: 'NVIDIA L40S' }, { memoryAtLeast: '48Gi' }, { attribute: 'dra.example.com/rack', equals: 'r1' },
      ],
    }], 4);
    expect(onlyComponent(md, [pool('l40s', 1, { devices: [device] })])).toEqual([['l40s', true, 4, []]]);
  });

  test('the nodeSelector is checked before the devices', () => {
    const md = admittedDeployment('vllm', {
      annotations: devicesAnnotation({ resources: [memory40] }),
      spec: { resources: { gpu: { count: 2 } }, nodeSelector: { gpu: 'b200' } },
    });
    expect(onlyComponent(md, [pool('h100', 2, { labels: { gpu: 'h100' }, devices: [H100] })])).toEqual([
      ['h100', false, 0, ['its nodes lack the label gpu=b200 of spec.nodeSelector']],
    ]);
  });
});

describe('fitDeployment: components', () => {
  test('prefill and decode are each checked alone, against the whole inventory', () => {
    // 2 decode pods × 2 GPUs and 1 prefill pod × 1 GPU: each fits one 4-GPU node by itself,
    // though the 5 GPUs of both together would not.
    const md = disaggregatedOf((o) => admittedDeployment('vllm', o));
    const components = fitDeployment(md, [pool('four', 1, { extendedResources: { 'nvidia.com/gpu': 4 } })]);
    expect(components.map((c) => [c.need.component, c.need.path, c.need.pods, c.fits, c.pools[0].podsPerNode])).toEqual([
      ['prefill', 'spec.scaling.prefill.gpu', 1, true, 4],
      ['decode', 'spec.scaling.decode.gpu', 2, true, 2],
    ]);
  });

  test('only the component that does not fit is an error, with its own path and pod count', () => {
    const md = disaggregatedOf((o) => admittedDeployment('vllm', o), {}, {
      prefill: { replicas: 2, gpu: { count: 1, type: 'nvidia.com/gpu' } },
      decode: { replicas: 3, gpu: { count: 4, type: 'nvidia.com/gpu' } },
    });
    const errors = insufficientCapacityErrors(md, [pool('four', 2, { extendedResources: { 'nvidia.com/gpu': 4 } })]);
    expect(errors).toEqual([{
      path: 'spec.scaling.decode.gpu',
      kind: FieldErrorKind.INVALID,
      value: '4 × nvidia.com/gpu per pod',
      message: 'InsufficientCapacity: no node pool holds 3 decode pods: pool four: holds 2 of the 3 pods (2 nodes × 1 per node)',
    }]);
  });

  test('device requests per component, under their own annotation paths', () => {
    const md = disaggregatedOf((o) => admittedDeployment('vllm', o), {
      annotations: devicesAnnotation({
        prefill: [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', selectors: [{ productName: 'NVIDIA A10G' }] }],
        decode: [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 2, selectors: [{ memoryAtLeast: '80Gi' }] }],
      }),
    }, {
      prefill: { replicas: 1, gpu: { count: 1 } },
      decode: { replicas: 1, gpu: { count: 2 } },
    });
    const errors = insufficientCapacityErrors(md, [pool('h100', 1, { devices: [H100] })]);
    expect(errors.map((e) => [e.path, e.value])).toEqual([
      [`${DEVICES_ANNOTATION_PATH}.prefill`, 'requests gpu (1 × gpu.nvidia.com) per pod'],
    ]);
    expect(errors[0].message).toBe(
      'InsufficientCapacity: no node pool holds 1 prefill pod: pool h100: request gpu (1 × gpu.nvidia.com) matches no device of a node: ' +
        '8 × gpu.nvidia.com NVIDIA H100 80GB HBM3: selector 1 (product name "NVIDIA A10G") is false',
    );
    expect(insufficientCapacityErrors(md, [pool('h100', 1, { devices: [H100] }), pool('a10', 1, { devices: [A10] })])).toEqual([]);
  });

  test('components without GPUs or device requests are not checked', () => {
    const cpu = admittedDeployment('vllm', { spec: { resources: { gpu: { count: 0 } } } });
    expect(podNeeds(cpu)).toEqual([]);
    expect(insufficientCapacityErrors(cpu, [pool('cpu', 1)])).toEqual([]);
    const noResources = admittedDeployment('vllm', { spec: { resources: undefined } });
    expect(fitDeployment(noResources, [pool('cpu', 1)])).toEqual([]);
    const cpuPrefill = disaggregatedOf((o) => admittedDeployment('vllm', o), {}, {
      prefill: { replicas: 4 },
      decode: { replicas: 1, gpu: { count: 1 } },
    });
    expect(podNeeds(cpuPrefill).map((n) => n.component)).toEqual(['decode']);
  });

  test('the serving mode decides which components are read', () => {
    // An aggregated deployment's prefill/decode blocks are not its pods.
    const md = gpus(1, 1, 'nvidia.com/gpu', { scaling: { replicas: 1, prefill: { replicas: 9, gpu: { count: 64 } } } });
    expect(podNeeds(md).map((n) => n.component)).toEqual(['resources']);
  });
});

describe('insufficientCapacityErrors', () => {
  test('no inventory, no check', () => {
    expect(insufficientCapacityErrors(gpus(64, 32), [])).toEqual([]);
    expect(insufficientCapacityErrors(claiming([{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 8 }]), [])).toEqual([]);
  });

  test('one error per component no pool holds, with every pool\'s reasons', () => {
    const md = gpus(4, 3, 'nvidia.com/gpu', { nodeSelector: { zone: 'a' } });
    const errors = insufficientCapacityErrors(md, [
      pool('b', 8, { labels: { zone: 'b' }, extendedResources: { 'nvidia.com/gpu': 8 } }),
      pool('a-small', 8, { labels: { zone: 'a' }, extendedResources: { 'nvidia.com/gpu': 2 } }),
      pool('a-few', 1, { labels: { zone: 'a' }, extendedResources: { 'nvidia.com/gpu': 8 } }),
    ]);
    expect(errors).toEqual([{
      path: 'spec.resources.gpu',
      kind: FieldErrorKind.INVALID,
      value: '4 × nvidia.com/gpu per pod',
      message: 'InsufficientCapacity: no node pool holds 3 serving pods: ' +
        'pool b: its nodes lack the label zone=a of spec.nodeSelector; ' +
        'pool a-small: a node has 2 nvidia.com/gpu, fewer than the 4 a pod requests; ' +
        'pool a-few: holds 2 of the 3 pods (1 node × 2 per node)',
    }]);
  });

  test('one pod is "pod", in the singular', () => {
    const [error] = insufficientCapacityErrors(gpus(1), [pool('cpu', 1)]);
    expect(error.message).toBe('InsufficientCapacity: no node pool holds 1 serving pod: pool cpu: its nodes have no nvidia.com/gpu');
  });
});
