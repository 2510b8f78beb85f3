/**
 * A generated matrix of ModelDeployments over every engine setting the API exposes, per provider
 * that starts an engine from our command line: the second half of the engine conformance corpus
 * (the examples are the first). From one base deployment per provider and engine, each case varies
 * one setting, or one of a few combinations that interact (parallel sizes with GPU counts, roles
 * with parallelism), so a failure names the setting that caused it.
 *
 * Settings: context length, remote code, prefix caching on/off/unset, eager mode, served name,
 * GPU counts (derived tensor parallelism), the user's TP/PP/DP, quantization, LoRA adapters,
 * prefill/decode roles, multi-node replicas, speculative decoding, `engine.args` (valued, empty
 * and `"true"`/`"false"` switches), `extraArgs`, and (where a target serves cached weights from
 * a mount path) a modelCache volume.
 */
import { stringify } from 'yaml';

/** One generated case: an AI Runway ModelDeployment, as the CLI reads it. */
export interface MatrixCase {
  /** `vllm/contextLength`: provider (and engine), then the setting. */
  readonly name: string;
  readonly provider: string;
  readonly engine: string;
  readonly document: Record<string, unknown>;
}

type Spec = Record<string, any>;

interface Variation {
  readonly name: string;
  /** Applied to a copy of the base spec. */
  readonly spec?: (s: Spec) => void;
  readonly annotations?: Record<string, string>;
}

const LORA = 'adapters:\n  - name: sql\n    source: hf://acme-ml/qwen3-8b-sql-lora@v1.2\n';

/** The providers that start an engine from the command line we render, with the engines each runs. */
interface Target {
  readonly provider: string;
  readonly engines: readonly string[];
  readonly disaggregated: boolean;
  readonly multiNode: boolean;
  readonly lora: boolean;
  /** Also a case with a modelCache volume (where the target serves the weights from a mount path). */
  readonly modelCache?: boolean;
}

const TARGETS: readonly Target[] = [
  { provider: 'vllm', engines: ['vllm'], disaggregated: false, multiNode: true, lora: true },
  { provider: 'llmd', engines: ['vllm'], disaggregated: true, multiNode: true, lora: true },
  { provider: 'kuberay', engines: ['vllm'], disaggregated: true, multiNode: true, lora: false },
  { provider: 'kthena', engines: ['vllm', 'sglang'], disaggregated: true, multiNode: true, lora: true },
  { provider: 'modelplane', engines: ['vllm'], disaggregated: true, multiNode: true, lora: false },
  // FlexInfer's vllm backend loads a SharedPVC-cached model from /models/<model>.
  { provider: 'flexinfer', engines: ['vllm'], disaggregated: false, multiNode: false, lora: false, modelCache: true },
  { provider: 'dynamo', engines: ['vllm', 'sglang', 'trtllm'], disaggregated: true, multiNode: true, lora: false },
];

