import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import { CelSpecConversionError, celSpecMap, goQuantityString } from '../../src/selection/cel-spec-map';

/** Specs in tests may carry fields the generated type does not know (Go drops them). */
function spec(value: object): ModelDeploymentSpec {
  return value as ModelDeploymentSpec;
}

describe('celSpecMap', () => {
  test('spec.engine and spec.model are always present', () => {
    expect(celSpecMap(spec({ model: { id: 'm' } }))).toEqual({ model: { id: 'm' }, engine: {} });
    expect(celSpecMap(spec({}))).toEqual({ model: {}, engine: {} });
  });

  test('omitempty drops zero values: 0, false, empty strings, maps and lists', () => {
    const map = celSpecMap(spec({
      model: { id: 'm', servedName: '', source: 'huggingface' },
      engine: {
        type: '',
        image: '',
        trustRemoteCode: false,
        enablePrefixCaching: false,
        enforceEager: false,
        args: {},
        extraArgs: [],
      },
      scaling: { replicas: 0, prefill: { replicas: 0, gpu: { count: 0 } } },
      resources: { gpu: { count: 0, type: 'nvidia.com/gpu' }, memory: '', cpu: '' },
      image: '',
      env: [],
      nodeSelector: {},
      tolerations: [],
      secrets: { huggingFaceToken: '' },
      gateway: { modelName: '', httpRouteRef: '' },
      podTemplate: { metadata: { labels: {}, annotations: {} } },
    }));
    expect(map).toEqual({
      model: { id: 'm', source: 'huggingface' },
      engine: {},
      scaling: { prefill: { gpu: {} } },
      resources: { gpu: { type: 'nvidia.com/gpu' } },
      secrets: {},
      gateway: {},
      podTemplate: { metadata: {} },
    });
  });

  test('present pointer objects stay even when empty; absent (or null) ones stay absent', () => {
    expect(celSpecMap(spec({ model: {}, serving: {}, resources: {}, provider: {} }))).toEqual({
      model: {},
      engine: {},
      serving: {},
      resources: {},
      provider: {},
    });
    expect(celSpecMap(spec({ model: {}, serving: null, resources: null, provider: { overrides: null } }))).toEqual({
      model: {},
      engine: {},
      provider: {},
    });
  });

  test('true booleans and non-zero numbers are kept, numbers as JS numbers (CEL doubles)', () => {
    const map = celSpecMap(spec({
      model: { id: 'm' },
      engine: { enablePrefixCaching: true, trustRemoteCode: true, enforceEager: true },
      resources: { gpu: { count: 2 } },
      scaling: { replicas: 3 },
    }));
    expect(map.engine).toEqual({ enablePrefixCaching: true, trustRemoteCode: true, enforceEager: true });
    expect(map.resources).toEqual({ gpu: { count: 2 } });
    expect(map.scaling).toEqual({ replicas: 3 });
  });

  test('pointer fields keep explicit zero values', () => {
    const map = celSpecMap(spec({
      model: {
        id: 'm',
        storage: { volumes: [{ name: 'cache', size: '10Gi', storageClassName: '', readOnly: false }] },
      },
      engine: { contextLength: 0 },
      gateway: { enabled: false },
      tolerations: [{ key: 'k', operator: 'Exists', tolerationSeconds: 0 }],
      env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'k', optional: false } } }],
    }));
    expect(map.engine).toEqual({ contextLength: 0 });
    expect(map.gateway).toEqual({ enabled: false });
    expect(map.model).toEqual({ id: 'm', storage: { volumes: [{ name: 'cache', size: '10Gi', storageClassName: '' }] } });
    expect(map.tolerations).toEqual([{ key: 'k', operator: 'Exists', tolerationSeconds: 0 }]);
    expect(map.env).toEqual([{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'k', optional: false } } }]);
  });

  test('unset pointer fields are absent', () => {
    const map = celSpecMap(spec({ model: { storage: { volumes: [{ name: 'cache', claimName: 'pvc' }] } }, gateway: {} }));
    expect(map.model).toEqual({ storage: { volumes: [{ name: 'cache', claimName: 'pvc' }] } });
    expect(map.gateway).toEqual({});
  });

  test('fields without omitempty are written at their zero value', () => {
    const map = celSpecMap(spec({
      model: { storage: { volumes: [{ claimName: 'pvc' }] } },
      env: [{ name: '' }, { name: 'A', value: '' }, { name: 'B', valueFrom: { configMapKeyRef: { name: 'c', key: '' } } }],
    }));
    expect(map.model).toEqual({ storage: { volumes: [{ name: '', claimName: 'pvc' }] } });
    expect(map.env).toEqual([
      { name: '' },
      { name: 'A' },
      { name: 'B', valueFrom: { configMapKeyRef: { name: 'c', key: '' } } },
    ]);
  });

  test('a struct held by value is always written: resourceFieldRef.divisor defaults to "0"', () => {
    const map = celSpecMap(spec({
      model: {},
      env: [
        { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
        { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1024Mi' } } },
      ],
    }));
    expect(map.env).toEqual([
      { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '0' } } },
      { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Gi' } } },
    ]);
  });

  test('provider.overrides is kept as written, zero values and nulls included', () => {
    const overrides = { a: { b: [1, 2.5, null, 'x', false, ''] }, n: 0, e: {} };
    const map = celSpecMap(spec({ model: {}, provider: { name: 'kaito', overrides } }));
    expect(map.provider).toEqual({ name: 'kaito', overrides });
    expect((map.provider as any).overrides).not.toBe(overrides);
    expect(celSpecMap(spec({ model: {}, provider: { overrides: {} } })).provider).toEqual({ overrides: {} });
  });

  test('map values are kept even when empty; list elements too', () => {
    const map = celSpecMap(spec({ model: {}, engine: { args: { 'enable-chunked-prefill': '' }, extraArgs: [''] }, nodeSelector: { a: '' } }));
    expect(map.engine).toEqual({ args: { 'enable-chunked-prefill': '' }, extraArgs: [''] });
    expect(map.nodeSelector).toEqual({ a: '' });
  });

  test('fields Go does not know are dropped', () => {
    expect(celSpecMap(spec({ model: { id: 'm', extra: 1 }, unknownField: { a: 1 }, resources: { gpu: { count: 1, vendor: 'x' } } }))).toEqual({
      model: { id: 'm' },
      engine: {},
      resources: { gpu: { count: 1 } },
    });
  });

  describe('resolved engine overlay', () => {
    test('fills engine.type when the spec has none', () => {
      expect(celSpecMap(spec({ model: {} }), 'vllm').engine).toEqual({ type: 'vllm' });
      expect(celSpecMap(spec({ model: {}, engine: { type: '' } }), 'llamacpp').engine).toEqual({ type: 'llamacpp' });
    });

    test('never replaces an explicit engine.type', () => {
      expect(celSpecMap(spec({ model: {}, engine: { type: 'sglang' } }), 'vllm').engine).toEqual({ type: 'sglang' });
    });

    test('is not applied without a resolved engine', () => {
      expect(celSpecMap(spec({ model: {} })).engine).toEqual({});
      expect(celSpecMap(spec({ model: {} }), '').engine).toEqual({});
    });

    test('does not modify the spec', () => {
      const input = spec({ model: { id: 'm' } });
      celSpecMap(input, 'vllm');
      expect(input).toEqual({ model: { id: 'm' } });
    });
  });

  describe('conversion errors (values Go could not decode)', () => {
    test.each([
      [{ model: {}, resources: { gpu: { count: '2' } } }, 'spec.resources.gpu.count'],
      [{ model: {}, resources: { gpu: { count: 1.5 } } }, 'spec.resources.gpu.count'],
      [{ model: {}, engine: { enforceEager: 'true' } }, 'spec.engine.enforceEager'],
      [{ model: {}, engine: { args: { a: 1 } } }, 'spec.engine.args.a'],
      [{ model: {}, engine: { extraArgs: 'x' } }, 'spec.engine.extraArgs'],
      [{ model: { storage: { volumes: [{ name: 'v', size: '10 Gi' }] } } }, 'spec.model.storage.volumes[0].size'],
      [{ model: 'x' }, 'spec.model'],
    ])('fails when %j', (input, path) => {
      expect(() => celSpecMap(spec(input))).toThrow(CelSpecConversionError);
      try {
        celSpecMap(spec(input));
      } catch (e) {
        expect((e as CelSpecConversionError).path).toBe(path);
      }
    });
  });
});

