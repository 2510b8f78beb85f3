/**
 * The one table from ModelDeployment spec fields to engine command-line flags, per engine.
 * Every provider renders its structured engine settings through it; a provider keeps only the
 * ORDER of its flags and its own QUIRKS (which states it renders, skipping, derivations).
 *
 * | setting            | spec field                        | vllm                         | sglang                       | trtllm                       | llamacpp |
 * |--------------------|-----------------------------------|------------------------------|------------------------------|------------------------------|----------|
 * | model              | spec.model.id                     | `--model <id>`               | `--model-path <id>`          | `--model-path <id>`          | –        |
 * | servedModelName    | spec.model.servedName             | `--served-model-name <name>` | `--served-model-name <name>` | `--served-model-name <name>` | –        |
 * | contextLength      | spec.engine.contextLength         | `--max-model-len <n>`        | `--context-length <n>`       | `--max-seq-len <n>`          | –        |
 * | trustRemoteCode    | spec.engine.trustRemoteCode       | `--trust-remote-code`        | `--trust-remote-code`        | –                            | –        |
 * | prefixCachingOn    | spec.engine.enablePrefixCaching   | `--enable-prefix-caching`    | (default)                    | –                            | –        |
 * | prefixCachingOff   | enablePrefixCaching: false        | `--no-enable-prefix-caching` | `--disable-radix-cache`      | –                            | –        |
 * | enforceEager       | spec.engine.enforceEager          | `--enforce-eager`            | `--cuda-graph-backend-{decode,prefill} disabled` | –          | –        |
 * | tensorParallelSize | GPU count (derived per provider)  | `--tensor-parallel-size <n>` | `--tensor-parallel-size <n>` | `--tensor-parallel-size <n>` | –        |
 *
 * (– : not expressible; (default): what the engine does unless told otherwise; the engine gets no
 * flag for either, see below.)
 *
 * Why each flag (AI Runway providers spec §2.5, §3.5, §5.3, §6.4 and the §7 cheat-sheet, which
 * the providers' tests pin token for token):
 *
 * - vLLM: its own server flags. `--max-model-len` is vLLM's name for the context length.
 *   Prefix caching is a boolean option with a `--no-` form: `--enable-prefix-caching` turns it
 *   on, `--no-enable-prefix-caching` off (the V1 engine caches by default, so "off" needs the
 *   flag). `--enforce-eager` disables CUDA graphs. `--tensor-parallel-size` shards the model
 *   over the container's GPUs.
 * - SGLang (Dynamo's `dynamo.sglang` worker, which takes SGLang's server arguments): the model
 *   is `--model-path`, the context length `--context-length`, tensor parallelism
 *   `--tensor-parallel-size` (alias `--tp-size`). Its prefix cache is the radix cache, on unless
 *   `--disable-radix-cache`, so "on" renders nothing; its eager mode is no CUDA graphs for either
 *   phase, `--cuda-graph-backend-decode disabled --cuda-graph-backend-prefill disabled` (SGLang
 *   0.5.2x deprecates `--disable-cuda-graph` for these, naming them as its replacement).
 *   AI Runway renders `--enable-prefix-caching` and `--enforce-eager` for SGLang, which SGLang's
 *   parser refuses ("unrecognized arguments": the worker never starts; README, "Where we
 *   differ").
 * - TensorRT-LLM (Dynamo's `dynamo.trtllm` worker): `--model-path` (AI Runway's spelling; newer
 *   workers name it `--model` and keep `--model-path` as an alias), `--served-model-name`,
 *   `--tensor-parallel-size` and the context length as `--max-seq-len` (AI Runway warns that the
 *   context length is ignored and drops it, though the worker takes it; README, "Where we
 *   differ"). The CRD documents trustRemoteCode, enablePrefixCaching and enforceEager as "only
 *   applicable for vllm and sglang engines": TensorRT-LLM configures KV-cache reuse and CUDA
 *   graphs in its engine config, not by these flags. Those cells are not expressible.
 * - llama.cpp (KAITO's llama.cpp template): the runtime takes only a positional model reference
 *   (the GGUF URL or `huggingface://<id>`) and `--address`, which KAITO's translator renders
 *   itself; it serves under its model file. No setting is expressible as a flag, and KAITO
 *   reports the set ones as ignored.
 *
 * A flag's `engine.args` key is its name without `--` (`engineFlagKey`): that is how a provider
 * recognises a flag the user also sets by hand.
 *
 * What is NOT in the table, because it is a provider's decision: the order of the flags; which
 * prefix-caching states a provider renders (llm-d, Direct vLLM and Dynamo both, an unset value
 * counting as on for llm-d; KubeRay only off); whether an empty model id still renders `--model`
 * (it does except on KubeRay); the GPU count that becomes the tensor-parallel size; and skipping
 * a derived flag the user also sets in `engine.args`/`extraArgs` (Direct vLLM, KubeRay's
 * tensor-parallel size). Whether the resulting tensor × pipeline parallel size fits the GPUs of
 * each pod is checked in `./parallelism`.
 */