function engineSettings(engine: string): Variation[] {
  const set = (f: (e: Spec) => void) => (s: Spec) => f((s.engine ??= {}));
  const args = (a: Record<string, string>) => set((e) => { e.args = { ...e.args, ...a }; });
  const vllmLike = engine === 'vllm';
  const out: Variation[] = [
    { name: 'base' },
    { name: 'contextLength', spec: set((e) => { e.contextLength = 8192; }) },
    { name: 'trustRemoteCode', spec: set((e) => { e.trustRemoteCode = true; }) },
    { name: 'prefixCaching on', spec: set((e) => { e.enablePrefixCaching = true; }) },
    { name: 'prefixCaching off', spec: set((e) => { e.enablePrefixCaching = false; }) },
    { name: 'enforceEager', spec: set((e) => { e.enforceEager = true; }) },
    { name: 'servedName', spec: (s) => { s.model.servedName = 'chat'; } },
    { name: '2 GPUs', spec: (s) => { s.resources = { gpu: { count: 2 } }; } },
    { name: '4 GPUs', spec: (s) => { s.resources = { gpu: { count: 4 } }; } },
    { name: '4 GPUs, TP 2 × PP 2', spec: (s) => { s.resources = { gpu: { count: 4 } }; args({ 'tensor-parallel-size': '2', 'pipeline-parallel-size': '2' })(s); } },
    // Options of the engine's own: SGLang names vLLM's --max-num-seqs --max-running-requests, TensorRT-LLM --max-batch-size.
    { name: 'engine.args valued', spec: args({ sglang: { 'max-running-requests': '64' }, trtllm: { 'max-batch-size': '64' } }[engine] ?? { 'max-num-seqs': '64' }) },
    { name: 'extraArgs', spec: set((e) => { e.extraArgs = [engine === 'sglang' ? '--chunked-prefill-size=8192' : '--max-num-batched-tokens=8192']; }) },
  ];
  if (vllmLike) {
    out.push(
      { name: '4 GPUs, TP 2 × DP 2', spec: (s) => { s.resources = { gpu: { count: 4 } }; args({ 'tensor-parallel-size': '2', 'data-parallel-size': '2' })(s); } },
      { name: 'quantization', spec: args({ quantization: 'fp8' }) },
      { name: 'engine.args empty switch', spec: args({ 'enable-chunked-prefill': '' }) },
      { name: 'engine.args "true" switch', spec: args({ 'enable-chunked-prefill': 'true' }) },
      { name: 'engine.args "false" switch', spec: args({ 'enable-chunked-prefill': 'false' }) },
      { name: 'speculative decoding', spec: args({ 'speculative-config': '{"method":"ngram","num_speculative_tokens":4,"prompt_lookup_max":4}' }) },
      {
        name: 'everything',
        spec: (s) => {
          s.model.servedName = 'chat';
          s.resources = { gpu: { count: 2 } };
          Object.assign((s.engine ??= {}), { contextLength: 16384, trustRemoteCode: true, enablePrefixCaching: false, enforceEager: true });
        },
      },
    );
  }
  if (engine === 'sglang') {
    out.push(
      { name: 'engine.args "true" switch', spec: args({ 'enable-mixed-chunk': 'true' }) },
      { name: 'quantization', spec: args({ quantization: 'fp8' }) },
    );
  }
  return out;
}

function roleSettings(): Variation[] {
  const disaggregated = (prefill: number, decode: number) => (s: Spec) => {
    delete s.resources;
    s.serving = { mode: 'disaggregated' };
    s.scaling = { prefill: { replicas: 1, gpu: { count: prefill } }, decode: { replicas: 1, gpu: { count: decode } } };
  };
  return [
    { name: 'disaggregated 1+1', spec: disaggregated(1, 1) },
    { name: 'disaggregated 2+4', spec: disaggregated(2, 4) },
  ];
}

/** Every case of the matrix, in a stable order. */
export function engineMatrix(): MatrixCase[] {
  const out: MatrixCase[] = [];
  for (const target of TARGETS) {
    for (const engine of target.engines) {
      const variations = [...engineSettings(engine)];
      if (target.disaggregated) variations.push(...roleSettings());
      if (target.multiNode) {
        variations.push({ name: 'multi-node 16 GPUs on nodes of 8', spec: (s) => { s.resources = { gpu: { count: 16 } }; }, annotations: { 'inference.cdk8s.io/multi-node': 'gpusPerNode: 8\n' } });
      }
      if (target.lora) variations.push({ name: 'LoRA adapter', annotations: { 'inference.cdk8s.io/lora': LORA } });
      if (target.modelCache) {
        const cache = { name: 'model-cache', purpose: 'modelCache', size: '50Gi', accessMode: 'ReadWriteMany' };
        variations.push(
          { name: 'modelCache volume', spec: (s) => { s.model.storage = { volumes: [cache] }; } },
          { name: 'modelCache volume, servedName', spec: (s) => { s.model.storage = { volumes: [cache] }; s.model.servedName = 'chat'; } },
        );
      }
      for (const v of variations) {
        const spec: Spec = {
          model: { id: 'Qwen/Qwen3-8B' },
          provider: { name: target.provider },
          engine: { type: engine },
          resources: { gpu: { count: 1 } },
        };
        v.spec?.(spec);
        const name = `${target.provider}${target.engines.length > 1 ? `+${engine}` : ''}/${v.name}`;
        out.push({
          name,
          provider: target.provider,
          engine,
          document: {
            apiVersion: 'airunway.ai/v1alpha1',
            kind: 'ModelDeployment',
            metadata: { name: 'm', namespace: 'ml', ...(v.annotations && { annotations: v.annotations }) },
            spec,
          },
        });
      }
    }
  }
  return out;
}

/** A case as the YAML the CLI reads. */
export function matrixCaseYaml(c: MatrixCase): string {
  return stringify(c.document);
}
