import { unsupportedValue } from './feature-gaps';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { FieldError, invalid } from '../../core/field-error';
import { FlexInferBackend } from '../../flexinfer/backend';

/*
 * How a deployment's engine settings reach a FlexInfer backend. FlexInfer renders the server's
 * command line itself, from named keys of `spec.config`; it passes no raw flags through. So every
 * structured engine field and every `engine.args` flag must map to a config key the backend
 * reads, and one that does not map fails the synth rather than vanish.
 */

/** The AI Runway engines FlexInfer runs, and the backend each becomes. */
export const ENGINE_BACKENDS: Readonly<Record<string, FlexInferBackend>> = {
  vllm: FlexInferBackend.VLLM,
  llamacpp: FlexInferBackend.LLAMA_CPP,
};

/** How a flag's `engine.args` value is written into `spec.config`. */
type ConfigValueKind = 'string' | 'int' | 'bool';

interface FlagMapping {
  /** The `spec.config` key the backend reads. */
  readonly key: string;
  readonly kind: ConfigValueKind;
}

const str = (key: string): FlagMapping => ({ key, kind: 'string' });
const int = (key: string): FlagMapping => ({ key, kind: 'int' });
const bool = (key: string): FlagMapping => ({ key, kind: 'bool' });

/** vLLM server flags (`engine.args` keys) and the config keys FlexInfer's vllm backend renders them from. */
export const VLLM_FLAG_CONFIG: Readonly<Record<string, FlagMapping>> = {
  'attention-backend': str('attentionBackend'),
  'cpu-offload-gb': str('cpuOffloadGb'),
  'disable-log-stats': bool('disableLogStats'),
  'dtype': str('dtype'),
  'enable-auto-tool-choice': bool('enableToolCalling'),
  'enforce-eager': bool('enforceEager'),
  'gpu-memory-utilization': str('gpuMemoryUtilization'),
  'kv-cache-dtype': str('kvCacheDtype'),
  'limit-mm-per-prompt': str('limitMmPerPrompt'),
  'max-model-len': int('maxModelLen'),
  'max-num-batched-tokens': int('maxNumBatchedTokens'),
  'max-num-seqs': int('maxNumSeqs'),
  'mm-processor-kwargs': str('mmProcessorKwargs'),
  'num-gpu-blocks-override': int('numGpuBlocksOverride'),
  'offload-backend': str('offloadBackend'),
  'quantization': str('quantization'),
  'reasoning-parser': str('reasoningParser'),
  'served-model-name': str('servedModelName'),
  'speculative-config': str('speculativeConfig'),
  'tokenizer': str('tokenizer'),
  'tool-call-parser': str('toolCallParser'),
  'trust-remote-code': bool('trustRemoteCode'),
};

/**
 * llama-server flags and the config keys FlexInfer's llamacpp backend renders them from.
 * `hf-file` (llama.cpp's flag for the GGUF file of a Hugging Face repository) selects the file
 * FlexInfer's prefetch Job downloads and the server loads (`ggufFile`).
 */
export const LLAMACPP_FLAG_CONFIG: Readonly<Record<string, FlagMapping>> = {
  'batch-size': int('batchSize'),
  'cache-type-k': str('cacheTypeK'),
  'cache-type-v': str('cacheTypeV'),
  'chat-template': str('chatTemplate'),
  'ctx-size': int('contextSize'),
  'device': str('device'),
  'embeddings': bool('embedding'),
  'flash-attn': bool('flashAttention'),
  'hf-file': str('ggufFile'),
  'jinja': bool('jinja'),
  'metrics': bool('metrics'),
  'mmproj': str('mmproj'),
  'n-gpu-layers': int('nGPULayers'),
  'parallel': int('parallel'),
  'reasoning-budget': int('reasoningBudget'),
  'reasoning-format': str('reasoningFormat'),
  'threads': int('threads'),
  'ubatch-size': int('ubatchSize'),
};

/** The flag table of an engine. */
export function flagTableOf(engine: string): Readonly<Record<string, FlagMapping>> {
  return engine === 'llamacpp' ? LLAMACPP_FLAG_CONFIG : VLLM_FLAG_CONFIG;
}

/** `engine.args` key of the GGUF file of a llama.cpp model. */
export const GGUF_FILE_ARG = 'hf-file';

const TRUE_WORDS = ['', 'true', 'on'];
const FALSE_WORDS = ['false', 'off'];