import type { EngineArgumentTable } from './generated/engine-arguments';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import type { EngineName } from '../core/model-deployment-object';

/** A structured engine setting that the table maps to a flag. */
export type EngineSetting =
  | 'model'
  | 'servedModelName'
  | 'contextLength'
  | 'trustRemoteCode'
  | 'prefixCachingOn'
  | 'prefixCachingOff'
  | 'enforceEager'
  | 'tensorParallelSize';

/** The settings read from the spec; the tensor-parallel size is derived by each provider instead. */
export type SpecEngineSetting = Exclude<EngineSetting, 'tensorParallelSize'>;

/** Every setting, in the table's (documentation) order. */
export const ENGINE_SETTINGS: readonly EngineSetting[] = [
  'model',
  'servedModelName',
  'contextLength',
  'trustRemoteCode',
  'prefixCachingOn',
  'prefixCachingOff',
  'enforceEager',
  'tensorParallelSize',
];

/** How an engine expresses a setting. */
export type EngineFlagRule =
  /** `<flag> <value>`: two tokens. */
  | { readonly kind: 'value'; readonly flag: string }
  /** `<flag>` alone. */
  | { readonly kind: 'switch'; readonly flag: string }
  /**
   * Fixed `<flag> <value>` pairs, in order (one setting that takes several options); `fallback`,
   * the switch an engine release without the first option takes instead (an older release, known
   * from its argument table).
   */
  | { readonly kind: 'options'; readonly options: readonly (readonly [string, string])[]; readonly fallback?: string }
  /** No flag: the engine does what the setting asks unless told otherwise. */
  | { readonly kind: 'engineDefault'; readonly reason: string }
  /** No flag: the engine cannot take the setting on its command line. */
  | { readonly kind: 'notExpressible'; readonly reason: string };

const value = (flag: string): EngineFlagRule => ({ kind: 'value', flag });
const onOff = (flag: string): EngineFlagRule => ({ kind: 'switch', flag });
const options = (pairs: (readonly [string, string])[], fallback?: string): EngineFlagRule => ({ kind: 'options', options: pairs, fallback });
const none = (reason: string): EngineFlagRule => ({ kind: 'notExpressible', reason });
const engineDefault = (reason: string): EngineFlagRule => ({ kind: 'engineDefault', reason });

const TRTLLM_RUNTIME_ONLY = 'only applicable for vllm and sglang engines (CRD); TensorRT-LLM sets it in its engine config';
const LLAMACPP_NO_FLAGS = "KAITO's llama.cpp runtime takes only the model reference and --address";

