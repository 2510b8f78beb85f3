import { Testing } from 'cdk8s';
import { flexInferDeployment, FixtureOptions, llamaCppCpuDeployment } from './fixtures';
import { toResolvedDeployment as toView } from '../../../src/api/resolved-model-deployment';
import { modelSpecErrors } from '../../../src/flexinfer/model-rules';
import { FlexInferProvider } from '../../../src/providers/flexinfer';
import { planFlexInferModel } from '../../../src/providers/flexinfer/model-plan';
import { translateFlexInfer } from '../../../src/providers/flexinfer/translator';
import { commonLabels, managedClaim } from '../../support/expected-manifests';
import { resolvedDeployment } from '../../support/resolved-deployment';
import { onlyManifestOf, translatorHarness } from '../../support/translator-harness';

const harness = translatorHarness(new FlexInferProvider(), flexInferDeployment);
const { synth, synthOf, translator } = harness;

/** The Model's spec for the fixture with `options` (schema-checked by the harness). */
function modelSpec(options: FixtureOptions = {}): any {
  return onlyManifestOf(synthOf(options), 'Model').spec;
}

function withAnnotations(annotations: Record<string, string>, options: FixtureOptions = {}): FixtureOptions {
  return { ...options, annotations: { ...options.annotations, ...annotations } };
}

const CACHE_VOLUME = { name: 'model-cache', purpose: 'modelCache' as const, size: '100Gi', claimName: 'qwen-model-cache', accessMode: 'ReadWriteMany' as const, mountPath: '/model-cache' };

