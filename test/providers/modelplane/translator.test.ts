import { devicesAnnotation, engineContainerOf, modelplaneHarness, prefillDecodeDeployment, xrOf } from './fixtures';
import { ModelplaneTaintEffect, ModelplaneTolerationOperator } from '../../../src/modelplane/cluster-toleration';
import { ModelplaneProvider } from '../../../src/providers/modelplane';
import { modelplaneProviderConfig } from '../../../src/providers/modelplane/config';
import { MODELPLANE_SGLANG_IMAGE, MODELPLANE_VLLM_IMAGE } from '../../../src/providers/modelplane/settings';
import { commonLabels } from '../../support/expected-manifests';
import { everyEngineFlag } from '../../support/resolved-deployment';
import { findManifest } from '../../support/translator-harness';

const harness = modelplaneHarness();
const { synth, synthOf, fixture, translator } = harness;

const NVIDIA_GPU = 'device.driver == "gpu.nvidia.com"';
const NIXL = '--kv-transfer-config={"kv_connector":"NixlConnector","kv_role":"kv_both"}';

/** The args of engine `index` of the fixture with `options`. */
function argsOf(options: Parameters<typeof fixture>[0] = {}, index = 0): string[] {
  return engineContainerOf(synthOf(options), index).args;
}

describe('ModelplaneProvider', () => {
  test('identifies the modelplane provider, explicit selection only', () => {
    expect(translator.providerName).toBe('modelplane');
    expect(translator.displayName).toBe('modelplane');
    const config = modelplaneProviderConfig();
    expect(config.explicitSelectionOnly).toBe(true);
    expect(new ModelplaneProvider().config.explicitSelectionOnly).toBe(true);
    expect(config.spec.capabilities?.engines?.map((e) => [e.name, e.servingModes, e.gpuSupport, e.cpuSupport])).toEqual([
      ['vllm', ['aggregated', 'disaggregated'], true, undefined],
      ['sglang', ['aggregated'], true, undefined],
    ]);
  });

  test('schedules its devices itself (no claim templates of ours), and declares its kinds and its status source', () => {
    const provider = new ModelplaneProvider();
    const view = { name: 'qwen' } as any;
    expect(provider.schedulesDevicesItself(view)).toBe(true);
    expect(provider.supportsDeviceClaims(view)).toBe(false);
    expect(provider.emittedKinds()).toEqual([
      { apiVersion: 'modelplane.ai/v1alpha1', kind: 'ModelDeployment', resource: 'modeldeployments' },
      { apiVersion: 'modelplane.ai/v1alpha1', kind: 'ModelCache', resource: 'modelcaches' },
    ]);
    expect(provider.statusSource(view)).toEqual({ apiVersion: 'modelplane.ai/v1alpha1', kind: 'ModelDeployment', name: 'qwen' });
    expect(provider.inferencePoolTarget(view)).toBeUndefined();
  });

  describe('aggregated', () => {
    test('renders one modelplane ModelDeployment with a Standalone engine whose GPU becomes a device request', () => {
      const { manifests, returned } = synth(fixture());
      expect(returned.map((o) => `${o.apiVersion} ${o.kind}`)).toEqual(['modelplane.ai/v1alpha1 ModelDeployment']);
      expect(manifests).toEqual([{
        apiVersion: 'modelplane.ai/v1alpha1',
        kind: 'ModelDeployment',
        metadata: { name: 'qwen', namespace: 'ml', labels: commonLabels('qwen') },
        spec: {
          replicas: 1,
          template: {
            metadata: { labels: commonLabels('qwen') },
            spec: {
              engines: [{
                name: 'serving',
                copies: 1,
                members: [{
                  role: 'Standalone',
                  nodeSelector: { devices: [{ name: 'gpu', count: 1, selectors: [{ cel: NVIDIA_GPU }] }] },
                  template: {
                    spec: {
                      containers: [{
                        name: 'engine',
                        image: MODELPLANE_VLLM_IMAGE,
                        command: ['vllm', 'serve'],
                        args: ['Qwen/Qwen3-0.6B', '--enable-prefix-caching'],
                      }],
                    },
                  },
                }],
              }],
            },
          },
        },
      }]);
    });

    test('runs spec.scaling.replicas as engine copies, 0 or unset as one', () => {
      expect(xrOf(synthOf({ spec: { scaling: { replicas: 3 } } })).spec.template.spec.engines[0].copies).toBe(3);
      expect(xrOf(synthOf({ spec: { scaling: { replicas: 0 } } })).spec.template.spec.engines[0].copies).toBe(1);
      expect(xrOf(synthOf({ spec: { scaling: undefined } })).spec.template.spec.engines[0].copies).toBe(1);
    });

    test.each([
      ['nvidia.com/gpu', 'gpu.nvidia.com'],
      ['amd.com/gpu', 'gpu.amd.com'],
      ['gpu.intel.com/i915', 'gpu.intel.com'],
      ['gpu.intel.com/xe', 'gpu.intel.com'],
    ])('requests %s GPUs as devices of the DRA driver %s, gpu.count per pod', (type, driver) => {
      const xr = xrOf(synthOf({ spec: { resources: { gpu: { count: 4, type } } } }));
      expect(xr.spec.template.spec.engines[0].members[0].nodeSelector).toEqual({
        devices: [{ name: 'gpu', count: 4, selectors: [{ cel: `device.driver == "${driver}"` }] }],
      });
    });
  });

  describe('device requests', () => {
    const requests = {
      resources: [
        { name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 2, selectors: [{ memoryAtLeast: '40Gi' }, { productName: 'NVIDIA H100 80GB HBM3' }] },
        { name: 'nic', deviceClassName: 'rdma.example.com', selectors: [{ cel: 'device.driver == "rdma.example.com"' }] },
      ],
    };

    test('render each checked request as a node-selector device, selector CEL verbatim, count defaulted to 1', () => {
      const xr = xrOf(synthOf({ annotations: devicesAnnotation(requests), spec: { resources: { gpu: { count: 2, type: 'nvidia.com/gpu' } } } }));
      expect(xr.spec.template.spec.engines[0].members[0].nodeSelector.devices).toEqual([
        {
          name: 'gpu',
          count: 2,
          selectors: [
            { cel: 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0' },
            { cel: 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"' },
          ],
        },
        { name: 'nic', count: 1, selectors: [{ cel: 'device.driver == "rdma.example.com"' }] },
      ]);
    });

    test('the tensor-parallel size still follows gpu.count, not the devices claimed', () => {
      const args = engineContainerOf(synthOf({ annotations: devicesAnnotation(requests), spec: { resources: { gpu: { count: 2, type: 'nvidia.com/gpu' } } } })).args;
      expect(args).toContain('--tensor-parallel-size=2');
    });

    test('YAML and JSON annotations give the same requests', () => {
      const yaml = 'resources:\n  - name: gpu\n    deviceClassName: gpu.nvidia.com\n    selectors:\n      - driver: gpu.nvidia.com\n';
      const json = { resources: [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', selectors: [{ driver: 'gpu.nvidia.com' }] }] };
      const fromYaml = xrOf(synthOf({ annotations: devicesAnnotation(yaml) }));
      expect(xrOf(synthOf({ annotations: devicesAnnotation(json) }))).toEqual(fromYaml);
      // The same request as the one made from the GPU block: one definition of a device request.
      expect(fromYaml).toEqual(xrOf(synthOf()));
    });
  });

  describe('PrefillDecode', () => {
    test('renders two phase engines from the prefill and decode components', () => {
      const xr = xrOf(synth(prefillDecodeDeployment()).manifests);
      expect(xr.spec.template.spec.serving).toEqual({ mode: 'PrefillDecode' });
      expect(xr.spec.template.spec.engines).toEqual([
        {
          name: 'prefill',
          copies: 1,
          phase: 'Prefill',
          members: [{
            role: 'Standalone',
            nodeSelector: { devices: [{ name: 'gpu', count: 1, selectors: [{ cel: NVIDIA_GPU }] }] },
            template: { spec: { containers: [{ name: 'engine', image: MODELPLANE_VLLM_IMAGE, command: ['vllm', 'serve'], args: ['Qwen/Qwen3-0.6B', '--enable-prefix-caching', NIXL] }] } },
          }],
        },
        {
          name: 'decode',
          copies: 2,
          phase: 'Decode',
          members: [{
            role: 'Standalone',
            nodeSelector: { devices: [{ name: 'gpu', count: 2, selectors: [{ cel: NVIDIA_GPU }] }] },
            template: {
              spec: {
                containers: [{
                  name: 'engine',
                  image: MODELPLANE_VLLM_IMAGE,
                  command: ['vllm', 'serve'],
                  args: ['Qwen/Qwen3-0.6B', '--enable-prefix-caching', '--tensor-parallel-size=2', NIXL, '--port=8001'],
                }],
              },
            },
          }],
        },
      ]);
    });

    test('takes each phase engine\'s devices from its own requests', () => {
      const annotations = devicesAnnotation({
        prefill: [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', selectors: [{ productName: 'NVIDIA L40S' }] }],
        decode: [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 2, selectors: [{ productName: 'NVIDIA H100 80GB HBM3' }] }],
      });
      const engines = xrOf(synth(prefillDecodeDeployment({ annotations })).manifests).spec.template.spec.engines;
      expect(engines.map((e: any) => e.members[0].nodeSelector.devices)).toEqual([
        [{ name: 'gpu', count: 1, selectors: [{ cel: 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA L40S"' }] }],
        [{ name: 'gpu', count: 2, selectors: [{ cel: 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"' }] }],
      ]);
    });

    test('leaves the KV transfer to a user who sets it', () => {
      const md = prefillDecodeDeployment({ spec: { engine: { args: { 'kv-transfer-config': '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}' } } } });
      const args = engineContainerOf(synth(md).manifests, 1).args;
      expect(args.filter((a: string) => a.startsWith('--kv-transfer-config'))).toEqual(['--kv-transfer-config={"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}']);
      expect(args).toContain('--port=8001');
    });
  });

  describe('engine arguments', () => {
    test('render the model positional, then every structured vLLM flag as one token, in order, then sorted args, then extraArgs verbatim', () => {
      expect(argsOf(everyEngineFlag('qwen3'))).toEqual([
        'Qwen/Qwen3-0.6B',
        '--served-model-name=qwen3',
        '--max-model-len=8192',
        '--trust-remote-code',
        '--enforce-eager',
        '--enable-prefix-caching',
        '--tensor-parallel-size=4',
        '--disable-log-stats',
        '--dtype=bfloat16',
        '--max-num-seqs=64',
        '--swap-space', '4', '-q', 'awq',
      ]);
    });

    test('render prefix caching off for vLLM', () => {
      expect(argsOf({ spec: { engine: { enablePrefixCaching: false } } })).toEqual(['Qwen/Qwen3-0.6B', '--no-enable-prefix-caching']);
    });

    test('skip a derived flag the user sets by hand', () => {
      const args = argsOf({ spec: { engine: { contextLength: 4096, args: { 'max-model-len': '2048' }, extraArgs: ['--tensor-parallel-size=1'] }, resources: { gpu: { count: 1, type: 'nvidia.com/gpu' } } } });
      expect(args).toEqual(['Qwen/Qwen3-0.6B', '--enable-prefix-caching', '--max-model-len=2048', '--tensor-parallel-size=1']);
    });

    test('leave the model out for a custom source without an id (the image brings it)', () => {
      expect(argsOf({ spec: { model: { source: 'custom', id: undefined }, engine: { image: 'example.com/baked:1' } } })).toEqual(['--enable-prefix-caching']);
    });

    test('run SGLang through its server module on 0.0.0.0:8000 with its own flag spellings', () => {
      const container = engineContainerOf(synthOf({
        spec: { engine: { type: 'sglang', enablePrefixCaching: false, enforceEager: true, contextLength: 8192 }, resources: { gpu: { count: 2, type: 'nvidia.com/gpu' } } },
      }));
      expect(container).toEqual({
        name: 'engine',
        image: MODELPLANE_SGLANG_IMAGE,
        command: ['python3', '-m', 'sglang.launch_server'],
        args: [
          '--model-path=Qwen/Qwen3-0.6B', '--host=0.0.0.0', '--port=8000',
          '--context-length=8192', '--disable-radix-cache', '--cuda-graph-backend-decode=disabled', '--cuda-graph-backend-prefill=disabled',
          '--tensor-parallel-size=2',
        ],
      });
    });

    test('render nothing for SGLang prefix caching on: its radix cache is on by default', () => {
      expect(argsOf({ spec: { engine: { type: 'sglang' } } })).toEqual(['--model-path=Qwen/Qwen3-0.6B', '--host=0.0.0.0', '--port=8000']);
    });
  });

  describe('image', () => {
    test('takes engine.image, then the legacy spec.image, then the provider default for the engine', () => {
      expect(engineContainerOf(synthOf({ spec: { engine: { image: 'example.com/vllm:1' } } })).image).toBe('example.com/vllm:1');
      expect(engineContainerOf(synthOf({ spec: { image: 'example.com/legacy:1' } })).image).toBe('example.com/legacy:1');
      const custom = modelplaneHarness({ vllmImage: 'example.com/vllm:2', sglangImage: 'example.com/sglang:2' });
      expect(engineContainerOf(custom.synthOf()).image).toBe('example.com/vllm:2');
      expect(engineContainerOf(custom.synthOf({ spec: { engine: { type: 'sglang' } } })).image).toBe('example.com/sglang:2');
    });
  });

  describe('env', () => {
    test('keeps value, Secret, ConfigMap and pod-field sources and appends HF_TOKEN from the token Secret', () => {
      const env = engineContainerOf(synthOf({
        spec: {
          env: [
            { name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' },
            { name: 'EMPTY' },
            { name: 'API_KEY', valueFrom: { secretKeyRef: { name: 'keys', key: 'api', optional: true } } },
            { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'mode' } } },
            { name: 'VLLM_HOST_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
            { name: 'HF_TOKEN', value: 'dropped-for-the-secret' },
          ],
          secrets: { huggingFaceToken: 'hf-token' },
        },
      })).env;
      expect(env).toEqual([
        { name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' },
        { name: 'EMPTY' },
        { name: 'API_KEY', valueFrom: { secretKeyRef: { name: 'keys', key: 'api', optional: true } } },
        { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'mode' } } },
        { name: 'VLLM_HOST_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
        { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf-token', key: 'HF_TOKEN' } } },
      ]);
    });

    test('keeps a user HF_TOKEN without a token Secret', () => {
      expect(engineContainerOf(synthOf({ spec: { env: [{ name: 'HF_TOKEN', value: 'x' }] } })).env).toEqual([{ name: 'HF_TOKEN', value: 'x' }]);
    });
  });

  describe('pod metadata and provider settings', () => {
    test('put spec.podTemplate labels and annotations on the engine pods', () => {
      const member = xrOf(synthOf({ spec: { podTemplate: { metadata: { labels: { team: 'ml' }, annotations: { 'sidecar.istio.io/inject': 'false' } } } } }))
        .spec.template.spec.engines[0].members[0];
      expect(member.template.metadata).toEqual({ labels: { team: 'ml' }, annotations: { 'sidecar.istio.io/inject': 'false' } });
    });

    test('apply ModelReplicas, cluster selector, cluster tolerations and pull Secrets to every deployment', () => {
      const custom = modelplaneHarness({
        modelReplicas: 3,
        clusterSelector: { region: 'eu' },
        clusterTolerations: [
          { key: 'reserved', operator: ModelplaneTolerationOperator.EQUAL, value: 'ml', effect: ModelplaneTaintEffect.NO_SCHEDULE },
          { operator: ModelplaneTolerationOperator.EXISTS, effect: ModelplaneTaintEffect.NO_EXECUTE },
          { key: 'spot' },
        ],
        imagePullSecrets: ['ngc'],
      });
      const manifests = custom.synth(prefillDecodeDeployment()).manifests;
      const xr = xrOf(manifests);
      expect(xr.spec.replicas).toBe(3);
      expect(xr.spec.template.spec.clusterSelector).toEqual({ matchLabels: { region: 'eu' } });
      expect(xr.spec.template.spec.tolerations).toEqual([
        { key: 'reserved', operator: 'Equal', value: 'ml', effect: 'NoSchedule' },
        { operator: 'Exists', effect: 'NoExecute' },
        { key: 'spot', operator: 'Equal' },
      ]);
      for (const e of xr.spec.template.spec.engines) expect(e.members[0].template.spec.imagePullSecrets).toEqual([{ name: 'ngc' }]);
    });
  });

  describe('ModelCache', () => {
    const cacheVolume = { name: 'model-cache', purpose: 'modelCache' as const, size: '100Gi', claimName: 'qwen-model-cache', mountPath: '/model-cache', accessMode: 'ReadWriteMany' as const };

    test('a managed modelCache volume becomes a referenced ModelCache the engine loads from /mnt/models under the model id', () => {
      const custom = modelplaneHarness({ clusterSelector: { region: 'eu' } });
      const { manifests, returned, warnings } = custom.synth(custom.fixture({ spec: { model: { storage: { volumes: [cacheVolume] } }, secrets: { huggingFaceToken: 'hf-token' } } }));
      expect(returned.map((o) => o.kind)).toEqual(['ModelDeployment', 'ModelCache']);
      expect(findManifest(manifests, 'ModelCache', 'qwen-model-cache')).toEqual({
        apiVersion: 'modelplane.ai/v1alpha1',
        kind: 'ModelCache',
        metadata: { name: 'qwen-model-cache', namespace: 'ml', labels: commonLabels('qwen') },
        spec: {
          source: 'HuggingFace',
          huggingFace: { repo: 'Qwen/Qwen3-0.6B', authSecret: { name: 'hf-token', key: 'HF_TOKEN' }, sizeGiB: 100 },
          clusterSelector: { matchLabels: { region: 'eu' } },
        },
      });
      const xr = xrOf(manifests);
      expect(xr.spec.template.spec.modelCacheRef).toEqual({ name: 'qwen-model-cache' });
      expect(engineContainerOf(manifests).args).toEqual(['/mnt/models', '--served-model-name=Qwen/Qwen3-0.6B', '--enable-prefix-caching']);
      expect(warnings).toEqual([]);
    });

    test('keeps an explicit served name and points SGLang at the mount too', () => {
      expect(argsOf({ spec: { model: { servedName: 'qwen', storage: { volumes: [cacheVolume] } } } })).toEqual([
        '/mnt/models', '--served-model-name=qwen', '--enable-prefix-caching',
      ]);
      expect(argsOf({ spec: { engine: { type: 'sglang' }, model: { storage: { volumes: [cacheVolume] } } } })).toEqual([
        '--model-path=/mnt/models', '--host=0.0.0.0', '--port=8000', '--served-model-name=Qwen/Qwen3-0.6B',
      ]);
    });

    test.each([
      ['1.5Gi', 2],
      ['100G', 94],
      ['1', 1],
      ['100000Gi', 100000],
    ])('rounds the size %s up to %i GiB', (size, gib) => {
      const manifests = synthOf({ spec: { model: { storage: { volumes: [{ ...cacheVolume, size }] } } } });
      expect(findManifest(manifests, 'ModelCache', 'qwen-model-cache').spec.huggingFace.sizeGiB).toBe(gib);
    });

    test('references the cache from both phase engines\' deployment', () => {
      const md = prefillDecodeDeployment({ spec: { model: { storage: { volumes: [cacheVolume] } } } });
      const manifests = synth(md).manifests;
      expect(xrOf(manifests).spec.template.spec.modelCacheRef).toEqual({ name: 'qwen-model-cache' });
      expect(engineContainerOf(manifests, 0).args[0]).toBe('/mnt/models');
      expect(engineContainerOf(manifests, 1).args[0]).toBe('/mnt/models');
    });
  });

  describe('overrides', () => {
    test('merge into the modelplane ModelDeployment; a null removes a key', () => {
      const manifests = synthOf({
        spec: {
          provider: {
            name: 'modelplane',
            overrides: { spec: { replicas: 2, template: { metadata: null, spec: { clusterSelector: { matchLabels: { tier: 'gold' } } } } } },
          },
        },
      });
      const xr = xrOf(manifests);
      expect(xr.spec.replicas).toBe(2);
      expect(xr.spec.template.metadata).toBeUndefined();
      expect(xr.spec.template.spec.clusterSelector).toEqual({ matchLabels: { tier: 'gold' } });
      expect(xr.spec.template.spec.engines).toHaveLength(1);
    });
  });
});
