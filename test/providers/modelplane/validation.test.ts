import { devicesAnnotation, modelplaneDeployment, modelplaneHarness, prefillDecodeDeployment } from './fixtures';
import type { CheckedDeviceRequest } from '../../../src/api/devices/device-request';
import { formatFieldError } from '../../../src/core/field-error';
import { ModelplaneTolerationOperator } from '../../../src/modelplane/cluster-toleration';
import { deviceRequestLimitErrors } from '../../../src/modelplane/node-selector';
import { ModelplaneProvider } from '../../../src/providers/modelplane';
import { modelplaneWarnings, validateModelplane } from '../../../src/providers/modelplane/validation';

const { errorsOf } = modelplaneHarness();

const POD_TARGETS = 'targets that have it: dynamo, kuberay, llmd, vllm';
const ANNOTATION = 'metadata.annotations["inference.cdk8s.io/devices"]';

function request(name: string, selectors: number, extra: Partial<CheckedDeviceRequest> = {}): Record<string, unknown> {
  return {
    name,
    deviceClassName: 'gpu.nvidia.com',
    ...(selectors > 0 && { selectors: Array.from({ length: selectors }, (_, i) => ({ cel: `device.attributes["gpu.nvidia.com"].index != ${i}` })) }),
    ...extra,
  };
}

