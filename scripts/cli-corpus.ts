/**
 * A deterministic corpus of CLI runs, to prove that a change (a refactor) leaves the output of
 * `cdk8s-inference` unchanged.
 *
 * Usage (from the repository root):
 *
 *   npx ts-node --project test/tsconfig.json scripts/cli-corpus.ts [--seed N] [--count N] [--cli FILE] --out DIR
 *
 * Defaults: --seed 1, --count 600. `--cli FILE` runs the cases through the `main` of a compiled
 * module instead of src/cli/main (scripts/check-cli-bundle.sh compares lib/cli/main.js with the
 * bundle lib/cli/bundle.js). DIR is emptied first. From a seeded PRNG it generates `count`
 * cases of AI Runway `ModelDeployment` YAML (airunway.ai/v1alpha1): every provider named
 * explicitly and auto-selected (with `InferenceProviderConfig` documents of `status.ready: false`
 * steering selection), engines vllm/sglang/trtllm/llamacpp, aggregated and disaggregated serving,
 * GPU counts and types, CPU/memory, storage volumes, env, pod labels/annotations, node selectors,
 * tolerations, engine fields, model sources, gateway settings, provider overrides (accepted and
 * rejected ones), the Dynamo annotations (`airunway.ai/dynamo-test-backend: mocker`,
 * `inference.cdk8s.io/dynamo-api-version`), replicas 0..40, Gateway documents and valid and
 * invalid names. About a quarter of the cases are invalid on purpose (exit code 1) and a few are
 * usage errors (exit code 2), so error output is covered too.
 *
 * For case NNNN it writes:
 *
 * - `DIR/inputs/NNNN.yaml` (and, for some cases, `DIR/inputs/NNNN.providers.yaml`, a second `-f`);
 * - `DIR/outputs/NNNN.out`: the argv, then for `synth` (and `explain`) the exit code, stdout and
 *   stderr, plus the files a `synth -o` wrote (for the cases that use `-o`), and anything written
 *   to the process streams directly instead of through the CLI's io;
 * - `DIR/summary.txt`: counts of exit codes, selected providers and covered features.
 *
 * The CLI runs in-process (`main` from src/cli/main with a capturing io) with the working
 * directory set to DIR, so file names in messages are relative (`inputs/0001.yaml`) and the output
 * does not depend on where DIR is; absolute paths of DIR that still appear are replaced by `<DIR>`.
 * Nothing in the output depends on time or randomness: the same seed and count give the same DIR,
 * byte for byte (check with two runs and `diff -r`).
 *
 * The examples are not part of the corpus: compare them by running
 * `npx ts-node --project test/tsconfig.json scripts/synth-examples.ts` before and after the change
 * and diffing `dist/examples`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments, stringify } from 'yaml';
import { main } from '../src/cli/main';
import { Rng } from '../test/support/rng';

// ---------------------------------------------------------------------------------------------
// Arguments

interface Options {
  readonly seed: number;
  readonly count: number;
  readonly out: string;
  /** The module whose `main` runs the cases: src/cli/main unless `--cli FILE` names another. */
  readonly cli?: string;
}

function parseOptions(argv: readonly string[]): Options {
  let seed = 1;
  let count = 600;
  let out: string | undefined;
  let cli: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--seed') seed = Number(value());
    else if (arg === '--count') count = Number(value());
    else if (arg === '--out') out = value();
    else if (arg === '--cli') cli = path.resolve(value());
    else throw new Error(`unexpected argument ${JSON.stringify(arg)}; usage: cli-corpus.ts [--seed N] [--count N] [--cli FILE] --out DIR`);
  }
  if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 1) throw new Error('--seed and --count must be integers, --count at least 1');
  if (out === undefined) throw new Error('--out DIR is required');
  return { seed, count, out: path.resolve(out), cli };
}


// ---------------------------------------------------------------------------------------------
// Vocabulary

type Provider = 'dynamo' | 'kaito' | 'kuberay' | 'llmd' | 'vllm';
type Engine = 'vllm' | 'sglang' | 'trtllm' | 'llamacpp';

const PROVIDERS: readonly Provider[] = ['dynamo', 'kaito', 'kuberay', 'llmd', 'vllm'];

