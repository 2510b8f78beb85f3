import { disaggregatedDeployment, FixtureOptions, kthenaDeployment, sglangDeployment, sglangDisaggregatedDeployment } from './fixtures';
import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { TOLERATE_GPU_TAINT_ANNOTATION } from '../../../src/core/gpu-taint-toleration';
import { KthenaProvider } from '../../../src/providers/kthena';
import { KTHENA_VLLM_KV_TRANSFER_CONFIG } from '../../../src/providers/kthena/args';
import { KTHENA_DEFAULT_SGLANG_IMAGE, KTHENA_DEFAULT_VLLM_IMAGE } from '../../../src/providers/kthena/images';
import { commonLabels, managedClaim } from '../../support/expected-manifests';
import { blockedOverrideKeyCases, modelServerEnvCases } from '../../support/provider-cases';
import { everyEngineFlag } from '../../support/resolved-deployment';
import { onlyManifestOf, translatorHarness } from '../../support/translator-harness';

const harness = translatorHarness(new KthenaProvider(), kthenaDeployment);
const { synth, synthOf, translator } = harness;

const VLLM_COMMAND = ['vllm', 'serve'];
const SGLANG_COMMAND = ['python3', '-m', 'sglang.launch_server'];
const NETWORKING = ['--host', '0.0.0.0', '--port', '8000'];
/** `vllm serve`'s arguments start with the model as its positional, then the networking flags. */
const VLLM_BASE = ['Qwen/Qwen3-0.6B', ...NETWORKING];
const POD_LABELS = { 'airunway.ai/deployment': 'qwen', 'airunway.ai/model-deployment': 'qwen' };

const modelServingOf = (manifests: any[]) => onlyManifestOf(manifests, 'ModelServing');
const rolesOf = (manifests: any[]) => modelServingOf(manifests).spec.template.roles;
const roleOf = (manifests: any[], name: string) => rolesOf(manifests).find((r: any) => r.name === name);
const podSpecOf = (manifests: any[], role = 'server') => roleOf(manifests, role).entryTemplate.spec;
const containerOf = (manifests: any[], role = 'server') => podSpecOf(manifests, role).containers[0];
const manifestsOf = (md: ResolvedModelDeployment) => synth(md).manifests;
const argsOf = (options: FixtureOptions = {}) => containerOf(synthOf(options)).args;