describe('validateModelplane', () => {
  test('accepts the baseline, a PrefillDecode deployment and SGLang', () => {
    expect(errorsOf()).toEqual([]);
    expect(errorsOf(prefillDecodeDeployment())).toEqual([]);
    expect(errorsOf({ spec: { engine: { type: 'sglang' } } })).toEqual([]);
  });

  describe('engines and modes', () => {
    test.each([
      ['trtllm', 'dynamo'],
      ['llamacpp', 'kaito'],
    ])('fails when the engine is %s, naming the target that runs it', (engine, target) => {
      expect(errorsOf({ spec: { engine: { type: engine as any } } })).toEqual([
        `spec.engine.type: Invalid value: "${engine}": target modelplane does not support engine ${engine}: its translation knows the command lines of vllm and sglang; targets that have it: ${target}`,
      ]);
    });

    test('fails when sglang is disaggregated', () => {
      expect(errorsOf(prefillDecodeDeployment({ spec: { engine: { type: 'sglang' } } }))).toEqual([
        'spec.serving.mode: Invalid value: "disaggregated": target modelplane does not support disaggregated serving with sglang: ' +
          "modelplane's PrefillDecode routing is llm-d's vLLM sidecar with NIXL KV transfer; targets that have it: dynamo",
      ]);
    });
  });

  describe('devices', () => {
    test('fails when an engine has neither GPUs nor device requests (CPU only)', () => {
      expect(errorsOf({ spec: { resources: { gpu: { count: 0 } } } })).toEqual([
        'spec.resources.gpu.count: Invalid value: 0: target modelplane does not support serving without GPUs: modelplane places every engine by its device requests, ' +
          'so each needs GPUs (gpu.count) or DRA device requests; targets that have it: kaito',
      ]);
      expect(errorsOf({ spec: { resources: undefined } })).toEqual([expect.stringMatching(/^spec\.resources\.gpu\.count: Invalid value: 0: target modelplane does not support serving without GPUs/)]);
      const md = prefillDecodeDeployment({ spec: { scaling: { prefill: { replicas: 1 }, decode: { replicas: 1, gpu: { count: 1 } } } } });
      expect(errorsOf(md)).toEqual([expect.stringMatching(/^spec\.scaling\.prefill\.gpu\.count: Invalid value: 0: target modelplane does not support serving without GPUs/)]);
    });

    test.each([
      ['nvidia.com/mig-1g.10gb'],
      ['amd.com/mi300x-cpx'],
      ['example.com/accelerator'],
    ])('fails when the GPU type %s has no whole-GPU DRA driver and no device requests are given', (type) => {
      expect(errorsOf({ spec: { resources: { gpu: { count: 1, type } } } })).toEqual([
        `spec.resources.gpu.type: Invalid value: "${type}": target modelplane does not support requesting GPUs of this type without DRA device requests: ` +
          'modelplane requests GPUs as DRA devices, and only whole GPUs of a known DRA driver (nvidia.com/gpu, amd.com/gpu, gpu.intel.com/i915, gpu.intel.com/xe) ' +
          'can be requested from gpu.count and gpu.type alone; give DRA device requests that select these devices (GpuOptions.devices, or the inference.cdk8s.io/devices annotation); ' +
          POD_TARGETS,
      ]);
    });

    test('accepts a MIG GPU type when device requests select the devices', () => {
      const annotations = devicesAnnotation({ resources: [request('mig', 1)] });
      expect(errorsOf({ annotations, spec: { resources: { gpu: { count: 1, type: 'nvidia.com/mig-1g.10gb' } } } })).toEqual([]);
    });

    test('fails when gpu.count exceeds what one DRA claim is allocated', () => {
      expect(errorsOf({ spec: { resources: { gpu: { count: 33, type: 'nvidia.com/gpu' } } } })).toContain(
        'spec.resources.gpu.count: Invalid value: 33: modelplane claims the GPUs of a pod through one DRA claim, which is allocated at most 32 devices',
      );
    });

    test('fails when a member has more than 16 device requests', () => {
      const annotations = devicesAnnotation({ resources: Array.from({ length: 17 }, (_, i) => request(`d${i}`, 1)) });
      expect(errorsOf({ annotations })).toEqual([
        `${ANNOTATION}.resources: Invalid value: "17 requests": modelplane accepts at most 16 device requests per pod (member)`,
      ]);
    });

    test('fails when a device request has no selector, or more than 8', () => {
      const annotations = devicesAnnotation({ resources: [request('a', 0), request('b', 9)] });
      expect(errorsOf({ annotations })).toEqual([
        `${ANNOTATION}.resources[0].selectors: Required value: modelplane needs at least one selector per device request: its scheduler matches the request ` +
          'to InferenceClass devices by its selectors, and its XRD refuses a request without one, which would claim an arbitrary device (deviceClassName ' +
          '"gpu.nvidia.com" is not part of a modelplane request; the InferenceClass names the class). Add one, e.g. {driver: gpu.nvidia.com} or {productName: ...}',
        `${ANNOTATION}.resources[1].selectors: Invalid value: "9 selectors": modelplane accepts at most 8 selectors per device request; combine conditions with && in one cel selector`,
      ]);
    });

    test('fails at the prefill and decode requests of a PrefillDecode deployment', () => {
      const annotations = devicesAnnotation({ prefill: [request('a', 1)], decode: [request('b', 0)] });
      expect(errorsOf(prefillDecodeDeployment({ annotations }))).toEqual([expect.stringMatching(/^metadata\.annotations\["inference\.cdk8s\.io\/devices"\]\.decode\[0\]\.selectors: Required value/)]);
    });

    test('fails when selector CEL is longer than modelplane accepts (the DRA reader refuses it earlier)', () => {
      const checked: CheckedDeviceRequest = { name: 'gpu', deviceClassName: 'c', count: 1, selectors: [{ expression: 'x'.repeat(10241), description: '' }] };
      expect(deviceRequestLimitErrors([checked], 'devices').map(formatFieldError)).toEqual([
        'devices[0].selectors[0]: Invalid value: "10241 characters": modelplane accepts selector CEL of at most 10240 characters',
      ]);
      expect(deviceRequestLimitErrors([{ ...checked, selectors: [{ expression: 'x'.repeat(10240), description: '' }] }], 'devices')).toEqual([]);
    });
  });

  describe('storage', () => {
    const cache = { name: 'model-cache', purpose: 'modelCache' as const, size: '100Gi', claimName: 'qwen-model-cache', mountPath: '/model-cache', accessMode: 'ReadWriteMany' as const };

    test.each([
      ['compilationCache', { name: 'compile', purpose: 'compilationCache' as const, claimName: 'shared', mountPath: '/compilation-cache' }, 'a compilationCache volume cannot be mounted'],
      ['custom', { name: 'data', purpose: 'custom' as const, claimName: 'data', mountPath: '/data' }, 'a custom volume cannot be mounted'],
    ])('fails for a %s volume', (_, volume, why) => {
      expect(errorsOf({ spec: { model: { storage: { volumes: [volume] } } } })).toEqual([
        `spec.model.storage.volumes[0]: Invalid value: "${volume.name}": target modelplane does not support mounting a PersistentVolumeClaim: ` +
          `modelplane's engine pods run on its workload clusters and mount only a ModelCache; ${why}; ${POD_TARGETS}`,
      ]);
    });

    test('fails for a modelCache volume naming an existing claim', () => {
      expect(errorsOf({ spec: { model: { storage: { volumes: [{ name: 'model-cache', purpose: 'modelCache', claimName: 'existing', mountPath: '/model-cache' }] } } } })).toEqual([
        'spec.model.storage.volumes[0]: Invalid value: "model-cache": target modelplane does not support mounting a PersistentVolumeClaim: modelplane cannot mount an existing ' +
          `claim on its workload clusters; give the modelCache volume a size and it becomes a ModelCache that modelplane stages there; ${POD_TARGETS}`,
      ]);
    });

    test('fails for a second modelCache volume', () => {
      expect(errorsOf({ spec: { model: { storage: { volumes: [cache, { ...cache, name: 'second', claimName: 'qwen-second' }] } } } })).toEqual([
        expect.stringMatching(/^spec\.model\.storage\.volumes\[1\]: Invalid value: "second": .*a modelplane deployment references one ModelCache/),
      ]);
    });

    test('fails to cache a custom model source', () => {
      expect(errorsOf({ spec: { model: { source: 'custom', id: undefined, storage: { volumes: [cache] } }, engine: { image: 'example.com/m:1' } } })).toEqual([
        'spec.model.storage.volumes[0]: Invalid value: "model-cache": a modelplane ModelCache stages a Hugging Face repository (spec.model.id with source huggingface); ' +
          'a custom model source cannot be cached',
      ]);
    });

    test.each([['100001Gi'], ['1e30'], ['0']])('fails when the cache size %s is outside 1 to 100000 GiB', (size) => {
      expect(errorsOf({ spec: { model: { storage: { volumes: [{ ...cache, size }] } } } })).toEqual([
        `spec.model.storage.volumes[0].size: Invalid value: "${size}": a modelplane ModelCache holds 1 to 100000 GiB (the size is rounded up to whole GiB)`,
      ]);
    });

    test('warns about the cache volume settings modelplane ignores', () => {
      const md = modelplaneDeployment({ spec: { model: { storage: { volumes: [{ ...cache, storageClassName: 'fast', accessMode: 'ReadWriteOnce', mountPath: '/models', readOnly: true }] } } } });
      expect(validateModelplane(md)).toEqual([]);
      expect(modelplaneWarnings(md)).toEqual([
        'spec.model.storage.volumes[0] becomes modelplane ModelCache "qwen-model-cache", which ignores storageClassName "fast" (the cluster\'s cache StorageClass is used), ' +
          'accessMode ReadWriteOnce (the cache is ReadWriteMany), mountPath /models (it is mounted at /mnt/models), readOnly (it is mounted read-write)',
      ]);
    });
  });

  describe('pod-level features modelplane lacks', () => {
    test('fails for spec.nodeSelector', () => {
      expect(errorsOf({ spec: { nodeSelector: { 'nvidia.com/gpu.product': 'H100' } } })).toEqual([
        'spec.nodeSelector: Invalid value: {"nvidia.com/gpu.product":"H100"}: target modelplane does not support node selection by labels: modelplane pins engine pods to the node pool ' +
          `its scheduler chose; select hardware with DRA device requests and clusters with ModelplaneProvider clusterSelector; ${POD_TARGETS}`,
      ]);
    });

    test('fails for spec.tolerations', () => {
      expect(errorsOf({ spec: { tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }] } })).toEqual([
        'spec.tolerations: Invalid value: "1 toleration(s)": target modelplane does not support pod tolerations: modelplane\'s engine pods tolerate the nvidia.com/gpu taint only, ' +
          `and its own tolerations match InferenceCluster taints (ModelplaneProvider clusterTolerations); ${POD_TARGETS}`,
      ]);
    });

    test('fails for CPU and memory requests, aggregated and per component', () => {
      const why = "modelplane's pod template has no container resources; its composition sizes the engine pods by their device claims";
      expect(errorsOf({ spec: { resources: { gpu: { count: 1, type: 'nvidia.com/gpu' }, cpu: '8', memory: '64Gi' } } })).toEqual([
        `spec.resources.cpu: Invalid value: "8": target modelplane does not support CPU and memory requests: ${why}; ${POD_TARGETS}`,
        `spec.resources.memory: Invalid value: "64Gi": target modelplane does not support CPU and memory requests: ${why}; ${POD_TARGETS}`,
      ]);
      const md = prefillDecodeDeployment({
        spec: { scaling: { prefill: { replicas: 1, gpu: { count: 1 }, memory: '32Gi' }, decode: { replicas: 1, gpu: { count: 1 }, memory: '64Gi' } } },
      });
      expect(errorsOf(md)).toEqual([
        `spec.scaling.prefill.memory: Invalid value: "32Gi": target modelplane does not support CPU and memory requests: ${why}; ${POD_TARGETS}`,
        `spec.scaling.decode.memory: Invalid value: "64Gi": target modelplane does not support CPU and memory requests: ${why}; ${POD_TARGETS}`,
      ]);
    });

    test('fails when gateway routing is on', () => {
      expect(errorsOf({ spec: { gateway: { enabled: true } } })).toEqual([
        'spec.gateway.enabled: Invalid value: true: target modelplane does not support routing through an InferencePool and HTTPRoute of ours: modelplane routes to its engines ' +
          'through an InferencePool and gateway of its own on each workload cluster; set gateway.enabled to false; targets that have it: dynamo, kaito, kuberay, llmd, vllm',
      ]);
      expect(errorsOf({ spec: { gateway: { enabled: false } } })).toEqual([]);
    });
  });

  describe('labels and annotations', () => {
    test('fails for a reserved or malformed pod label key and an invalid label value', () => {
      const labels = { 'modelplane.ai/serving': 'x', 'bad key': 'v', 'ok': 'not a value' };
      expect(errorsOf({ spec: { podTemplate: { metadata: { labels } } } })).toEqual([
        'spec.podTemplate.metadata.labels.modelplane.ai/serving: Invalid value: "modelplane.ai/serving": label keys under "modelplane.ai/" are reserved by modelplane, ' +
          'which sets them for its own selectors',
        expect.stringMatching(/^spec\.podTemplate\.metadata\.labels\.bad key: Invalid value: "bad key": must be a valid label key: name part must consist of/),
        expect.stringMatching(/^spec\.podTemplate\.metadata\.labels\.ok: Invalid value: "not a value": must be a valid label value \(at most 63 characters\)/),
      ]);
    });

    test('fails for more than 32 pod labels or annotations', () => {
      const many = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, 'v']));
      expect(errorsOf({ spec: { podTemplate: { metadata: { labels: many, annotations: many } } } })).toEqual([
        'spec.podTemplate.metadata.labels: Invalid value: "33 labels": modelplane accepts at most 32 labels here',
        'spec.podTemplate.metadata.annotations: Invalid value: "33 annotations": modelplane accepts at most 32 annotations here',
      ]);
    });

    test('fails for a malformed annotation key or a value over 8192 characters', () => {
      const annotations = { 'a/b/c': 'v', 'long': 'x'.repeat(8193) };
      expect(errorsOf({ spec: { podTemplate: { metadata: { annotations } } } })).toEqual([
        expect.stringMatching(/^spec\.podTemplate\.metadata\.annotations\.a\/b\/c: Invalid value: "a\/b\/c": must be a valid annotation key/),
        'spec.podTemplate.metadata.annotations.long: Invalid value: "8193 characters": modelplane accepts annotation values of at most 8192 characters',
      ]);
    });

    test('fails when the deployment name is too long for the label modelplane copies onto its replicas', () => {
      const name = 'q'.repeat(64);
      expect(errorsOf({ name })).toEqual([
        expect.stringMatching(/^metadata\.name: Invalid value: "q{64}": modelplane copies the deployment's labels, its name among them, onto its ModelReplicas and ModelEndpoints: must be no more than 63 characters$/),
      ]);
    });
  });

  describe('env', () => {
    test('fails for a value source modelplane does not have', () => {
      const env = [
        { name: 'LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.memory' } } },
        { name: 'FILE', valueFrom: { fileKeyRef: { key: 'k', path: 'p', volumeName: 'v' } } },
      ];
      const why = "modelplane's engine container takes values from secretKeyRef, configMapKeyRef, fieldRef only";
      expect(errorsOf({ spec: { env } })).toEqual([
        `spec.env[0].valueFrom.resourceFieldRef: Invalid value: {"resource":"limits.memory"}: target modelplane does not support environment values from this source: ${why}; ${POD_TARGETS}`,
        `spec.env[1].valueFrom.fileKeyRef: Invalid value: {"key":"k","path":"p","volumeName":"v"}: target modelplane does not support environment values from this source: ${why}; ${POD_TARGETS}`,
      ]);
    });

    test('fails for a Secret or ConfigMap reference without a name, or a field reference without a path', () => {
      const env = [
        { name: 'A', valueFrom: { secretKeyRef: { key: 'k' } } },
        { name: 'B', valueFrom: { configMapKeyRef: { key: 'k', name: '' } } },
        { name: 'C', valueFrom: { fieldRef: { fieldPath: '' } } },
      ];
      expect(errorsOf({ spec: { env } })).toEqual([
        'spec.env[0].valueFrom.secretKeyRef.name: Invalid value: <nil>: modelplane requires secretKeyRef.name',
        'spec.env[1].valueFrom.configMapKeyRef.name: Invalid value: "": modelplane requires configMapKeyRef.name',
        'spec.env[2].valueFrom.fieldRef.fieldPath: Invalid value: "": modelplane requires fieldRef.fieldPath',
      ]);
    });
  });

  describe('launch flags', () => {
    const why = 'modelplane serves every engine on port 8000 (its container port, readiness probe and InferencePool target) on all interfaces, ' +
      'and sets the decode engine of prefill/decode serving to 8001 itself';

    test('fails for host or port in engine.args or extraArgs, and for an invalid args key', () => {
      expect(errorsOf({ spec: { engine: { args: { 'port': '9000', 'host': '127.0.0.1', 'bad key': '1' }, extraArgs: ['--port=9000', '--host', '0.0.0.0'] } } })).toEqual([
        'spec.engine.args.bad key: Invalid value: "bad key": invalid engine arg key "bad key": must contain only alphanumeric characters, hyphens, and underscores',
        `spec.engine.args.host: Invalid value: "127.0.0.1": engine arg "host" cannot be set for modelplane: ${why}`,
        `spec.engine.args.port: Invalid value: "9000": engine arg "port" cannot be set for modelplane: ${why}`,
        `spec.engine.extraArgs[0]: Invalid value: "--port=9000": engine extraArg "--port=9000" cannot be set for modelplane: ${why}`,
        `spec.engine.extraArgs[1]: Invalid value: "--host": engine extraArg "--host" cannot be set for modelplane: ${why}`,
      ]);
    });

    test('fails when the tensor-parallel size needs more GPUs than the pod has, and warns about idle ones', () => {
      expect(errorsOf({ spec: { engine: { args: { 'tensor-parallel-size': '4' } } } })).toEqual([
        expect.stringMatching(/^spec\.engine\.args\.tensor-parallel-size: Invalid value: "4": .*modelplane serving engine pods/),
      ]);
      const md = modelplaneDeployment({ spec: { engine: { args: { 'tensor-parallel-size': '1' } }, resources: { gpu: { count: 2, type: 'nvidia.com/gpu' } } } });
      expect(validateModelplane(md)).toEqual([]);
      expect(modelplaneWarnings(md)).toEqual([expect.stringContaining('modelplane serving engine pods')]);
    });
  });

  describe('overrides', () => {
    test('fails for a non-object, a blocked key, a root key the modelplane ModelDeployment lacks, or a non-object spec', () => {
      expect(errorsOf({ spec: { provider: { name: 'modelplane', overrides: [1] as any } } })).toEqual([
        'spec.provider.overrides: Invalid value: "<array>": overrides must be a JSON object',
      ]);
      expect(errorsOf({ spec: { provider: { name: 'modelplane', overrides: { metadata: {}, foo: 1, spec: 'x' } } } })).toEqual([
        'spec.provider.overrides.metadata: Forbidden: overriding "metadata" is not allowed',
        'spec.provider.overrides.foo: Forbidden: a modelplane ModelDeployment has no root field "foo"; overrides merge into spec',
        'spec.provider.overrides.spec: Forbidden: overriding "spec" with a non-object is not allowed: it would replace the whole spec',
      ]);
    });
  });

  test('warns that device classes come from the InferenceClass', () => {
    const md = modelplaneDeployment({ annotations: devicesAnnotation({ resources: [request('gpu', 1)] }) });
    expect(modelplaneWarnings(md)).toEqual([
      `${ANNOTATION}: modelplane matches device requests by their selectors against InferenceClass devices and claims the matched device's class; ` +
        'deviceClassName "gpu.nvidia.com" is not written',
    ]);
    expect(modelplaneWarnings(modelplaneDeployment())).toEqual([]);
  });
});