const MODEL_IDS = [
  'Qwen/Qwen3-0.6B',
  'Qwen/Qwen3-8B',
  'microsoft/Phi-4-mini-instruct',
  'meta-llama/Llama-3.1-8B-Instruct',
  'mistralai/Mistral-7B-Instruct-v0.3',
  'deepseek-ai/DeepSeek-R1-Distill-Qwen-7B',
  'phi-4-mini-instruct',
  'falcon-7b-instruct',
];
const GGUF_MODEL_IDS = ['Qwen/Qwen3-0.6B-GGUF', 'bartowski/Llama-3.2-1B-Instruct-GGUF', 'unsloth/phi-4-GGUF'];
const GPU_TYPES = ['nvidia.com/gpu', 'nvidia.com/gpu', 'amd.com/gpu', 'gpu.intel.com/i915'];
const NAMESPACES = ['team-a', 'team-b', 'ml', 'inference'];
const NAME_STEMS = ['qwen', 'phi', 'llama', 'mistral', 'chat', 'embed', 'coder', 'r1'];
const INVALID_NAMES = ['Llama-3', 'llama-3.1', 'my_model', '-leading', 'trailing-', 'x'.repeat(64), 'model name'];
const ENGINE_IMAGES: Record<Engine, readonly string[]> = {
  vllm: ['vllm/vllm-openai:v0.11.0', 'registry.example.com/vllm-openai:custom'],
  sglang: ['lmsysorg/sglang:v0.5.3', 'registry.example.com/sglang:custom'],
  trtllm: ['nvcr.io/nvidia/tensorrt-llm/release:1.0.0', 'registry.example.com/trtllm:custom'],
  llamacpp: ['ghcr.io/ggml-org/llama.cpp:server', 'ghcr.io/ggml-org/llama.cpp:server-cuda', 'registry.example.com/llama-phi:1'],
};
const ARG_KEYS = ['max-num-seqs', 'gpu-memory-utilization', 'dtype', 'kv-cache-dtype', 'max-num-batched-tokens', 'tensor-parallel-size', 'quantization'];
const ARG_VALUES: Record<string, readonly string[]> = {
  'max-num-seqs': ['64', '256'],
  'gpu-memory-utilization': ['0.85', '0.9'],
  'dtype': ['auto', 'bfloat16', 'half'],
  'kv-cache-dtype': ['fp8', 'auto'],
  'max-num-batched-tokens': ['8192', '16384'],
  'tensor-parallel-size': ['1', '2', '4'],
  'quantization': ['fp8', 'awq'],
};
const EXTRA_ARGS = ['--disable-log-requests', '--swap-space=8', '--seed=42', '--max-logprobs', '20', '--enable-chunked-prefill', '--served-model-name=foo'];

// ---------------------------------------------------------------------------------------------
// ModelDeployment generation

export interface Case {
  /** The main input file's documents (objects, or raw text for a broken document). */
  readonly docs: Array<object | string>;
  /** Documents of a second input file, when there is one. */
  readonly providerDocs?: object[];
  readonly gateway?: string;
  readonly poolVersion?: string;
  /** Run `synth -o` too. */
  readonly outputDir: boolean;
  /** A usage error to provoke (exit code 2), as extra argv. */
  readonly badArgs?: string[];
}

interface Plan {
  provider: Provider;
  explicit: boolean;
  engine: Engine;
  engineExplicit: boolean;
  disaggregated: boolean;
}

/** Providers that outrank `target` in auto-selection for the plan, and so must be declared absent. */
function rivals(plan: Plan, gpu: number): Provider[] {
  switch (plan.provider) {
    case 'dynamo':
      return [];
    case 'kuberay':
      return gpu <= 1 ? ['dynamo', 'kaito'] : ['dynamo'];
    case 'kaito':
      return plan.engine === 'llamacpp' || gpu === 0 ? [] : ['dynamo', 'kuberay'];
    case 'llmd':
      return ['dynamo', 'kaito', 'kuberay'];
    case 'vllm':
      return ['dynamo', 'kaito', 'kuberay', 'llmd'];
  }
}

function providerConfigDoc(name: string, ready: boolean, rng: Rng): object {
  const doc: any = {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'InferenceProviderConfig',
    metadata: { name },
    spec: rng.chance(0.7) ? {} : { capabilities: { engines: [{ name: 'vllm', servingModes: ['aggregated'], gpuSupport: true }] } },
  };
  if (!ready) doc.status = { ready: false };
  return doc;
}

function quantity(rng: Rng, kind: 'cpu' | 'memory' | 'size'): string | number {
  switch (kind) {
    case 'cpu':
      return rng.pick(['1', '2', '4', '8', '500m', '16']);
    case 'memory':
      return rng.pick(['8Gi', '16Gi', '24Gi', '32Gi', '64Gi', '128Gi', '512Mi']);
    case 'size':
      return rng.pick<string | number>(['10Gi', '50Gi', '100Gi', '200Gi', '1Ti', 107374182400]);
  }
}

function gpuSpec(rng: Rng, count: number): object {
  const gpu: any = { count };
  if (rng.chance(0.25)) gpu.type = rng.pick(GPU_TYPES);
  return gpu;
}

function storageVolumes(rng: Rng, name: string): object[] {
  const volumes: any[] = [];
  if (rng.chance(0.7)) {
    const v: any = { name: rng.pick(['model-cache', 'cache', 'weights']), purpose: 'modelCache' };
    if (rng.chance(0.65)) {
      v.size = quantity(rng, 'size');
      if (rng.chance(0.3)) v.accessMode = rng.pick(['ReadWriteMany', 'ReadWriteOnce']);
      if (rng.chance(0.25)) v.storageClassName = rng.pick(['standard', 'azurefile-csi', '']);
      if (rng.chance(0.15)) v.claimName = `${name}-${v.name}`;
    } else {
      v.claimName = rng.pick(['shared-models', 'hf-cache']);
      if (rng.chance(0.5)) v.readOnly = rng.chance(0.7);
    }
    if (rng.chance(0.3)) v.mountPath = rng.pick(['/model-cache', '/models', '/data/hf']);
    volumes.push(v);
  }
  if (rng.chance(0.3)) {
    const v: any = { name: 'compile-cache', purpose: 'compilationCache' };
    if (rng.chance(0.5)) v.size = quantity(rng, 'size');
    else v.claimName = 'torch-compile-cache';
    if (rng.chance(0.3)) v.mountPath = '/compilation-cache';
    volumes.push(v);
  }
  if (rng.chance(0.3)) {
    const v: any = { name: rng.pick(['scratch', 'adapters']), mountPath: rng.pick(['/scratch', '/adapters', '/mnt/extra']) };
    if (rng.chance(0.5)) v.purpose = 'custom';
    if (rng.chance(0.5)) v.size = quantity(rng, 'size');
    else v.claimName = 'extra-claim';
    if (v.size === undefined && rng.chance(0.5)) v.readOnly = true;
    volumes.push(v);
  }
  return volumes;
}