/** The table: per engine, per setting, the flag (see the header of this file for why). */
export const ENGINE_FLAG_TABLE: Readonly<Record<EngineName, Readonly<Record<EngineSetting, EngineFlagRule>>>> = {
  vllm: {
    model: value('--model'),
    servedModelName: value('--served-model-name'),
    contextLength: value('--max-model-len'),
    trustRemoteCode: onOff('--trust-remote-code'),
    prefixCachingOn: onOff('--enable-prefix-caching'),
    prefixCachingOff: onOff('--no-enable-prefix-caching'),
    enforceEager: onOff('--enforce-eager'),
    tensorParallelSize: value('--tensor-parallel-size'),
  },
  sglang: {
    model: value('--model-path'),
    servedModelName: value('--served-model-name'),
    contextLength: value('--context-length'),
    trustRemoteCode: onOff('--trust-remote-code'),
    // SGLang's prefix cache is its radix cache, on unless --disable-radix-cache: "on" is its default.
    prefixCachingOn: engineDefault('SGLang caches prefixes (its radix cache) unless --disable-radix-cache'),
    prefixCachingOff: onOff('--disable-radix-cache'),
    // SGLang's eager mode: no CUDA graphs in either phase (`--disable-cuda-graph` before 0.5.2x).
    enforceEager: options([['--cuda-graph-backend-decode', 'disabled'], ['--cuda-graph-backend-prefill', 'disabled']], '--disable-cuda-graph'),
    tensorParallelSize: value('--tensor-parallel-size'),
  },
  trtllm: {
    model: value('--model-path'),
    servedModelName: value('--served-model-name'),
    contextLength: value('--max-seq-len'),
    trustRemoteCode: none(TRTLLM_RUNTIME_ONLY),
    prefixCachingOn: none(TRTLLM_RUNTIME_ONLY),
    prefixCachingOff: none(TRTLLM_RUNTIME_ONLY),
    enforceEager: none(TRTLLM_RUNTIME_ONLY),
    tensorParallelSize: value('--tensor-parallel-size'),
  },
  llamacpp: {
    model: none(`${LLAMACPP_NO_FLAGS} (a positional GGUF URL or huggingface://<id>, rendered by KAITO)`),
    servedModelName: none(`${LLAMACPP_NO_FLAGS}; it serves under its model file`),
    contextLength: none(LLAMACPP_NO_FLAGS),
    trustRemoteCode: none(LLAMACPP_NO_FLAGS),
    prefixCachingOn: none(LLAMACPP_NO_FLAGS),
    prefixCachingOff: none(LLAMACPP_NO_FLAGS),
    enforceEager: none(LLAMACPP_NO_FLAGS),
    tensorParallelSize: none(`${LLAMACPP_NO_FLAGS}; KAITO sizes the GPUs itself`),
  },
};

/** How `engine` expresses `setting`. */
export function engineFlagRule(engine: EngineName, setting: EngineSetting): EngineFlagRule {
  return ENGINE_FLAG_TABLE[engine][setting];
}

/**
 * The `engine.args` key of the flag `engine` uses for `setting` (`max-model-len`), or undefined
 * when the engine cannot express it: what a user who sets the same flag by hand writes.
 */
export function engineFlagKey(engine: EngineName, setting: EngineSetting): string | undefined {
  const rule = engineFlagRule(engine, setting);
  if (rule.kind === 'notExpressible' || rule.kind === 'engineDefault') return undefined;
  return (rule.kind === 'options' ? rule.options[0][0] : rule.flag).replace(/^--/, '');
}

/**
 * The tokens of `setting` for `engine`: `[flag, String(value)]` for a value flag, `[flag]` for a
 * switch (any `value` is ignored), `[]` when the engine cannot express it. Throws when a value
 * flag gets no value.
 */
export function engineFlag(engine: EngineName, setting: EngineSetting, val?: string | number, table?: EngineArgumentTable): string[] {
  const rule = engineFlagRule(engine, setting);
  switch (rule.kind) {
    case 'notExpressible':
    case 'engineDefault':
      return [];
    case 'switch':
      return [rule.flag];
    case 'options':
      // An engine release whose parser lacks the options (known from its table) takes the fallback.
      if (rule.fallback && table && !table.options[rule.options[0][0]]) return [rule.fallback];
      return rule.options.flat();
    case 'value':
      if (val === undefined) throw new Error(`${engine} flag ${rule.flag} (${setting}) needs a value`);
      return [rule.flag, String(val)];
  }
}