describe('FlexInferProvider translation', () => {
  test('identifies the flexinfer provider', () => {
    expect(translator.providerName).toBe('flexinfer');
    expect(translator.displayName).toBe('FlexInfer');
  });

  test('minimal deployment: one Model named like the deployment, matching the snapshot', () => {
    const manifests = synthOf();
    expect(manifests).toMatchSnapshot();
    expect(manifests.map((m) => `${m.apiVersion} ${m.kind}/${m.metadata.name}`)).toEqual(['ai.flexinfer/v1alpha2 Model/qwen']);
    expect(manifests[0].spec).toEqual({
      backend: 'vllm',
      source: 'HF://Qwen/Qwen3-0.6B',
      gpu: { vendor: 'nvidia', count: 1 },
      image: 'vllm/vllm-openai:v0.33.0',
      serverless: { enabled: false },
      cache: { strategy: 'None' },
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
    });
  });

  test('full deployment matches the snapshot', () => {
    const manifests = synthOf(withAnnotations(
      {
        'inference.cdk8s.io/flexinfer-gpu-shared': 'rtx4090',
        'inference.cdk8s.io/flexinfer-gpu-priority': '500',
        'inference.cdk8s.io/flexinfer-vram-estimate-mb': '20000',
        'inference.cdk8s.io/flexinfer-gpu-swap-cooldown': '10m',
        'inference.cdk8s.io/flexinfer-litellm': 'true',
        'inference.cdk8s.io/flexinfer-litellm-aliases': 'qwen,qwen-small',
        'inference.cdk8s.io/flexinfer-litellm-copilot-alias': 'gpt-4o',
        'inference.cdk8s.io/flexinfer-service-labels': 'textgen,fast',
      },
      {
        spec: {
          model: { servedName: 'qwen3', storage: { volumes: [CACHE_VOLUME] } },
          engine: { contextLength: 32768, trustRemoteCode: true, enforceEager: true, enablePrefixCaching: false, image: 'vllm/vllm-openai:v0.11.0', args: { 'gpu-memory-utilization': '0.9', 'max-num-seqs': '16' } },
          resources: { gpu: { count: 1, type: 'amd.com/gpu' }, memory: '32Gi', cpu: '8' },
          scaling: { replicas: 2 },
          nodeSelector: { 'node.flexstack.io/gpu-vendor': 'amd' },
          tolerations: [{ key: 'amd.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
        },
      },
    ));
    expect(manifests).toMatchSnapshot();
  });

  test('labels the Model like every object of the deployment and sets no ownerReferences', () => {
    const manifests = synthOf({ spec: { model: { storage: { volumes: [CACHE_VOLUME] } } } });
    expect(manifests.map((m) => m.kind)).toEqual(['Model', 'PersistentVolumeClaim']);
    for (const m of manifests) {
      expect(m.metadata.ownerReferences).toBeUndefined();
      expect(m.metadata.labels).toMatchObject(commonLabels('qwen'));
    }
    expect(manifests[0].metadata.labels['airunway.ai/model-deployment']).toBe('qwen');
  });

  test('leaves the namespace to the chart when the deployment has none', () => {
    const manifests = synthOf({ namespace: null });
    expect(manifests[0].metadata.namespace).toBeUndefined();
  });

  describe('GPUs', () => {
    test('nvidia.com/gpu becomes vendor nvidia, amd.com/gpu vendor amd, with the count', () => {
      expect(modelSpec({ spec: { resources: { gpu: { count: 4, type: 'nvidia.com/gpu' } } } }).gpu).toEqual({ vendor: 'nvidia', count: 4 });
      expect(modelSpec({ spec: { resources: { gpu: { count: 2, type: 'amd.com/gpu' } } } }).gpu).toEqual({ vendor: 'amd', count: 2 });
    });

    test('no GPUs on llama.cpp becomes vendor cpu without a count', () => {
      expect(onlyManifestOf(synth(llamaCppCpuDeployment()).manifests, 'Model').spec.gpu).toEqual({ vendor: 'cpu' });
    });

    test('sharing, priority, VRAM estimate and swap cooldown come from the annotations', () => {
      const gpu = modelSpec(withAnnotations({
        'inference.cdk8s.io/flexinfer-gpu-shared': 'gpu0',
        'inference.cdk8s.io/flexinfer-gpu-priority': '0',
        'inference.cdk8s.io/flexinfer-vram-estimate-mb': '6000',
        'inference.cdk8s.io/flexinfer-gpu-swap-cooldown': '90s',
      })).gpu;
      expect(gpu).toEqual({ vendor: 'nvidia', count: 1, shared: 'gpu0', priority: 0, vramEstimateMB: 6000, swapCooldown: '90s' });
    });

    test('a VRAM estimate alone needs no shared group', () => {
      expect(modelSpec(withAnnotations({ 'inference.cdk8s.io/flexinfer-vram-estimate-mb': '6000' })).gpu).toEqual({ vendor: 'nvidia', count: 1, vramEstimateMB: 6000 });
    });

    test('warns that vLLM uses one GPU of several (FlexInfer renders no tensor parallelism)', () => {
      const md = flexInferDeployment({ spec: { resources: { gpu: { count: 2, type: 'nvidia.com/gpu' } } } });
      expect(translator.provider.warnings(toView(md))).toEqual([
        "FlexInfer's vllm backend renders no --tensor-parallel-size and takes no raw flags, so vLLM serves from one of the 2 GPUs (spec.resources.gpu.count) and the others stay idle",
      ]);
      expect(translator.provider.warnings(toView(llamaCppCpuDeployment({ spec: { resources: { gpu: { count: 2, type: 'nvidia.com/gpu' } } } })))).toEqual([]);
    });

    test('warns that Gateway traffic does not count as demand in a shared group', () => {
      const md = flexInferDeployment({ annotations: { 'inference.cdk8s.io/flexinfer-gpu-shared': 'g' }, spec: { gateway: { enabled: true } } });
      expect(translator.provider.warnings(toView(md))).toEqual([expect.stringMatching(/^requests routed by the Gateway do not count as demand in a shared GPU group/)]);
    });

    test('warns about the private-registry AMD vLLM images unless an image is given', () => {
      const amd = { resources: { gpu: { count: 1, type: 'amd.com/gpu' } } };
      expect(translator.provider.warnings(toView(flexInferDeployment({ spec: amd })))).toEqual([expect.stringContaining('registry.harbor.lan')]);
      expect(translator.provider.warnings(toView(flexInferDeployment({ spec: { ...amd, engine: { image: 'rocm/vllm:v0.11' } } })))).toEqual([]);
      const withDefault = new FlexInferProvider({ vllmImage: 'rocm/vllm:v0.11' });
      expect(withDefault.warnings(toView(flexInferDeployment({ spec: amd })))).toEqual([]);
    });
  });

  describe('replicas and scale-to-zero', () => {
    test('one replica is always on (serverless disabled); zero counts as one', () => {
      expect(modelSpec({ spec: { scaling: { replicas: 1 } } }).serverless).toEqual({ enabled: false });
      expect(modelSpec({ spec: { scaling: { replicas: 0 } } }).serverless).toEqual({ enabled: false });
      expect(modelSpec({ spec: { scaling: undefined } }).serverless).toEqual({ enabled: false });
    });

    test('several replicas are kept running through minReplicas, with a note on the anti-affinity', () => {
      expect(modelSpec({ spec: { scaling: { replicas: 10 } } }).serverless).toEqual({ enabled: true, minReplicas: 10 });
      expect(translator.provider.warnings(toView(flexInferDeployment({ spec: { scaling: { replicas: 3 } } })))).toEqual([
        'FlexInfer places the 3 replicas on 3 different nodes (required pod anti-affinity on the hostname)',
      ]);
    });

    test('scale-to-zero sets minReplicas 0 and the timeouts as written', () => {
      expect(modelSpec(withAnnotations({ 'inference.cdk8s.io/flexinfer-scale-to-zero': 'true' })).serverless).toEqual({ enabled: true, minReplicas: 0 });
      expect(modelSpec(withAnnotations({
        'inference.cdk8s.io/flexinfer-scale-to-zero': 'true',
        'inference.cdk8s.io/flexinfer-idle-timeout': '15m',
        'inference.cdk8s.io/flexinfer-cold-start-timeout': '2m30s',
      })).serverless).toEqual({ enabled: true, minReplicas: 0, idleTimeout: '15m', coldStartTimeout: '2m30s' });
      expect(modelSpec(withAnnotations({ 'inference.cdk8s.io/flexinfer-scale-to-zero': 'false' })).serverless).toEqual({ enabled: false });
    });
  });

  describe('source and cache', () => {
    test('a Hugging Face model without a cache volume downloads on start (cache None)', () => {
      expect(modelSpec()).toMatchObject({ source: 'HF://Qwen/Qwen3-0.6B', cache: { strategy: 'None' } });
    });

    test('the modelCache volume becomes the SharedPVC cache; a managed one is synthesized as a PVC', () => {
      const manifests = synthOf({ spec: { model: { storage: { volumes: [CACHE_VOLUME] } } } });
      expect(manifests[0].spec.cache).toEqual({ strategy: 'SharedPVC', pvcName: 'qwen-model-cache' });
      expect(manifests[1]).toEqual(managedClaim({ deployment: 'qwen', volume: 'model-cache', size: '100Gi' }));
    });

    test('an existing claim is referenced, not synthesized', () => {
      const manifests = synthOf({ spec: { model: { storage: { volumes: [{ name: 'weights', purpose: 'modelCache', claimName: 'shared-hf-cache', mountPath: '/model-cache' }] } } } });
      expect(manifests.map((m) => m.kind)).toEqual(['Model']);
      expect(manifests[0].spec.cache).toEqual({ strategy: 'SharedPVC', pvcName: 'shared-hf-cache' });
    });

    test('the cache-strategy annotation picks Memory or Local (with a host path)', () => {
      expect(modelSpec(withAnnotations({ 'inference.cdk8s.io/flexinfer-cache-strategy': 'Memory' })).cache).toEqual({ strategy: 'Memory' });
      expect(modelSpec(withAnnotations({
        'inference.cdk8s.io/flexinfer-cache-strategy': 'Local',
        'inference.cdk8s.io/flexinfer-cache-host-path': '/mnt/nvme/models',
      })).cache).toEqual({ strategy: 'Local', hostPath: '/mnt/nvme/models' });
      expect(modelSpec(withAnnotations({ 'inference.cdk8s.io/flexinfer-cache-strategy': 'SharedPVC' }, { spec: { model: { storage: { volumes: [CACHE_VOLUME] } } } })).cache)
        .toEqual({ strategy: 'SharedPVC', pvcName: 'qwen-model-cache' });
    });

    test('a custom model on a modelCache volume is served from the claim (pvc://), mounted directly', () => {
      const spec = modelSpec({
        spec: { model: { source: 'custom', id: '/models/qwen3', storage: { volumes: [{ name: 'weights', purpose: 'modelCache', claimName: 'weights', readOnly: true, mountPath: '/model-cache' }] } } },
      });
      expect(spec).toMatchObject({ source: 'pvc://weights/models/qwen3', cache: { strategy: 'None' } });
      expect(modelSpec({
        spec: { model: { source: 'custom', id: '', storage: { volumes: [{ name: 'weights', purpose: 'modelCache', claimName: 'weights', mountPath: '/model-cache' }] } } },
      }).source).toBe('pvc://weights');
    });

    test('a custom model on a pvc:// source may be staged onto node-local storage (Local)', () => {
      const spec = modelSpec(withAnnotations({ 'inference.cdk8s.io/flexinfer-cache-strategy': 'Local' }, {
        spec: { model: { source: 'custom', id: 'qwen3', storage: { volumes: [{ name: 'weights', purpose: 'modelCache', claimName: 'weights', mountPath: '/model-cache' }] } } },
      }));
      expect(spec).toMatchObject({ source: 'pvc://weights/qwen3', cache: { strategy: 'Local' } });
    });

    test('a custom model without a volume is a path inside the image (file://)', () => {
      expect(modelSpec({ spec: { model: { source: 'custom', id: '/opt/models/qwen3' }, engine: { image: 'example.com/qwen-baked:1' } } }))
        .toMatchObject({ source: 'file:///opt/models/qwen3', image: 'example.com/qwen-baked:1', cache: { strategy: 'None' } });
    });

    test('warns that a managed claim behind a pvc:// source starts empty', () => {
      const md = flexInferDeployment({ spec: { model: { source: 'custom', id: 'qwen3', storage: { volumes: [CACHE_VOLUME] } } } });
      expect(translator.provider.warnings(toView(md))).toEqual([
        'the managed claim of spec.model.storage.volumes[0] starts empty, and FlexInfer serves pvc://qwen-model-cache/qwen3 from it as it is: fill it with the weights before the model starts',
      ]);
    });

    test('warns that a custom mount path is not used (FlexInfer mounts at /models)', () => {
      const md = flexInferDeployment({ spec: { model: { storage: { volumes: [{ ...CACHE_VOLUME, mountPath: '/cache' }] } } } });
      expect(translator.provider.warnings(toView(md))).toEqual(['FlexInfer mounts the model volume at /models; spec.model.storage.volumes[0].mountPath "/cache" is ignored']);
    });
  });

  describe('engine settings become backend config', () => {
    test('vLLM: served name, context length, remote code, eager mode and prefix caching off', () => {
      expect(modelSpec({ spec: { model: { servedName: 'qwen3' }, engine: { contextLength: 8192, trustRemoteCode: true, enforceEager: true, enablePrefixCaching: false } } }).config).toEqual({
        servedModelName: 'qwen3',
        maxModelLen: 8192,
        trustRemoteCode: true,
        enforceEager: true,
        enablePrefixCaching: false,
      });
    });

    test('vLLM: prefix caching on (the default) and false switches write nothing', () => {
      expect(modelSpec({ spec: { engine: { enablePrefixCaching: true, trustRemoteCode: false } } }).config).toBeUndefined();
    });

    test('vLLM loading mounted weights serves under model.id: FlexInfer passes their path as --model', () => {
      // A SharedPVC-cached Hugging Face model is loaded from /models/<model>, a pvc:// source from /models/<path>.
      expect(modelSpec({ spec: { model: { storage: { volumes: [CACHE_VOLUME] } } } }).config).toEqual({ servedModelName: 'Qwen/Qwen3-0.6B' });
      expect(modelSpec({ spec: { model: { source: 'custom', id: 'qwen3', storage: { volumes: [CACHE_VOLUME] } } } }).config).toEqual({ servedModelName: 'qwen3' });
      // The served name the deployment sets (as a field or an engine flag) is kept.
      expect(modelSpec({ spec: { model: { servedName: 'chat', storage: { volumes: [CACHE_VOLUME] } } } }).config).toEqual({ servedModelName: 'chat' });
      expect(modelSpec({ spec: { model: { storage: { volumes: [CACHE_VOLUME] } }, engine: { args: { 'served-model-name': 'x' } } } }).config).toEqual({ servedModelName: 'x' });
      // Loaded by id (downloaded on start, or into a node-local Hugging Face cache), or by a path that is the id: no name needed.
      expect(modelSpec().config).toBeUndefined();
      expect(modelSpec(withAnnotations({ 'inference.cdk8s.io/flexinfer-cache-strategy': 'Local' })).config).toBeUndefined();
      expect(modelSpec({ spec: { model: { source: 'custom', id: '/opt/models/qwen3' }, engine: { image: 'example.com/qwen-baked:1' } } }).config).toBeUndefined();
    });

    test('vLLM flags in engine.args become typed config keys; an args key wins over the structured field', () => {
      expect(modelSpec({
        spec: {
          engine: {
            contextLength: 8192,
            args: {
              'max-model-len': '4096',
              'dtype': 'bfloat16',
              'disable-log-stats': '',
              'enable-auto-tool-choice': 'true',
              'tool-call-parser': 'hermes',
              'trust-remote-code': 'false',
            },
          },
        },
      }).config).toEqual({ maxModelLen: 4096, dtype: 'bfloat16', disableLogStats: true, enableToolCalling: true, toolCallParser: 'hermes', trustRemoteCode: false });
    });

    test('llama.cpp: context length and llama-server flags, the GGUF file from hf-file', () => {
      const md = llamaCppCpuDeployment({
        spec: { engine: { type: 'llamacpp', contextLength: 4096, args: { 'hf-file': 'q4.gguf', 'threads': '8', 'flash-attn': 'on', 'jinja': '', 'n-gpu-layers': '0' } } },
      });
      expect(onlyManifestOf(synth(md).manifests, 'Model').spec.config).toEqual({ contextSize: 4096, ggufFile: 'q4.gguf', threads: 8, flashAttention: true, jinja: true, nGPULayers: 0 });
    });

    test('llama.cpp: warns about the settings llama-server has none for', () => {
      const md = llamaCppCpuDeployment({
        spec: { model: { servedName: 'qwen' }, engine: { type: 'llamacpp', trustRemoteCode: true, enforceEager: true, args: { 'hf-file': 'q4.gguf' } } },
      });
      expect(translator.provider.warnings(toView(md))).toEqual([
        "FlexInfer's llamacpp backend has no setting for spec.model.servedName, spec.engine.trustRemoteCode, spec.engine.enforceEager; llama-server serves under its model file and ignores them",
      ]);
    });
  });

  describe('image, resources, scheduling', () => {
    test('engine.image, else spec.image, else the provider default, else the pinned vLLM on NVIDIA, else none (FlexInfer picks)', () => {
      expect(modelSpec({ spec: { engine: { image: 'a/vllm:1' } } }).image).toBe('a/vllm:1');
      expect(modelSpec({ spec: { image: 'b/vllm:2' } }).image).toBe('b/vllm:2');
      // FlexInfer's own NVIDIA choice is the moving :latest tag; on AMD it picks by the architecture it detects.
      expect(modelSpec().image).toBe('vllm/vllm-openai:v0.33.0');
      expect(modelSpec({ spec: { resources: { gpu: { count: 1, type: 'amd.com/gpu' } } } }).image).toBeUndefined();
      const provider = new FlexInferProvider({ vllmImage: 'c/vllm:3', llamaCppImage: 'd/llama:4' });
      const own = translatorHarness(provider, flexInferDeployment);
      expect(onlyManifestOf(own.synthOf(), 'Model').spec.image).toBe('c/vllm:3');
      expect(onlyManifestOf(own.synth(llamaCppCpuDeployment()).manifests, 'Model').spec.image).toBe('d/llama:4');
    });

    test('memory is requested and limited, CPU requested; GPUs never appear in resources', () => {
      expect(modelSpec({ spec: { resources: { gpu: { count: 1, type: 'nvidia.com/gpu' }, memory: '16Gi', cpu: '500m' } } }).resources)
        .toEqual({ limits: { memory: '16Gi' }, requests: { cpu: '500m', memory: '16Gi' } });
      expect(modelSpec({ spec: { resources: { gpu: { count: 1, type: 'nvidia.com/gpu' }, cpu: '2' } } }).resources).toEqual({ requests: { cpu: '2' } });
    });

    test('nodeSelector and tolerations are copied; the GPU-taint annotation adds its toleration, with a warning', () => {
      const options = withAnnotations({ 'inference.cdk8s.io/tolerate-gpu-taint': 'true' }, {
        spec: { nodeSelector: { 'nvidia.com/gpu.product': 'NVIDIA-GeForce-RTX-4090' }, tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoSchedule' }] },
      });
      const spec = modelSpec(options);
      expect(spec.nodeSelector).toEqual({ 'nvidia.com/gpu.product': 'NVIDIA-GeForce-RTX-4090' });
      expect(spec.tolerations).toEqual([
        { key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoSchedule' },
        { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      ]);
      expect(translator.provider.warnings(toView(flexInferDeployment(options)))).toEqual([expect.stringContaining('does not apply a Model\'s tolerations')]);
    });

    test('warns that pod-template labels and annotations have nowhere to go', () => {
      const md = flexInferDeployment({ spec: { podTemplate: { metadata: { labels: { team: 'ml' }, annotations: { a: 'b' } } } } });
      expect(translator.provider.warnings(toView(md))).toEqual([
        'a FlexInfer Model has no pod labels or annotations; spec.podTemplate.metadata.labels and spec.podTemplate.metadata.annotations are not passed to its pods',
      ]);
    });
  });

  describe('LiteLLM and service labels', () => {
    test('LiteLLM discovery with the served name, aliases and Copilot alias', () => {
      const spec = modelSpec(withAnnotations({
        'inference.cdk8s.io/flexinfer-litellm': 'true',
        'inference.cdk8s.io/flexinfer-litellm-aliases': 'a, b',
        'inference.cdk8s.io/flexinfer-litellm-copilot-alias': 'gpt-4o',
      }, { spec: { model: { servedName: 'qwen3' } } }));
      expect(spec.litellm).toEqual({ servedModelName: 'qwen3', aliases: ['a', 'b'], copilotAlias: 'gpt-4o' });
    });

    test('LiteLLM without a served name leaves the Model name to FlexInfer', () => {
      expect(modelSpec(withAnnotations({ 'inference.cdk8s.io/flexinfer-litellm': 'true' })).litellm).toEqual({});
      expect(modelSpec().litellm).toBeUndefined();
    });

    test('service labels are written without LiteLLM', () => {
      expect(modelSpec(withAnnotations({ 'inference.cdk8s.io/flexinfer-service-labels': 'textgen,code' })).serviceLabels).toEqual(['textgen', 'code']);
    });
  });

  describe('overrides', () => {
    test('are deep-merged into the Model; null removes a key', () => {
      const spec = modelSpec(harness.withOverrides({ spec: { kvCache: { pressurePolicy: 'Evict' }, serverless: null, capabilities: { toolCalling: true } } }));
      expect(spec.kvCache).toEqual({ pressurePolicy: 'Evict' });
      expect(spec.capabilities).toEqual({ toolCalling: true });
      expect(spec.serverless).toBeUndefined();
    });
  });

  test('every plan of these tests satisfies the CRD rules of the FlexInferModel construct', () => {
    for (const md of [flexInferDeployment(), llamaCppCpuDeployment(), flexInferDeployment({ spec: { scaling: { replicas: 4 } } })]) {
      const { plan } = planFlexInferModel(md);
      expect(modelSpecErrors(plan!.spec)).toEqual([]);
    }
  });

  test('fails loudly when asked to translate a deployment it refuses', () => {
    const md = resolvedDeployment({ model: { id: 'x/y' }, engine: { type: 'sglang' }, resources: { gpu: { count: 1 } } }, {}, 'flexinfer');
    expect(() => translateFlexInfer(Testing.chart(), md)).toThrow(/FlexInfer cannot translate qwen, which it refuses: spec\.engine\.type: Invalid value: "sglang"/);
  });
});