describe('ModelplaneProvider props', () => {
  test.each([
    [{ modelReplicas: 0 }, 'ModelplaneProvider.modelReplicas: Invalid value: 0: must be a whole number from 1 to 10: ModelReplicas, each a whole serving instance'],
    [{ modelReplicas: 11 }, 'ModelplaneProvider.modelReplicas: Invalid value: 11: must be a whole number from 1 to 10: ModelReplicas, each a whole serving instance'],
    [{ modelReplicas: 1.5 }, 'ModelplaneProvider.modelReplicas: Invalid value: 1.5: must be a whole number from 1 to 10: ModelReplicas, each a whole serving instance'],
    [{ clusterTolerations: [{ value: 'x' }] }, 'ModelplaneProvider.clusterTolerations[0].key: Required value: an Equal toleration must name the taint key'],
    [{ clusterTolerations: [{ key: 'k', operator: ModelplaneTolerationOperator.EXISTS, value: 'x' }] },
      'ModelplaneProvider.clusterTolerations[0].value: Invalid value: "x": an Exists toleration matches any value and must not set one'],
    [{ imagePullSecrets: [''] }, 'ModelplaneProvider.imagePullSecrets[0]: Invalid value: "": must name a Secret'],
    [{ vllmImage: '' }, 'ModelplaneProvider.vllmImage: Invalid value: "": must name an image, or be left out'],
    [{ sglangImage: '' }, 'ModelplaneProvider.sglangImage: Invalid value: "": must name an image, or be left out'],
  ])('fails early for %j', (props, message) => {
    expect(() => new ModelplaneProvider(props)).toThrow(message);
  });
});