function engineArgs(rng: Rng): Record<string, string> {
  const args: Record<string, string> = {};
  for (const key of rng.subset(ARG_KEYS, 0.2)) args[key] = rng.pick(ARG_VALUES[key]);
  return args;
}

/** A ModelDeployment aimed at `plan`, before any deliberate mistake. */
function modelDeployment(rng: Rng, plan: Plan, name: string, namespace: string | undefined): { md: any; gpu: number } {
  const md: any = { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name } };
  if (namespace !== undefined) md.metadata.namespace = namespace;
  const spec: any = {};
  md.spec = spec;

  // model
  const custom = plan.engine !== 'llamacpp' && rng.chance(0.08);
  const llamacpp = plan.engine === 'llamacpp';
  spec.model = {};
  if (custom) {
    spec.model.source = 'custom';
    if (rng.chance(0.75)) spec.model.id = rng.pick(MODEL_IDS);
  } else {
    spec.model.id = llamacpp ? rng.pick(GGUF_MODEL_IDS) : rng.pick(MODEL_IDS);
    if (rng.chance(0.2)) spec.model.source = 'huggingface';
    if (rng.chance(0.35)) spec.model.servedName = rng.pick(['chat', 'default', `${name}-served`, 'qwen3']);
  }

  // provider
  if (plan.explicit) spec.provider = { name: plan.provider };

  // engine
  const engine: any = {};
  if (plan.engineExplicit) engine.type = plan.engine;
  if (rng.chance(0.3)) engine.contextLength = rng.pick([2048, 4096, 8192, 32768, 131072]);
  if (rng.chance(0.15)) engine.trustRemoteCode = rng.chance(0.6);
  if (rng.chance(0.25)) engine.enablePrefixCaching = rng.chance(0.5);
  if (rng.chance(0.15)) engine.enforceEager = rng.chance(0.6);
  if (rng.chance(0.3)) {
    const args = engineArgs(rng);
    if (Object.keys(args).length > 0) engine.args = args;
  }
  if (llamacpp && rng.chance(0.3)) engine.args = { ...(engine.args ?? {}), ggufUrl: 'https://huggingface.co/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf' };
  if (rng.chance(0.25)) engine.extraArgs = rng.subset(EXTRA_ARGS, 0.4);
  const needsImage = llamacpp || custom;
  if (needsImage || rng.chance(0.15)) {
    const image = rng.pick(ENGINE_IMAGES[plan.engine]);
    // llama.cpp accepts the legacy spec.image as well; both when equal.
    const where = llamacpp ? rng.weighted({ engine: 5, legacy: 3, both: 1 }) : rng.weighted({ engine: 8, legacy: 1, both: 1 });
    if (where !== 'legacy') engine.image = image;
    if (where !== 'engine') spec.image = image;
  }
  if (Object.keys(engine).length > 0) spec.engine = engine;

  // serving, scaling, resources
  let gpu = 0;
  if (plan.disaggregated) {
    spec.serving = { mode: 'disaggregated' };
    const component = (): any => {
      const c: any = { gpu: gpuSpec(rng, rng.int(1, 4)) };
      if (rng.chance(0.7)) c.replicas = rng.int(1, 3);
      if (rng.chance(0.5)) c.memory = quantity(rng, 'memory');
      return c;
    };
    spec.scaling = { prefill: component(), decode: component() };
  } else {
    if (rng.chance(0.2)) spec.serving = { mode: 'aggregated' };
    const cpuOnly = plan.provider === 'kaito' && (llamacpp ? rng.chance(0.55) : false);
    gpu = cpuOnly || rng.chance(0.04) ? 0 : plan.provider === 'kuberay' && !plan.explicit ? rng.int(2, 8) : rng.pick([1, 1, 1, 2, 2, 4, 8, rng.int(1, 8)]);
    const resources: any = {};
    if (gpu > 0 || rng.chance(0.3)) resources.gpu = gpuSpec(rng, gpu);
    if (rng.chance(0.4)) resources.cpu = quantity(rng, 'cpu');
    if (rng.chance(0.5)) resources.memory = quantity(rng, 'memory');
    if (Object.keys(resources).length > 0) spec.resources = resources;
    if (rng.chance(0.6)) spec.scaling = { replicas: rng.pick([0, 1, 1, 1, 2, 3, 4, 8, 32]) };
  }

  // storage
  if (rng.chance(0.35)) {
    const volumes = storageVolumes(rng, name);
    if (volumes.length > 0) spec.model.storage = { volumes };
  }

  // env, secrets, pod metadata, scheduling
  if (rng.chance(0.35)) {
    spec.env = [];
    if (rng.chance(0.8)) spec.env.push({ name: 'VLLM_LOGGING_LEVEL', value: rng.pick(['DEBUG', 'INFO']) });
    if (rng.chance(0.4)) spec.env.push({ name: 'API_KEY', valueFrom: { secretKeyRef: { name: 'api-keys', key: 'key', ...(rng.chance(0.3) ? { optional: true } : {}) } } });
    if (rng.chance(0.2)) spec.env.push({ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } });
    if (rng.chance(0.15)) spec.env.push({ name: 'HF_TOKEN', value: 'inline-token' });
    if (rng.chance(0.1)) spec.env.push({ name: 'EMPTY' });
  }
  if (rng.chance(0.35)) spec.secrets = { huggingFaceToken: rng.pick(['hf-token', 'hf-secret']) };
  if (rng.chance(0.3)) {
    const metadata: any = {};
    if (rng.chance(0.7)) metadata.labels = { team: rng.pick(['a', 'b', 'research']), ...(rng.chance(0.3) ? { 'example.com/tier': 'gold' } : {}) };
    if (rng.chance(0.6)) metadata.annotations = { 'prometheus.io/scrape': 'true', ...(rng.chance(0.4) ? { 'example.com/owner': 'ml-platform' } : {}) };
    spec.podTemplate = { metadata };
  }
  if (rng.chance(0.3)) {
    spec.nodeSelector = { 'kubernetes.io/arch': 'amd64' };
    if (rng.chance(0.5)) spec.nodeSelector['node.kubernetes.io/instance-type'] = rng.pick(['Standard_NC24ads_A100_v4', 'g5.12xlarge']);
  }
  if (rng.chance(0.3)) {
    spec.tolerations = [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }];
    if (rng.chance(0.4)) spec.tolerations.push({ key: 'dedicated', operator: 'Equal', value: 'inference', effect: 'NoExecute', tolerationSeconds: 300 });
  }

  // gateway
  if (rng.chance(0.35)) {
    const gw: any = {};
    const enabled = rng.weighted({ unset: 3, on: 2, off: 2 });
    if (enabled !== 'unset') gw.enabled = enabled === 'on';
    if (rng.chance(0.4)) gw.modelName = rng.pick(['qwen3-8b', 'chat-model', 'my-model']);
    if (rng.chance(0.2)) gw.httpRouteRef = rng.pick(['my-route', 'shared-route']);
    spec.gateway = gw;
  }

  // Dynamo annotations
  if (plan.provider === 'dynamo') {
    const annotations: Record<string, string> = {};
    if (rng.chance(0.45)) annotations['inference.cdk8s.io/dynamo-api-version'] = rng.pick(['nvidia.com/v1beta1', 'nvidia.com/v1beta1', 'nvidia.com/v1beta1', 'nvidia.com/v1alpha1']);
    if (rng.chance(plan.engine === 'vllm' ? 0.12 : 0.03)) annotations['airunway.ai/dynamo-test-backend'] = 'mocker';
    if (Object.keys(annotations).length > 0) md.metadata.annotations = annotations;
  } else if (rng.chance(0.05)) {
    md.metadata.annotations = { 'airunway.ai/dynamo-test-backend': 'mocker' };
  }
  if (rng.chance(0.1)) md.metadata.labels = { 'app.kubernetes.io/part-of': 'chat' };

  // overrides
  if (rng.chance(0.3)) spec.provider = { ...(spec.provider ?? {}), overrides: validOverrides(rng, plan, md) };
  return { md, gpu };
}