describe('KthenaProvider', () => {
  test('identifies the kthena provider, explicit-selection only', () => {
    expect(translator.providerName).toBe('kthena');
    expect(translator.displayName).toBe('Kthena');
    expect(translator.provider.config.explicitSelectionOnly).toBe(true);
    expect(translator.provider.config.toManifest().spec.capabilities.engines.map((e: any) => [e.name, e.servingModes, e.gpuSupport])).toEqual([
      ['vllm', ['aggregated', 'disaggregated'], true],
      ['sglang', ['aggregated', 'disaggregated'], true],
    ]);
  });

  describe('aggregated vLLM', () => {
    test('minimal deployment matches the snapshot', () => {
      expect(synthOf()).toMatchSnapshot();
    });

    test('renders ModelServing, ModelServer, ModelRoute and Service <md>, ModelServing first, with the common labels', () => {
      const manifests = synthOf();
      expect(manifests.map((m) => `${m.apiVersion} ${m.kind}/${m.metadata.name}`)).toEqual([
        'workload.serving.volcano.sh/v1alpha1 ModelServing/qwen',
        'networking.serving.volcano.sh/v1alpha1 ModelServer/qwen',
        'networking.serving.volcano.sh/v1alpha1 ModelRoute/qwen',
        'v1 Service/qwen',
      ]);
      for (const m of manifests) {
        expect(m.metadata.namespace).toBe('ml');
        expect(m.metadata.labels).toEqual(commonLabels('qwen'));
        expect(m.metadata.ownerReferences).toBeUndefined();
      }
    });

    test('one ServingGroup per replica, each one server role of one entry pod, gang-scheduled', () => {
      const spec = modelServingOf(synthOf({ spec: { scaling: { replicas: 3 } } })).spec;
      expect(spec.replicas).toBe(3);
      expect(spec.schedulerName).toBe('volcano');
      expect(spec.template.gangPolicy).toEqual({ minRoleReplicas: { server: 1 } });
      expect(spec.template.roles.map((r: any) => [r.name, r.replicas, r.workerReplicas, r.workerTemplate])).toEqual([['server', 1, 0, undefined]]);
    });

    test('runs 0 ServingGroups for replicas 0 (scale to zero), and leaves the count to the AutoscalingPolicy when autoscaled', () => {
      expect(modelServingOf(synthOf({ spec: { scaling: { replicas: 0 } } })).spec.replicas).toBe(0);
      const autoscaled = modelServingOf(synthOf({
        spec: { scaling: undefined },
        annotations: { 'inference.cdk8s.io/autoscaling': 'maxReplicas: 3\nmetrics: [{type: queueDepth, target: 4}]' },
      }));
      expect(autoscaled.spec).not.toHaveProperty('replicas');
    });

    test('labels the entry pods with the stable model-deployment, deployment and role labels after the user\'s', () => {
      const template = roleOf(synthOf({
        spec: { podTemplate: { metadata: { labels: { 'team': 'ml', 'airunway.ai/model-deployment': 'other' }, annotations: { 'prometheus.io/scrape': 'true' } } } },
      }), 'server').entryTemplate;
      expect(template.metadata).toEqual({
        labels: { 'team': 'ml', ...POD_LABELS, 'inference.cdk8s.io/kthena-role': 'server' },
        annotations: { 'prometheus.io/scrape': 'true' },
      });
    });

    test('runs `vllm serve <model>` with its probes on 8000 and one GPU', () => {
      const container = containerOf(synthOf());
      expect(container).toMatchObject({
        name: 'vllm',
        image: KTHENA_DEFAULT_VLLM_IMAGE,
        command: VLLM_COMMAND,
        args: [...VLLM_BASE, '--enable-prefix-caching'],
        ports: [{ name: 'http', containerPort: 8000, protocol: 'TCP' }],
        resources: { limits: { 'nvidia.com/gpu': '1' }, requests: { 'nvidia.com/gpu': '1' } },
      });
      for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) expect(container[probe].httpGet).toEqual({ path: '/health', port: 8000 });
      expect(container.startupProbe.failureThreshold * container.startupProbe.periodSeconds).toBe(1800);
    });

    test('ModelServer selects the deployment\'s pods on 8000 and names the model the engine serves', () => {
      expect(onlyManifestOf(synthOf(), 'ModelServer').spec).toEqual({
        model: 'Qwen/Qwen3-0.6B',
        inferenceEngine: 'vLLM',
        workloadSelector: { matchLabels: { 'airunway.ai/model-deployment': 'qwen' } },
        workloadPort: { port: 8000 },
      });
    });

    test('ModelRoute sends the model id to the ModelServer through one rule', () => {
      expect(onlyManifestOf(synthOf(), 'ModelRoute').spec).toEqual({
        modelName: 'Qwen/Qwen3-0.6B',
        rules: [{ name: 'default', targetModels: [{ modelServerName: 'qwen' }] }],
      });
    });

    test('routes the served name, and gateway.modelName over it while the ModelServer rewrites to the served name', () => {
      const served = synthOf({ spec: { model: { servedName: 'qwen3' } } });
      expect(onlyManifestOf(served, 'ModelRoute').spec.modelName).toBe('qwen3');
      expect(onlyManifestOf(served, 'ModelServer').spec.model).toBe('qwen3');
      expect(containerOf(served).args).toEqual([...VLLM_BASE, '--served-model-name', 'qwen3', '--enable-prefix-caching']);
      const routed = synthOf({ spec: { model: { servedName: 'qwen3' }, gateway: { modelName: 'chat', enabled: false } } });
      expect(onlyManifestOf(routed, 'ModelRoute').spec.modelName).toBe('chat');
      expect(onlyManifestOf(routed, 'ModelServer').spec.model).toBe('qwen3');
    });

    test('Service selects the server pods on http 8000', () => {
      expect(onlyManifestOf(synthOf(), 'Service').spec).toEqual({
        type: 'ClusterIP',
        selector: { 'airunway.ai/model-deployment': 'qwen', 'inference.cdk8s.io/kthena-role': 'server' },
        ports: [{ name: 'http', port: 8000, targetPort: 8000, protocol: 'TCP' }],
      });
    });

    test('takes the scheduler and default images from the provider\'s props', () => {
      const custom = translatorHarness(new KthenaProvider({ schedulerName: 'default-scheduler', vllmImage: 'r/vllm:1', sglangImage: 'r/sglang:1' }), kthenaDeployment);
      expect(modelServingOf(custom.synthOf()).spec.schedulerName).toBe('default-scheduler');
      expect(containerOf(custom.synthOf()).image).toBe('r/vllm:1');
      expect(containerOf(custom.synth(sglangDeployment()).manifests).image).toBe('r/sglang:1');
    });

    test('uses the image of the spec over the provider\'s', () => {
      expect(containerOf(synthOf({ spec: { engine: { image: 'mine/vllm:2' } } })).image).toBe('mine/vllm:2');
      expect(containerOf(synthOf({ spec: { image: 'legacy/vllm:1' } })).image).toBe('legacy/vllm:1');
    });
  });

  describe('engine arguments', () => {
    test('render every structured flag, the derived tensor parallel size, sorted args, then extraArgs verbatim', () => {
      expect(argsOf(everyEngineFlag('qwen3'))).toEqual([
        ...VLLM_BASE,
        '--served-model-name', 'qwen3',
        '--max-model-len', '8192',
        '--trust-remote-code',
        '--enable-prefix-caching',
        '--enforce-eager',
        '--tensor-parallel-size', '4',
        '--disable-log-stats',
        '--dtype', 'bfloat16',
        '--max-num-seqs', '64',
        '--swap-space', '4', '-q', 'awq',
      ]);
    });

    test('render the prefix cache off state, and nothing when it is unset', () => {
      expect(argsOf({ spec: { engine: { enablePrefixCaching: false } } })).toEqual([...VLLM_BASE, '--no-enable-prefix-caching']);
      expect(argsOf({ spec: { engine: { enablePrefixCaching: undefined } } })).toEqual(VLLM_BASE);
    });

    test('skip a derived flag the user sets by hand', () => {
      const args = argsOf({ spec: { resources: { gpu: { count: 2, type: 'nvidia.com/gpu' } }, engine: { contextLength: 4096, args: { 'max-model-len': '2048' }, extraArgs: ['--tensor-parallel-size=2'] } } });
      expect(args).toEqual([...VLLM_BASE, '--enable-prefix-caching', '--max-model-len', '2048', '--tensor-parallel-size=2']);
    });
  });

  describe('SGLang', () => {
    test('aggregated deployment matches the snapshot', () => {
      expect(manifestsOf(sglangDeployment())).toMatchSnapshot();
    });

    test('runs SGLang\'s server module with SGLang\'s own flags and an SGLang ModelServer', () => {
      const manifests = manifestsOf(sglangDeployment({
        spec: {
          model: { servedName: 'qwen3' },
          engine: { contextLength: 8192, trustRemoteCode: true, enforceEager: true, enablePrefixCaching: false, args: { 'mem-fraction-static': '0.8' } },
          resources: { gpu: { count: 2, type: 'nvidia.com/gpu' } },
        },
      }));
      const container = containerOf(manifests);
      expect(container.name).toBe('sglang');
      expect(container.image).toBe(KTHENA_DEFAULT_SGLANG_IMAGE);
      expect(container.command).toEqual(SGLANG_COMMAND);
      expect(container.args).toEqual([
        ...NETWORKING,
        '--model-path', 'Qwen/Qwen3-0.6B',
        '--served-model-name', 'qwen3',
        '--context-length', '8192',
        '--trust-remote-code',
        '--disable-radix-cache',
        '--cuda-graph-backend-decode', 'disabled', '--cuda-graph-backend-prefill', 'disabled',
        '--tensor-parallel-size', '2',
        '--mem-fraction-static', '0.8',
      ]);
      expect(onlyManifestOf(manifests, 'ModelServer').spec.inferenceEngine).toBe('SGLang');
      expect(onlyManifestOf(manifests, 'ModelServer').metadata.labels).toEqual(commonLabels('qwen', { engine: 'sglang' }));
    });

    test('renders no flag for the prefix cache SGLang keeps on by default, nor the eager CUDA graph options when set by hand', () => {
      expect(containerOf(manifestsOf(sglangDeployment())).args).toEqual([...NETWORKING, '--model-path', 'Qwen/Qwen3-0.6B']);
      const eager = sglangDeployment({ spec: { engine: { enforceEager: true, args: { 'cuda-graph-backend-decode': 'disabled' } } } });
      expect(containerOf(manifestsOf(eager)).args).toEqual([...NETWORKING, '--model-path', 'Qwen/Qwen3-0.6B', '--cuda-graph-backend-decode', 'disabled']);
    });
  });

  describe('prefill/decode', () => {
    test('vLLM deployment matches the snapshot', () => {
      expect(manifestsOf(disaggregatedDeployment())).toMatchSnapshot();
    });

    test('one ServingGroup with a prefill and a decode role, each gang-scheduled with at least one instance', () => {
      const spec = modelServingOf(manifestsOf(disaggregatedDeployment())).spec;
      expect(spec.replicas).toBe(1);
      expect(spec.template.gangPolicy).toEqual({ minRoleReplicas: { prefill: 1, decode: 1 } });
      expect(spec.template.roles.map((r: any) => [r.name, r.replicas, r.workerReplicas])).toEqual([['prefill', 1, 0], ['decode', 2, 0]]);
    });

    test('sizes each role from its component and labels its pods with the role', () => {
      const manifests = manifestsOf(disaggregatedDeployment());
      expect(containerOf(manifests, 'prefill').resources).toEqual({
        limits: { 'memory': '32Gi', 'nvidia.com/gpu': '1' }, requests: { 'memory': '32Gi', 'nvidia.com/gpu': '1' },
      });
      expect(containerOf(manifests, 'decode').resources).toEqual({
        limits: { 'memory': '64Gi', 'nvidia.com/gpu': '2' }, requests: { 'memory': '64Gi', 'nvidia.com/gpu': '2' },
      });
      expect(roleOf(manifests, 'prefill').entryTemplate.metadata.labels).toEqual({ ...POD_LABELS, 'inference.cdk8s.io/kthena-role': 'prefill' });
      expect(roleOf(manifests, 'decode').entryTemplate.metadata.labels).toEqual({ ...POD_LABELS, 'inference.cdk8s.io/kthena-role': 'decode' });
    });

    test('vLLM roles transfer the KV cache with NIXL, advertising the pod IP, and the ModelServer pairs them per ServingGroup', () => {
      const manifests = manifestsOf(disaggregatedDeployment());
      for (const role of ['prefill', 'decode']) {
        const container = containerOf(manifests, role);
        expect(container.args.slice(-2)).toEqual(['--kv-transfer-config', KTHENA_VLLM_KV_TRANSFER_CONFIG]);
        expect(container.env).toEqual([{ name: 'VLLM_NIXL_SIDE_CHANNEL_HOST', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }]);
      }
      expect(containerOf(manifests, 'decode').args).toContain('--tensor-parallel-size');
      expect(containerOf(manifests, 'prefill').args).not.toContain('--tensor-parallel-size');
      expect(onlyManifestOf(manifests, 'ModelServer').spec).toEqual({
        model: 'Qwen/Qwen3-0.6B',
        inferenceEngine: 'vLLM',
        workloadSelector: {
          matchLabels: { 'airunway.ai/model-deployment': 'qwen' },
          pdGroup: {
            groupKey: 'modelserving.volcano.sh/group-name',
            prefillLabels: { 'modelserving.volcano.sh/role': 'prefill' },
            decodeLabels: { 'modelserving.volcano.sh/role': 'decode' },
          },
        },
        workloadPort: { port: 8000 },
        kvConnector: { type: 'nixl' },
      });
    });

    test('keeps a side-channel host the user sets', () => {
      const md = disaggregatedDeployment({ spec: { env: [{ name: 'VLLM_NIXL_SIDE_CHANNEL_HOST', value: '10.0.0.1' }] } });
      expect(containerOf(manifestsOf(md), 'decode').env).toEqual([{ name: 'VLLM_NIXL_SIDE_CHANNEL_HOST', value: '10.0.0.1' }]);
    });

    test('the Service selects the decode pods', () => {
      expect(onlyManifestOf(manifestsOf(disaggregatedDeployment()), 'Service').spec.selector).toEqual({
        'airunway.ai/model-deployment': 'qwen', 'inference.cdk8s.io/kthena-role': 'decode',
      });
    });

    test('SGLang roles run in their disaggregation mode and the ModelServer leaves the connector to the router', () => {
      const manifests = manifestsOf(sglangDisaggregatedDeployment());
      expect(containerOf(manifests, 'prefill').args.slice(-2)).toEqual(['--disaggregation-mode', 'prefill']);
      expect(containerOf(manifests, 'decode').args.slice(-2)).toEqual(['--disaggregation-mode', 'decode']);
      expect(containerOf(manifests, 'decode').env).toBeUndefined();
      const server = onlyManifestOf(manifests, 'ModelServer').spec;
      expect(server.inferenceEngine).toBe('SGLang');
      expect(server.kvConnector).toBeUndefined();
      expect(server.workloadSelector.pdGroup.groupKey).toBe('modelserving.volcano.sh/group-name');
    });
  });

  describe('GPU types', () => {
    const gpus = (count: number, type: string): FixtureOptions => ({ spec: { resources: { gpu: { count, type } } } });

    test.each(['nvidia.com/gpu', 'amd.com/gpu', 'nvidia.com/mig-1g.10gb', 'gpu.intel.com/i915'])('requests %s GPUs under their type, equal in limits and requests', (type) => {
      expect(containerOf(synthOf(gpus(2, type))).resources).toEqual({ limits: { [type]: '2' }, requests: { [type]: '2' } });
    });

    test('requests each role\'s own GPU type in prefill/decode mode', () => {
      const md = disaggregatedDeployment({}, {
        prefill: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/mig-3g.40gb' } },
        decode: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/gpu' } },
      });
      const manifests = manifestsOf(md);
      expect(containerOf(manifests, 'prefill').resources.limits).toEqual({ 'nvidia.com/mig-3g.40gb': '1' });
      expect(containerOf(manifests, 'decode').resources.limits).toEqual({ 'nvidia.com/gpu': '1' });
    });

    test('mounts a memory-backed /dev/shm only for several GPUs', () => {
      expect(podSpecOf(synthOf()).volumes).toBeUndefined();
      const pod = podSpecOf(synthOf(gpus(2, 'nvidia.com/gpu')));
      expect(pod.volumes).toEqual([{ name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '20Gi' } }]);
      expect(pod.containers[0].volumeMounts).toEqual([{ name: 'shm', mountPath: '/dev/shm' }]);
    });

    test('warns when AMD GPUs would run the default CUDA image of either engine, and not with an image of the user\'s', () => {
      expect(synth(kthenaDeployment(gpus(1, 'amd.com/gpu'))).recordedWarnings).toEqual([{
        path: 'test/ModelServing',
        message: `Kthena requests AMD GPUs (spec.resources.gpu.type "amd.com/gpu") but runs its default image ${KTHENA_DEFAULT_VLLM_IMAGE}, ` +
          'a CUDA build of vLLM; set spec.engine.image to a ROCm build of vLLM',
      }]);
      expect(synth(sglangDeployment(gpus(1, 'amd.com/gpu'))).warnings).toEqual([
        `Kthena requests AMD GPUs (spec.resources.gpu.type "amd.com/gpu") but runs its default image ${KTHENA_DEFAULT_SGLANG_IMAGE}, ` +
          'a CUDA build of SGLang; set spec.engine.image to a ROCm build of SGLang',
      ]);
      expect(synth(sglangDeployment({ spec: { ...gpus(1, 'amd.com/gpu').spec, engine: { type: 'sglang', image: 'rocm/sglang:1' } } })).warnings).toEqual([]);
      expect(synth(kthenaDeployment({ spec: { ...gpus(1, 'amd.com/gpu').spec, engine: { image: 'rocm/vllm:1' } } })).warnings).toEqual([]);
      const rocmDefault = translatorHarness(new KthenaProvider({ vllmImage: 'rocm/vllm:1', sglangImage: 'rocm/sglang:1' }), kthenaDeployment);
      expect(rocmDefault.synth(kthenaDeployment(gpus(1, 'amd.com/gpu'))).warnings).toEqual([]);
      expect(rocmDefault.synth(sglangDeployment(gpus(1, 'amd.com/gpu'))).warnings).toEqual([]);
      expect(synth(sglangDeployment(gpus(1, 'nvidia.com/gpu'))).warnings).toEqual([]);
    });

    test('tolerates the GPU taint when the annotation asks for it', () => {
      const pod = podSpecOf(synthOf({ annotations: { [TOLERATE_GPU_TAINT_ANNOTATION]: 'true' } }));
      expect(pod.tolerations).toEqual([{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
    });
  });

  describe('storage', () => {
    const storage: FixtureOptions = {
      spec: {
        model: {
          storage: {
            volumes: [
              { name: 'model-cache', purpose: 'modelCache', size: '100Gi' },
              { name: 'compile', purpose: 'compilationCache', claimName: 'shared-compile' },
              { name: 'extra', purpose: 'custom', claimName: 'extra-data', mountPath: '/data', readOnly: true },
            ],
          },
        },
      },
    };

    test('mounts every volume in every role, points HF_HOME at the model cache and creates the managed claims', () => {
      const manifests = synthOf(storage);
      const pod = podSpecOf(manifests);
      expect(pod.volumes).toEqual([
        { name: 'model-cache', persistentVolumeClaim: { claimName: 'qwen-model-cache' } },
        { name: 'compile', persistentVolumeClaim: { claimName: 'shared-compile' } },
        { name: 'extra', persistentVolumeClaim: { claimName: 'extra-data' } },
      ]);
      expect(pod.containers[0].volumeMounts).toEqual([
        { name: 'model-cache', mountPath: '/model-cache' },
        { name: 'compile', mountPath: '/compilation-cache' },
        { name: 'extra', mountPath: '/data', readOnly: true },
      ]);
      expect(pod.containers[0].env).toEqual([{ name: 'HF_HOME', value: '/model-cache' }]);
      expect(manifests.filter((m) => m.kind === 'PersistentVolumeClaim')).toEqual([managedClaim({ deployment: 'qwen', volume: 'model-cache', size: '100Gi' })]);
    });

    test('mounts the volumes in both prefill/decode roles and keeps a HF_HOME of the user\'s', () => {
      const md = disaggregatedDeployment({ spec: { ...storage.spec, env: [{ name: 'HF_HOME', value: '/hf' }] } });
      const manifests = manifestsOf(md);
      for (const role of ['prefill', 'decode']) {
        expect(containerOf(manifests, role).volumeMounts).toContainEqual({ name: 'model-cache', mountPath: '/model-cache' });
        expect(containerOf(manifests, role).env.filter((e: any) => e.name === 'HF_HOME')).toEqual([{ name: 'HF_HOME', value: '/hf' }]);
      }
    });
  });

  describe('pod settings', () => {
    test('carries the node selector, tolerations, memory and CPU', () => {
      const pod = podSpecOf(synthOf({
        spec: {
          resources: { gpu: { count: 1, type: 'nvidia.com/gpu' }, memory: '32Gi', cpu: '8' },
          nodeSelector: { 'nvidia.com/gpu.product': 'NVIDIA-L4' },
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoSchedule' }],
        },
      }));
      expect(pod.nodeSelector).toEqual({ 'nvidia.com/gpu.product': 'NVIDIA-L4' });
      expect(pod.tolerations).toEqual([
        { key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoSchedule' },
        { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      ]);
      expect(pod.containers[0].resources).toEqual({
        limits: { 'nvidia.com/gpu': '1', 'memory': '32Gi' },
        requests: { 'nvidia.com/gpu': '1', 'memory': '32Gi', 'cpu': '8' },
      });
    });

    modelServerEnvCases(
      { harness, containersOf: (manifests) => rolesOf(manifests).map((r: any) => r.entryTemplate.spec.containers[0]) },
      ['secretReplacesUserToken', 'userTokenWithoutSecret', 'everyValueFromSource', 'nothingToSet'],
    );
  });

  describe('overrides', () => {
    test('are deep-merged into the ModelServing only', () => {
      const manifests = synthOf(harness.withOverrides({
        spec: { recoveryPolicy: 'ServingGroupRecreate', schedulerName: 'default-scheduler', template: { restartGracePeriodSeconds: 60, gangPolicy: { minRoleReplicas: { server: 0 } } } },
      }));
      const spec = modelServingOf(manifests).spec;
      expect(spec.recoveryPolicy).toBe('ServingGroupRecreate');
      expect(spec.schedulerName).toBe('default-scheduler');
      expect(spec.template.restartGracePeriodSeconds).toBe(60);
      expect(spec.template.gangPolicy).toEqual({ minRoleReplicas: { server: 0 } });
      expect(spec.template.roles).toHaveLength(1);
      expect(onlyManifestOf(manifests, 'ModelServer').spec.workloadPort).toEqual({ port: 8000 });
    });

    blockedOverrideKeyCases(harness);
  });
});
