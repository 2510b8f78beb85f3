import { FieldErrorKind } from '../../src';
import { formatFieldError } from '../../src/core/field-error';
import { NODE_POOL_API_VERSION, NODE_POOL_KIND, nodePoolErrors, NodePoolSpec, readNodePoolDocument } from '../../src/dra/node-inventory';

const H100_DEVICE = {
  driver: 'gpu.nvidia.com',
  deviceClassName: 'gpu.nvidia.com',
  count: 8,
  attributes: { 'productName': 'NVIDIA H100 80GB HBM3', 'index': 0, 'healthy': true, 'driverVersion': { version: '550.54.15' }, 'dra.example.com/rack': 'r1' },
  capacity: { 'memory': '80Gi', 'dra.example.com/slots': 4 },
};

function doc(spec: unknown, name: unknown = 'h100'): any {
  return { apiVersion: NODE_POOL_API_VERSION, kind: NODE_POOL_KIND, metadata: { name }, spec };
}

/** The formatted errors of a NodePool document with `spec`. */
function specErrors(spec: unknown): string[] {
  const { pool, errors } = readNodePoolDocument(doc(spec));
  expect(pool).toBeUndefined();
  return errors.map(formatFieldError);
}

describe('readNodePoolDocument', () => {
  test('is the NodePool kind of inference.cdk8s.io/v1alpha1', () => {
    expect([NODE_POOL_API_VERSION, NODE_POOL_KIND]).toEqual(['inference.cdk8s.io/v1alpha1', 'NodePool']);
  });

  test('a valid document is its pool: the name from metadata, the rest from spec', () => {
    const spec = { nodes: 2, labels: { 'gpu': 'h100', 'topology.kubernetes.io/zone': 'a' }, extendedResources: { 'nvidia.com/gpu': 8 }, devices: [H100_DEVICE] };
    expect(readNodePoolDocument(doc(spec))).toEqual({ pool: { name: 'h100', ...spec }, errors: [] });
    expect(readNodePoolDocument(doc({ nodes: 0 }))).toEqual({ pool: { name: 'h100', nodes: 0 }, errors: [] });
  });

  test('a missing name and a missing spec are both reported', () => {
    expect(readNodePoolDocument({ apiVersion: NODE_POOL_API_VERSION, kind: NODE_POOL_KIND, metadata: {} })).toEqual({
      errors: [
        { path: 'metadata.name', kind: FieldErrorKind.REQUIRED, message: 'a NodePool needs a name' },
        { path: 'spec', kind: FieldErrorKind.REQUIRED, message: 'a NodePool needs a spec: {nodes, labels, extendedResources, devices}' },
      ],
    });
    expect(readNodePoolDocument(null).errors.map((e) => e.path)).toEqual(['metadata.name', 'spec']);
  });

  test.each([
    ['an empty name', ''],
    ['a number', 7],
  ])('the name must be a non-empty string (%s)', (_, name) => {
    const { pool, errors } = readNodePoolDocument(doc({ nodes: 1 }, name));
    expect(pool).toBeUndefined();
    expect(errors.map(formatFieldError)).toEqual(['metadata.name: Required value: a NodePool needs a name']);
  });

  test.each([
    ['a list', [1]],
    ['a string', 'nodes: 2'],
    ['null', null],
  ])('spec must be a mapping (%s)', (_, spec) => {
    expect(specErrors(spec)).toEqual(['spec: Required value: a NodePool needs a spec: {nodes, labels, extendedResources, devices}']);
  });

  test('a spec field it does not know is named, with the known ones', () => {
    expect(specErrors({ nodes: 2, node: 3, maxNodes: 4 })).toEqual([
      'spec.node: Invalid value: 3: unknown field; known fields: nodes, labels, extendedResources, devices; did you mean "nodes"?',
      'spec.maxNodes: Invalid value: 4: unknown field; known fields: nodes, labels, extendedResources, devices',
    ]);
  });

  test('labels and extendedResources must be mappings', () => {
    expect(specErrors({ nodes: 1, labels: ['gpu=h100'], extendedResources: 'nvidia.com/gpu=8' })).toEqual([
      'spec.labels: Invalid value: ["gpu=h100"]: must be a mapping',
      'spec.extendedResources: Invalid value: "nvidia.com/gpu=8": must be a mapping',
    ]);
  });

  test('the pool\'s own problems are reported under spec', () => {
    expect(specErrors({ nodes: -1, devices: [{ driver: 'gpu.nvidia.com', count: 0 }] })).toEqual([
      'spec.nodes: Invalid value: -1: must be a whole number of nodes, 0 or more',
      'spec.devices[0].count: Invalid value: 0: must be a whole number of devices per node, 1 or more',
    ]);
  });
});