/** Overrides the provider of the plan accepts (mostly; some typed values are refused by the webhook). */
function validOverrides(rng: Rng, plan: Plan, md: any): object {
  const beta = md.metadata.annotations?.['inference.cdk8s.io/dynamo-api-version'] === 'nvidia.com/v1beta1';
  const worker = plan.disaggregated ? rng.pick(['VllmPrefillWorker', 'VllmDecodeWorker']) : 'VllmWorker';
  switch (plan.provider) {
    case 'vllm':
      return rng.pick<object>([
        { spec: { minReadySeconds: 10 } },
        { spec: { strategy: { type: 'Recreate' } } },
        { spec: { template: { metadata: { labels: { 'example.com/extra': 'yes' } } } } },
        { spec: { template: { spec: { schedulerName: 'gpu-scheduler', terminationGracePeriodSeconds: 120 } } } },
      ]);
    case 'llmd':
      return rng.pick<object>([
        { spec: { minReadySeconds: 5 } },
        { spec: { strategy: { type: 'Recreate' } } },
        { spec: { template: { metadata: { annotations: { 'example.com/llmd': 'true' } } } } },
        { spec: { progressDeadlineSeconds: 900 } },
      ]);
    case 'dynamo':
      return rng.pick<object>([
        { routerMode: rng.pick(['kv', 'round-robin']) },
        { epp: { image: 'registry.example.com/epp:dev' } },
        beta
          ? { spec: { components: { [worker]: { envs: [{ name: 'EXTRA', value: '1' }] } } } }
          : { spec: { services: { [worker]: { envs: [{ name: 'EXTRA', value: '1' }] } } } },
        { routerMode: 'kv', spec: { backendFramework: plan.engine } },
        { routerMode: 'round-robin', epp: { image: 'registry.example.com/epp:v2' } },
      ]);
    case 'kaito':
      return rng.pick<object>([
        { resource: { instanceType: 'Standard_NC24ads_A100_v4' } },
        { resource: { labelSelector: { matchLabels: { 'nvidia.com/gpu.present': null } } } },
        { inference: { adapters: [{ source: { name: 'adapter', image: 'registry.example.com/adapter:1' } }] } },
      ]);
    case 'kuberay':
      return rng.pick<object>([
        { spec: { serviceUnhealthySecondThreshold: 900 } },
        { spec: { rayClusterConfig: { enableInTreeAutoscaling: true } } },
      ]);
  }
}