describe('goQuantityString', () => {
  // apimachinery's ParseQuantity + MarshalJSON (k8s.io/apimachinery v0.35).
  test.each([
    ['0', '0'],
    ['100Gi', '100Gi'],
    ['1024Mi', '1Gi'],
    ['1024Ki', '1Mi'],
    ['1536', '1536'],
    ['1.5Ki', '1536'],
    ['0.5Gi', '512Mi'],
    ['0.3Ki', '307200m'],
    ['-8Ki', '-8Ki'],
    ['1000000Gi', '1000000Gi'],
    ['16Ei', '9223372036854775807'],
    ['1000', '1k'],
    ['1024', '1024'],
    ['1500k', '1500k'],
    ['1000m', '1'],
    ['1.5', '1500m'],
    ['.5', '500m'],
    ['0.0000000001', '1n'],
    ['1e3', '1e3'],
    ['1.5e3', '1500'],
    ['2e-3', '2e-3'],
    ['12E', '12E'],
    // Kept verbatim because the parser judged them canonical.
    ['+1', '+1'],
    ['0100', '0100'],
    ['1.500', '1.500'],
    ['1.', '1.'],
    // No DecimalSI suffix beyond E: the digits are written without one.
    ['5000000000000000000000', '5'],
  ])('%s is written as %s', (input, expected) => {
    expect(goQuantityString(input)).toBe(expected);
  });

  test('JSON numbers are read from their decimal text', () => {
    expect(goQuantityString(10)).toBe('10');
    expect(goQuantityString(1000)).toBe('1k');
    expect(goQuantityString(1.5)).toBe('1500m');
  });

  test('fails when the text is not a quantity', () => {
    expect(() => goQuantityString('ten')).toThrow(CelSpecConversionError);
    expect(() => goQuantityString('')).toThrow(CelSpecConversionError);
    expect(() => goQuantityString(true)).toThrow(CelSpecConversionError);
  });
});