function configValue(mapping: FlagMapping, raw: string): { value?: unknown; problem?: string } {
  const value = raw.trim();
  switch (mapping.kind) {
    case 'string':
      return value === '' ? { problem: 'needs a value' } : { value };
    case 'int':
      return /^-?\d+$/.test(value) && Number.isSafeInteger(Number(value)) ? { value: Number(value) } : { problem: 'must be a whole number' };
    case 'bool':
      if (TRUE_WORDS.includes(value.toLowerCase())) return { value: true };
      if (FALSE_WORDS.includes(value.toLowerCase())) return { value: false };
      return { problem: 'is a switch: leave the value empty (or "true"), or set "false"' };
  }
}

/** The backend config a deployment's engine settings become, and what was refused or ignored. */
export interface EngineConfig {
  readonly config: Record<string, unknown>;
  readonly errors: FieldError[];
  readonly warnings: string[];
}

/**
 * The structured engine fields and `engine.args` of a vllm or llamacpp deployment as FlexInfer
 * backend config:
 *
 * - vllm: `servedName` → `servedModelName`, `contextLength` → `maxModelLen`, `trustRemoteCode`
 *   and `enforceEager` when true, `enablePrefixCaching: false` → `enablePrefixCaching: false`
 *   (vLLM caches by default, so only "off" is written);
 * - llamacpp: `contextLength` → `contextSize`; `servedName`, `trustRemoteCode` and
 *   `enforceEager` have no llama-server setting and are reported as ignored (warnings);
 * - `engine.args`: each key through the engine's flag table, its value typed (a string, a whole
 *   number, or a switch); an args key wins over the structured field it duplicates, as on the
 *   other targets. A key not in the table, a value of the wrong type, and vLLM's
 *   `tool-call-parser` without `enable-auto-tool-choice` (FlexInfer would drop it) are errors;
 * - `engine.extraArgs`: refused (FlexInfer takes no raw flags).
 */
export function engineConfig(md: ResolvedModelDeployment): EngineConfig {
  const spec = md.spec;
  const engine = spec.engine ?? {};
  const args = engine.args ?? {};
  const table = flagTableOf(md.engine);
  const config: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  const warnings: string[] = [];
  const set = (key: string, value: unknown) => {
    config[key] = value;
  };

  if (md.engine === 'llamacpp') {
    if (engine.contextLength !== undefined && engine.contextLength !== null) set('contextSize', engine.contextLength);
    const ignored = [
      ...(spec.model.servedName ? ['spec.model.servedName'] : []),
      ...(engine.trustRemoteCode ? ['spec.engine.trustRemoteCode'] : []),
      ...(engine.enforceEager ? ['spec.engine.enforceEager'] : []),
    ];
    if (ignored.length > 0) {
      warnings.push(`FlexInfer's llamacpp backend has no setting for ${ignored.join(', ')}; llama-server serves under its model file and ignores them`);
    }
  } else {
    if (spec.model.servedName) set('servedModelName', spec.model.servedName);
    if (engine.contextLength !== undefined && engine.contextLength !== null) set('maxModelLen', engine.contextLength);
    if (engine.trustRemoteCode) set('trustRemoteCode', true);
    if (engine.enforceEager) set('enforceEager', true);
    if (engine.enablePrefixCaching === false) set('enablePrefixCaching', false);
  }

  const known = Object.keys(table).sort();
  for (const key of Object.keys(args).sort()) {
    const path = `spec.engine.args.${key}`;
    const mapping = table[key];
    if (!mapping) {
      errors.push(unsupportedValue(path, key, `engine flag ${JSON.stringify(key)}`,
        `FlexInfer's ${md.engine} backend renders the server's flags from named config keys and passes no others; the flags it can set are ${known.join(', ')}`));
      continue;
    }
    const { value, problem } = configValue(mapping, args[key]);
    if (problem !== undefined) errors.push(invalid(path, args[key], `${problem} (FlexInfer config key ${mapping.key})`));
    else set(mapping.key, value);
  }
  if (md.engine === 'vllm' && args['tool-call-parser'] !== undefined && config.enableToolCalling !== true) {
    errors.push(invalid('spec.engine.args.tool-call-parser', args['tool-call-parser'],
      'FlexInfer renders --tool-call-parser only together with --enable-auto-tool-choice; set engine.args enable-auto-tool-choice too'));
  }
  (engine.extraArgs ?? []).forEach((token, i) => {
    errors.push(unsupportedValue(`spec.engine.extraArgs[${i}]`, token, 'raw engine flags (engine.extraArgs)',
      `FlexInfer renders the server's command line from named config keys and passes no raw flags; use engine.args with one of the flags FlexInfer's ${md.engine} backend maps`));
  });
  return { config, errors, warnings };
}