/** Overrides some provider refuses. */
function rejectedOverrides(rng: Rng): object {
  return rng.pick<object>([
    { metadata: { name: 'other' } },
    { spec: { selector: { matchLabels: { app: 'x' } } } },
    { spec: { replicas: 3 } },
    { spec: { template: { spec: { securityContext: { runAsUser: 0 } } } } },
    { spec: { template: { spec: { hostNetwork: true } } } },
    { spec: { template: { metadata: { labels: { 'app': 'x', 'llm-d.ai/role': 'decode' } } } } },
    { spec: { template: { spec: { containers: [] } } } },
    { spec: { template: { spec: { nodeName: 'n1' } } } },
    { unknownRoot: { a: 1 } },
    { spec: { components: { VllmWorker: { envs: [] } }, services: { VllmWorker: {} } } },
    { spec: { services: { NewService: { replicas: 1 } } } },
    { spec: { components: { Brand: {} } } },
    { frontend: 'not-an-object' },
    { routerMode: 3 },
    { frontend: { replicas: 2 } },
    { spec: 'scalar' },
  ]);
}

// ---------------------------------------------------------------------------------------------
// Deliberate mistakes

type Mutation = (rng: Rng, md: any) => void;

const MUTATIONS: Readonly<Record<string, Mutation>> = {
  badName: (rng, md) => {
    md.metadata.name = rng.pick(INVALID_NAMES);
  },
  badNamespace: (rng, md) => {
    md.metadata.namespace = rng.pick(['Team_A', 'ns.with.dots', '']);
  },
  tooManyReplicas: (rng, md) => {
    md.spec.scaling = { ...(md.spec.scaling ?? {}), replicas: rng.int(33, 40) };
  },
  negativeReplicas: (_rng, md) => {
    md.spec.scaling = { ...(md.spec.scaling ?? {}), replicas: -1 };
  },
  tooManyGpus: (rng, md) => {
    md.spec.resources = { ...(md.spec.resources ?? {}), gpu: { count: rng.pick([65, 128]) } };
  },
  missingModelId: (_rng, md) => {
    delete md.spec.model.id;
    md.spec.model.source = 'huggingface';
  },
  disaggregatedWithResources: (_rng, md) => {
    md.spec.serving = { mode: 'disaggregated' };
    md.spec.scaling = { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 1 } } };
    md.spec.resources = { gpu: { count: 2 } };
  },
  disaggregatedMissingDecode: (_rng, md) => {
    md.spec.serving = { mode: 'disaggregated' };
    delete md.spec.resources;
    md.spec.scaling = { prefill: { gpu: { count: 1 } } };
  },
  engineProviderMismatch: (rng, md) => {
    md.spec.provider = { ...(md.spec.provider ?? {}), name: rng.pick(['vllm', 'llmd', 'kuberay']) };
    md.spec.engine = { ...(md.spec.engine ?? {}), type: rng.pick(['sglang', 'trtllm', 'llamacpp']) };
  },
  unknownProvider: (rng, md) => {
    md.spec.provider = { ...(md.spec.provider ?? {}), name: rng.pick(['tgi', 'Dynamo', 'ollama']) };
  },
  unknownEngine: (_rng, md) => {
    md.spec.engine = { ...(md.spec.engine ?? {}), type: 'tgi' };
  },
  argsConflict: (_rng, md) => {
    md.spec.engine = { ...(md.spec.engine ?? {}), args: { 'max-num-seqs': '64' }, extraArgs: ['--max-num-seqs=128'] };
  },
  imageConflict: (_rng, md) => {
    md.spec.engine = { ...(md.spec.engine ?? {}), image: 'a/b:1' };
    md.spec.image = 'c/d:2';
  },
  rejectedOverrides: (rng, md) => {
    md.spec.provider = { ...(md.spec.provider ?? {}), overrides: rejectedOverrides(rng) };
  },
  overridesNotObject: (rng, md) => {
    md.spec.provider = { ...(md.spec.provider ?? {}), overrides: rng.pick<unknown>([['a'], 'text', 5]) };
  },
  storageReadOnlyManaged: (_rng, md) => {
    md.spec.model.storage = { volumes: [{ name: 'model-cache', purpose: 'modelCache', size: '100Gi', readOnly: true }] };
  },
  storageCustomNoMountPath: (_rng, md) => {
    md.spec.model.storage = { volumes: [{ name: 'extra', purpose: 'custom', claimName: 'x' }] };
  },
  storageRelativeMountPath: (rng, md) => {
    md.spec.model.storage = { volumes: [{ name: 'extra', claimName: 'x', mountPath: rng.pick(['data', '/proc/x', '/etc']) }] };
  },
  storageTwoModelCaches: (_rng, md) => {
    md.spec.model.storage = {
      volumes: [
        { name: 'a', purpose: 'modelCache', claimName: 'a' },
        { name: 'b', purpose: 'modelCache', claimName: 'b' },
      ],
    };
  },
  storageNoClaim: (_rng, md) => {
    md.spec.model.storage = { volumes: [{ name: 'cache', purpose: 'modelCache' }] };
  },
  storageBadSize: (rng, md) => {
    md.spec.model.storage = { volumes: [{ name: 'cache', purpose: 'modelCache', size: rng.pick(['0', 'lots', '-5Gi']) }] };
  },
  unknownField: (rng, md) => {
    if (rng.chance(0.5)) md.spec.replicas = 2;
    else md.spec.engine = { ...(md.spec.engine ?? {}), maxTokens: 10 };
  },
  wrongType: (rng, md) => {
    if (rng.chance(0.5)) md.spec.resources = { ...(md.spec.resources ?? {}), gpu: { count: 'two' } };
    else md.spec.engine = { ...(md.spec.engine ?? {}), trustRemoteCode: 'yes' };
  },
  cpuTooLarge: (rng, md) => {
    md.spec.resources = { ...(md.spec.resources ?? {}), cpu: rng.pick(['1024', 'abc']), memory: rng.pick(['8Ti', '16Gi']) };
  },
  gatewayWithoutGateway: (_rng, md) => {
    md.spec.gateway = { enabled: true };
  },
  badDynamoApiVersion: (_rng, md) => {
    md.spec.provider = { ...(md.spec.provider ?? {}), name: 'dynamo' };
    md.metadata.annotations = { ...(md.metadata.annotations ?? {}), 'inference.cdk8s.io/dynamo-api-version': 'nvidia.com/v2' };
  },
  kaitoLlamacppNoImage: (_rng, md) => {
    md.spec.provider = { name: 'kaito' };
    md.spec.engine = { type: 'llamacpp' };
    delete md.spec.image;
  },
  wrongApiVersion: (_rng, md) => {
    md.apiVersion = 'airunway.ai/v1beta1';
  },
  noModel: (_rng, md) => {
    delete md.spec.model;
  },
};

