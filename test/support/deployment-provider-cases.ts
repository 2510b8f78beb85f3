/**
 * Test cases shared by the providers that render a model server as an apps/v1 Deployment and a
 * Service named after the deployment (Direct vLLM and llm-d): the cases where they behave alike,
 * with what differs (the deployment name, the provider's display name in messages, the default
 * image) taken from the subject.
 */
import { k8s } from 'cdk8s-plus-34';
import { commonLabels } from './expected-manifests';
import type { FixtureOptions } from './resolved-deployment';
import { deploymentContainer, findManifest, TranslatorHarness, translatorHarness } from './translator-harness';
import type { InferenceProvider } from '../../src/api/provider/inference-provider';
import type { ResolvedModelDeployment } from '../../src/api/resolved-model-deployment';
import { FieldErrorKind } from '../../src/core/field-error';
import { TOLERATE_GPU_TAINT_ANNOTATION } from '../../src/core/gpu-taint-toleration';

export interface DeploymentProviderSubject {
  readonly harness: TranslatorHarness;
  /** The fixture deployment's name, which its Deployment and Service take. */
  readonly name: string;
  /** The model server container of the Deployment `deployment` (by default the fixture's). */
  container(manifests: any[], deployment?: string): any;
  /** The model server arguments of the fixture with `options`. */
  argsOf(options?: FixtureOptions): string[];
}

/** A Deployment-rendering provider's translator, its fixture and the fixture deployment's name. */
export function deploymentProvider(
  provider: InferenceProvider,
  fixture: (options?: FixtureOptions) => ResolvedModelDeployment,
  name: string,
): DeploymentProviderSubject {
  const harness = translatorHarness(provider, fixture);
  const container = (manifests: any[], deployment = name) => deploymentContainer(manifests, deployment);
  return { harness, name, container, argsOf: (options = {}) => container(harness.synthOf(options)).args };
}

/** Registers: the Deployment and Service objects, their namespace and the replica count. */
export function deploymentObjectCases({ harness, name }: DeploymentProviderSubject): void {
  const { synth, synthOf, fixture } = harness;

  test('creates a Deployment and a Service named after the deployment, primary first', () => {
    const { returned, manifests } = synth(fixture());
    expect(returned.map((o) => [o.node.id, o.kind, o.name])).toEqual([
      ['Deployment', 'Deployment', name],
      ['Service', 'Service', name],
    ]);
    expect(returned[0]).toBeInstanceOf(k8s.KubeDeployment);
    expect(returned[1]).toBeInstanceOf(k8s.KubeService);
    expect(manifests.map((m) => `${m.apiVersion} ${m.kind} ${m.metadata.namespace}/${m.metadata.name}`)).toEqual([
      `apps/v1 Deployment ml/${name}`,
      `v1 Service ml/${name}`,
    ]);
  });

  test('omits the namespace when the deployment has none', () => {
    for (const m of synthOf({ namespace: null })) expect(m.metadata.namespace).toBeUndefined();
  });

  test('uses scaling.replicas, 0 included (scale to zero, where AI Runway runs one), and 1 when unset', () => {
    expect(findManifest(synthOf({ spec: { scaling: { replicas: 3 } } }), 'Deployment', name).spec.replicas).toBe(3);
    expect(findManifest(synthOf({ spec: { scaling: { replicas: 0 } } }), 'Deployment', name).spec.replicas).toBe(0);
    expect(findManifest(synthOf({ spec: { scaling: undefined } }), 'Deployment', name).spec.replicas).toBe(1);
  });

  test('leaves the replica count to the autoscaler when the deployment is autoscaled', () => {
    const autoscaled = synthOf({
      spec: { scaling: undefined },
      annotations: { 'inference.cdk8s.io/autoscaling': 'maxReplicas: 3\nmetrics: [{type: queueDepth, target: 4}]' },
    });
    expect(findManifest(autoscaled, 'Deployment', name).spec).not.toHaveProperty('replicas');
  });
}

/** The provider's default model server image, as its exported constant and as expected. */
export interface DefaultImage {
  readonly constant: string;
  readonly expected: string;
}

/** `describe('image')`: the default image, the legacy spec.image and spec.engine.image. */
export function describeModelServerImage({ harness, container }: DeploymentProviderSubject, defaultImage: DefaultImage): void {
  const imageOf = (options: FixtureOptions) => container(harness.synthOf(options)).image;

  describe('image', () => {
    test(`defaults to ${defaultImage.expected}`, () => {
      expect(defaultImage.constant).toBe(defaultImage.expected);
      expect(imageOf({})).toBe(defaultImage.expected);
    });

    test('uses the legacy spec.image when engine.image is unset', () => {
      expect(imageOf({ spec: { image: 'registry.example/vllm:legacy' } })).toBe('registry.example/vllm:legacy');
    });

    test('prefers spec.engine.image over spec.image', () => {
      expect(imageOf({ spec: { image: 'registry.example/vllm:legacy', engine: { image: 'registry.example/vllm:v1' } } })).toBe('registry.example/vllm:v1');
    });
  });
}