describe('nodePoolErrors', () => {
  const errorsOf = (pool: Omit<NodePoolSpec, 'name'>, at = 'spec') => nodePoolErrors({ name: 'p', ...pool } as NodePoolSpec, at).map(formatFieldError);

  test('a valid pool has none', () => {
    expect(errorsOf({ nodes: 3, labels: { gpu: 'h100', empty: '' }, extendedResources: { 'nvidia.com/gpu': 8, 'nvidia.com/mig-1g.10gb': 0 }, devices: [H100_DEVICE, { driver: 'dra.example.com' }] })).toEqual([]);
  });

  test.each([
    [-1, '-1'],
    [1.5, '1.5'],
    ['2', '"2"'],
    [Number.MAX_SAFE_INTEGER + 1, String(Number.MAX_SAFE_INTEGER + 1)],
  ])('nodes must be a whole number, 0 or more (%p)', (nodes, shown) => {
    expect(errorsOf({ nodes } as any)).toEqual([`spec.nodes: Invalid value: ${shown}: must be a whole number of nodes, 0 or more`]);
  });

  test('device attributes and capacity are mappings with C-identifier names, and unknown device fields are refused', () => {
    expect(errorsOf({ nodes: 1, devices: [{ driver: 'gpu.nvidia.com', attributes: 'abc' as any }] })).toEqual([
      'spec.devices[0].attributes: Invalid value: "abc": must be a mapping of names to values',
    ]);
    expect(errorsOf({ nodes: 1, devices: [{ driver: 'gpu.nvidia.com', capacity: ['80Gi'] as any }] })).toEqual([
      'spec.devices[0].capacity: Invalid value: ["80Gi"]: must be a mapping of names to values',
    ]);
    expect(errorsOf({ nodes: 1, devices: [{ driver: 'gpu.nvidia.com', deviceClass: 'x', attributes: { 'product-name': 'H100', 'Bad_Domain/x': 1 } } as any] })).toEqual([
      'spec.devices[0].deviceClass: Invalid value: "x": unknown field; known fields: driver, deviceClassName, count, attributes, capacity; did you mean "deviceClassName"?',
      'spec.devices[0].attributes["product-name"]: Invalid value: "product-name": must be a C identifier of at most 32 characters, optionally after a domain (a DNS subdomain) and "/"',
      'spec.devices[0].attributes["Bad_Domain/x"]: Invalid value: "Bad_Domain/x": must be a C identifier of at most 32 characters, optionally after a domain (a DNS subdomain) and "/"',
    ]);
  });

  test('nodes is required', () => {
    expect(errorsOf({} as any)).toEqual(['spec.nodes: Required value: the number of nodes in the pool']);
  });

  test('field paths are under the given prefix', () => {
    expect(errorsOf({ nodes: -2, labels: { 'bad key!': 'x' } }, 'nodePools["gpu"]')).toEqual([
      'nodePools["gpu"].nodes: Invalid value: -2: must be a whole number of nodes, 0 or more',
      'nodePools["gpu"].labels["bad key!"]: Invalid value: "x": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character',
    ]);
  });

  test('labels: keys are qualified names, values label values (strings)', () => {
    expect(errorsOf({ nodes: 1, labels: { 'a/b/c': 'x', 'Example.com/gpu': 'x', 'ok': 'bad value!', 'long': 'v'.repeat(64), 'n': 3 } as any })).toEqual([
      'spec.labels["a/b/c"]: Invalid value: "x": a qualified name must consist of alphanumeric characters, \'-\', \'_\' or \'.\', with an optional DNS subdomain prefix and \'/\'',
      'spec.labels["Example.com/gpu"]: Invalid value: "x": prefix part must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character',
      'spec.labels["ok"]: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character',
      'spec.labels["long"]: Invalid value: "' + 'v'.repeat(64) + '": must be no more than 63 characters',
      'spec.labels["n"]: Invalid value: 3: the value must be a string',
    ]);
  });

  test('extendedResources: extended resource names, whole counts of 0 or more', () => {
    expect(errorsOf({ nodes: 1, extendedResources: { 'gpu': 1, 'kubernetes.io/gpu': 1, 'requests.nvidia.com/gpu': 1, 'nvidia.com/gpu': 1.5, 'amd.com/gpu': -1, 'a.com/b': '8' } as any })).toEqual([
      'spec.extendedResources["gpu"]: Invalid value: 1: it has no domain prefix (a name without one is a native resource such as cpu or memory)',
      'spec.extendedResources["kubernetes.io/gpu"]: Invalid value: 1: the kubernetes.io/ namespace is reserved for native resources',
      'spec.extendedResources["requests.nvidia.com/gpu"]: Invalid value: 1: the "requests." prefix is reserved for resource quota',
      'spec.extendedResources["nvidia.com/gpu"]: Invalid value: 1.5: the count per node must be a whole number, 0 or more',
      'spec.extendedResources["amd.com/gpu"]: Invalid value: -1: the count per node must be a whole number, 0 or more',
      'spec.extendedResources["a.com/b"]: Invalid value: "8": the count per node must be a whole number, 0 or more',
    ]);
  });

  test('a bad name and a bad count of one resource are one error', () => {
    expect(errorsOf({ nodes: 1, extendedResources: { gpu: -1 } })).toEqual([
      'spec.extendedResources["gpu"]: Invalid value: -1: it has no domain prefix (a name without one is a native resource such as cpu or memory); the count per node must be a whole number, 0 or more',
    ]);
  });

  describe('devices', () => {
    test('must be a list of device mappings', () => {
      expect(errorsOf({ nodes: 1, devices: { driver: 'gpu.nvidia.com' } as any })).toEqual([
        'spec.devices: Invalid value: {"driver":"gpu.nvidia.com"}: must be a list of devices ({driver, deviceClassName, count, attributes, capacity})',
      ]);
      expect(errorsOf({ nodes: 1, devices: [null, 'gpu.nvidia.com', H100_DEVICE] as any })).toEqual([
        'spec.devices[0]: Invalid value: null: must be a device: {driver, deviceClassName, count, attributes, capacity}',
        'spec.devices[1]: Invalid value: "gpu.nvidia.com": must be a device: {driver, deviceClassName, count, attributes, capacity}',
      ]);
    });

    test('the driver is required and a DNS subdomain; so is a deviceClassName', () => {
      expect(errorsOf({ nodes: 1, devices: [{ count: 2 }, { driver: 'GPU_Driver', deviceClassName: 'Gpu Class' }, { driver: 7, deviceClassName: 3 }] as any })).toEqual([
        'spec.devices[0].driver: Required value: the DRA driver that publishes the devices, such as "gpu.nvidia.com"',
        'spec.devices[1].driver: Invalid value: "GPU_Driver": must be a DNS subdomain',
        'spec.devices[1].deviceClassName: Invalid value: "Gpu Class": must be a DNS subdomain',
        'spec.devices[2].driver: Invalid value: 7: must be a DNS subdomain',
        'spec.devices[2].deviceClassName: Invalid value: 3: must be a DNS subdomain',
      ]);
    });

    test.each([
      [0, '0'],
      [-8, '-8'],
      [2.5, '2.5'],
      ['8', '"8"'],
    ])('count is a whole number of devices, 1 or more (%p)', (count, shown) => {
      expect(errorsOf({ nodes: 1, devices: [{ driver: 'gpu.nvidia.com', count } as any] })).toEqual([
        `spec.devices[0].count: Invalid value: ${shown}: must be a whole number of devices per node, 1 or more`,
      ]);
    });

    test('attribute values are strings, integers, booleans or semver versions', () => {
      const attributes = { ok: 'x', n: 3, b: false, v: { version: '1.2.3-rc.1' }, f: 1.5, bad: { version: '1.2' }, obj: { name: 'x' }, nil: null, list: ['a'] };
      expect(errorsOf({ nodes: 1, devices: [{ driver: 'gpu.nvidia.com', attributes } as any] })).toEqual(
        ['f', 'bad', 'obj', 'nil', 'list'].map((k) =>
          `spec.devices[0].attributes["${k}"]: Invalid value: ${JSON.stringify((attributes as any)[k])}: must be a string, an integer, a boolean or {version: "<semver>"}`),
      );
    });

    test('capacities are Kubernetes quantities, as strings or numbers', () => {
      expect(errorsOf({ nodes: 1, devices: [{ driver: 'gpu.nvidia.com', capacity: { ok: '80Gi', n: 4, bad: '80 GiB', neg: 'lots', b: true } } as any] })).toEqual([
        'spec.devices[0].capacity["bad"]: Invalid value: "80 GiB": must be a Kubernetes quantity such as "80Gi"',
        'spec.devices[0].capacity["neg"]: Invalid value: "lots": must be a Kubernetes quantity such as "80Gi"',
        'spec.devices[0].capacity["b"]: Invalid value: true: must be a Kubernetes quantity such as "80Gi"',
      ]);
    });

    test('every device and every problem is reported, each at its index', () => {
      const errors = nodePoolErrors({ name: 'p', nodes: 1, devices: [H100_DEVICE, { driver: 'x_y', count: 0 }, { driver: 'gpu.nvidia.com', capacity: { memory: 'x' } }] } as any, 'spec');
      expect(errors.map((e) => [e.path, e.kind])).toEqual([
        ['spec.devices[1].driver', FieldErrorKind.INVALID],
        ['spec.devices[1].count', FieldErrorKind.INVALID],
        ['spec.devices[2].capacity["memory"]', FieldErrorKind.INVALID],
      ]);
    });
  });
});