// ---------------------------------------------------------------------------------------------
// Cases

function caseName(rng: Rng, index: number): string {
  return `${rng.pick(NAME_STEMS)}-${index}`;
}

export function generateCase(rng: Rng, index: number): Case {
  const shape = rng.weighted({ single: 70, multi: 10, brokenYaml: 2, otherKind: 2, usage: 3, duplicate: 2, customProvider: 2 });
  if (shape === 'brokenYaml') {
    return { docs: [rng.pick(['apiVersion: [unclosed\n', 'kind: ModelDeployment\nmetadata: {name: a\n', 'spec:\n  model:\n    id: x\n   bad: indent\n'])], outputDir: false };
  }

  const docs: Array<object | string> = [];
  const disabled = new Set<string>();
  let needsGateway = false;
  const count = shape === 'multi' ? rng.int(2, 3) : 1;
  const namespaceForAll = rng.chance(0.85) ? rng.pick(NAMESPACES) : undefined;
  for (let d = 0; d < count; d++) {
    const provider = rng.weighted<Provider>({ dynamo: 26, kaito: 18, kuberay: 18, llmd: 20, vllm: 18 });
    const engine: Engine =
      provider === 'dynamo' ? rng.weighted<Engine>({ vllm: 5, sglang: 3, trtllm: 2, llamacpp: 0 })
        : provider === 'kaito' ? rng.weighted<Engine>({ vllm: 4, sglang: 0, trtllm: 0, llamacpp: 6 })
          : 'vllm';
    const disaggregatable = (provider === 'dynamo' && engine !== 'trtllm') || provider === 'llmd' || provider === 'kuberay';
    const plan: Plan = {
      provider,
      explicit: rng.chance(0.6),
      engine,
      engineExplicit: rng.chance(0.75) || engine === 'llamacpp',
      disaggregated: disaggregatable && rng.chance(0.35),
    };
    const name = shape === 'multi' ? `${caseName(rng, index)}-${d}` : caseName(rng, index);
    const namespace = shape === 'multi' && rng.chance(0.3) ? rng.pick(NAMESPACES) : namespaceForAll;
    const { md, gpu } = modelDeployment(rng, plan, name, namespace);
    if (!plan.explicit) for (const r of rivals(plan, gpu)) disabled.add(r);
    if (rng.chance(0.11)) {
      const mutation = rng.pick(Object.keys(MUTATIONS));
      MUTATIONS[mutation](rng, md);
    }
    if (md.spec?.gateway?.enabled === true) needsGateway = true;
    docs.push(md);
  }
  if (shape === 'duplicate') docs.push(structuredClone(docs[0]));
  if (shape === 'otherKind') docs.push({ apiVersion: 'v1', kind: rng.pick(['ConfigMap', 'Secret']), metadata: { name: 'x' } });

  // Providers declared absent (or, now and then, one extra or a ready one restated).
  for (const p of PROVIDERS) if (!disabled.has(p) && rng.chance(0.04)) disabled.add(p);
  const providerDocs: object[] = [...disabled].sort().map((p) => providerConfigDoc(p, false, rng));
  if (rng.chance(0.05)) providerDocs.push(providerConfigDoc(rng.pick(PROVIDERS.filter((p) => !disabled.has(p))), true, rng));
  if (shape === 'customProvider') {
    providerDocs.push({
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'InferenceProviderConfig',
      metadata: { name: 'in-house' },
      spec: {
        capabilities: { engines: [{ name: rng.pick(['vllm', 'tgi']), servingModes: ['aggregated'], gpuSupport: true }] },
        selectionRules: [{ condition: 'true', priority: 1000 }],
      },
    });
  }
  const separateFile = providerDocs.length > 0 && rng.chance(0.4);
  if (!separateFile) docs.push(...providerDocs);

  // Routing flags and Gateway documents.
  let gateway: string | undefined;
  let poolVersion: string | undefined;
  const namespaced = docs.every((d) => typeof d !== 'object' || (d as any).kind !== 'ModelDeployment' || (d as any).metadata?.namespace !== undefined);
  if (rng.chance(namespaced ? (needsGateway ? 0.92 : 0.45) : 0.1)) {
    gateway = rng.chance(0.85) ? 'gw-ns/inference-gateway' : rng.pick(['gateway-system/external', 'team-a/local-gw']);
    if (rng.chance(0.25)) poolVersion = rng.pick(['v1alpha2', 'v1alpha2', 'v1']);
    if (rng.chance(0.35)) {
      const [ns, gwName] = gateway.split('/');
      const listener: any = { name: 'http', port: 80, protocol: 'HTTP' };
      const allowed = rng.weighted({ none: 3, all: 1, selector: 1, same: 1 });
      if (allowed === 'all') listener.allowedRoutes = { namespaces: { from: 'All' } };
      if (allowed === 'selector') listener.allowedRoutes = { namespaces: { from: 'Selector', selector: { matchLabels: { gateway: 'yes' } } } };
      if (allowed === 'same') listener.allowedRoutes = { namespaces: { from: 'Same' } };
      docs.push({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: gwName, namespace: ns }, spec: { gatewayClassName: 'istio', listeners: [listener] } });
    }
  }
  const badArgs = shape === 'usage'
    ? rng.pick([['--gateway', 'NoSlash'], ['--inference-pool-api-version', 'v2'], ['--bogus'], ['--gateway'], ['-o']])
    : undefined;
  return {
    docs,
    ...(separateFile ? { providerDocs } : {}),
    ...(gateway ? { gateway } : {}),
    ...(poolVersion ? { poolVersion } : {}),
    outputDir: rng.chance(0.1),
    ...(badArgs ? { badArgs } : {}),
  };
}

