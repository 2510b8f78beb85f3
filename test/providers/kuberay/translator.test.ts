import { JsonPatch, Testing } from 'cdk8s';
import { parse } from 'yaml';
import { disaggregatedDeployment, FixtureOptions, kuberayDeployment, multiGpuDeployment } from './fixtures';
import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { FieldErrorKind } from '../../../src/core/field-error';
import { TOLERATE_GPU_TAINT_ANNOTATION } from '../../../src/core/gpu-taint-toleration';
import { DEFAULT_IMAGES } from '../../../src/core/version-matrix';
import { RayService } from '../../../src/imports/ray.io';
import { resolveModelDeployment } from '../../../src/pipeline/resolve';
import { defaultProviderCatalog } from '../../../src/pipeline/shipped-providers';
import { KubeRayProvider } from '../../../src/providers/kuberay';
import { KUBERAY_DEFAULT_IMAGE, KUBERAY_VLLM_ARGUMENTS_ID } from '../../../src/providers/kuberay/images';
import { kuberayWarnings, validateKubeRay } from '../../../src/providers/kuberay/validation';
import { commonLabels, managedClaim } from '../../support/expected-manifests';
import { modelServerEnvCases, SECRET_TOKEN } from '../../support/provider-cases';
import { expectValidManifests } from '../../support/schema-validator';
import { onlyManifestOf, translatorHarness } from '../../support/translator-harness';

// Every output of every test goes through the upstream schemas (unknown fields rejected).
const harness = translatorHarness(new KubeRayProvider(), kuberayDeployment);
const { synth, errorsOf, translator } = harness;

function rayServiceOf(md: ResolvedModelDeployment): any {
  return onlyManifestOf(synth(md).manifests, 'RayService');
}

function rayService(options: FixtureOptions = {}): any {
  return rayServiceOf(kuberayDeployment(options));
}

function head(rs: any): any {
  return rs.spec.rayClusterConfig.headGroupSpec;
}

function workers(rs: any): any[] {
  return rs.spec.rayClusterConfig.workerGroupSpecs;
}

function headContainer(rs: any): any {
  return head(rs).template.spec.containers[0];
}

function workerContainer(rs: any, group = 0): any {
  return workers(rs)[group].template.spec.containers[0];
}

function serveConfigOf(options: FixtureOptions = {}): any {
  return parse(rayService(options).spec.serveConfigV2);
}

function llmConfigOf(options: FixtureOptions = {}): any {
  return serveConfigOf(options).applications[0].args.llm_configs[0];
}

function engineKwargsOf(options: FixtureOptions = {}): Record<string, unknown> {
  return llmConfigOf(options).engine_kwargs;
}