/** Registers: the vllm container's name, command (`vllm serve`) and port, and its resources when none are requested. */
export function modelServerContainerCases({ harness, container }: DeploymentProviderSubject): void {
  const { synthOf } = harness;

  test('is named vllm, runs `vllm serve` and exposes http 8000', () => {
    const c = container(synthOf());
    expect(c.name).toBe('vllm');
    expect(c.command).toEqual(['vllm', 'serve']);
    expect(c.ports).toEqual([{ name: 'http', containerPort: 8000, protocol: 'TCP' }]);
  });

  test('omits resources when nothing is requested', () => {
    // Only reachable when validation is bypassed: an aggregated deployment of this provider requires GPUs.
    expect(container(synthOf({ spec: { resources: undefined } })).resources).toBeUndefined();
  });
}

/** `describe('scheduling and pod metadata')`: nodeSelector, tolerations and podTemplate metadata on the Deployment's pods. */
export function describeSchedulingAndPodMetadata({ harness, name }: DeploymentProviderSubject): void {
  const { synthOf } = harness;
  const podSpecOf = (options: FixtureOptions) => findManifest(synthOf(options), 'Deployment', name).spec.template.spec;

  describe('scheduling and pod metadata', () => {
    test('copies nodeSelector and tolerations into the pod spec', () => {
      const tolerations = [
        { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'spot', operator: 'Equal', value: 'true', effect: 'NoExecute', tolerationSeconds: 300 },
      ];
      const pod = podSpecOf({ spec: { nodeSelector: { pool: 'gpu' }, tolerations } });
      expect(pod.nodeSelector).toEqual({ pool: 'gpu' });
      expect(pod.tolerations).toEqual(tolerations);
    });

    test('omits nodeSelector and tolerations when empty', () => {
      const pod = podSpecOf({ annotations: { [TOLERATE_GPU_TAINT_ANNOTATION]: 'false' }, spec: { nodeSelector: {}, tolerations: [] } });
      expect(pod.nodeSelector).toBeUndefined();
      expect(pod.tolerations).toBeUndefined();
    });

    test('labels pods with the selector and airunway.ai/model-deployment by default', () => {
      const deployment = findManifest(synthOf(), 'Deployment', name);
      expect(deployment.spec.template.metadata).toEqual({
        labels: { 'airunway.ai/deployment': name, 'app': name, 'airunway.ai/model-deployment': name },
      });
      expect(deployment.metadata.annotations).toBeUndefined();
    });

    test('merges podTemplate labels without clobbering the selector, model-deployment or common labels', () => {
      const manifests = synthOf({
        spec: {
          podTemplate: {
            metadata: {
              labels: {
                'team': 'ml',
                'app': 'hijack',
                'airunway.ai/deployment': 'hijack',
                'airunway.ai/model-deployment': 'hijack',
                'airunway.ai/managed-by': 'someone-else',
              },
              annotations: { 'prometheus.io/scrape': 'true' },
            },
          },
        },
      });
      const deployment = findManifest(manifests, 'Deployment', name);
      expect(deployment.spec.selector).toEqual({ matchLabels: { 'airunway.ai/deployment': name, 'app': name } });
      expect(deployment.spec.template.metadata).toEqual({
        labels: {
          'team': 'ml',
          'app': name,
          'airunway.ai/deployment': name,
          'airunway.ai/model-deployment': name,
          'airunway.ai/managed-by': 'someone-else',
        },
        annotations: { 'prometheus.io/scrape': 'true' },
      });
      expect(deployment.metadata.labels).toEqual({
        'team': 'ml',
        'app': 'hijack',
        'airunway.ai/model-deployment': 'hijack',
        ...commonLabels(name),
      });
      expect(deployment.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true' });
      const service = findManifest(manifests, 'Service', name);
      expect(service.metadata.labels).toEqual(commonLabels(name));
      expect(service.metadata.annotations).toBeUndefined();
    });
  });
}

/**
 * Registers the override guards both providers apply alike: the pod labels the selectors use,
 * and overrides that are not an object.
 */
export function deploymentOverrideGuardCases({ harness }: DeploymentProviderSubject): void {
  const { errorsOf, fixture, translator, withOverrides } = harness;
  const podLabelsReason = `the Deployment selector, the Service and the InferencePool select ${translator.displayName} pods by their labels`;

  test.each(['app', 'airunway.ai/deployment', 'airunway.ai/model-deployment'])('fails when overrides set the pod label %s', (label) => {
    expect(errorsOf(withOverrides({ spec: { template: { metadata: { labels: { [label]: 'x', team: 'ml' } } } } }))).toEqual([
      `spec.provider.overrides.spec.template.metadata.labels.${label}: Forbidden: overriding pod label ${JSON.stringify(label)} is not allowed: ${podLabelsReason}`,
    ]);
  });

  test('fails when overrides are not an object', () => {
    const md = fixture(withOverrides(['x']));
    expect(errorsOf(md)).toEqual(['spec.provider.overrides: Invalid value: "<array>": overrides must be a JSON object']);
  });
}

/** Registers the engine checks both providers make alike: vllm only, and well-formed engine.args keys. */
export function vllmEngineValidationCases({ harness }: DeploymentProviderSubject): void {
  const { errorsOf, fixture, translator } = harness;

  test('fails when the engine is not vllm', () => {
    const md = { ...fixture({ spec: { engine: { type: 'sglang' } } }), engine: 'sglang' as const };
    const message = `${translator.displayName} provider only supports vllm engine, got sglang`;
    expect(translator.validate(md)).toEqual([{ path: 'spec.engine.type', kind: FieldErrorKind.INVALID, value: 'sglang', message }]);
  });

  test.each(['', '-dtype', 'max model len', 'dtype=half', 'flag.with.dots'])('fails when an engine.args key is invalid: %j', (key) => {
    expect(errorsOf({ spec: { engine: { args: { [key]: 'x' } } } })).toEqual([
      `spec.engine.args.${key}: Invalid value: ${JSON.stringify(key)}: invalid engine arg key ${JSON.stringify(key)}: ` +
        'must contain only alphanumeric characters, hyphens, and underscores',
    ]);
  });
}

/**
 * `describe('GPU types and the GPU taint toleration')`: the container requests its `gpu.type`
 * (equal limits and requests), AMD GPUs on the provider's default CUDA image draw a warning, and
 * the annotation `inference.cdk8s.io/tolerate-gpu-taint` adds the GPU taint toleration.
 */
export function describeGpuTypes({ harness, container, name }: DeploymentProviderSubject, defaultImage: string): void {
  const { synth, fixture, synthOf, translator } = harness;
  const gpus = (count: number, type: string): FixtureOptions => ({ spec: { resources: { gpu: { count, type } } } });
  const podSpecOf = (options: FixtureOptions) => findManifest(synthOf(options), 'Deployment', name).spec.template.spec;
  const taint = (key: string) => ({ key, operator: 'Exists', effect: 'NoSchedule' });
  const tolerating = { [TOLERATE_GPU_TAINT_ANNOTATION]: 'true' };

  describe('GPU types and the GPU taint toleration', () => {
    test.each(['nvidia.com/gpu', 'amd.com/gpu', 'nvidia.com/mig-1g.10gb', 'gpu.intel.com/i915'])('requests %s GPUs, equal in limits and requests', (type) => {
      expect(container(synthOf(gpus(2, type))).resources).toEqual({ limits: { [type]: '2' }, requests: { [type]: '2' } });
    });

    test('warns when AMD GPUs would run the default CUDA image', () => {
      const { recordedWarnings } = synth(fixture(gpus(1, 'amd.com/gpu')));
      expect(recordedWarnings).toEqual([{
        path: 'test/Deployment',
        message: `${translator.displayName} requests AMD GPUs (spec.resources.gpu.type "amd.com/gpu") but runs its default image ${defaultImage}, ` +
          'a CUDA build of vLLM; set spec.engine.image to a ROCm build of vLLM',
      }]);
    });

    test('does not warn about AMD GPUs with an image of the user\'s, nor about NVIDIA ones', () => {
      expect(synth(fixture({ spec: { ...gpus(1, 'amd.com/gpu').spec, engine: { image: 'rocm/vllm:latest' } } })).warnings).toEqual([]);
      expect(synth(fixture({ spec: { ...gpus(1, 'amd.com/gpu').spec, image: 'rocm/vllm:latest' } })).warnings).toEqual([]);
      expect(synth(fixture(gpus(1, 'nvidia.com/mig-1g.10gb'))).warnings).toEqual([]);
    });

    test.each([
      ['nvidia.com/gpu', 'nvidia.com/gpu'],
      ['nvidia.com/mig-1g.10gb', 'nvidia.com/gpu'],
      ['amd.com/gpu', 'amd.com/gpu'],
      ['gpu.intel.com/i915', 'gpu.intel.com/i915'],
    ])('tolerates the taint of %s GPUs (key %s) when the annotation says "true"', (type, key) => {
      expect(podSpecOf({ ...gpus(1, type), annotations: tolerating }).tolerations).toEqual([taint(key)]);
    });

    test('tolerates the taint by default (GKE taints every GPU node), and adds none when the annotation is "false"', () => {
      expect(podSpecOf({ annotations: { [TOLERATE_GPU_TAINT_ANNOTATION]: 'false' } }).tolerations).toBeUndefined();
      expect(podSpecOf({}).tolerations).toEqual([taint('nvidia.com/gpu')]);
    });

    test('keeps spec.tolerations first and does not repeat one that already covers the taint', () => {
      const user = [{ key: 'spot', operator: 'Equal', value: 'true', effect: 'NoSchedule' }, { key: 'nvidia.com/gpu', operator: 'Equal', value: 'present', effect: 'NoSchedule' }];
      expect(podSpecOf({ annotations: tolerating, spec: { tolerations: user } }).tolerations).toEqual([...user, taint('nvidia.com/gpu')]);
      for (const covering of [[taint('nvidia.com/gpu')], [{ key: 'nvidia.com/gpu', operator: 'Exists' }], [{ operator: 'Exists' }]]) {
        expect(podSpecOf({ annotations: tolerating, spec: { tolerations: covering } }).tolerations).toEqual(covering);
      }
    });
  });
}