export function renderDocs(docs: ReadonlyArray<object | string>): string {
  return docs.map((d) => (typeof d === 'string' ? d : stringify(d, { lineWidth: 0 }))).join('---\n');
}

// ---------------------------------------------------------------------------------------------
// Running the CLI

interface Captured {
  code: number | string;
  stdout: string;
  stderr: string;
  /** Written to the process streams directly, bypassing the CLI's io. */
  processStdout: string;
  processStderr: string;
}

async function runCli(cliMain: typeof main, argv: string[]): Promise<Captured> {
  const captured: Captured = { code: '', stdout: '', stderr: '', processStdout: '', processStderr: '' };
  const realStdout = process.stdout.write;
  const realStderr = process.stderr.write;
  process.stdout.write = ((chunk: any) => {
    captured.processStdout += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: any) => {
    captured.processStderr += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    captured.code = await cliMain(argv, {
      stdout: (text) => (captured.stdout += text),
      // As the process io does: one line per call.
      stderr: (line) => (captured.stderr += `${line}\n`),
    });
  } catch (e: any) {
    captured.code = `threw: ${e?.message ?? e}`;
  } finally {
    process.stdout.write = realStdout;
    process.stderr.write = realStderr;
  }
  return captured;
}

function section(title: string, text: string): string {
  return `=== ${title}\n${text}${text === '' || text.endsWith('\n') ? '' : '\n<no newline at end>\n'}`;
}

function formatRun(label: string, argv: readonly string[], r: Captured): string {
  let out = `##### ${label}: cdk8s-inference ${argv.join(' ')}\n`;
  out += `exit code: ${r.code}\n`;
  out += section('stdout', r.stdout);
  out += section('stderr', r.stderr);
  if (r.processStdout !== '') out += section('process.stdout', r.processStdout);
  if (r.processStderr !== '') out += section('process.stderr', r.processStderr);
  return out;
}

/** Every file under `dir`, relative and sorted, with its content. */
function listFiles(dir: string): string {
  if (!fs.existsSync(dir)) return '(no output directory)\n';
  const files = (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort();
  return files.map((f) => section(`file ${f}`, fs.readFileSync(path.join(dir, f), 'utf8'))).join('') || '(empty)\n';
}

// ---------------------------------------------------------------------------------------------
// Summary

interface Tally {
  readonly counts: Map<string, number>;
}

function bump(t: Tally, key: string): void {
  t.counts.set(key, (t.counts.get(key) ?? 0) + 1);
}

/** What a successful synth produced, for the summary. */
function tallyOutput(t: Tally, stdout: string): void {
  const docs = parseAllDocuments(stdout).map((d: any) => d.toJS()).filter((d: any) => d && typeof d === 'object');
  // Records only: modelplane's own ModelDeployment (modelplane.ai) shares the kind.
  const isRecord = (d: any): boolean => d.apiVersion === 'airunway.ai/v1alpha1' && d.kind === 'ModelDeployment';
  const records = new Map<string, any>(docs.filter(isRecord).map((d: any) => [`${d.metadata?.namespace}/${d.metadata?.name}`, d]));
  const recordOf = (d: any): any => records.get(`${d.metadata?.namespace}/${d.metadata?.labels?.['airunway.ai/model-deployment'] ?? d.metadata?.name}`);
  for (const d of docs) {
    if (isRecord(d)) {
      const provider = d.spec?.provider?.name ?? '?';
      const mode = d.spec?.serving?.mode ?? 'aggregated';
      const selection = d.metadata?.annotations?.['inference.cdk8s.io/provider-selected-reason'] ?? '';
      bump(t, `provider ${provider}`);
      bump(t, `provider ${provider} ${mode}`);
      bump(t, `provider ${provider} engine ${d.spec?.engine?.type ?? '?'}`);
      bump(t, `provider ${provider} ${/explicit|specified/i.test(selection) ? 'explicit' : 'auto-selected'}`);
      if (d.metadata?.annotations?.['airunway.ai/dynamo-test-backend'] === 'mocker') bump(t, `provider ${provider} mocker annotation`);
      if (provider === 'kaito') bump(t, `provider kaito engine ${d.spec?.engine?.type} ${(d.spec?.resources?.gpu?.count ?? 0) > 0 ? 'gpu' : 'cpu'}`);
    } else if (d.kind === 'DynamoGraphDeployment') {
      bump(t, `DynamoGraphDeployment ${d.apiVersion}`);
      bump(t, `DynamoGraphDeployment ${d.apiVersion} ${recordOf(d)?.spec?.serving?.mode ?? '?'}`);
    } else if (d.kind === 'HTTPRoute') {
      bump(t, `routed (HTTPRoute) provider ${recordOf(d)?.spec?.provider?.name ?? '?'}`);
    }
    if (['InferencePool', 'HTTPRoute', 'ReferenceGrant', 'Gateway', 'PersistentVolumeClaim', 'Job'].includes(d.kind)) {
      bump(t, `object ${d.kind}${d.kind === 'InferencePool' ? ` ${d.apiVersion}` : ''}`);
    }
  }
}

function formatTally(t: Tally): string {
  return [...t.counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${String(v).padStart(5)}  ${k}\n`)
    .join('');
}

// ---------------------------------------------------------------------------------------------

async function run(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cliMain: typeof main = options.cli ? require(options.cli).main : main;
  const outdir = options.out;
  fs.rmSync(outdir, { recursive: true, force: true });
  fs.mkdirSync(path.join(outdir, 'inputs'), { recursive: true });
  fs.mkdirSync(path.join(outdir, 'outputs'), { recursive: true });
  const originalCwd = process.cwd();
  process.chdir(outdir);
  // Absolute spellings of DIR that may appear in messages (`synth -o` resolves its directory).
  const absolute = [outdir, fs.realpathSync(outdir)].sort((a, b) => b.length - a.length);
  const normalize = (text: string): string => absolute.reduce((s, a) => s.split(a).join('<DIR>'), text);

  const rng = new Rng(options.seed);
  const exitCodes: Tally = { counts: new Map() };
  const outputs: Tally = { counts: new Map() };
  const width = Math.max(4, String(options.count).length);
  try {
    for (let i = 1; i <= options.count; i++) {
      const id = String(i).padStart(width, '0');
      const c = generateCase(rng, i);
      const files = [`inputs/${id}.yaml`];
      fs.writeFileSync(files[0], renderDocs(c.docs));
      if (c.providerDocs) {
        files.push(`inputs/${id}.providers.yaml`);
        fs.writeFileSync(files[1], renderDocs(c.providerDocs));
      }
      const common = [
        ...files.flatMap((f) => ['-f', f]),
        ...(c.gateway ? ['--gateway', c.gateway] : []),
        ...(c.poolVersion ? ['--inference-pool-api-version', c.poolVersion] : []),
        ...(c.badArgs ?? []),
      ];
      const synthArgv = ['synth', ...common];
      const synth = await runCli(cliMain, synthArgv);
      let text = formatRun('synth', synthArgv, synth);
      bump(exitCodes, `exit ${synth.code}`);
      if (synth.code === 0) tallyOutput(outputs, synth.stdout);

      const explainArgv = ['explain', ...common];
      text += formatRun('explain', explainArgv, await runCli(cliMain, explainArgv));

      if (c.outputDir) {
        const dir = `synth-out/${id}`;
        const dirArgv = ['synth', ...common, '-o', dir];
        text += formatRun('synth -o', dirArgv, await runCli(cliMain, dirArgv));
        text += listFiles(dir);
        fs.rmSync(dir, { recursive: true, force: true });
      }
      fs.writeFileSync(`outputs/${id}.out`, normalize(text));
    }
    fs.rmSync('synth-out', { recursive: true, force: true });
  } finally {
    process.chdir(originalCwd);
  }

  const summary =
    `seed ${options.seed}, count ${options.count}\n\nsynth exit codes:\n${formatTally(exitCodes)}\n` +
    `successful synths (per ModelDeployment record / object):\n${formatTally(outputs)}`;
  fs.writeFileSync(path.join(outdir, 'summary.txt'), summary);
  console.log(summary);
  return 0;
}

// Run as a script only: test/support/hostile-inputs.ts imports the generator.
if (require.main === module) {
  run().then(
    (code) => process.exit(code),
    (e) => {
      console.error(e?.stack ?? e);
      process.exit(1);
    },
  );
}