describe('KubeRayProvider', () => {
  test('identifies the kuberay provider', () => {
    expect(translator.providerName).toBe('kuberay');
    expect(translator.displayName).toBe('KubeRay');
  });

  describe('snapshots', () => {
    test('aggregated, one GPU', () => {
      expect(synth(kuberayDeployment()).manifests).toMatchSnapshot();
    });

    test('aggregated, multi-GPU with every supported field', () => {
      const md = multiGpuDeployment({
        spec: {
          model: {
            servedName: 'llama-70b',
            storage: { volumes: [{ name: 'model-cache', purpose: 'modelCache', size: '500Gi', storageClassName: 'premium-rwx' }] },
          },
          engine: { contextLength: 32768, trustRemoteCode: true, args: { 'gpu-memory-utilization': '0.92' }, extraArgs: ['--no-enable-log-requests'] },
          resources: { gpu: { count: 4, type: 'nvidia.com/gpu' }, memory: '256Gi', cpu: '32' },
          env: [{ name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' }],
          secrets: { huggingFaceToken: 'hf-secret' },
          nodeSelector: { 'nvidia.com/gpu.product': 'NVIDIA-H100-80GB-HBM3' },
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
          podTemplate: { metadata: { labels: { team: 'ml' }, annotations: { 'prometheus.io/scrape': 'true' } } },
        },
      });
      expect(synth(md).manifests).toMatchSnapshot();
    });

    test('disaggregated, two worker groups', () => {
      expect(synth(disaggregatedDeployment()).manifests).toMatchSnapshot();
    });
  });

  describe('output object', () => {
    test('is one ray.io/v1 RayService named and namespaced like the deployment', () => {
      const { returned, manifests } = synth(kuberayDeployment());
      expect(returned.map((o) => [o.node.id, o.kind, o.name])).toEqual([['RayService', 'RayService', 'qwen']]);
      expect(returned[0]).toBeInstanceOf(RayService);
      expect(manifests.map((m) => `${m.apiVersion} ${m.kind} ${m.metadata.namespace}/${m.metadata.name}`)).toEqual(['ray.io/v1 RayService ml/qwen']);
    });

    test('omits the namespace when the deployment has none', () => {
      expect(rayService({ namespace: null }).metadata.namespace).toBeUndefined();
    });

    test('has no ownerReferences (the ModelDeployment uid is unknown at build time) and the common labels', () => {
      const rs = rayService();
      expect(rs.metadata.ownerReferences).toBeUndefined();
      expect(rs.metadata.labels).toEqual(commonLabels('qwen'));
      expect(rs.metadata.annotations).toBeUndefined();
    });

    test('labels the model source as given', () => {
      expect(rayService({ spec: { model: { source: 'custom' } } }).metadata.labels['airunway.ai/model-source']).toBe('custom');
    });

    test('merges podTemplate labels and annotations on top, then re-applies the common labels', () => {
      const rs = rayService({
        spec: {
          podTemplate: {
            metadata: {
              labels: { 'team': 'ml', 'airunway.ai/deployment': 'hijack', 'airunway.ai/model-deployment': 'hijack' },
              annotations: { 'prometheus.io/scrape': 'true' },
            },
          },
        },
      });
      expect(rs.metadata.labels).toEqual({
        'team': 'ml',
        'airunway.ai/model-deployment': 'hijack',
        ...commonLabels('qwen'),
      });
      expect(rs.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true' });
    });

    test('sets only serveConfigV2 and rayClusterConfig (head group and worker groups)', () => {
      const rs = rayService();
      expect(Object.keys(rs.spec).sort()).toEqual(['rayClusterConfig', 'serveConfigV2']);
      expect(Object.keys(rs.spec.rayClusterConfig).sort()).toEqual(['headGroupSpec', 'workerGroupSpecs']);
    });
  });

  describe('serve config (serveConfigV2): Ray Serve LLM', () => {
    test('one llm application built by ray.serve.llm:build_openai_app, the model served under its id', () => {
      expect(serveConfigOf()).toEqual({
        applications: [{
          name: 'llm',
          route_prefix: '/',
          import_path: 'ray.serve.llm:build_openai_app',
          args: {
            llm_configs: [{
              model_loading_config: { model_id: 'Qwen/Qwen3-0.6B', model_source: 'Qwen/Qwen3-0.6B' },
              engine_kwargs: { enable_prefix_caching: true },
              deployment_config: { num_replicas: 1 },
            }],
          },
        }],
      });
    });

    test.each([
      [undefined, 1],
      [0, 1],
      [1, 1],
      [4, 4],
    ])('num_replicas for scaling.replicas %p is %p', (replicas, expected) => {
      const scaling = replicas === undefined ? undefined : { replicas };
      expect(llmConfigOf({ spec: { scaling } }).deployment_config).toEqual({ num_replicas: expected });
    });

    test('prefill/decode: ray.serve.llm:build_pd_openai_app, each role with its GPUs, replicas and NIXL KV transfer (AI Runway serves one aggregated deployment)', () => {
      const { manifests, warnings } = synth(disaggregatedDeployment());
      const app = parse(onlyManifestOf(manifests, 'RayService').spec.serveConfigV2).applications[0];
      expect(app.import_path).toBe('ray.serve.llm:build_pd_openai_app');
      const nixl = { kv_connector: 'NixlConnector', kv_role: 'kv_both' };
      expect(app.args.prefill_config).toMatchObject({
        engine_kwargs: { tensor_parallel_size: 2, kv_transfer_config: nixl }, deployment_config: { num_replicas: 1 },
      });
      expect(app.args.decode_config).toMatchObject({
        engine_kwargs: { tensor_parallel_size: 4, kv_transfer_config: nixl }, deployment_config: { num_replicas: 3 },
      });
      expect(warnings).toEqual([]);
    });
  });

  describe('head group', () => {
    test('starts the dashboard on all interfaces and labels the pod with the model deployment', () => {
      const h = head(rayService());
      expect(h.rayStartParams).toEqual({ 'dashboard-host': '0.0.0.0' });
      expect(h.template.metadata).toEqual({ labels: { 'airunway.ai/model-deployment': 'qwen' } });
      expect(h.template.spec.containers).toHaveLength(1);
    });

    test('runs ray-head on the default image with 4 CPUs and 16Gi, without GPUs', () => {
      const c = headContainer(rayService());
      expect(KUBERAY_DEFAULT_IMAGE).toBe('rayproject/ray-llm:2.60.0-py312-cu130');
      expect(c.name).toBe('ray-head');
      expect(c.image).toBe('rayproject/ray-llm:2.60.0-py312-cu130');
      expect(c.resources).toEqual({ limits: { cpu: '4', memory: '16Gi' } });
    });

    test('keeps 16Gi whatever resources.memory gives the GPU workers (AI Runway gives the head the workers\' limit)', () => {
      const rs = rayService({ spec: { resources: { gpu: { count: 1 }, memory: '128Gi' } } });
      expect(headContainer(rs).resources).toEqual({ limits: { cpu: '4', memory: '16Gi' } });
      expect(workerContainer(rs).resources.limits.memory).toBe('128Gi');
    });

    test('uses the image override: engine.image, else spec.image, on head and workers', () => {
      const legacy = rayService({ spec: { image: 'registry.example/ray:legacy' } });
      expect(headContainer(legacy).image).toBe('registry.example/ray:legacy');
      expect(workerContainer(legacy).image).toBe('registry.example/ray:legacy');
      const both = rayService({ spec: { image: 'registry.example/ray:legacy', engine: { image: 'registry.example/ray:v2' } } });
      expect(headContainer(both).image).toBe('registry.example/ray:v2');
      expect(workerContainer(both).image).toBe('registry.example/ray:v2');
    });

    test('has no volumes (the head runs no engine)', () => {
      const rs = rayService({ spec: { model: { storage: { volumes: [{ name: 'cache', purpose: 'modelCache', claimName: 'c' }] } } } });
      expect(head(rs).template.spec.volumes).toBeUndefined();
      expect(headContainer(rs).volumeMounts).toBeUndefined();
    });
  });

  describe('worker groups, aggregated', () => {
    test('one gpu-workers group of a fixed size with one ray-worker container', () => {
      const [group, ...rest] = workers(rayService());
      expect(rest).toEqual([]);
      expect(group).toMatchObject({ groupName: 'gpu-workers', replicas: 1, minReplicas: 1, maxReplicas: 1, rayStartParams: {} });
      expect(group.template.metadata).toEqual({ labels: { 'airunway.ai/model-deployment': 'qwen' } });
      expect(group.template.spec.containers.map((c: any) => c.name)).toEqual(['ray-worker']);
    });

    test.each([
      [undefined, 1],
      [0, 1],
      [3, 3],
    ])('scaling.replicas %p gives %p workers (replicas = min = max)', (replicas, expected) => {
      const scaling = replicas === undefined ? undefined : { replicas };
      expect(workers(rayService({ spec: { scaling } }))[0]).toMatchObject({ replicas: expected, minReplicas: expected, maxReplicas: expected });
    });

    test('requests one GPU and the default 32Gi', () => {
      expect(workerContainer(rayService()).resources).toEqual({ limits: { 'memory': '32Gi', 'nvidia.com/gpu': '1' } });
    });

    test('requests the multi-GPU count under gpu.type, with resources.memory', () => {
      const rs = rayServiceOf(multiGpuDeployment());
      expect(workers(rs)[0]).toMatchObject({ groupName: 'gpu-workers', replicas: 2, minReplicas: 2, maxReplicas: 2 });
      expect(workerContainer(rs).resources).toEqual({ limits: { 'memory': '256Gi', 'nvidia.com/gpu': '4' } });
      const amd = rayService({ spec: { resources: { gpu: { count: 2, type: 'amd.com/gpu' } } } });
      expect(workerContainer(amd).resources).toEqual({ limits: { 'memory': '32Gi', 'amd.com/gpu': '2' } });
    });

    test('defaults an empty gpu.type to nvidia.com/gpu', () => {
      expect(workerContainer(rayService({ spec: { resources: { gpu: { count: 2, type: '' } } } })).resources.limits).toEqual({
        'memory': '32Gi',
        'nvidia.com/gpu': '2',
      });
    });

    test('puts resources.cpu in the worker limits (our addition; Ray reads it as the CPU count)', () => {
      const rs = rayService({ spec: { resources: { gpu: { count: 1 }, cpu: '16' } } });
      expect(workerContainer(rs).resources).toEqual({ limits: { 'memory': '32Gi', 'nvidia.com/gpu': '1', 'cpu': '16' } });
      expect(headContainer(rs).resources).toEqual({ limits: { cpu: '4', memory: '16Gi' } });
    });

    test('requests no GPU when the count is 0 (only reachable when validation is bypassed)', () => {
      expect(workerContainer(rayService({ spec: { resources: { gpu: { count: 0 } } } })).resources).toEqual({ limits: { memory: '32Gi' } });
    });
  });

  describe('worker groups, disaggregated', () => {
    test('prefill-workers then decode-workers, each sized by its component', () => {
      const groups = workers(rayServiceOf(disaggregatedDeployment()));
      expect(groups.map((g) => [g.groupName, g.replicas, g.minReplicas, g.maxReplicas])).toEqual([
        ['prefill-workers', 1, 1, 1],
        ['decode-workers', 3, 3, 3],
      ]);
      expect(groups[0].template.spec.containers[0].resources).toEqual({ limits: { 'memory': '64Gi', 'nvidia.com/gpu': '2' } });
      expect(groups[1].template.spec.containers[0].resources).toEqual({ limits: { 'memory': '32Gi', 'nvidia.com/gpu': '4' } });
      for (const g of groups) {
        expect(g.rayStartParams).toEqual({});
        expect(g.template.metadata).toEqual({ labels: { 'airunway.ai/model-deployment': 'qwen' } });
        expect(g.template.spec.containers[0].name).toBe('ray-worker');
      }
    });

    test('use each component gpu.type', () => {
      const md = disaggregatedDeployment({
        spec: {
          scaling: {
            prefill: { replicas: 2, gpu: { count: 1, type: 'amd.com/gpu' } },
            decode: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/mig-3g.40gb' } },
          },
        },
      });
      const groups = workers(rayServiceOf(md));
      expect(groups[0].template.spec.containers[0].resources.limits).toEqual({ 'memory': '32Gi', 'amd.com/gpu': '1' });
      expect(groups[1].template.spec.containers[0].resources.limits).toEqual({ 'memory': '32Gi', 'nvidia.com/mig-3g.40gb': '1' });
    });

    test('keep an explicit 0 component replicas and default an unset one to 1', () => {
      const md = disaggregatedDeployment({ spec: { scaling: { prefill: { replicas: 0, gpu: { count: 1 } }, decode: { gpu: { count: 1 } } } } });
      expect(workers(rayServiceOf(md)).map((g) => [g.groupName, g.replicas, g.minReplicas, g.maxReplicas])).toEqual([
        ['prefill-workers', 0, 0, 0],
        ['decode-workers', 1, 1, 1],
      ]);
    });

    test('render only the components that exist (admission requires both)', () => {
      const md = disaggregatedDeployment({ spec: { scaling: { prefill: { replicas: 1, gpu: { count: 1 } } } } });
      expect(workers(rayServiceOf(md)).map((g) => g.groupName)).toEqual(['prefill-workers']);
    });

    test('head memory falls back to 16Gi (components carry the memory)', () => {
      expect(headContainer(rayServiceOf(disaggregatedDeployment())).resources).toEqual({ limits: { cpu: '4', memory: '16Gi' } });
    });

  });

  describe('GPU types and the GPU taint toleration', () => {
    const taint = (key: string) => ({ key, operator: 'Exists', effect: 'NoSchedule' });
    const tolerating = { [TOLERATE_GPU_TAINT_ANNOTATION]: 'true' };
    const gpus = (count: number, type: string): FixtureOptions => ({ spec: { resources: { gpu: { count, type } } } });

    test.each(['nvidia.com/gpu', 'amd.com/gpu', 'nvidia.com/mig-1g.10gb', 'gpu.intel.com/i915'])('limits %s GPUs, and sets no requests (Kubernetes defaults them to the limits)', (type) => {
      const resources = workerContainer(rayService(gpus(2, type))).resources;
      expect(resources).toEqual({ limits: { memory: '32Gi', [type]: '2' } });
    });

    test.each([
      ['nvidia.com/gpu', {}],
      ['amd.com/gpu', {}],
      ['nvidia.com/mig-1g.10gb', { 'num-gpus': '2' }],
      ['gpu.intel.com/i915', { 'num-gpus': '2' }],
    ])('%s: passes num-gpus to Ray only where KubeRay cannot infer it (a name not ending in "gpu")', (type, params) => {
      expect(workers(rayService(gpus(2, type)))[0].rayStartParams).toEqual(params);
    });

    test('passes num-gpus per disaggregated component', () => {
      const md = disaggregatedDeployment({
        spec: {
          scaling: {
            prefill: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/mig-3g.40gb' } },
            decode: { replicas: 1, gpu: { count: 2, type: 'nvidia.com/gpu' } },
          },
        },
      });
      expect(workers(rayServiceOf(md)).map((g) => g.rayStartParams)).toEqual([{ 'num-gpus': '1' }, {}]);
    });

    test('tolerates the GPU taint on the workers of each type, never on the head, when asked', () => {
      const md = disaggregatedDeployment({
        annotations: tolerating,
        spec: {
          scaling: {
            prefill: { replicas: 1, gpu: { count: 1, type: 'amd.com/gpu' } },
            decode: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/mig-3g.40gb' } },
          },
        },
      });
      const rs = rayServiceOf(md);
      expect(workers(rs).map((g) => g.template.spec.tolerations)).toEqual([[taint('amd.com/gpu')], [taint('nvidia.com/gpu')]]);
      expect(head(rs).template.spec.tolerations).toBeUndefined();
    });

    test('tolerates the taint by default, adds none when the annotation is "false", and does not repeat a covering one', () => {
      expect(workers(rayService({ annotations: { [TOLERATE_GPU_TAINT_ANNOTATION]: 'false' } }))[0].template.spec.tolerations).toBeUndefined();
      expect(workers(rayService())[0].template.spec.tolerations).toEqual([taint('nvidia.com/gpu')]);
      const user = [taint('nvidia.com/gpu')];
      const rs = rayService({ annotations: tolerating, spec: { tolerations: user } });
      expect(workers(rs)[0].template.spec.tolerations).toEqual(user);
      expect(head(rs).template.spec.tolerations).toEqual(user);
    });

    test('warns when AMD GPUs would run the default CUDA image', () => {
      expect(synth(kuberayDeployment(gpus(1, 'amd.com/gpu'))).warnings).toEqual([
        `KubeRay requests AMD GPUs (spec.resources.gpu.type "amd.com/gpu") but runs its default image ${KUBERAY_DEFAULT_IMAGE}, ` +
          'a CUDA build of vLLM; set spec.engine.image to a ROCm build of vLLM',
      ]);
      expect(synth(kuberayDeployment({ spec: { ...gpus(1, 'amd.com/gpu').spec, engine: { image: 'example.com/ray-llm:rocm' } } })).warnings).toEqual([]);
    });
  });

  describe('engine arguments (engine_kwargs: vLLM\'s engine arguments by name and type)', () => {
    test('are prefix caching on by default (the CRD default); the model is in model_loading_config', () => {
      expect(engineKwargsOf()).toEqual({ enable_prefix_caching: true });
    });

    test('type every setting the way vLLM\'s parser reads it: ints, floats, switches, JSON, lists', () => {
      expect(engineKwargsOf({
        spec: {
          model: { servedName: 'qwen3' },
          engine: {
            contextLength: 8192,
            trustRemoteCode: true,
            args: { 'max-num-seqs': '64', 'disable-log-stats': '', 'dtype': 'bfloat16', 'enable-chunked-prefill': 'false', 'gpu-memory-utilization': '0.9' },
            extraArgs: ['--cpu-offload-gb', '4', '--speculative-config={"method":"ngram","num_speculative_tokens":4}'],
          },
        },
      })).toEqual({
        max_model_len: 8192,
        trust_remote_code: true,
        enable_prefix_caching: true,
        disable_log_stats: true,
        dtype: 'bfloat16',
        enable_chunked_prefill: false,
        gpu_memory_utilization: 0.9,
        max_num_seqs: 64,
        cpu_offload_gb: 4,
        speculative_config: { method: 'ngram', num_speculative_tokens: 4 },
      });
      expect(llmConfigOf({ spec: { model: { servedName: 'qwen3' } } }).model_loading_config)
        .toEqual({ model_id: 'qwen3', model_source: 'Qwen/Qwen3-0.6B' });
    });

    test('render eager mode and prefix caching off', () => {
      expect(engineKwargsOf({ spec: { engine: { enforceEager: true, enablePrefixCaching: false } } }))
        .toEqual({ enforce_eager: true, enable_prefix_caching: false });
    });

    test('derive the tensor parallel size from the worker pod\'s GPUs, unless the user sets it', () => {
      expect(engineKwargsOf({ spec: { resources: { gpu: { count: 8 } } } })).toMatchObject({ tensor_parallel_size: 8 });
      expect(engineKwargsOf({ spec: { engine: { args: { 'tensor-parallel-size': '2' } }, resources: { gpu: { count: 2 } } } })).toMatchObject({ tensor_parallel_size: 2 });
      const multiGpu = parse(rayServiceOf(multiGpuDeployment()).spec.serveConfigV2).applications[0].args.llm_configs[0];
      expect(multiGpu.engine_kwargs).toMatchObject({ tensor_parallel_size: 4 });
    });

    test('refuse at its field what vLLM\'s engine would refuse: an unknown option, a bad value, a stray token', () => {
      const errors = (engine: object) => validateKubeRay(kuberayDeployment({ spec: { engine } })).map((e) => `${e.path}: ${e.message}`);
      expect(errors({ args: { 'no-such-option': '1' } })).toEqual([
        'spec.engine.args.no-such-option: --no-such-option is not an option of the vLLM of the Ray image, whose engine arguments Ray Serve LLM passes as engine_kwargs',
      ]);
      expect(errors({ args: { 'max-num-seqs': 'many' } })).toEqual(['spec.engine.args.max-num-seqs: --max-num-seqs takes an integer']);
      expect(errors({ extraArgs: ['stray'] })[0]).toMatch(/^spec\.engine\.extraArgs\[0\]: is not an option/);
    });

    test('are read with the parser of the vLLM the default image carries (0.29.0), not an older one', () => {
      // The table is the vLLM the version matrix says the default image carries.
      const carries = DEFAULT_IMAGES.find((d) => d.provider === 'kuberay')!.carries;
      expect(carries).toContain(`vLLM ${KUBERAY_VLLM_ARGUMENTS_ID.replace(/^vllm-/, '')}`);
      expect(KUBERAY_VLLM_ARGUMENTS_ID).toBe('vllm-0.29.0');
      const errors = (engine: object) => validateKubeRay(kuberayDeployment({ spec: { engine } })).map((e) => `${e.path}: ${e.message}`);
      // vLLM 0.11.0 took --disable-log-requests; 0.29.0 has only --enable-log-requests / --no-enable-log-requests.
      expect(errors({ extraArgs: ['--disable-log-requests'] })).toEqual([
        'spec.engine.extraArgs[0]: --disable-log-requests is not an option of the vLLM of the Ray image, whose engine arguments Ray Serve LLM passes as engine_kwargs',
      ]);
      expect(engineKwargsOf({ spec: { engine: { extraArgs: ['--no-enable-log-requests'] } } })).toMatchObject({ enable_log_requests: false });
    });
  });

  describe('env', () => {
    test('is none by default: the model and the engine arguments are in the Serve config', () => {
      const rs = rayService();
      expect(headContainer(rs).env).toBeUndefined();
      expect(workerContainer(rs).env).toBeUndefined();
    });

    test('reaches both disaggregated worker groups', () => {
      const md = disaggregatedDeployment({ spec: { env: [{ name: 'A', value: '1' }], secrets: { huggingFaceToken: 'hf-secret' } } });
      const rs = rayServiceOf(md);
      for (const c of [headContainer(rs), workerContainer(rs, 0), workerContainer(rs, 1)]) {
        expect(c.env.map((e: any) => e.name)).toEqual(['A', 'HF_TOKEN']);
      }
    });

    modelServerEnvCases(
      { harness, containersOf: (manifests) => [headContainer(manifests[0]), workerContainer(manifests[0])] },
      ['secretReplacesUserToken', 'userTokenWithoutSecret', 'everyValueFromSource'],
    );
  });

  describe('storage (mounted on the workers; AI Runway ignores it)', () => {
    const volumes = [
      { name: 'model-cache', purpose: 'modelCache' as const, size: '100Gi', storageClassName: 'fast' },
      { name: 'compile', purpose: 'compilationCache' as const, claimName: 'shared-compile', readOnly: true },
      { name: 'unmounted', purpose: 'custom' as const, claimName: 'other-pvc' },
    ];

    test('gives every worker pod a volume per storage volume and mounts those with a path', () => {
      const rs = rayService({ spec: { model: { storage: { volumes } } } });
      const pod = workers(rs)[0].template.spec;
      expect(pod.volumes).toEqual([
        { name: 'model-cache', persistentVolumeClaim: { claimName: 'qwen-model-cache' } },
        { name: 'compile', persistentVolumeClaim: { claimName: 'shared-compile' } },
        { name: 'unmounted', persistentVolumeClaim: { claimName: 'other-pvc' } },
      ]);
      expect(pod.containers[0].volumeMounts).toEqual([
        { name: 'model-cache', mountPath: '/model-cache' },
        { name: 'compile', mountPath: '/compilation-cache', readOnly: true },
      ]);
    });

    test('points HF_HOME at the modelCache mount on the workers only', () => {
      const rs = rayService({ spec: { model: { storage: { volumes } }, secrets: { huggingFaceToken: 'hf-secret' } } });
      expect(workerContainer(rs).env).toEqual([SECRET_TOKEN, { name: 'HF_HOME', value: '/model-cache' }]);
      expect(headContainer(rs).env).toEqual([SECRET_TOKEN]);
    });

    test('leaves a user HF_HOME alone', () => {
      const rs = rayService({ spec: { model: { storage: { volumes } }, env: [{ name: 'HF_HOME', value: '/mine' }] } });
      expect(workerContainer(rs).env).toEqual([{ name: 'HF_HOME', value: '/mine' }]);
    });

    test('synthesizes a PVC for each managed volume, after the RayService', () => {
      const { returned, manifests } = synth(kuberayDeployment({ spec: { model: { storage: { volumes } } } }));
      expect(returned.map((o) => [o.node.id, o.kind, o.name])).toEqual([
        ['RayService', 'RayService', 'qwen'],
        ['ClaimModelCache', 'PersistentVolumeClaim', 'qwen-model-cache'],
      ]);
      expect(manifests[1]).toEqual(managedClaim({ deployment: 'qwen', volume: 'model-cache', size: '100Gi', storageClassName: 'fast' }));
    });

    test('mounts the storage in both disaggregated worker groups', () => {
      const rs = rayServiceOf(disaggregatedDeployment({ spec: { model: { storage: { volumes: [volumes[0]] } } } }));
      for (const g of workers(rs)) {
        expect(g.template.spec.volumes).toEqual([{ name: 'model-cache', persistentVolumeClaim: { claimName: 'qwen-model-cache' } }]);
        expect(g.template.spec.containers[0].volumeMounts).toEqual([{ name: 'model-cache', mountPath: '/model-cache' }]);
      }
    });

    test('has no volumes, mounts or PVCs without storage', () => {
      const { manifests } = synth(kuberayDeployment());
      expect(manifests).toHaveLength(1);
      expect(workers(manifests[0])[0].template.spec.volumes).toBeUndefined();
      expect(workerContainer(manifests[0]).volumeMounts).toBeUndefined();
    });
  });

  describe('scheduling and pod metadata', () => {
    const tolerations = [
      { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'spot', operator: 'Equal', value: 'true', effect: 'NoExecute', tolerationSeconds: 300 },
    ];

    test('copies nodeSelector and tolerations to the head and every worker group (AI Runway ignores them)', () => {
      const md = disaggregatedDeployment({ spec: { nodeSelector: { pool: 'gpu' }, tolerations } });
      const rs = rayServiceOf(md);
      for (const pod of [head(rs).template.spec, ...workers(rs).map((g) => g.template.spec)]) {
        expect(pod.nodeSelector).toEqual({ pool: 'gpu' });
        expect(pod.tolerations).toEqual(tolerations);
      }
    });

    test('omits nodeSelector and tolerations when empty', () => {
      const rs = rayService({ annotations: { [TOLERATE_GPU_TAINT_ANNOTATION]: 'false' }, spec: { nodeSelector: {}, tolerations: [] } });
      for (const pod of [head(rs).template.spec, workers(rs)[0].template.spec]) {
        expect(pod.nodeSelector).toBeUndefined();
        expect(pod.tolerations).toBeUndefined();
      }
    });

    test('puts podTemplate labels and annotations on the Ray pods, keeping airunway.ai/model-deployment', () => {
      const rs = rayService({
        spec: {
          podTemplate: {
            metadata: {
              labels: { 'team': 'ml', 'airunway.ai/model-deployment': 'hijack' },
              annotations: { 'sidecar.istio.io/inject': 'false' },
            },
          },
        },
      });
      const expected = { labels: { 'team': 'ml', 'airunway.ai/model-deployment': 'qwen' }, annotations: { 'sidecar.istio.io/inject': 'false' } };
      expect(head(rs).template.metadata).toEqual(expected);
      expect(workers(rs)[0].template.metadata).toEqual(expected);
    });
  });

  describe('overrides (not supported by KubeRay: ignored with a warning naming them)', () => {
    const ignored = (paths: string) =>
      `KubeRay does not apply spec.provider.overrides, so ${paths} ignored (remove them; to change the RayService, patch it with addJsonPatch in a cdk8s app)`;
    /** The provider's warnings, which the construct, the CLI and the controller's record check report. */
    const warningsOf = (md: ResolvedModelDeployment) => kuberayWarnings(md);

    test('are not applied, and the warning names each ignored root key', () => {
      const md = kuberayDeployment({
        spec: { provider: { name: 'kuberay', overrides: { spec: { rayClusterConfig: { enableInTreeAutoscaling: true } }, serveConfigV2: 'x' } } },
      });
      const { manifests, warnings } = synth(md);
      expect(manifests[0].spec.rayClusterConfig.enableInTreeAutoscaling).toBeUndefined();
      expect(manifests[0].serveConfigV2).toBeUndefined();
      expect(warnings).toEqual([]);
      expect(warningsOf(md)).toEqual([ignored('spec.provider.overrides.spec, spec.provider.overrides.serveConfigV2 are')]);
      expect(warningsOf(kuberayDeployment({ spec: { provider: { name: 'kuberay', overrides: { spec: {} } } } }))).toEqual([
        ignored('spec.provider.overrides.spec is'),
      ]);
    });

    test('are not validated: blocked keys pass validate and are ignored (and named) too', () => {
      const md = kuberayDeployment({ spec: { provider: { name: 'kuberay', overrides: { kind: 'RayCluster', metadata: { name: 'x' } } } } });
      expect(validateKubeRay(md)).toEqual([]);
      const { manifests } = synth(md);
      expect(manifests[0].kind).toBe('RayService');
      expect(manifests[0].metadata.name).toBe('qwen');
      expect(warningsOf(md)).toEqual([ignored('spec.provider.overrides.kind, spec.provider.overrides.metadata are')]);
    });

    test('record no warning when absent, null or empty', () => {
      expect(warningsOf(kuberayDeployment())).toEqual([]);
      expect(warningsOf(kuberayDeployment({ spec: { provider: { name: 'kuberay', overrides: {} } } }))).toEqual([]);
      expect(warningsOf(kuberayDeployment({ spec: { provider: { name: 'kuberay', overrides: null as any } } }))).toEqual([]);
    });

    test('reach the deployment\'s warnings through the provider, once', () => {
      const resolution = resolveModelDeployment(
        { name: 'qwen', spec: { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } }, provider: { name: 'kuberay', overrides: { spec: {} } } } },
        defaultProviderCatalog(),
      );
      expect(resolution.errors).toEqual([]);
      expect(resolution.warnings.filter((w) => w.includes('spec.provider.overrides'))).toEqual([ignored('spec.provider.overrides.spec is')]);
    });

    test('the escape hatch reaches the final RayService JSON', () => {
      const chart = Testing.chart();
      const [rs] = translator.translate(chart, kuberayDeployment());
      rs.addJsonPatch(JsonPatch.add('/spec/rayClusterConfig/enableInTreeAutoscaling', true));
      const manifests = Testing.synth(chart);
      expectValidManifests(manifests);
      expect(manifests[0].spec.rayClusterConfig.enableInTreeAutoscaling).toBe(true);
    });
  });

  describe('validate', () => {
    test('accepts aggregated one-GPU, multi-GPU and disaggregated deployments', () => {
      expect(validateKubeRay(kuberayDeployment())).toEqual([]);
      expect(validateKubeRay(multiGpuDeployment())).toEqual([]);
      expect(validateKubeRay(disaggregatedDeployment())).toEqual([]);
    });

    test('fails when the engine is not vllm', () => {
      for (const engine of ['sglang', 'trtllm', 'llamacpp'] as const) {
        const md = { ...kuberayDeployment({ spec: { engine: { type: engine } } }), engine };
        expect(validateKubeRay(md)).toEqual([
          { path: 'spec.engine.type', kind: FieldErrorKind.INVALID, value: engine, message: `KubeRay only supports vllm engine, got ${engine}` },
        ]);
      }
    });

    test('fails when an aggregated deployment requests no GPU', () => {
      expect(errorsOf(kuberayDeployment({ spec: { resources: { gpu: { count: 0 } } } }))).toEqual([
        'spec.resources.gpu.count: Invalid value: 0: KubeRay requires GPU (set resources.gpu.count > 0)',
      ]);
      expect(errorsOf(kuberayDeployment({ spec: { resources: undefined } }))).toEqual([
        'spec.resources.gpu.count: Required value: KubeRay requires GPU (set resources.gpu.count > 0)',
      ]);
      expect(errorsOf(kuberayDeployment({ spec: { resources: { memory: '16Gi' } } }))).toEqual([
        'spec.resources.gpu.count: Required value: KubeRay requires GPU (set resources.gpu.count > 0)',
      ]);
    });

    test('fails when a disaggregated deployment has no prefill GPU', () => {
      const zero = disaggregatedDeployment({ spec: { scaling: { prefill: { replicas: 1, gpu: { count: 0 } }, decode: { gpu: { count: 1 } } } } });
      expect(errorsOf(zero)).toEqual(['spec.scaling.prefill.gpu.count: Invalid value: 0: KubeRay requires GPU (set resources.gpu.count > 0)']);
      const missing = disaggregatedDeployment({ spec: { scaling: { decode: { gpu: { count: 1 } } } } });
      expect(errorsOf(missing)).toEqual(['spec.scaling.prefill.gpu.count: Required value: KubeRay requires GPU (set resources.gpu.count > 0)']);
    });

    test('accepts a disaggregated deployment by its prefill GPUs alone (the AI Runway rule)', () => {
      const md = disaggregatedDeployment({ spec: { scaling: { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 0 } } } } });
      expect(validateKubeRay(md)).toEqual([]);
    });

    test('fails with both errors when the engine is wrong and there is no GPU', () => {
      const md = { ...kuberayDeployment({ spec: { engine: { type: 'llamacpp' }, resources: undefined } }), engine: 'llamacpp' as const };
      expect(errorsOf(md)).toEqual([
        'spec.engine.type: Invalid value: "llamacpp": KubeRay only supports vllm engine, got llamacpp',
        'spec.resources.gpu.count: Required value: KubeRay requires GPU (set resources.gpu.count > 0)',
      ]);
    });
  });

  describe('through admission and selection', () => {
    function resolveWithKubeRay(spec: any) {
      return resolveModelDeployment({ name: 'llama', namespace: 'ml', spec }, defaultProviderCatalog());
    }

    test('a vllm deployment with more than one GPU selects kuberay and synthesizes a valid RayService', () => {
      const resolution = resolveWithKubeRay({ model: { id: 'meta-llama/Llama-3.1-70B-Instruct' }, engine: { type: 'vllm' }, resources: { gpu: { count: 4 } } });
      expect(resolution.errors).toEqual([]);
      expect(resolution.resolved?.provider).toBe('kuberay');
      const rs = rayServiceOf(resolution.resolved!);
      expect(rs.metadata.name).toBe('llama');
      expect(workerContainer(rs).resources).toEqual({ limits: { 'memory': '32Gi', 'nvidia.com/gpu': '4' } });
      expect(parse(rs.spec.serveConfigV2).applications[0].args.llm_configs[0].engine_kwargs).toMatchObject({ tensor_parallel_size: 4 });
    });

    test('an explicit kuberay disaggregated deployment synthesizes two worker groups', () => {
      const resolution = resolveWithKubeRay({
        model: { id: 'Qwen/Qwen3-0.6B' },
        engine: { type: 'vllm' },
        provider: { name: 'kuberay' },
        serving: { mode: 'disaggregated' },
        scaling: { prefill: { replicas: 1, gpu: { count: 1 } }, decode: { replicas: 2, gpu: { count: 1 } } },
      });
      expect(resolution.errors).toEqual([]);
      expect(workers(rayServiceOf(resolution.resolved!)).map((g) => [g.groupName, g.replicas])).toEqual([
        ['prefill-workers', 1],
        ['decode-workers', 2],
      ]);
    });
  });
});
