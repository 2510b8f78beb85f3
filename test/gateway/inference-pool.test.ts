import { Testing } from 'cdk8s';
import {
  addInferencePool,
  INFERENCE_POOL_V1,
  INFERENCE_POOL_V1ALPHA2,
  inferencePoolGroup,
  InferencePoolApiVersionString,
  InferencePoolSpecOptions,
} from '../../src/gateway/inference-pool';
import { commonLabels } from '../support/expected-manifests';
import { expectValidManifests } from '../support/schema-validator';

const LABELS = commonLabels('llama');

function options(overrides: Partial<InferencePoolSpecOptions> = {}): InferencePoolSpecOptions {
  return {
    name: 'llama',
    namespace: 'models',
    labels: LABELS,
    selector: { 'airunway.ai/model-deployment': 'llama' },
    targetPort: 8000,
    endpointPickerName: 'llama-epp',
    endpointPickerPort: 9002,
    apiVersion: INFERENCE_POOL_V1,
    ...overrides,
  };
}

function synth(opts: InferencePoolSpecOptions): { returned: ReturnType<typeof addInferencePool>; manifests: any[] } {
  const chart = Testing.chart();
  const returned = addInferencePool(chart, opts);
  const manifests = Testing.synth(chart);
  expectValidManifests(manifests);
  return { returned, manifests };
}

describe('addInferencePool', () => {
  describe('inference.networking.k8s.io/v1', () => {
    test('matches the snapshot', () => {
      expect(synth(options()).manifests).toMatchSnapshot();
    });

    test('creates one InferencePool, child InferencePool of the scope, and returns it', () => {
      const { returned, manifests } = synth(options());
      expect(returned.node.id).toBe('InferencePool');
      expect([returned.apiVersion, returned.kind, returned.name]).toEqual([INFERENCE_POOL_V1, 'InferencePool', 'llama']);
      expect(manifests).toHaveLength(1);
    });

    test('names the pool, labels it and sets no ownerReferences', () => {
      const [pool] = synth(options()).manifests;
      expect(pool.metadata).toEqual({ name: 'llama', namespace: 'models', labels: LABELS });
    });

    test('selects the pods by matchLabels, targets their port and references the endpoint picker Service', () => {
      const [pool] = synth(options()).manifests;
      expect(pool.spec).toEqual({
        selector: { matchLabels: { 'airunway.ai/model-deployment': 'llama' } },
        targetPorts: [{ number: 8000 }],
        // group, kind and failureMode are left to the API server defaults (core Service, FailClose).
        endpointPickerRef: { name: 'llama-epp', port: { number: 9002 } },
      });
    });

    test('uses the given target port, endpoint picker name and port', () => {
      const [pool] = synth(options({ targetPort: 8080, endpointPickerName: 'other-epp', endpointPickerPort: 9100 })).manifests;
      expect(pool.spec.targetPorts).toEqual([{ number: 8080 }]);
      expect(pool.spec.endpointPickerRef).toEqual({ name: 'other-epp', port: { number: 9100 } });
    });
  });

  describe('inference.networking.x-k8s.io/v1alpha2', () => {
    const alpha = (overrides: Partial<InferencePoolSpecOptions> = {}) => options({ apiVersion: INFERENCE_POOL_V1ALPHA2, ...overrides });

    test('matches the snapshot', () => {
      expect(synth(alpha()).manifests).toMatchSnapshot();
    });

    test('writes the same pool in the v1alpha2 shape: selector map, targetPortNumber, extensionRef', () => {
      const { returned, manifests } = synth(alpha());
      expect(returned.node.id).toBe('InferencePool');
      const [pool] = manifests;
      expect(pool.apiVersion).toBe(INFERENCE_POOL_V1ALPHA2);
      expect(pool.kind).toBe('InferencePool');
      expect(pool.metadata).toEqual({ name: 'llama', namespace: 'models', labels: LABELS });
      expect(pool.spec).toEqual({
        selector: { 'airunway.ai/model-deployment': 'llama' },
        targetPortNumber: 8000,
        extensionRef: { name: 'llama-epp', portNumber: 9002 },
      });
    });

    test('uses the given target port, endpoint picker name and port', () => {
      const [pool] = synth(alpha({ targetPort: 8080, endpointPickerName: 'other-epp', endpointPickerPort: 9100 })).manifests;
      expect(pool.spec.targetPortNumber).toBe(8080);
      expect(pool.spec.extensionRef).toEqual({ name: 'other-epp', portNumber: 9100 });
    });
  });

  test.each<InferencePoolApiVersionString>([INFERENCE_POOL_V1, INFERENCE_POOL_V1ALPHA2])('omits namespace and empty labels (%s)', (apiVersion) => {
    const [pool] = synth(options({ apiVersion, namespace: undefined, labels: {} })).manifests;
    expect(pool.metadata).toEqual({ name: 'llama' });
  });

  test('copies selector and labels, so later changes to the caller\'s maps do not leak in', () => {
    const selector: Record<string, string> = { 'airunway.ai/model-deployment': 'llama' };
    const labels: Record<string, string> = { team: 'ml' };
    const chart = Testing.chart();
    addInferencePool(chart, options({ selector, labels }));
    selector.extra = 'x';
    labels.extra = 'x';
    const [pool] = Testing.synth(chart);
    expect(pool.spec.selector.matchLabels).toEqual({ 'airunway.ai/model-deployment': 'llama' });
    expect(pool.metadata.labels).toEqual({ team: 'ml' });
  });

  test.each<InferencePoolApiVersionString>([INFERENCE_POOL_V1, INFERENCE_POOL_V1ALPHA2])('fails when the selector is empty (%s)', (apiVersion) => {
    expect(() => addInferencePool(Testing.chart(), options({ apiVersion, selector: {} }))).toThrow(
      '\'selector\' of InferencePool "llama" must name at least one pod label',
    );
  });

  test.each([
    ['targetPort', 0],
    ['targetPort', 65536],
    ['targetPort', 80.5],
    ['endpointPickerPort', 0],
    ['endpointPickerPort', 70000],
  ])('fails when %s is %d', (prop, value) => {
    expect(() => addInferencePool(Testing.chart(), options({ [prop]: value }))).toThrow(
      `'${prop}' (${value}) must be an integer from 1 to 65535`,
    );
  });

  test('fails when the apiVersion is not a supported InferencePool version', () => {
    const apiVersion = 'inference.networking.x-k8s.io/v1alpha1' as InferencePoolApiVersionString;
    expect(() => addInferencePool(Testing.chart(), options({ apiVersion }))).toThrow(
      'InferencePool apiVersion "inference.networking.x-k8s.io/v1alpha1" is not supported; use inference.networking.k8s.io/v1 or inference.networking.x-k8s.io/v1alpha2',
    );
  });
});

describe('inferencePoolGroup', () => {
  test('is the API group of each pool version', () => {
    expect(inferencePoolGroup(INFERENCE_POOL_V1)).toBe('inference.networking.k8s.io');
    expect(inferencePoolGroup(INFERENCE_POOL_V1ALPHA2)).toBe('inference.networking.x-k8s.io');
  });

  test('fails for an unsupported version', () => {
    expect(() => inferencePoolGroup('v1' as InferencePoolApiVersionString)).toThrow('InferencePool apiVersion "v1" is not supported');
  });
});
