import { Duration, JsonPatch, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-34';
import { disaggregatedDeployment, dynamoDeployment, FixtureOptions, mockerDeployment, multinodeDeployment } from './fixtures';
import { graphView, GraphView, ServiceView } from './views';
import { ResolvedModelDeployment, toResolvedDeployment } from '../../../src/api/resolved-model-deployment';
import { Warnings } from '../../../src/api/warnings';
import { FieldErrorKind, formatFieldError } from '../../../src/core/field-error';
import { TOLERATE_GPU_TAINT_ANNOTATION } from '../../../src/core/gpu-taint-toleration';
import type { ModelDeploymentObject } from '../../../src/core/model-deployment-object';
import { DynamoGraphDeployment, DynamoGraphDeploymentV1Beta1 } from '../../../src/imports/nvidia.com';
import { resolveModelDeployment } from '../../../src/pipeline/resolve';
import { defaultProviderCatalog } from '../../../src/pipeline/shipped-providers';
import { NIXL_KV_TRANSFER_CONFIG } from '../../../src/provider-kit/engine-flags';
import { DynamoApiVersion, DynamoProvider } from '../../../src/providers/dynamo';
import { eppConfig, sanitizeLabelValue } from '../../../src/providers/dynamo/graph';
import { dynamoImages, hasSemverTag } from '../../../src/providers/dynamo/images';
import { DYNAMO_API_VERSION_ANNOTATION, dynamoApiVersionOf, DynamoSettings, validateDynamo } from '../../../src/providers/dynamo/validation';
import { blockedOverrideKeyCases } from '../../support/provider-cases';
import { expectValidManifests } from '../../support/schema-validator';
import { fieldErrorsOf, findManifest as find, onlyManifestOf, ProviderTranslator, Synthesized, synthesize, translatorHarness, translatorOf } from '../../support/translator-harness';

const IMAGES = dynamoImages();
const VLLM_IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.1';
const SGLANG_IMAGE = 'nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.6.1';
const TRTLLM_IMAGE = 'nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.6.1';
const EPP_IMAGE = 'nvcr.io/nvidia/ai-dynamo/dynamo-frontend:1.6.1';
const MOCKER_IMAGE = 'nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.6.1';
const HF_SECRET = 'hf-token';

/** Settings of the Dynamo provider under test (its props). */
type TranslationOptions = DynamoSettings;

/** The Dynamo provider with these settings, seen through the internal deployment. */
function dynamoWith(settings: TranslationOptions = {}): ProviderTranslator {
  return translatorOf(new DynamoProvider({ ...settings, apiVersion: settings.apiVersion as DynamoApiVersion | undefined }));
}

const dynamoTranslator = dynamoWith();
const harness = translatorHarness(new DynamoProvider(), dynamoDeployment);

function synthWith(settings: TranslationOptions, md: ResolvedModelDeployment, options: TranslationOptions): Synthesized {
  return synthesize(dynamoWith({ ...settings, ...options }), md);
}

function dgdOf(manifests: any[]): any {
  return onlyManifestOf(manifests, 'DynamoGraphDeployment');
}

function errorsOf(md: ResolvedModelDeployment, options: TranslationOptions = {}): string[] {
  return fieldErrorsOf(dynamoWith(options), md);
}

interface VersionCase {
  readonly apiVersion: string;
  readonly options: TranslationOptions;
  /** Overrides that put `nodeCount` nodes under the aggregated worker, in this version's shape. */
  readonly multinodeOverride: (nodeCount: number) => Record<string, unknown>;
}

const VERSIONS: VersionCase[] = [
  {
    // On request (clusters on Dynamo before 1.5): Dynamo 1.6.1 still serves it, deprecated.
    apiVersion: 'nvidia.com/v1alpha1',
    options: { apiVersion: 'nvidia.com/v1alpha1' },
    multinodeOverride: (nodeCount) => ({ spec: { services: { VllmWorker: { multinode: { nodeCount } } } } }),
  },
  {
    // The default for the default runtime (1.6.1).
    apiVersion: 'nvidia.com/v1beta1',
    options: {},
    multinodeOverride: (nodeCount) => ({ spec: { components: { VllmWorker: { multinode: { nodeCount } } } } }),
  },
];

describe('DynamoProvider', () => {
  test('identifies the dynamo provider', () => {
    expect(dynamoTranslator.providerName).toBe('dynamo');
    expect(dynamoTranslator.displayName).toBe('Dynamo');
  });

  describe.each(VERSIONS)('$apiVersion', (version) => {
    const synth = (md: ResolvedModelDeployment, settings: TranslationOptions = {}) => synthWith(settings, md, version.options);
    const manifestsOf = (md: ResolvedModelDeployment) => synth(md).manifests;
    const viewOf = (md: ResolvedModelDeployment): GraphView => graphView(dgdOf(manifestsOf(md)));
    const serviceOf = (md: ResolvedModelDeployment, name: string): ServiceView => viewOf(md).service(name);
    const agg = (options: FixtureOptions = {}) => dynamoDeployment(options);
    const noGateway = (options: FixtureOptions = {}) =>
      dynamoDeployment({ ...options, spec: { gateway: { enabled: false }, ...options.spec } });

    describe('snapshots', () => {
      test('minimal aggregated deployment', () => {
        expect(manifestsOf(agg())).toMatchSnapshot();
      });

      test('full aggregated deployment (storage, secrets, scheduling, gateway off)', () => {
        const manifests = manifestsOf(noGateway({
          spec: {
            model: {
              servedName: 'qwen3',
              storage: {
                volumes: [
                  { name: 'model-cache', purpose: 'modelCache', size: '100Gi', accessMode: 'ReadWriteMany', claimName: 'qwen-model-cache', mountPath: '/model-cache' },
                  { name: 'compile', purpose: 'compilationCache', claimName: 'shared-compile', mountPath: '/compilation-cache' },
                  { name: 'datasets', purpose: 'custom', claimName: 'datasets', mountPath: '/data', readOnly: true },
                ],
              },
            },
            engine: { contextLength: 32768, trustRemoteCode: true, args: { 'gpu-memory-utilization': '0.9', 'tensor-parallel-size': '2' } },
            resources: { gpu: { count: 2, type: 'nvidia.com/gpu' }, memory: '64Gi', cpu: '8' },
            scaling: { replicas: 2 },
            env: [{ name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' }],
            secrets: { huggingFaceToken: HF_SECRET },
            nodeSelector: { 'nvidia.com/gpu.product': 'NVIDIA-A100-SXM4-80GB' },
            tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
            podTemplate: { metadata: { labels: { team: 'ml' }, annotations: { 'prometheus.io/scrape': 'true' } } },
            gateway: { enabled: false },
          },
        }));
        expect(manifests).toMatchSnapshot();
      });

      test('disaggregated deployment with the gateway', () => {
        expect(manifestsOf(disaggregatedDeployment({ spec: { secrets: { huggingFaceToken: HF_SECRET } } }))).toMatchSnapshot();
      });

      test('mocker deployment', () => {
        expect(manifestsOf(mockerDeployment())).toMatchSnapshot();
      });
    });

    describe('objects and metadata', () => {
      test('creates one DynamoGraphDeployment of this version named after the deployment', () => {
        const { returned, manifests } = synth(agg());
        expect(returned.map((o) => [o.node.id, o.apiVersion, o.kind, o.name])).toEqual([
          ['DynamoGraphDeployment', version.apiVersion, 'DynamoGraphDeployment', 'qwen'],
        ]);
        expect(returned[0]).toBeInstanceOf(version.apiVersion === 'nvidia.com/v1beta1' ? DynamoGraphDeploymentV1Beta1 : DynamoGraphDeployment);
        expect(manifests.map((m) => `${m.apiVersion} ${m.kind} ${m.metadata.namespace}/${m.metadata.name}`)).toEqual([
          `${version.apiVersion} DynamoGraphDeployment ml/qwen`,
        ]);
      });

      test('labels it managed-by, model-deployment, sanitized model-id and engine-type; no annotations or ownerReferences', () => {
        const dgd = dgdOf(manifestsOf(agg({ name: 'llama', spec: { model: { id: 'meta-llama/Llama-2-7b-chat-hf' }, podTemplate: { metadata: { annotations: { a: 'b' } } } } })));
        expect(dgd.metadata).toEqual({
          name: 'llama',
          namespace: 'ml',
          labels: {
            'airunway.ai/managed-by': 'airunway',
            'airunway.ai/model-deployment': 'llama',
            'airunway.ai/model-id': 'meta-llama-Llama-2-7b-chat-hf',
            'airunway.ai/engine-type': 'vllm',
          },
        });
      });

      test('omits the namespace when the deployment has none', () => {
        for (const m of manifestsOf(agg({ namespace: null }))) expect(m.metadata.namespace).toBeUndefined();
      });

      test.each([
        ['vllm', VLLM_IMAGE],
        ['sglang', SGLANG_IMAGE],
        ['trtllm', TRTLLM_IMAGE],
      ] as const)('sets backendFramework %s and runs its worker module from its runtime image', (engine, image) => {
        const view = viewOf(agg({ spec: { engine: { type: engine } } }));
        expect(view.backendFramework).toBe(engine);
        const w = view.service('VllmWorker');
        expect(w.image).toBe(image);
        expect(w.command).toEqual(['python3', '-m', `dynamo.${engine}`]);
      });
    });

    describe('aggregated workers', () => {
      test('quirk kept: the aggregated worker is VllmWorker for every engine', () => {
        for (const engine of ['vllm', 'sglang', 'trtllm'] as const) {
          expect(viewOf(agg({ spec: { engine: { type: engine } } })).names).toEqual(['Epp', 'VllmWorker']);
        }
      });

      test('uses scaling.replicas, 0 included (scale to zero, where AI Runway runs one), and 1 when unset', () => {
        expect(serviceOf(agg({ spec: { scaling: { replicas: 3 } } }), 'VllmWorker').replicas).toBe(3);
        expect(serviceOf(agg({ spec: { scaling: { replicas: 0 } } }), 'VllmWorker').replicas).toBe(0);
        expect(serviceOf(agg({ spec: { scaling: undefined } }), 'VllmWorker').replicas).toBe(1);
      });

      test('requests GPUs in limits and requests, memory and CPU as limits', () => {
        const w = serviceOf(agg({ spec: { resources: { gpu: { count: 4, type: 'nvidia.com/gpu' }, memory: '128Gi', cpu: '16' } } }), 'VllmWorker');
        expect(w.resources).toEqual({ limits: { 'nvidia.com/gpu': '4', 'memory': '128Gi', 'cpu': '16' }, requests: { 'nvidia.com/gpu': '4' } });
      });

      test('renders the vLLM arguments in order', () => {
        const w = serviceOf(agg({
          spec: {
            model: { servedName: 'qwen3' },
            engine: { contextLength: 4096, trustRemoteCode: true, enforceEager: true, args: { 'max-num-seqs': '128', 'enable-chunked-prefill': '', 'connector': 'lmcache' } },
          },
        }), 'VllmWorker');
        expect(w.args).toEqual([
          '--model', 'Qwen/Qwen3-0.6B',
          '--served-model-name', 'qwen3',
          '--max-model-len', '4096',
          '--trust-remote-code',
          '--enable-prefix-caching',
          '--enforce-eager',
          '--enable-chunked-prefill',
          '--max-num-seqs', '128',
        ]);
      });

      test('renders the SGLang arguments (--model-path, --context-length; connector kept) in SGLang\'s own spellings', () => {
        const w = serviceOf(agg({ spec: { engine: { type: 'sglang', contextLength: 8192, trustRemoteCode: true, args: { connector: 'x' } } } }), 'VllmWorker');
        // Prefix caching on is SGLang's default (its radix cache): no flag; SGLang has no --enable-prefix-caching.
        expect(w.args).toEqual([
          '--model-path', 'Qwen/Qwen3-0.6B', '--context-length', '8192', '--trust-remote-code', '--connector', 'x',
        ]);
        const off = serviceOf(agg({ spec: { engine: { type: 'sglang', enablePrefixCaching: false, enforceEager: true } } }), 'VllmWorker');
        // SGLang 0.5.21 (Dynamo 1.6.1) deprecates --disable-cuda-graph for the per-phase backends.
        expect(off.args).toEqual(['--model-path', 'Qwen/Qwen3-0.6B', '--disable-radix-cache',
          '--cuda-graph-backend-decode', 'disabled', '--cuda-graph-backend-prefill', 'disabled']);
      });

      test('renders the TensorRT-LLM arguments (the context length as --max-seq-len; no engine tuning flags)', () => {
        const w = serviceOf(agg({ spec: { engine: { type: 'trtllm', contextLength: 8192, trustRemoteCode: true, enforceEager: true, args: { 'tp-size': '2' } } } }), 'VllmWorker');
        expect(w.args).toEqual(['--model-path', 'Qwen/Qwen3-0.6B', '--max-seq-len', '8192', '--tp-size', '2']);
      });

      test('renders an explicit context length of 0, and prefix caching off as --no-enable-prefix-caching (vLLM caches by default)', () => {
        expect(serviceOf(agg({ spec: { engine: { contextLength: 0, enablePrefixCaching: false } } }), 'VllmWorker').args).toEqual([
          '--model', 'Qwen/Qwen3-0.6B', '--max-model-len', '0', '--no-enable-prefix-caching',
        ]);
      });

      test('derives the tensor parallel size from the GPU count (AI Runway derives none) and passes no extraArgs (with a warning)', () => {
        const md = agg({ spec: { resources: { gpu: { count: 4, type: 'nvidia.com/gpu' } }, engine: { extraArgs: ['--max-num-seqs=8'] } } });
        const { manifests, returned } = synth(md);
        expect(graphView(dgdOf(manifests)).service('VllmWorker').args).toEqual([
          '--model', 'Qwen/Qwen3-0.6B', '--enable-prefix-caching', '--tensor-parallel-size', '4',
        ]);
        // The user's own size wins, and nothing is derived for it.
        const own = serviceOf(agg({ spec: { resources: { gpu: { count: 4, type: 'nvidia.com/gpu' } }, engine: { args: { 'tensor-parallel-size': '4' } } } }), 'VllmWorker');
        expect(own.args).toEqual(['--model', 'Qwen/Qwen3-0.6B', '--enable-prefix-caching', '--tensor-parallel-size', '4']);
        expect(Warnings.collect(returned[0]).map((w) => w.message)).toContain(
          'Dynamo ignores spec.engine.extraArgs (as AI Runway does); set worker flags in spec.engine.args',
        );
      });

      test('drops the connector arg of vLLM workers with a warning', () => {
        const { returned } = synth(agg({ spec: { engine: { args: { connector: 'lmcache' } } } }));
        expect(Warnings.collect(returned[0]).map((w) => w.message)).toEqual([
          'Dynamo drops spec.engine.args.connector for vLLM workers: the KV connector is Dynamo\'s (NIXL when disaggregated)',
        ]);
      });

      test('adds no env to a worker without storage', () => {
        expect(serviceOf(agg(), 'VllmWorker').env).toBeUndefined();
      });
    });

    describe('disaggregated workers', () => {
      test('creates prefill and decode workers sized and scaled from their components', () => {
        const view = viewOf(disaggregatedDeployment());
        expect(view.names).toEqual(['Epp', 'VllmDecodeWorker', 'VllmPrefillWorker']);
        const decode = view.service('VllmDecodeWorker');
        const prefill = view.service('VllmPrefillWorker');
        expect([decode.type, decode.replicas, decode.resources]).toEqual([
          'decode', 2, { limits: { 'nvidia.com/gpu': '2', 'memory': '64Gi' }, requests: { 'nvidia.com/gpu': '2' } },
        ]);
        expect([prefill.type, prefill.replicas, prefill.resources]).toEqual([
          'prefill', 1, { limits: { 'nvidia.com/gpu': '1', 'memory': '32Gi' }, requests: { 'nvidia.com/gpu': '1' } },
        ]);
      });

      test('keeps 0 replicas of a component', () => {
        const md = disaggregatedDeployment({
          spec: { scaling: { decode: { replicas: 0, gpu: { count: 1 } }, prefill: { replicas: 1, gpu: { count: 1 } } } },
        });
        expect(serviceOf(md, 'VllmDecodeWorker').replicas).toBe(0);
      });

      test('vLLM workers add the disaggregation mode, the NIXL KV transfer config and the side-channel host', () => {
        const view = viewOf(disaggregatedDeployment());
        for (const role of ['prefill', 'decode']) {
          const w = view.service(role === 'prefill' ? 'VllmPrefillWorker' : 'VllmDecodeWorker');
          expect(w.args).toEqual([
            '--model', 'Qwen/Qwen3-0.6B', '--enable-prefix-caching',
            ...(role === 'decode' ? ['--tensor-parallel-size', '2'] : []),
            '--disaggregation-mode', role,
            '--kv-transfer-config', '{"kv_connector":"NixlConnector","kv_role":"kv_both"}',
          ]);
          expect(w.env).toEqual([{ name: 'VLLM_NIXL_SIDE_CHANNEL_HOST', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }]);
        }
        expect(NIXL_KV_TRANSFER_CONFIG).toBe('{"kv_connector":"NixlConnector","kv_role":"kv_both"}');
      });

      test('SGLang workers get the disaggregation mode only', () => {
        const w = serviceOf(disaggregatedDeployment({ spec: { engine: { type: 'sglang' } } }), 'VllmPrefillWorker');
        expect(w.args).toEqual(['--model-path', 'Qwen/Qwen3-0.6B', '--disaggregation-mode', 'prefill']);
        expect(w.env).toBeUndefined();
        expect(w.image).toBe(SGLANG_IMAGE);
      });

      test('TensorRT-LLM disaggregated is rendered (only the capability list leaves it out)', () => {
        const view = viewOf(disaggregatedDeployment({ spec: { engine: { type: 'trtllm' } } }));
        expect(view.service('VllmDecodeWorker').args).toEqual(['--model-path', 'Qwen/Qwen3-0.6B', '--tensor-parallel-size', '2', '--disaggregation-mode', 'decode']);
      });
    });

    describe('gateway on (default): endpoint picker and frontend sidecars', () => {
      test('an Epp service replaces the Frontend', () => {
        expect(viewOf(agg()).names).toEqual(['Epp', 'VllmWorker']);
        expect(viewOf(agg({ spec: { gateway: { enabled: true } } })).names).toEqual(['Epp', 'VllmWorker']);
        expect(viewOf(agg({ spec: { gateway: { modelName: 'qwen' } } })).names).toEqual(['Epp', 'VllmWorker']);
      });

      test('the aggregated Epp falls back to decode and does not enforce disaggregation; the native picker (1.5+) gets no eppConfig', () => {
        const epp = serviceOf(agg(), 'Epp');
        expect(epp).toMatchObject({ type: 'epp', replicas: 1, image: EPP_IMAGE });
        expect(epp.env).toEqual([{ name: 'DYN_DECODE_FALLBACK', value: 'true' }, { name: 'DYN_ENFORCE_DISAGG', value: 'false' }]);
        expect(epp.envFromSecret).toBeUndefined();
        expect(epp.mounts).toEqual([]);
        expect(epp.eppConfig).toBeUndefined();
      });

      test('the disaggregated Epp enforces disaggregation', () => {
        const epp = serviceOf(disaggregatedDeployment(), 'Epp');
        expect(epp.env).toEqual([{ name: 'DYN_DECODE_FALLBACK', value: 'false' }, { name: 'DYN_ENFORCE_DISAGG', value: 'true' }]);
        expect(epp.eppConfig).toBeUndefined();
      });

      test('typed overrides epp.image and epp.replicas configure the Epp', () => {
        const epp = serviceOf(agg({ spec: { provider: { name: 'dynamo', overrides: { epp: { image: 'example.com/epp:1.2.0', replicas: 2 } } } } }), 'Epp');
        expect([epp.image, epp.replicas]).toEqual(['example.com/epp:1.2.0', 2]);
      });

      test('aggregated workers carry a direct-routing frontend sidecar with the HF secret', () => {
        const w = serviceOf(agg({ spec: { secrets: { huggingFaceToken: HF_SECRET } } }), 'VllmWorker');
        expect(w.sidecar).toEqual({ image: VLLM_IMAGE, args: ['-m', 'dynamo.frontend', '--router-mode', 'direct'], envFromSecret: HF_SECRET });
        expect(w.envFromSecret).toBe(HF_SECRET);
      });

      test('disaggregated workers carry a frontend sidecar without router mode', () => {
        const view = viewOf(disaggregatedDeployment());
        for (const name of ['VllmPrefillWorker', 'VllmDecodeWorker']) {
          expect(view.service(name).sidecar).toEqual({ image: VLLM_IMAGE, args: ['-m', 'dynamo.frontend'] });
        }
      });

      test('quirk fixed: the frontend sidecar runs the worker image, not always the vLLM runtime', () => {
        expect(serviceOf(agg({ spec: { engine: { type: 'sglang' } } }), 'VllmWorker').sidecar?.image).toBe(SGLANG_IMAGE);
        expect(serviceOf(agg({ spec: { engine: { type: 'trtllm' } } }), 'VllmWorker').sidecar?.image).toBe(TRTLLM_IMAGE);
        expect(serviceOf(agg({ spec: { engine: { image: 'example.com/dynamo-vllm:1.1.1-custom' } } }), 'VllmWorker').sidecar?.image)
          .toBe('example.com/dynamo-vllm:1.1.1-custom');
      });
    });

    describe('gateway off: Frontend service', () => {
      test('a Frontend service routes round-robin with 2 CPUs and 4Gi requested', () => {
        const view = viewOf(noGateway({ spec: { secrets: { huggingFaceToken: HF_SECRET } } }));
        expect(view.names).toEqual(['Frontend', 'VllmWorker']);
        const f = view.service('Frontend');
        expect(f).toMatchObject({ type: 'frontend', replicas: 1, envFromSecret: HF_SECRET });
        expect(f.env).toEqual([{ name: 'DYN_ROUTER_MODE', value: 'round-robin' }]);
        expect(f.resources).toEqual({ requests: { cpu: '2', memory: '4Gi' } });
        expect(f.command).toBeUndefined();
        expect(f.args).toBeUndefined();
        expect(f.mounts).toEqual([]);
        expect(view.service('VllmWorker').sidecar).toBeUndefined();
      });

      test('quirk kept: the Frontend runs the worker image (one Dynamo release for router and workers)', () => {
        expect(serviceOf(noGateway(), 'Frontend').image).toBe(VLLM_IMAGE);
        expect(serviceOf(noGateway({ spec: { engine: { type: 'sglang' } } }), 'Frontend').image).toBe(SGLANG_IMAGE);
        expect(serviceOf(noGateway({ spec: { image: 'example.com/worker:1.1.1' } }), 'Frontend').image).toBe('example.com/worker:1.1.1');
      });

      test('typed overrides routerMode and frontend.* configure the Frontend', () => {
        const f = serviceOf(noGateway({
          spec: { provider: { name: 'dynamo', overrides: { routerMode: 'kv', frontend: { replicas: 3, resources: { cpu: '4', memory: '8Gi' } } } } },
        }), 'Frontend');
        expect(f.env).toEqual([{ name: 'DYN_ROUTER_MODE', value: 'kv' }]);
        expect([f.replicas, f.resources]).toEqual([3, { requests: { cpu: '4', memory: '8Gi' } }]);
      });

      test('warns that typed overrides of the other front service are unused', () => {
        const gateway = synth(agg({ spec: { provider: { name: 'dynamo', overrides: { routerMode: 'kv' } } } }));
        expect(Warnings.collect(gateway.chart).map((w) => w.message)).toEqual([
          'overrides routerMode and frontend.* configure the Frontend service, which a deployment with the gateway enabled does not have (its workers carry frontend sidecars)',
        ]);
        const noGw = synth(noGateway({ spec: { provider: { name: 'dynamo', overrides: { epp: { image: 'example.com/epp:1.0.0' } } } } }));
        expect(Warnings.collect(noGw.chart).map((w) => w.message)).toEqual([
          'overrides epp.* configure the Epp service, which a deployment without the gateway does not have',
        ]);
      });
    });

    describe('mocker mode', () => {
      test('forces the gateway off and fakes the workers on the planner image without GPUs', () => {
        const view = viewOf(mockerDeployment({ spec: { gateway: { enabled: true }, model: { servedName: 'qwen3' }, engine: { image: 'example.com/ignored:1.0.0' } } }));
        expect(view.names).toEqual(['Frontend', 'VllmWorker']);
        const w = view.service('VllmWorker');
        expect(w.image).toBe(MOCKER_IMAGE);
        expect(w.command).toEqual(['python3', '-m', 'dynamo.mocker']);
        expect(w.args).toEqual([
          '--model-path', 'Qwen/Qwen3-0.6B', '--model-name', 'qwen3', '--speedup-ratio', '1000.0',
          '--num-gpu-blocks-override', '4096', '--block-size', '16', '--max-num-seqs', '64',
        ]);
        expect(w.resources).toEqual({ limits: { cpu: '100m', memory: '256Mi' }, requests: { cpu: '100m', memory: '256Mi' } });
        expect(w.sidecar).toBeUndefined();
        const f = view.service('Frontend');
        expect([f.image, f.resources]).toEqual([MOCKER_IMAGE, { requests: { cpu: '100m', memory: '256Mi' } }]);
      });

      test('the model name defaults to the model id', () => {
        expect(serviceOf(mockerDeployment(), 'VllmWorker').args?.slice(0, 4)).toEqual(['--model-path', 'Qwen/Qwen3-0.6B', '--model-name', 'Qwen/Qwen3-0.6B']);
      });

      test('disaggregated mocker workers add the disaggregation mode and the NIXL host, no KV transfer config', () => {
        const md = mockerDeployment({
          spec: { serving: { mode: 'disaggregated' }, scaling: { prefill: { replicas: 1 }, decode: { replicas: 2 } } },
        });
        const view = viewOf(md);
        const decode = view.service('VllmDecodeWorker');
        expect(decode.args?.slice(-2)).toEqual(['--disaggregation-mode', 'decode']);
        expect(decode.args).not.toContain('--kv-transfer-config');
        expect(decode.env).toEqual([{ name: 'VLLM_NIXL_SIDE_CHANNEL_HOST', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }]);
        expect([decode.replicas, decode.resources]).toEqual([2, { limits: { cpu: '100m', memory: '256Mi' }, requests: { cpu: '100m', memory: '256Mi' } }]);
      });

      test('keeps secrets, scheduling and storage on mocker workers', () => {
        const w = serviceOf(mockerDeployment({
          spec: {
            secrets: { huggingFaceToken: HF_SECRET },
            nodeSelector: { pool: 'cpu' },
            model: { storage: { volumes: [{ name: 'cache', purpose: 'modelCache', claimName: 'cache', mountPath: '/model-cache' }] } },
          },
        }), 'VllmWorker');
        expect([w.envFromSecret, w.nodeSelector, w.mounts.map((m) => m.claim), w.env]).toEqual([
          HF_SECRET, { pool: 'cpu' }, ['cache'], [{ name: 'HF_HOME', value: '/model-cache' }],
        ]);
      });
    });

    describe('GPU types and the GPU taint toleration', () => {
      const taint = (key: string) => ({ key, operator: 'Exists', effect: 'NoSchedule' });
      const tolerating = { [TOLERATE_GPU_TAINT_ANNOTATION]: 'true' };

      test.each(['amd.com/gpu', 'nvidia.com/mig-1g.10gb', 'gpu.intel.com/i915'])('requests %s GPUs, equal in limits and requests', (type) => {
        const w = serviceOf(agg({ spec: { resources: { gpu: { count: 2, type }, memory: '64Gi' } } }), 'VllmWorker');
        expect(w.resources).toEqual({ limits: { [type]: '2', memory: '64Gi' }, requests: { [type]: '2' } });
      });

      test('requests each component\'s GPU type in disaggregated mode', () => {
        const view = viewOf(disaggregatedDeployment({
          spec: {
            scaling: {
              prefill: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/mig-3g.40gb' } },
              decode: { replicas: 2, gpu: { count: 2, type: 'nvidia.com/gpu' } },
            },
          },
        }));
        expect(view.service('VllmPrefillWorker').resources).toEqual({ limits: { 'nvidia.com/mig-3g.40gb': '1' }, requests: { 'nvidia.com/mig-3g.40gb': '1' } });
        expect(view.service('VllmDecodeWorker').resources).toEqual({ limits: { 'nvidia.com/gpu': '2' }, requests: { 'nvidia.com/gpu': '2' } });
      });

      test('tolerates the GPU taint on the GPU workers only, when asked', () => {
        const view = viewOf(disaggregatedDeployment({
          annotations: tolerating,
          spec: {
            scaling: {
              prefill: { replicas: 1, gpu: { count: 1, type: 'amd.com/gpu' } },
              decode: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/mig-1g.10gb' } },
            },
          },
        }));
        expect(view.service('VllmPrefillWorker').tolerations).toEqual([taint('amd.com/gpu')]);
        expect(view.service('VllmDecodeWorker').tolerations).toEqual([taint('nvidia.com/gpu')]);
        expect(view.service('Epp').tolerations).toBeUndefined();
        expect(viewOf(noGateway({ annotations: tolerating })).service('Frontend').tolerations).toBeUndefined();
      });

      test('tolerates the taint by default, and adds none when the annotation is "false"', () => {
        expect(serviceOf(agg({ annotations: { [TOLERATE_GPU_TAINT_ANNOTATION]: 'false' } }), 'VllmWorker').tolerations).toBeUndefined();
        expect(serviceOf(agg(), 'VllmWorker').tolerations).toEqual([taint('nvidia.com/gpu')]);
      });

      test('keeps spec.tolerations first and does not repeat one that already covers the taint', () => {
        const user = [{ key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoExecute' }];
        expect(serviceOf(agg({ annotations: tolerating, spec: { tolerations: user } }), 'VllmWorker').tolerations).toEqual([...user, taint('nvidia.com/gpu')]);
        const covering = [taint('nvidia.com/gpu')];
        expect(serviceOf(agg({ annotations: tolerating, spec: { tolerations: covering } }), 'VllmWorker').tolerations).toEqual(covering);
      });

      test('mocker workers request no GPUs, so they get no GPU toleration', () => {
        expect(serviceOf(mockerDeployment({ annotations: tolerating }), 'VllmWorker').tolerations).toBeUndefined();
      });
    });

    describe('images', () => {
      test('precedence: spec.engine.image, then spec.image, then the engine runtime', () => {
        expect(serviceOf(agg({ spec: { engine: { image: 'example.com/a:1.0.0' }, image: 'example.com/a:1.0.0' } }), 'VllmWorker').image).toBe('example.com/a:1.0.0');
        expect(serviceOf(agg({ spec: { image: 'example.com/b:2.0.0' } }), 'VllmWorker').image).toBe('example.com/b:2.0.0');
        expect(serviceOf(agg({ spec: { engine: { type: 'sglang' } } }), 'VllmWorker').image).toBe(SGLANG_IMAGE);
      });

      test('a translator tags the default images with its Dynamo version', () => {
        const view = graphView(dgdOf(synth(agg(), { dynamoVersion: '1.2.0' }).manifests));
        expect(view.service('VllmWorker').image).toBe('nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.2.0');
        expect(view.service('Epp').image).toBe('nvcr.io/nvidia/ai-dynamo/dynamo-frontend:1.2.0');
        expect(dynamoImages('1.2.0').mocker).toBe('nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.2.0');
      });

      test('a custom image without a semantic-version tag gets the runtime version as runtimeVersionOverride', () => {
        const view = viewOf(agg({ spec: { engine: { image: 'example.com/vllm:latest' }, gateway: { enabled: false } } }));
        // The Frontend runs the worker image too; the tagged Epp of the gateway case needs none.
        expect([view.service('VllmWorker').runtimeVersionOverride, view.service('Frontend').runtimeVersionOverride]).toEqual(['1.6.1', '1.6.1']);
        const digestOnly = viewOf(agg({ spec: { image: 'example.com/vllm@sha256:0123' } }));
        expect([digestOnly.service('VllmWorker').runtimeVersionOverride, digestOnly.service('Epp').runtimeVersionOverride]).toEqual(['1.6.1', undefined]);
        expect(viewOf(agg({ spec: { image: 'example.com/vllm:1.6.0-custom' } })).service('VllmWorker').runtimeVersionOverride).toBeUndefined();
        expect(viewOf(agg()).service('VllmWorker').runtimeVersionOverride).toBeUndefined();
        expect(Warnings.collect(synth(agg({ spec: { engine: { image: 'example.com/vllm:latest' } } })).chart)).toEqual([]);
      });

      test('an epp.image without a semantic-version tag gets runtimeVersionOverride too', () => {
        const epp = serviceOf(agg({ spec: { provider: { name: 'dynamo', overrides: { epp: { image: 'example.com/epp:main' } } } } }), 'Epp');
        expect(epp.runtimeVersionOverride).toBe('1.6.1');
      });

      test('warns when neither the image tag nor dynamoVersion is a version, and no runtimeVersionOverride is set', () => {
        const { chart } = synth(agg(), { dynamoVersion: 'nightly' });
        expect(Warnings.collect(chart).map((w) => w.message)).toEqual(['Epp', 'VllmWorker'].map((name) =>
          `image "nvcr.io/nvidia/ai-dynamo/${name === 'Epp' ? 'dynamo-frontend' : 'vllm-runtime'}:nightly" of service ${name} has no semantic-version tag, ` +
          'nor has dynamoVersion "nightly"; Dynamo 1.5+ admission then requires runtimeVersionOverride (set it through spec.provider.overrides)'));
        const overridden = version.apiVersion === 'nvidia.com/v1alpha1'
          ? { spec: { services: { VllmWorker: { runtimeVersionOverride: '1.6.1' } } } }
          : { spec: { components: { VllmWorker: { runtimeVersionOverride: '1.6.1' } } } };
        const withOverride = synth(agg({ spec: { provider: { name: 'dynamo', overrides: overridden } } }), { dynamoVersion: 'nightly' });
        expect(Warnings.collect(withOverride.chart)).toEqual([]);
        expect(graphView(dgdOf(withOverride.manifests)).service('VllmWorker').runtimeVersionOverride).toBe('1.6.1');
      });
    });

    describe('secrets and scheduling', () => {
      test('the Hugging Face secret is exposed to workers and the Frontend', () => {
        const view = viewOf(noGateway({ spec: { secrets: { huggingFaceToken: HF_SECRET } } }));
        expect(view.service('VllmWorker').envFromSecret).toBe(HF_SECRET);
        expect(view.service('Frontend').envFromSecret).toBe(HF_SECRET);
        expect(viewOf(agg()).service('VllmWorker').envFromSecret).toBeUndefined();
      });

      test('nodeSelector and tolerations go to the workers only', () => {
        const tolerations = [
          { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
          { key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoExecute', tolerationSeconds: 60 },
        ];
        const view = viewOf(disaggregatedDeployment({ spec: { nodeSelector: { pool: 'a100' }, tolerations } }));
        for (const name of ['VllmPrefillWorker', 'VllmDecodeWorker']) {
          expect(view.service(name).nodeSelector).toEqual({ pool: 'a100' });
          expect(view.service(name).tolerations).toEqual(tolerations);
        }
        expect(view.service('Epp').nodeSelector).toBeUndefined();
        expect(view.service('Epp').tolerations).toBeUndefined();
      });

      test('pod-template labels and annotations reach every service\'s pods', () => {
        const podTemplate = { metadata: { labels: { team: 'ml' }, annotations: { 'prometheus.io/scrape': 'true' } } };
        const view = viewOf(disaggregatedDeployment({ spec: { podTemplate } }));
        for (const name of view.names) expect(view.service(name).podMetadata).toEqual(podTemplate.metadata);
        expect(viewOf(noGateway({ spec: { podTemplate: { metadata: { labels: { team: 'ml' } } } } })).service('Frontend').podMetadata).toEqual({ labels: { team: 'ml' } });
      });

      test('quirk fixed: spec.env becomes the graph-wide env', () => {
        const env = [
          { name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' },
          { name: 'API_KEY', valueFrom: { secretKeyRef: { name: 'keys', key: 'api' } } },
        ];
        const view = viewOf(agg({ spec: { env } }));
        expect(view.env).toEqual(env);
        expect(view.service('VllmWorker').env).toBeUndefined();
        expect(viewOf(agg()).env).toBeUndefined();
      });
    });

    describe('storage', () => {
      const managedCache = { name: 'model-cache', purpose: 'modelCache' as const, size: '100Gi', accessMode: 'ReadWriteMany' as const, claimName: 'qwen-model-cache', mountPath: '/model-cache' };

      test('synthesizes the managed PVC and the download Job alongside, with the DGD labels', () => {
        const { returned, manifests } = synth(agg({ spec: { model: { storage: { volumes: [{ ...managedCache, storageClassName: 'fast' }] } }, secrets: { huggingFaceToken: HF_SECRET } } }));
        expect(returned.map((o) => [o.node.id, o.kind, o.name])).toEqual([
          ['DynamoGraphDeployment', 'DynamoGraphDeployment', 'qwen'],
          ['ClaimModelCache', 'PersistentVolumeClaim', 'qwen-model-cache'],
          ['ModelDownload', 'Job', 'qwen-model-download'],
        ]);
        expect(returned[1]).toBeInstanceOf(k8s.KubePersistentVolumeClaim);
        const pvc = find(manifests, 'PersistentVolumeClaim', 'qwen-model-cache');
        expect(pvc.spec).toEqual({ accessModes: ['ReadWriteMany'], resources: { requests: { storage: '100Gi' } }, storageClassName: 'fast' });
        const labels = dgdOf(manifests).metadata.labels;
        expect(pvc.metadata.labels).toEqual(labels);
        const job = find(manifests, 'Job', 'qwen-model-download');
        expect(job.metadata.labels).toEqual({ ...labels, 'airunway.ai/job-type': 'model-download' });
        const container = job.spec.template.spec.containers[0];
        expect([container.image, container.args, container.env, container.envFrom]).toEqual([
          'ghcr.io/ai-runway/airunway/model-downloader:0.3.0',
          ['download', 'Qwen/Qwen3-0.6B'],
          [{ name: 'HF_HOME', value: '/model-cache' }, { name: 'HOME', value: '/tmp' }],
          [{ secretRef: { name: HF_SECRET } }],
        ]);
        expect(job.spec.template.spec.volumes).toEqual([{ name: 'model-cache', persistentVolumeClaim: { claimName: 'qwen-model-cache' } }, { name: 'tmp', emptyDir: {} }]);
        for (const m of manifests) expect(m.metadata.ownerReferences).toBeUndefined();
      });

      test('declares and mounts every claim, points HF_HOME at the model cache and marks the compilation cache', () => {
        const view = viewOf(agg({
          spec: {
            model: {
              storage: {
                volumes: [
                  managedCache,
                  { name: 'compile', purpose: 'compilationCache', claimName: 'shared-compile', mountPath: '/compilation-cache' },
                  { name: 'data', purpose: 'custom', claimName: 'datasets', mountPath: '/data', readOnly: true },
                ],
              },
            },
          },
        }));
        expect(view.claims).toEqual(['datasets', 'qwen-model-cache', 'shared-compile']);
        const w = view.service('VllmWorker');
        expect(w.mounts).toEqual([
          { claim: 'datasets', mountPath: '/data', readOnly: true, compilationCache: false },
          { claim: 'qwen-model-cache', mountPath: '/model-cache', readOnly: false, compilationCache: false },
          { claim: 'shared-compile', mountPath: '/compilation-cache', readOnly: false, compilationCache: true },
        ]);
        expect(w.env).toEqual([{ name: 'HF_HOME', value: '/model-cache' }]);
        expect(view.service('Epp').mounts).toEqual([]);
      });

      test('v1alpha1 volumeMounts cannot say read-only, so a read-only claim is mounted through extraPodSpec', () => {
        const dgd = dgdOf(manifestsOf(agg({ spec: { model: { storage: { volumes: [{ name: 'data', purpose: 'custom', claimName: 'datasets', mountPath: '/data', readOnly: true }] } } } })));
        if (version.apiVersion !== 'nvidia.com/v1alpha1') {
          const pod = dgd.spec.components.find((c: any) => c.name === 'VllmWorker').podTemplate.spec;
          expect(pod.volumes).toEqual([{ name: 'datasets', persistentVolumeClaim: { claimName: 'datasets', readOnly: true } }]);
          return;
        }
        const worker = dgd.spec.services.VllmWorker;
        expect(worker.volumeMounts).toBeUndefined();
        expect(worker.extraPodSpec.volumes).toEqual([{ name: 'datasets', persistentVolumeClaim: { claimName: 'datasets', readOnly: true } }]);
        expect(worker.extraPodSpec.mainContainer.volumeMounts).toEqual([{ name: 'datasets', mountPath: '/data', readOnly: true }]);
        expect(dgd.spec.pvcs).toEqual([{ name: 'datasets', create: false }]);
        // AI Runway's shape: a readOnly flag Dynamo's schema does not have (dropped by the API server).
        const aiRunway = { ...dgd, spec: { ...dgd.spec, services: { VllmWorker: { ...worker, volumeMounts: [{ name: 'datasets', mountPoint: '/data', readOnly: true }] } } } };
        expect(() => expectValidManifests([aiRunway])).toThrow('readOnly');
      });

      test('mounts storage on both disaggregated workers, HF_HOME before the NIXL host', () => {
        const view = viewOf(disaggregatedDeployment({ spec: { model: { storage: { volumes: [managedCache] } } } }));
        for (const name of ['VllmPrefillWorker', 'VllmDecodeWorker']) {
          const w = view.service(name);
          expect(w.mounts.map((m) => m.claim)).toEqual(['qwen-model-cache']);
          expect(w.env?.map((e) => e.name)).toEqual(['HF_HOME', 'VLLM_NIXL_SIDE_CHANNEL_HOST']);
        }
      });

      test('a read-only compilation cache is mounted read-only, not as Dynamo\'s compilation cache', () => {
        const w = serviceOf(agg({ spec: { model: { storage: { volumes: [{ name: 'cc', purpose: 'compilationCache', claimName: 'cc', mountPath: '/cc', readOnly: true }] } } } }), 'VllmWorker');
        expect(w.mounts).toEqual([{ claim: 'cc', mountPath: '/cc', readOnly: true, compilationCache: false }]);
      });

      test('does not set HF_HOME when spec.env sets it (the graph-wide value applies)', () => {
        const view = viewOf(agg({ spec: { env: [{ name: 'HF_HOME', value: '/hf' }], model: { storage: { volumes: [managedCache] } } } }));
        expect(view.service('VllmWorker').env).toBeUndefined();
        expect(view.env).toEqual([{ name: 'HF_HOME', value: '/hf' }]);
      });

      test('references a pre-existing claim without synthesizing it, but still downloads into it', () => {
        const { manifests } = synth(agg({ spec: { model: { storage: { volumes: [{ name: 'cache', purpose: 'modelCache', claimName: 'shared', mountPath: '/model-cache' }] } } } }));
        expect(manifests.map((m) => m.kind)).toEqual(['DynamoGraphDeployment', 'Job']);
        expect(graphView(dgdOf(manifests)).claims).toEqual(['shared']);
        expect(find(manifests, 'Job', 'qwen-model-download').spec.template.spec.volumes[0].persistentVolumeClaim.claimName).toBe('shared');
      });

      test('no download Job for a read-only model cache or a custom model', () => {
        const readOnly = { name: 'cache', purpose: 'modelCache' as const, claimName: 'shared', mountPath: '/model-cache', readOnly: true };
        expect(manifestsOf(agg({ spec: { model: { storage: { volumes: [readOnly] } } } })).map((m) => m.kind)).toEqual(['DynamoGraphDeployment']);
        expect(manifestsOf(agg({ spec: { model: { source: 'custom', storage: { volumes: [managedCache] } } } })).map((m) => m.kind))
          .toEqual(['DynamoGraphDeployment', 'PersistentVolumeClaim']);
      });

      test('a translator uses its download image', () => {
        const { manifests } = synth(agg({ spec: { model: { storage: { volumes: [managedCache] } } } }), { modelDownloadImage: 'example.com/downloader:2' });
        expect(find(manifests, 'Job', 'qwen-model-download').spec.template.spec.containers[0].image).toBe('example.com/downloader:2');
      });

      test('the provider\'s download Job TTL reaches the Job (a day by default)', () => {
        const cached = agg({ spec: { model: { storage: { volumes: [managedCache] } } } });
        expect(find(synth(cached).manifests, 'Job', 'qwen-model-download').spec.ttlSecondsAfterFinished).toBe(86400);
        const twoHours = synthesize(translatorOf(new DynamoProvider({ modelDownloadJobTtl: Duration.hours(2) })), cached);
        expect(find(twoHours.manifests, 'Job', 'qwen-model-download').spec.ttlSecondsAfterFinished).toBe(7200);
      });
    });

    describe('overrides', () => {
      const withOverrides = (overrides: Record<string, unknown>, options: FixtureOptions = {}) =>
        agg({ ...options, spec: { ...options.spec, provider: { name: 'dynamo', overrides } } });

      test('multi-node through overrides: the worker spans nodeCount nodes (AI Runway e2e fixture)', () => {
        const { manifests } = synth(multinodeDeployment(version.multinodeOverride(2)));
        const view = graphView(dgdOf(manifests));
        const w = view.service('VllmWorker');
        expect(w.multinode).toEqual({ nodeCount: 2 });
        expect(w.args).toEqual(['--model', 'Qwen/Qwen2.5-72B-Instruct', '--max-model-len', '4096', '--enable-prefix-caching', '--tensor-parallel-size', '2']);
        expect(w.resources).toEqual({ limits: { 'nvidia.com/gpu': '2' }, requests: { 'nvidia.com/gpu': '2' } });
        expect(view.claims).toEqual(['shared-amlfs-storage']);
        expect(manifests.map((m) => `${m.kind}/${m.metadata.name}`)).toEqual([
          'DynamoGraphDeployment/qwen25-72b-multinode',
          'Job/qwen25-72b-multinode-model-download',
        ]);
      });

      test('maps merge into the generated service, other values replace', () => {
        const nodeSelector = { pool: 'override' };
        const overrides = version.apiVersion === 'nvidia.com/v1alpha1'
          ? { spec: { services: { VllmWorker: { extraPodSpec: { nodeSelector, mainContainer: { args: ['--model', 'x'] } } } } } }
          : { spec: { components: { VllmWorker: { podTemplate: { spec: { nodeSelector } } } } } };
        const w = serviceOf(withOverrides(overrides, { spec: { nodeSelector: { zone: 'a' } } }), 'VllmWorker');
        expect(w.nodeSelector).toEqual({ zone: 'a', pool: 'override' });
        expect(w.image).toBe(VLLM_IMAGE);
        if (version.apiVersion === 'nvidia.com/v1alpha1') expect(w.args).toEqual(['--model', 'x']);
      });

      test('a null value removes the key', () => {
        const overrides = version.apiVersion === 'nvidia.com/v1alpha1'
          ? { spec: { services: { VllmWorker: { envFromSecret: null } } } }
          : { spec: { components: { VllmWorker: { frontendSidecar: null } } } };
        const dgd = dgdOf(manifestsOf(withOverrides(overrides, { spec: { secrets: { huggingFaceToken: HF_SECRET } } })));
        const raw = version.apiVersion === 'nvidia.com/v1alpha1' ? dgd.spec.services.VllmWorker : dgd.spec.components.find((c: any) => c.name === 'VllmWorker');
        const removed = version.apiVersion === 'nvidia.com/v1alpha1' ? 'envFromSecret' : 'frontendSidecar';
        expect(removed in raw).toBe(false);
      });

      test('graph-level fields merge into spec', () => {
        const dgd = dgdOf(manifestsOf(withOverrides({ spec: { annotations: { 'nvidia.com/enable-grove': 'false' }, priorityClassName: 'high' } })));
        expect(dgd.spec).toMatchObject({ annotations: { 'nvidia.com/enable-grove': 'false' }, priorityClassName: 'high', backendFramework: 'vllm' });
      });

      test('quirk fixed: typed keys configure services and do not leak into the DGD root', () => {
        const dgd = dgdOf(manifestsOf(withOverrides({ routerMode: 'kv', frontend: { replicas: 2 }, epp: { image: 'example.com/epp:1.0.0' } })));
        expect(Object.keys(dgd).sort()).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
        // What AI Runway emitted: root fields the schema does not know (the API server drops them).
        expect(() => expectValidManifests([{ ...dgd, routerMode: 'kv' }])).toThrow('routerMode');
      });

      test('are applied after JSON patches', () => {
        const chart = Testing.chart();
        const [dgd] = dynamoWith(version.options).translate(chart, withOverrides({ spec: { priorityClassName: 'high' } }));
        dgd.addJsonPatch(JsonPatch.add('/spec/priorityClassName', 'low'));
        expect(Testing.synth(chart)[0].spec.priorityClassName).toBe('high');
      });
    });
  });

  describe('API version selection', () => {
    const annotated = (value: string) => dynamoDeployment({ annotations: { [DYNAMO_API_VERSION_ANNOTATION]: value } });

    test('v1beta1 by default: the default runtime is Dynamo 1.6.1', () => {
      expect(dynamoApiVersionOf(dynamoDeployment())).toBe('nvidia.com/v1beta1');
      expect(dgdOf(synthWith({}, dynamoDeployment(), {}).manifests).apiVersion).toBe('nvidia.com/v1beta1');
    });

    test('by the runtime version without a choice: v1beta1 from 1.5.0, v1alpha1 below, v1beta1 for a tag that is no version', () => {
      const versionFor = (dynamoVersion: string) => dynamoApiVersionOf(dynamoDeployment(), { dynamoVersion });
      expect(['1.5.0', '1.6.1', '2.0.0', 'v1.5.0-cuda13', 'latest'].map(versionFor)).toEqual(Array(5).fill('nvidia.com/v1beta1'));
      expect(['1.4.9', '1.1.1', '0.9.0', 'v1.4.0'].map(versionFor)).toEqual(Array(4).fill('nvidia.com/v1alpha1'));
      const old = dgdOf(synthWith({}, dynamoDeployment(), { dynamoVersion: '1.4.0' }).manifests);
      expect([old.apiVersion, old.spec.services.VllmWorker.extraPodSpec.mainContainer.image]).toEqual(['nvidia.com/v1alpha1', 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0']);
    });

    test('the registry-wide option applies to deployments without the annotation', () => {
      expect(dynamoApiVersionOf(dynamoDeployment(), { apiVersion: 'nvidia.com/v1alpha1' })).toBe('nvidia.com/v1alpha1');
      expect(dynamoApiVersionOf(dynamoDeployment(), { apiVersion: 'nvidia.com/v1beta1', dynamoVersion: '1.5.0' })).toBe('nvidia.com/v1beta1');
      // v1alpha1 may be asked for with any runtime (Dynamo 1.5+ still serves it, deprecated).
      expect(dynamoApiVersionOf(dynamoDeployment(), { apiVersion: 'nvidia.com/v1alpha1', dynamoVersion: '1.6.1' })).toBe('nvidia.com/v1alpha1');
    });

    test('v1beta1 asked for with a runtime before 1.5.0 is an error naming both', () => {
      expect(() => new DynamoProvider({ apiVersion: DynamoApiVersion.V1BETA1, dynamoVersion: '1.4.2' })).toThrow(
        'invalid DynamoProvider props:\napiVersion: Invalid value: "nvidia.com/v1beta1": nvidia.com/v1beta1 needs a Dynamo runtime of 1.5.0 or later, ' +
        'and dynamoVersion is "1.4.2": use nvidia.com/v1alpha1, or a dynamoVersion of 1.5.0 or later');
      expect(errorsOf(annotated('nvidia.com/v1beta1'), { dynamoVersion: '1.1.1' })).toEqual([
        'metadata.annotations["inference.cdk8s.io/dynamo-api-version"]: Invalid value: "nvidia.com/v1beta1": nvidia.com/v1beta1 needs a Dynamo runtime ' +
          'of 1.5.0 or later, and dynamoVersion is "1.1.1": use nvidia.com/v1alpha1, or a dynamoVersion of 1.5.0 or later',
      ]);
      expect(errorsOf(annotated('nvidia.com/v1beta1'), { dynamoVersion: '1.5.0' })).toEqual([]);
      expect(errorsOf(annotated('nvidia.com/v1alpha1'), { dynamoVersion: '1.1.1' })).toEqual([]);
    });

    test('the record carries the version when the settings chose it or made it differ from the default settings\' choice', () => {
      const record = (props: ConstructorParameters<typeof DynamoProvider>[0]) =>
        new DynamoProvider(props).recordAnnotations(toResolvedDeployment(dynamoDeployment()));
      expect(record({})).toEqual({});
      expect(record({ dynamoVersion: '1.5.0' })).toEqual({});
      expect(record({ dynamoVersion: '1.4.0' })).toEqual({ [DYNAMO_API_VERSION_ANNOTATION]: 'nvidia.com/v1alpha1' });
      expect(record({ apiVersion: DynamoApiVersion.V1BETA1 })).toEqual({ [DYNAMO_API_VERSION_ANNOTATION]: 'nvidia.com/v1beta1' });
      expect(new DynamoProvider({ dynamoVersion: '1.4.0' }).recordAnnotations(toResolvedDeployment(annotated('nvidia.com/v1alpha1')))).toEqual({});
    });

    test('the annotation wins over the registry-wide option, in both directions', () => {
      const beta = synthWith({}, annotated('nvidia.com/v1beta1'), { apiVersion: 'nvidia.com/v1alpha1' });
      expect(dgdOf(beta.manifests).apiVersion).toBe('nvidia.com/v1beta1');
      const alpha = synthWith({}, annotated('nvidia.com/v1alpha1'), { apiVersion: 'nvidia.com/v1beta1' });
      expect(dgdOf(alpha.manifests).apiVersion).toBe('nvidia.com/v1alpha1');
    });

    test('both versions describe the same deployment', () => {
      const md = (annotation: string) => disaggregatedDeployment({
        annotations: { [DYNAMO_API_VERSION_ANNOTATION]: annotation },
        spec: {
          secrets: { huggingFaceToken: HF_SECRET },
          nodeSelector: { pool: 'a100' },
          model: { storage: { volumes: [{ name: 'cache', purpose: 'modelCache', size: '10Gi', claimName: 'qwen-cache', mountPath: '/model-cache' }] } },
        },
      });
      const alpha = graphView(dgdOf(synthWith({}, md('nvidia.com/v1alpha1'), {}).manifests));
      const beta = graphView(dgdOf(synthWith({}, md('nvidia.com/v1beta1'), {}).manifests));
      expect(beta.names).toEqual(alpha.names);
      expect(beta.claims).toEqual(alpha.claims);
      for (const name of alpha.names) expect(beta.service(name)).toEqual(alpha.service(name));
    });

    test('fails when the annotation names no supported version', () => {
      expect(errorsOf(annotated('nvidia.com/v2'))).toEqual([
        'metadata.annotations["inference.cdk8s.io/dynamo-api-version"]: Unsupported value: "nvidia.com/v2": supported values: "nvidia.com/v1alpha1", "nvidia.com/v1beta1"',
      ]);
    });

    test('fails when (default) v1beta1 meets overrides in the v1alpha1 shape', () => {
      const md = dynamoDeployment({ spec: { provider: { name: 'dynamo', overrides: { spec: { services: { VllmWorker: { multinode: { nodeCount: 2 } } } } } } } });
      expect(validateDynamo(md, { apiVersion: 'nvidia.com/v1alpha1' })).toEqual([]);
      expect(errorsOf(md)).toEqual([
        'spec.provider.overrides.spec.services: Forbidden: this deployment emits nvidia.com/v1beta1, which has no spec.services: ' +
          'components are a list under spec.components; override one as spec.components.<name>',
      ]);
    });
  });

  describe('runtimes before Dynamo 1.5: the Go endpoint picker and its eppConfig', () => {
    const legacy: TranslationOptions = { dynamoVersion: '1.4.0' };
    const eppOf = (md: ResolvedModelDeployment, settings: TranslationOptions) => graphView(dgdOf(synthWith({}, md, settings).manifests)).service('Epp');

    test('the aggregated Epp scores decode only, admitting unlabelled (aggregated) workers', () => {
      const epp = eppOf(dynamoDeployment(), legacy);
      expect(epp.image).toBe('nvcr.io/nvidia/ai-dynamo/dynamo-frontend:1.4.0');
      expect(epp.eppConfig).toEqual({
        plugins: [
          { type: 'disagg-profile-handler' },
          { name: 'decode-filter', type: 'label-filter', parameters: { label: 'nvidia.com/dynamo-sub-component-type', validValues: ['decode'], allowsNoLabel: true } },
          { name: 'picker', type: 'max-score-picker' },
          { name: 'dyn-decode', type: 'dyn-decode-scorer' },
        ],
        schedulingProfiles: [
          { name: 'decode', plugins: [{ pluginRef: 'decode-filter', weight: 1 }, { pluginRef: 'dyn-decode', weight: 1 }, { pluginRef: 'picker', weight: 1 }] },
        ],
      });
    });

    test('the disaggregated Epp has prefill and decode profiles', () => {
      const epp = eppOf(disaggregatedDeployment(), legacy);
      expect(epp.eppConfig).toEqual({
        plugins: [
          { type: 'disagg-profile-handler' },
          { name: 'prefill-filter', type: 'label-filter', parameters: { label: 'nvidia.com/dynamo-sub-component-type', validValues: ['prefill'], allowsNoLabel: false } },
          { name: 'decode-filter', type: 'label-filter', parameters: { label: 'nvidia.com/dynamo-sub-component-type', validValues: ['decode'], allowsNoLabel: false } },
          { name: 'picker', type: 'max-score-picker' },
          { name: 'dyn-prefill', type: 'dyn-prefill-scorer' },
          { name: 'dyn-decode', type: 'dyn-decode-scorer' },
        ],
        schedulingProfiles: [
          { name: 'prefill', plugins: [{ pluginRef: 'prefill-filter', weight: 1 }, { pluginRef: 'dyn-prefill', weight: 1 }, { pluginRef: 'picker', weight: 1 }] },
          { name: 'decode', plugins: [{ pluginRef: 'decode-filter', weight: 1 }, { pluginRef: 'dyn-decode', weight: 1 }, { pluginRef: 'picker', weight: 1 }] },
        ],
      });
      expect(eppConfig(true)).toEqual(epp.eppConfig);
    });

    test('eppConfig follows the runtime, not the API version: none from 1.5.0, in either version', () => {
      expect(eppOf(dynamoDeployment(), { dynamoVersion: '1.4.9' }).eppConfig).toBeDefined();
      expect(eppOf(dynamoDeployment(), { dynamoVersion: '1.5.0', apiVersion: 'nvidia.com/v1alpha1' }).eppConfig).toBeUndefined();
      expect(eppOf(dynamoDeployment(), { dynamoVersion: '1.5.0' }).eppConfig).toBeUndefined();
      expect(eppOf(dynamoDeployment(), { dynamoVersion: 'latest' }).eppConfig).toBeUndefined();
    });

    test('no runtimeVersionOverride for an image without a version tag: an operator below 1.5 neither asks for it nor may know it', () => {
      const out = synthWith({}, dynamoDeployment({ spec: { image: 'example.com/vllm:main' } }), legacy);
      const w = graphView(dgdOf(out.manifests)).service('VllmWorker');
      expect(w.runtimeVersionOverride).toBeUndefined();
      expect(JSON.stringify(out.manifests)).not.toContain('runtimeVersionOverride');
    });

    test('the v1alpha1 graph of an older runtime passes the schema', () => {
      expectValidManifests(synthWith({}, disaggregatedDeployment({ spec: { image: 'example.com/vllm:main' } }), legacy).manifests);
    });
  });

  describe('GPU types in each version\'s shape', () => {
    const amd = (annotation: string) => dynamoDeployment({
      annotations: { [DYNAMO_API_VERSION_ANNOTATION]: annotation },
      spec: { resources: { gpu: { count: 2, type: 'amd.com/gpu' } } },
    });

    test('v1alpha1 sets gpuType beside the gpu count, in limits and requests, only when it is not nvidia.com/gpu', () => {
      const services = dgdOf(synthWith({}, amd('nvidia.com/v1alpha1'), {}).manifests).spec.services;
      expect(services.VllmWorker.resources).toEqual({ limits: { gpu: '2', gpuType: 'amd.com/gpu' }, requests: { gpu: '2', gpuType: 'amd.com/gpu' } });
      const nvidia = dgdOf(synthWith({}, dynamoDeployment(), { apiVersion: 'nvidia.com/v1alpha1' }).manifests).spec.services;
      expect(nvidia.VllmWorker.resources).toEqual({ limits: { gpu: '1' }, requests: { gpu: '1' } });
    });

    test('v1beta1 requests the type as the main container\'s resource name', () => {
      const components = dgdOf(synthWith({}, amd('nvidia.com/v1beta1'), {}).manifests).spec.components;
      const worker = components.find((c: any) => c.name === 'VllmWorker');
      expect(worker.podTemplate.spec.containers[0].resources).toEqual({ limits: { 'amd.com/gpu': '2' }, requests: { 'amd.com/gpu': '2' } });
    });
  });

  describe('v1beta1 component overrides', () => {
    const beta = { apiVersion: 'nvidia.com/v1beta1' } as const;
    const withOverrides = (overrides: Record<string, unknown>) => dynamoDeployment({ spec: { provider: { name: 'dynamo', overrides } } });

    test('a list under spec.components replaces the generated list', () => {
      const components = [{ name: 'Custom', type: 'worker', podTemplate: { spec: { containers: [{ name: 'main', image: 'example.com/w:1.0.0' }] } } }];
      const dgd = dgdOf(synthWith({}, withOverrides({ spec: { components } }), beta).manifests);
      expect(dgd.spec.components).toEqual(components);
    });

    test('a component name we do not generate adds a component', () => {
      const planner = { type: 'planner', podTemplate: { spec: { containers: [{ name: 'main', image: 'example.com/planner:1.1.1' }] } } };
      const dgd = dgdOf(synthWith({}, withOverrides({ spec: { components: { Planner: planner } } }), beta).manifests);
      expect(dgd.spec.components.map((c: any) => c.name)).toEqual(['Epp', 'VllmWorker', 'Planner']);
      expect(dgd.spec.components[2]).toEqual({ name: 'Planner', ...planner });
    });

    test('null removes a generated component', () => {
      const md = dynamoDeployment({ spec: { gateway: { enabled: false }, provider: { name: 'dynamo', overrides: { spec: { components: { Frontend: null } } } } } });
      const dgd = dgdOf(synthWith({}, md, beta).manifests);
      expect(dgd.spec.components.map((c: any) => c.name)).toEqual(['VllmWorker']);
    });
  });

  describe('validate', () => {
    test('accepts aggregated and disaggregated vllm/sglang, aggregated trtllm and the mocker', () => {
      for (const engine of ['vllm', 'sglang', 'trtllm'] as const) expect(validateDynamo(dynamoDeployment({ spec: { engine: { type: engine } } }))).toEqual([]);
      expect(validateDynamo(disaggregatedDeployment())).toEqual([]);
      expect(validateDynamo(disaggregatedDeployment({ spec: { engine: { type: 'sglang' } } }))).toEqual([]);
      expect(validateDynamo(mockerDeployment())).toEqual([]);
      expect(validateDynamo(mockerDeployment({ spec: { serving: { mode: 'disaggregated' }, scaling: { prefill: {}, decode: {} } } }))).toEqual([]);
    });

    test('fails when the engine is llamacpp', () => {
      expect(validateDynamo(dynamoDeployment({ spec: { engine: { type: 'llamacpp' } } }))).toEqual([
        { path: 'spec.engine.type', kind: FieldErrorKind.INVALID, value: 'llamacpp', message: 'Dynamo does not support llamacpp engine' },
      ]);
    });

    test('fails when an aggregated deployment has no GPU', () => {
      expect(errorsOf(dynamoDeployment({ spec: { resources: { gpu: { count: 0 } } } }))).toEqual([
        'spec.resources.gpu.count: Invalid value: 0: Dynamo requires GPU (set resources.gpu.count > 0)',
      ]);
      expect(errorsOf(dynamoDeployment({ spec: { resources: { memory: '8Gi' } } }))).toEqual([
        'spec.resources.gpu.count: Required value: Dynamo requires GPU (set resources.gpu.count > 0)',
      ]);
    });

    test('fails when the disaggregated prefill component has no GPU', () => {
      const scaling = { prefill: { replicas: 1, gpu: { count: 0 } }, decode: { replicas: 1, gpu: { count: 1 } } };
      const md = disaggregatedDeployment({ spec: { scaling } });
      expect(errorsOf(md)).toEqual(['spec.scaling.prefill.gpu.count: Invalid value: 0: Dynamo requires GPU (set resources.gpu.count > 0)']);
    });

    test('fails when a disaggregated deployment has no scaling', () => {
      expect(errorsOf(disaggregatedDeployment({ spec: { scaling: undefined } }))).toEqual([
        'spec.scaling: Required value: spec.scaling is required for disaggregated serving mode',
      ]);
    });

    test('fails when a disaggregated deployment lacks the prefill or decode component', () => {
      expect(errorsOf(disaggregatedDeployment({ spec: { scaling: { decode: { replicas: 1, gpu: { count: 1 } } } } }))).toEqual([
        'spec.scaling.prefill: Required value: spec.scaling.prefill is required for disaggregated serving mode',
      ]);
      expect(errorsOf(disaggregatedDeployment({ spec: { scaling: { prefill: { replicas: 1, gpu: { count: 1 } } } } }))).toEqual([
        'spec.scaling.decode: Required value: spec.scaling.decode is required for disaggregated serving mode',
      ]);
    });

    test('fails when the mocker runs another engine than vllm', () => {
      expect(errorsOf(mockerDeployment({ spec: { engine: { type: 'sglang' } } }))).toEqual([
        'spec.engine.type: Invalid value: "sglang": Dynamo mocker mode only supports the vllm engine',
      ]);
    });

    test('fails when a disaggregated mocker lacks prefill or decode', () => {
      expect(errorsOf(mockerDeployment({ spec: { serving: { mode: 'disaggregated' }, scaling: undefined } }))).toEqual([
        'spec.scaling.prefill: Required value: Dynamo mocker disaggregated mode requires spec.scaling.prefill and spec.scaling.decode',
        'spec.scaling.decode: Required value: Dynamo mocker disaggregated mode requires spec.scaling.prefill and spec.scaling.decode',
      ]);
    });

    test('fails when an engine arg key is invalid', () => {
      const md = dynamoDeployment({ spec: { engine: { args: { '--port': '1', 'ok_key-1': 'x', 'has space': 'y', '': 'z' } } } });
      expect(errorsOf(md)).toEqual([
        'spec.engine.args.: Invalid value: "": invalid engine arg key "": must contain only alphanumeric characters, hyphens, and underscores',
        'spec.engine.args.--port: Invalid value: "--port": invalid engine arg key "--port": must contain only alphanumeric characters, hyphens, and underscores',
        'spec.engine.args.has space: Invalid value: "has space": invalid engine arg key "has space": must contain only alphanumeric characters, hyphens, and underscores',
      ]);
    });

    describe('overrides', () => {
      const withOverrides = (overrides: unknown, options: FixtureOptions = {}) =>
        dynamoDeployment({ ...options, spec: { ...options.spec, provider: { name: 'dynamo', overrides: overrides as Record<string, unknown> } } });
      const alpha: TranslationOptions = { apiVersion: 'nvidia.com/v1alpha1' };

      test('accepts spec, the typed keys, and services or components with an image', () => {
        expect(validateDynamo(withOverrides({
          routerMode: 'kv',
          frontend: { replicas: 2, resources: { cpu: '1', memory: '1Gi' } },
          epp: { replicas: 1, image: 'example.com/epp:1.0.0' },
          spec: { services: { VllmWorker: { multinode: { nodeCount: 2 } }, Planner: { extraPodSpec: { mainContainer: { image: 'example.com/p:1.0.0' } } } } },
        }), alpha)).toEqual([]);
        const planner = { spec: { components: { Planner: { podTemplate: { spec: { containers: [{ name: 'main', image: 'p:1.0.0' }] } } } } } };
        expect(validateDynamo(withOverrides(planner))).toEqual([]);
      });

      blockedOverrideKeyCases(harness);

      test('fails when the overrides are not an object', () => {
        expect(errorsOf(withOverrides(['x']))).toEqual(['spec.provider.overrides: Invalid value: "<array>": overrides must be a JSON object']);
      });

      test('fails when a typed override has the wrong type', () => {
        const overrides = { routerMode: 3, frontend: { replicas: 1.5, resources: { cpu: 2 } }, epp: { image: true, replicas: -1 } };
        expect(errorsOf(withOverrides(overrides))).toEqual([
          'spec.provider.overrides.routerMode: Invalid value: 3: failed to parse provider overrides: routerMode must be a string',
          'spec.provider.overrides.frontend.replicas: Invalid value: 1.5: failed to parse provider overrides: frontend.replicas must be a non-negative integer',
          'spec.provider.overrides.frontend.resources.cpu: Invalid value: 2: failed to parse provider overrides: frontend.resources.cpu must be a string',
          'spec.provider.overrides.epp.replicas: Invalid value: -1: failed to parse provider overrides: epp.replicas must be a non-negative integer',
          'spec.provider.overrides.epp.image: Invalid value: true: failed to parse provider overrides: epp.image must be a string',
        ]);
        expect(errorsOf(withOverrides({ frontend: 'big' }))).toEqual([
          'spec.provider.overrides.frontend: Invalid value: "big": failed to parse provider overrides: frontend must be an object',
        ]);
      });

      test('fails when an override names a root field a DynamoGraphDeployment does not have', () => {
        expect(errorsOf(withOverrides({ services: {} }))).toEqual([
          'spec.provider.overrides.services: Forbidden: a DynamoGraphDeployment has no root field "services" (overrides merge into the object root: use spec, or the typed keys routerMode, frontend and epp); the API server would drop it',
        ]);
      });

      test('fails when an override adds a service without an image (e.g. SglangWorker for an sglang deployment)', () => {
        const md = withOverrides({ spec: { services: { SglangWorker: { multinode: { nodeCount: 2 } } } } }, { spec: { engine: { type: 'sglang' } } });
        expect(errorsOf(md, alpha)).toEqual([
          'spec.provider.overrides.spec.services.SglangWorker.extraPodSpec.mainContainer.image: Required value: overrides add the service "SglangWorker", which this deployment does not generate (it generates Epp, VllmWorker; the aggregated worker is VllmWorker for every engine); Dynamo rejects a new service without extraPodSpec.mainContainer.image',
        ]);
      });

      test('fails when an override adds a component without a main image', () => {
        const md = withOverrides({ spec: { components: { Worker: { multinode: { nodeCount: 2 } } } } }, { spec: { gateway: { enabled: false } } });
        expect(errorsOf(md, { apiVersion: 'nvidia.com/v1beta1' })).toEqual([
          'spec.provider.overrides.spec.components.Worker.podTemplate.spec.containers: Required value: overrides add the component "Worker", which this deployment does not generate (it generates Frontend, VllmWorker; the aggregated worker is VllmWorker for every engine); Dynamo rejects a new component without a podTemplate container named "main" with an image',
        ]);
      });

      test('fails when spec, spec.services or spec.components has the wrong JSON type', () => {
        expect(errorsOf(withOverrides({ spec: [] }))).toEqual(['spec.provider.overrides.spec: Invalid value: "<array>": spec must be an object']);
        // A null removes what it names: a graph without its spec or services deploys nothing.
        expect(errorsOf(withOverrides({ spec: null }))).toEqual([
          'spec.provider.overrides.spec: Invalid value: null: null would remove spec from the DynamoGraphDeployment, which would then deploy nothing; override its fields instead',
        ]);
        expect(errorsOf(withOverrides({ spec: { services: null } })).join('\n')).toMatch(/spec\.provider\.overrides\.spec\.services: Invalid value: null: null would remove spec\.services/);
        expect(errorsOf(withOverrides({ spec: { services: [] } }), alpha)).toEqual([
          'spec.provider.overrides.spec.services: Invalid value: "<array>": spec.services is a map of service name to service spec',
        ]);
        expect(errorsOf(withOverrides({ spec: { components: 'x' } }), { apiVersion: 'nvidia.com/v1beta1' })).toEqual([
          'spec.provider.overrides.spec.components: Invalid value: "<string>": spec.components is a list, or an object keyed by component name',
        ]);
      });

      test('fails when a service or component override is not an object', () => {
        expect(errorsOf(withOverrides({ spec: { services: { VllmWorker: 'x' } } }), alpha)).toEqual([
          'spec.provider.overrides.spec.services.VllmWorker: Invalid value: "x": a service override must be an object',
        ]);
        expect(errorsOf(withOverrides({ spec: { components: { VllmWorker: 1 } } }), { apiVersion: 'nvidia.com/v1beta1' })).toEqual([
          'spec.provider.overrides.spec.components.VllmWorker: Invalid value: 1: a component override must be an object',
        ]);
      });

      test('fails when both shapes are overridden at once', () => {
        expect(errorsOf(withOverrides({ spec: { services: {}, components: {} } }))).toContain(
          'spec.provider.overrides.spec.components: Forbidden: spec.services (nvidia.com/v1alpha1) and spec.components (nvidia.com/v1beta1) cannot both be overridden; use the shape of the emitted version',
        );
      });

      test('fails when the annotation picks v1beta1 and the overrides use v1alpha1 fields', () => {
        const md = withOverrides({ spec: { services: {}, pvcs: [], envs: [] } }, { annotations: { [DYNAMO_API_VERSION_ANNOTATION]: 'nvidia.com/v1beta1' } });
        expect(errorsOf(md)).toEqual([
          'spec.provider.overrides.spec.services: Forbidden: this deployment emits nvidia.com/v1beta1, which has no spec.services: components are a list under spec.components; override one as spec.components.<name>',
          'spec.provider.overrides.spec.pvcs: Forbidden: this deployment emits nvidia.com/v1beta1, which has no spec.pvcs: claims are mounted as podTemplate volumes',
          'spec.provider.overrides.spec.envs: Forbidden: this deployment emits nvidia.com/v1beta1, which has no spec.envs: graph-wide variables are spec.env',
        ]);
      });

      test('fails when the annotation picks v1alpha1 and the overrides use v1beta1 fields', () => {
        const md = withOverrides({ spec: { components: [], env: [] } }, { annotations: { [DYNAMO_API_VERSION_ANNOTATION]: 'nvidia.com/v1alpha1' } });
        expect(errorsOf(md)).toEqual([
          'spec.provider.overrides.spec.components: Forbidden: this deployment emits nvidia.com/v1alpha1, which has no spec.components: services are a map under spec.services; override one as spec.services.<name>',
          'spec.provider.overrides.spec.env: Forbidden: this deployment emits nvidia.com/v1alpha1, which has no spec.env: graph-wide variables are spec.envs',
        ]);
      });
    });

    test('fails with every rejection at once', () => {
      const md = dynamoDeployment({
        annotations: { [DYNAMO_API_VERSION_ANNOTATION]: 'v1' },
        spec: {
          engine: { type: 'llamacpp', args: { '-x': '1' } },
          resources: undefined,
          provider: { name: 'dynamo', overrides: { metadata: {} } },
        },
      });
      expect(errorsOf(md)).toEqual([
        'metadata.annotations["inference.cdk8s.io/dynamo-api-version"]: Unsupported value: "v1": supported values: "nvidia.com/v1alpha1", "nvidia.com/v1beta1"',
        'spec.engine.type: Invalid value: "llamacpp": Dynamo does not support llamacpp engine',
        'spec.resources.gpu.count: Required value: Dynamo requires GPU (set resources.gpu.count > 0)',
        'spec.engine.args.-x: Invalid value: "-x": invalid engine arg key "-x": must contain only alphanumeric characters, hyphens, and underscores',
        'spec.provider.overrides.metadata: Forbidden: overriding "metadata" is not allowed',
      ]);
    });
  });

  describe('helpers', () => {
    test('sanitizeLabelValue follows AI Runway', () => {
      expect(sanitizeLabelValue('meta-llama/Llama-2-7b-chat-hf')).toBe('meta-llama-Llama-2-7b-chat-hf');
      expect(sanitizeLabelValue('/org/model_v1.')).toBe('org-model_v1');
      expect(sanitizeLabelValue('a'.repeat(62) + '/b')).toBe('a'.repeat(62));
      expect(sanitizeLabelValue('')).toBe('');
    });

    test('hasSemverTag reads the tag, not the registry port', () => {
      expect(hasSemverTag(IMAGES.vllm)).toBe(true);
      expect(hasSemverTag('registry:5000/vllm:v0.9.1-cu12')).toBe(true);
      expect(hasSemverTag('registry:5000/vllm')).toBe(false);
      expect(hasSemverTag('vllm:latest')).toBe(false);
      expect(hasSemverTag('vllm:1.1.1@sha256:abc')).toBe(true);
    });
  });
});

describe('through admission and selection (resolveModelDeployment)', () => {
  const resolve = (input: ModelDeploymentObject) =>
    resolveModelDeployment(input, defaultProviderCatalog());
  const translateResolved = (input: ModelDeploymentObject, options: TranslationOptions = {}) => {
    const resolution = resolve(input);
    expect(resolution.errors.map(formatFieldError)).toEqual([]);
    expect(resolution.provider?.name).toBe('dynamo');
    return graphView(dgdOf(synthWith({}, resolution.resolved!, options).manifests));
  };

  test.each(VERSIONS)('AI Runway\'s e2e fixtures translate in $apiVersion', ({ options }) => {
    const aggregated = translateResolved({
      name: 'qwen3-0-6b',
      spec: {
        model: { id: 'Qwen/Qwen3-0.6B' },
        provider: { name: 'dynamo' },
        engine: { type: 'vllm', contextLength: 4096 },
        resources: { gpu: { count: 1 } },
        scaling: { replicas: 1 },
      },
    }, options);
    expect(aggregated.service('VllmWorker').args).toEqual(['--model', 'Qwen/Qwen3-0.6B', '--max-model-len', '4096', '--enable-prefix-caching']);
    const disaggregated = translateResolved({
      name: 'qwen3-0-6b-disagg',
      spec: {
        model: { id: 'Qwen/Qwen3-0.6B' },
        provider: { name: 'dynamo' },
        engine: { type: 'vllm' },
        serving: { mode: 'disaggregated' },
        scaling: { prefill: { replicas: 1, gpu: { count: 1 } }, decode: { replicas: 1, gpu: { count: 1 } } },
      },
    }, options);
    expect(disaggregated.names).toEqual(['Epp', 'VllmDecodeWorker', 'VllmPrefillWorker']);
  });

  test('selects Dynamo for SGLang on GPUs and translates it', () => {
    const resolution = resolve({ name: 'sg', spec: { model: { id: 'Qwen/Qwen3-0.6B' }, engine: { type: 'sglang' }, resources: { gpu: { count: 1 } } } });
    expect(resolution.resolved?.provider).toBe('dynamo');
    expect(translateResolved({ name: 'sg', spec: { model: { id: 'Qwen/Qwen3-0.6B' }, engine: { type: 'sglang' }, resources: { gpu: { count: 1 } } } })
      .service('VllmWorker').image).toBe(SGLANG_IMAGE);
  });

  test('a mocker deployment needs no GPU', () => {
    const view = translateResolved({
      name: 'mock',
      annotations: { 'airunway.ai/dynamo-test-backend': 'mocker' },
      spec: { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'dynamo' }, engine: { type: 'vllm' } },
    });
    expect(view.names).toEqual(['Frontend', 'VllmWorker']);
    expect(view.service('VllmWorker').image).toBe(MOCKER_IMAGE);
  });

  test('admission refuses the typed sizing overrides before Dynamo sees them (only routerMode and epp.image get through)', () => {
    const resolution = resolve({
      name: 'qwen',
      spec: {
        model: { id: 'Qwen/Qwen3-0.6B' },
        provider: { name: 'dynamo', overrides: { routerMode: 'kv', frontend: { replicas: 2 }, epp: { image: 'example.com/epp:1.0.0' } } },
        engine: { type: 'vllm' },
        resources: { gpu: { count: 1 } },
      },
    });
    expect(resolution.errors.map((e) => e.path)).toEqual(['spec.provider.overrides.frontend.replicas']);
  });

  test('fails at admission when a gpu.type is no extended resource name', () => {
    const resolution = resolve({
      name: 'qwen',
      spec: { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'dynamo' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1, type: 'gpu' } } },
    });
    expect(resolution.errors.map((e) => `${e.path} ${e.value}`)).toEqual(['spec.resources.gpu.type gpu']);
  });

  test('fails at the provider stage with the Dynamo rejection (annotation)', () => {
    const resolution = resolve({
      name: 'qwen',
      annotations: { [DYNAMO_API_VERSION_ANNOTATION]: 'nvidia.com/v1' },
      spec: { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'dynamo' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } },
    });
    expect(resolution.errors.map(formatFieldError)).toEqual([
      'metadata.annotations["inference.cdk8s.io/dynamo-api-version"]: Unsupported value: "nvidia.com/v1": supported values: "nvidia.com/v1alpha1", "nvidia.com/v1beta1"; did you mean "nvidia.com/v1beta1"?',
    ]);
  });
});