/** The spec field each spec-read setting comes from (see `specEngineSetting` for when it counts as set). */
export const SPEC_ENGINE_SETTING_FIELDS: Readonly<Record<SpecEngineSetting, string>> = {
  model: 'spec.model.id',
  servedModelName: 'spec.model.servedName',
  contextLength: 'spec.engine.contextLength',
  trustRemoteCode: 'spec.engine.trustRemoteCode',
  prefixCachingOn: 'spec.engine.enablePrefixCaching',
  prefixCachingOff: 'spec.engine.enablePrefixCaching',
  enforceEager: 'spec.engine.enforceEager',
};

/**
 * The value of `setting` in `spec`, `true` for a switch the spec turns on, undefined when the
 * spec leaves it unset:
 *
 * - model: the id, always (AI Runway passes it even when empty, for a custom source);
 * - servedModelName: when non-empty;
 * - contextLength: when present, 0 included (a pointer upstream);
 * - trustRemoteCode, enforceEager, prefixCachingOn: when true;
 * - prefixCachingOff: when `enablePrefixCaching` is explicitly false (unset is the CRD default, on).
 */
export function specEngineSetting(spec: ModelDeploymentSpec, setting: SpecEngineSetting): string | true | undefined {
  const e = spec.engine ?? {};
  switch (setting) {
    case 'model':
      return spec.model.id ?? '';
    case 'servedModelName':
      return spec.model.servedName || undefined;
    case 'contextLength':
      return e.contextLength !== undefined && e.contextLength !== null ? String(e.contextLength) : undefined;
    case 'trustRemoteCode':
      return e.trustRemoteCode ? true : undefined;
    case 'prefixCachingOn':
      return e.enablePrefixCaching ? true : undefined;
    case 'prefixCachingOff':
      return e.enablePrefixCaching === false ? true : undefined;
    case 'enforceEager':
      return e.enforceEager ? true : undefined;
  }
}

/** The tokens of `setting` as `spec` sets it for `engine`; `[]` when unset or not expressible. */
export function specEngineFlag(spec: ModelDeploymentSpec, engine: EngineName, setting: SpecEngineSetting, table?: EngineArgumentTable): string[] {
  const val = specEngineSetting(spec, setting);
  if (val === undefined) return [];
  return engineFlag(engine, setting, val === true ? undefined : val, table);
}

/**
 * The tokens of `settings`, in the given order (the provider's), as `spec` sets them for
 * `engine`. A setting whose flag key is in `explicit` (flags the user sets in `engine.args` or
 * `extraArgs`) is skipped.
 */
export function specEngineFlags(
  spec: ModelDeploymentSpec,
  engine: EngineName,
  settings: readonly SpecEngineSetting[],
  explicit: ReadonlySet<string> = new Set(),
  table?: EngineArgumentTable,
): string[] {
  const out: string[] = [];
  for (const setting of settings) {
    const key = engineFlagKey(engine, setting);
    if (key !== undefined && explicit.has(key)) continue;
    out.push(...specEngineFlag(spec, engine, setting, table));
  }
  return out;
}

/**
 * `--tensor-parallel-size <n>` (or the engine's equivalent) when `size` exceeds 1 (one GPU is
 * every engine's default), unless its flag key is in `explicit` (the user sets it by hand);
 * `[]` otherwise.
 */
export function tensorParallelFlag(engine: EngineName, size: number, explicit: ReadonlySet<string> = new Set()): string[] {
  const key = engineFlagKey(engine, 'tensorParallelSize');
  if (!(size > 1) || key === undefined || explicit.has(key)) return [];
  return engineFlag(engine, 'tensorParallelSize', size);
}
