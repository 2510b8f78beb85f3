/**
 * Parallelism checked at build time: the tensor-parallel × pipeline-parallel size an engine runs
 * with, against the GPUs its pod gets. Free of cdk8s-plus-34 and the generated bindings, so each
 * provider's validation (and with it the controller's re-validation of a record) runs it.
 *
 * What an engine runs with. Every provider renders its own derived flag (if any) before the
 * user's `engine.args` (sorted by key) and `engine.extraArgs`, and every engine parses its command
 * line with argparse, where the last occurrence of a flag wins. So the effective size is the
 * user's last occurrence of the flag (any alias, in `engine.args`, or in `engine.extraArgs` when
 * the provider passes them), else what the provider derives from the GPU count, else 1.
 * `test/provider-kit/parallelism.test.ts` parses each provider's rendered command line to
 * prove it.
 *
 * The rules, each with the engine behaviour that justifies it:
 *
 * 1. Every value of a tensor- or pipeline-parallel flag is a positive integer (field error at the
 *    flag). The engines declare both as `type=int` options (vLLM, SGLang, Dynamo's TensorRT-LLM
 *    worker), so argparse refuses anything Python's `int()` does not read, and a bare flag (an
 *    empty `engine.args` value) with "expected one argument"; a size below 1 leaves no rank.
 * 2. TP × PP (× vLLM's DP; the world size: one rank per GPU) larger than the GPUs the engine sees is a field
 *    error (at the flag that set it, else at the GPU count). vLLM refuses a world size larger than
 *    the GPUs of its node unless a Ray cluster spans several nodes; SGLang assigns rank r to GPU r
 *    and fails on a device that does not exist; TensorRT-LLM's ranks would share a GPU, which NCCL
 *    refuses. An NVIDIA MIG profile counts as one GPU whatever its count: a CUDA process
 *    enumerates a single MIG device. Where one engine spans pods (multi-node replicas) their
 *    GPUs add up.
 * 3. TP × PP smaller than the GPUs the pod requests is a warning naming the flag to set: an
 *    engine uses exactly its world size in GPUs, the rest stay allocated and idle.
 *
 * What is not checked, on purpose:
 *
 * - a deployment that sets SGLang's data parallelism, vLLM's local data parallel size, a node
 *   count or a config file the engine reads its options from (`PARALLEL_FLAGS[engine].unmodelled`):
 *   SGLang's DP attention carves its ranks out of the TP ranks while plain SGLang DP multiplies
 *   them, and a config file may set the sizes where we cannot see them. Rule 1 still applies.
 *   vLLM's `--data-parallel-size` is modelled: its ranks each take TP × PP GPUs of the pod, so
 *   the world is TP × PP × DP (a user's DP on top of the derived TP asked for twice the GPUs);
 * - divisibility rules of the model (TP must divide the attention heads, PP the layers): they
 *   depend on the model, which the build does not read;
 * - `engine.extraArgs` on providers that drop them (Dynamo), and providers whose runtime sizes
 *   itself (KAITO: its presets choose the flags, llama.cpp has none);
 * - layouts an override takes out of the provider's hands (the container, its arguments or its
 *   GPU resources replaced): each provider's validation says which.
 */
import { sortedEngineArgKeys } from './engine-flags';
import { FieldError, invalid } from '../core/field-error';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import { isMigGpuType } from '../core/gpu-type';
import type { EngineName } from '../core/model-deployment-object';

/** The engines whose parallel layout is checked (llama.cpp has no parallel flags). */
export type ParallelEngine = Exclude<EngineName, 'llamacpp'>;

/** How an engine spells its parallelism options. */
export interface ParallelFlagSpellings {
  /** The engine's name in messages. */
  readonly engineName: string;
  /** The options that set the tensor parallel size, the canonical one first. */
  readonly tensorParallel: readonly string[];
  /** The options that set the pipeline parallel size, the canonical one first. */
  readonly pipelineParallel: readonly string[];
  /** The options that set a data parallel size whose ranks each take TP × PP GPUs of the pod, the canonical one first. */
  readonly dataParallel: readonly string[];
  /**
   * Options after which the engine's GPUs are no longer TP × PP as we compute them: data
   * parallelism, multi-node launch, options read from a file.
   */
  readonly unmodelled: readonly string[];
  /** vLLM's parser reads `--tensor_parallel_size` as `--tensor-parallel-size`; the others do not. */
  readonly underscoresAsDashes: boolean;
}

/**
 * The parallelism options of each engine:
 *
 * - vLLM: `--tensor-parallel-size`/`-tp`, `--pipeline-parallel-size`/`-pp`,
 *   `--data-parallel-size`/`-dp`; `--data-parallel-size-local`/`-dpl`, `--nnodes` and
 *   `--config` (a YAML file of options) are not modelled;
 * - SGLang: `--tensor-parallel-size`/`--tp-size` (and `--tp`, argparse's abbreviation of
 *   `--tp-size`, in wide use), `--pipeline-parallel-size`/`--pp-size`; `--data-parallel-size`/
 *   `--dp-size`/`--dp`, `--nnodes` and `--config` are not modelled;
 * - TensorRT-LLM (Dynamo's `dynamo.trtllm` worker): `--tensor-parallel-size`,
 *   `--pipeline-parallel-size`; `--extra-engine-args` and `--override-engine-args` (engine
 *   options from a YAML file or a dictionary, which may set the sizes) are not modelled.
 */
export const PARALLEL_FLAGS: Readonly<Record<ParallelEngine, ParallelFlagSpellings>> = {
  vllm: {
    engineName: 'vLLM',
    tensorParallel: ['--tensor-parallel-size', '-tp'],
    pipelineParallel: ['--pipeline-parallel-size', '-pp'],
    dataParallel: ['--data-parallel-size', '-dp'],
    unmodelled: ['--data-parallel-size-local', '-dpl', '--nnodes', '--config'],
    underscoresAsDashes: true,
  },
  sglang: {
    engineName: 'SGLang',
    tensorParallel: ['--tensor-parallel-size', '--tp-size', '--tp'],
    pipelineParallel: ['--pipeline-parallel-size', '--pp-size'],
    dataParallel: [],
    unmodelled: ['--data-parallel-size', '--dp-size', '--dp', '--nnodes', '--config'],
    underscoresAsDashes: false,
  },
  trtllm: {
    engineName: 'TensorRT-LLM',
    tensorParallel: ['--tensor-parallel-size'],
    pipelineParallel: ['--pipeline-parallel-size'],
    dataParallel: [],
    unmodelled: ['--extra-engine-args', '--override-engine-args'],
    underscoresAsDashes: false,
  },
};

/** Whether the layout of `engine` is checked. */
export function isParallelEngine(engine: string): engine is ParallelEngine {
  return Object.prototype.hasOwnProperty.call(PARALLEL_FLAGS, engine);
}

/** Which size a flag sets. */
export type ParallelKind = 'tensorParallel' | 'pipelineParallel' | 'dataParallel';

/** One occurrence of a parallel-size flag in the user's flags. */
export interface ParallelFlag {
  readonly kind: ParallelKind;
  /** The option as the user wrote it: the `engine.args` key (`tp-size`), or the `extraArgs` option (`-tp`). */
  readonly written: string;
  /** True for `engine.args`, false for `engine.extraArgs`. */
  readonly inArgs: boolean;
  /** `spec.engine.args.<key>`, or the `spec.engine.extraArgs[i]` holding the value (the option's own when it has none). */
  readonly path: string;
  /** What is at `path`: the `engine.args` value, or the `extraArgs` token. */
  readonly pathValue: string;
  /** The value; undefined for a flag without one. */
  readonly raw?: string;
  /** The size, when the value is a positive integer. */
  readonly size?: number;
}

/** The parallelism the user sets by hand, as the engine reads it. */
export interface UserParallelism {
  /** The occurrence that wins (the last), if any. */
  readonly tensorParallel?: ParallelFlag;
  /** The occurrence that wins (the last), if any. */
  readonly pipelineParallel?: ParallelFlag;
  /** The occurrence that wins (the last), if any (vLLM only: its data parallel ranks multiply the GPUs). */
  readonly dataParallel?: ParallelFlag;
  /** The first option that takes the layout out of what we model, with its path. */
  readonly unmodelled?: { readonly written: string; readonly path: string };
  /** Rule 1: every occurrence whose value is not a positive integer. */
  readonly errors: FieldError[];
}

/**
 * The size Python's `int()` reads from `raw` (surrounding whitespace, a `+` sign and `_` between
 * digits allowed, as argparse's `type=int` accepts them), when it is at least 1.
 */
export function parseParallelSize(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const match = /^\s*\+?(\d+(?:_\d+)*)\s*$/.exec(raw);
  if (!match) return undefined;
  const size = Number(match[1].replace(/_/g, ''));
  return Number.isSafeInteger(size) && size >= 1 ? size : undefined;
}

type OptionKind = ParallelKind | 'unmodelled';

function optionKind(spellings: ParallelFlagSpellings, option: string): OptionKind | undefined {
  const canonical = spellings.underscoresAsDashes && option.startsWith('--') ? option.replace(/_/g, '-') : option;
  if (spellings.tensorParallel.includes(canonical)) return 'tensorParallel';
  if (spellings.pipelineParallel.includes(canonical)) return 'pipelineParallel';
  if (spellings.dataParallel.includes(canonical)) return 'dataParallel';
  if (spellings.unmodelled.includes(canonical)) return 'unmodelled';
  return undefined;
}

/** A token argparse reads as an option rather than a value (negative numbers are values). */
function looksLikeOption(token: string): boolean {
  return token.startsWith('-') && !/^-\d+$|^-\d*\.\d+$/.test(token);
}

/**
 * The tensor- and pipeline-parallel flags the user sets for `engine`: `spec.engine.args` in
 * rendering order (sorted by key, `--<key> <value>`, a bare `--<key>` for an empty value), then,
 * when the provider passes them (`options.extraArgs`), the `spec.engine.extraArgs` tokens
 * (`--opt value`, `--opt=value`, `-tp value`, `-tp=value`). The last occurrence of each size wins.
 */
export function userParallelism(spec: ModelDeploymentSpec, engine: ParallelEngine, options: { readonly extraArgs: boolean }): UserParallelism {
  const spellings = PARALLEL_FLAGS[engine];
  const errors: FieldError[] = [];
  const found: Partial<Record<ParallelKind, ParallelFlag>> = {};
  let unmodelled: UserParallelism['unmodelled'];

  const record = (kind: OptionKind, flag: Omit<ParallelFlag, 'kind' | 'size'>, option: string) => {
    if (kind === 'unmodelled') {
      unmodelled ??= { written: flag.written, path: flag.path };
      return;
    }
    const size = parseParallelSize(flag.raw);
    if (size === undefined) errors.push(invalid(flag.path, flag.pathValue, malformedMessage(spellings, option, flag.raw)));
    found[kind] = { kind, ...flag, ...(size !== undefined && { size }) };
  };

  const args = spec.engine?.args ?? {};
  for (const key of sortedEngineArgKeys(spec)) {
    const option = `--${key}`;
    const kind = optionKind(spellings, option);
    if (kind === undefined) continue;
    const value = args[key] ?? '';
    record(kind, { written: key, inArgs: true, path: `spec.engine.args.${key}`, pathValue: value, ...(value !== '' && { raw: value }) }, option);
  }

  if (options.extraArgs) {
    const tokens = spec.engine?.extraArgs ?? [];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      if (!looksLikeOption(token)) continue;
      const eq = token.indexOf('=');
      const option = eq >= 0 ? token.slice(0, eq) : token;
      const kind = optionKind(spellings, option);
      if (kind === undefined) continue;
      if (eq >= 0) {
        record(kind, { written: option, inArgs: false, path: `spec.engine.extraArgs[${i}]`, pathValue: token, raw: token.slice(eq + 1) }, option);
      } else if (kind !== 'unmodelled' && i + 1 < tokens.length && !looksLikeOption(tokens[i + 1])) {
        i++;
        record(kind, { written: option, inArgs: false, path: `spec.engine.extraArgs[${i}]`, pathValue: tokens[i], raw: tokens[i] }, option);
      } else {
        record(kind, { written: option, inArgs: false, path: `spec.engine.extraArgs[${i}]`, pathValue: token }, option);
      }
    }
  }
  return { ...found, ...(unmodelled && { unmodelled }), errors };
}

function malformedMessage(spellings: ParallelFlagSpellings, option: string, raw: string | undefined): string {
  return raw === undefined
    ? `${option} needs a value: ${spellings.engineName} takes a positive integer (a number of GPUs) and does not start without one`
    : `${option} takes a positive integer (a number of GPUs); ${spellings.engineName} does not start with this value`;
}

/** One place the engine runs: a serving role's pods, as one provider renders them. */
export interface ParallelismTarget {
  /** Who runs the engine, leading every message: `Dynamo decode worker (VllmDecodeWorker)`. */
  readonly subject: string;
  /** Path of the GPU count of each pod: `spec.resources.gpu.count`, `spec.scaling.prefill.gpu.count`. */
  readonly gpuPath: string;
  /** GPUs of each pod. */
  readonly gpuCount: number;
  /** The extended resource they are requested under. */
  readonly gpuType: string;
  /**
   * Pods one engine spans (Dynamo multi-node: the operator launches one engine over all of them,
   * with `nodeCount × GPUs` ranks), described for messages.
   * @default - one pod per engine
   */
  readonly nodes?: { readonly count: number; readonly description: string };
  /**
   * The tensor parallel size the provider itself renders for these pods, before the user's flags.
   * @default - none: the engine's default, 1
   */
  readonly derivedTensorParallel?: number;
  /**
   * The pipeline parallel size the provider itself renders for these pods, before the user's
   * flags (a multi-node replica's layout, `src/provider-kit/multi-node-layout.ts`).
   * @default - none: the engine's default, 1
   */
  readonly derivedPipelineParallel?: number;
}

/** What the parallelism checks found: field errors (the synth fails) and warnings. */
export interface ParallelismFindings {
  readonly errors: FieldError[];
  readonly warnings: string[];
}

/** No finding. */
export const NO_PARALLELISM_FINDINGS: ParallelismFindings = { errors: [], warnings: [] };

/** The effective layout of one target. */
interface Layout {
  readonly tensorParallel: number;
  readonly pipelineParallel: number;
  readonly dataParallel: number;
  readonly world: number;
  /** `tensor-parallel-size 4 (derived from spec.resources.gpu.count) × pp 2`. */
  readonly text: string;
}

/** The `engine.args` key of the tensor parallel size on every checked engine (the flag table's). */
const CANONICAL_TP = 'tensor-parallel-size';

/**
 * The sizes the engine runs with: the user's (last) flag, else the provider's derived tensor
 * parallel size, else 1. Meaningful only when `user.errors` is empty.
 */
export function effectiveParallelism(
  user: UserParallelism,
  derivedTensorParallel?: number,
  derivedPipelineParallel?: number,
): { tensorParallel: number; pipelineParallel: number; dataParallel: number } {
  return {
    tensorParallel: user.tensorParallel?.size ?? derivedTensorParallel ?? 1,
    pipelineParallel: user.pipelineParallel?.size ?? derivedPipelineParallel ?? 1,
    dataParallel: user.dataParallel?.size ?? 1,
  };
}

function layoutOf(user: UserParallelism, derived: number | undefined, derivedFrom: string, derivedPp?: number): Layout {
  const tp = user.tensorParallel;
  const pp = user.pipelineParallel;
  const { tensorParallel, pipelineParallel, dataParallel } = effectiveParallelism(user, derived, derivedPp);
  const tpText = tp
    ? `${tp.written} ${tensorParallel}`
    : derived !== undefined ? `${CANONICAL_TP} ${derived} (derived from ${derivedFrom})` : `${CANONICAL_TP} 1 (unset)`;
  let text = tpText;
  if (pp) text = `${tpText} × ${pp.written} ${pipelineParallel}`;
  else if (derivedPp !== undefined) text = `${tpText} × pipeline-parallel-size ${derivedPp} (derived from ${derivedFrom})`;
  if (user.dataParallel) text = `${text} × ${user.dataParallel.written} ${dataParallel}`;
  return { tensorParallel, pipelineParallel, dataParallel, world: tensorParallel * pipelineParallel * dataParallel, text };
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** Where the user sets the tensor parallel size, for a remedy: their own flag, else the canonical `engine.args` key. */
function tensorParallelRemedy(user: UserParallelism, size: number): string {
  const tp = user.tensorParallel;
  if (!tp) return `set spec.engine.args.${CANONICAL_TP} to "${size}"`;
  if (tp.inArgs) return `set ${tp.path} to "${size}"`;
  return `set the ${tp.written} value (${tp.path}) to ${size}`;
}

/**
 * Rules 2 and 3 for each target, after rule 1 (`user.errors`). Nothing is checked for an engine
 * without parallel flags, when an unmodelled option is set, or when a size is malformed (rule 1
 * already fails the synth); a target without GPUs is skipped.
 */
export function checkParallelism(engine: EngineName, user: UserParallelism, targets: readonly ParallelismTarget[]): ParallelismFindings {
  if (!isParallelEngine(engine)) return NO_PARALLELISM_FINDINGS;
  const errors = [...user.errors];
  const warnings: string[] = [];
  if (user.unmodelled || errors.length > 0) return { errors, warnings };
  const engineName = PARALLEL_FLAGS[engine].engineName;

  for (const target of targets) {
    if (!(target.gpuCount > 0)) continue;
    const layout = layoutOf(user, target.derivedTensorParallel, target.gpuPath, target.derivedPipelineParallel);
    const nodes = target.nodes?.count ?? 1;
    const mig = isMigGpuType(target.gpuType);
    const allocated = nodes * target.gpuCount;
    // Rule 2: a CUDA process sees one MIG device, whatever the count.
    const visible = mig ? nodes : allocated;
    const unit = mig ? 'MIG devices' : 'GPUs';
    const scope = target.nodes ? `each group of ${nodes} pods` : 'each pod';
    const source = target.nodes ? `${target.nodes.description} × ${target.gpuPath} ${target.gpuCount}` : target.gpuPath;

    if (layout.world > visible) {
      const sees = mig
        ? `${scope} has ${allocated} ${target.gpuType} ${plural(allocated, 'device', 'devices')} (${source}) and a CUDA process sees only one MIG device`
        : `${scope} has ${allocated} (${source})`;
      let remedy: string;
      if (mig) {remedy = 'set the parallel sizes to 1 or request whole GPUs';} else if (visible % (layout.pipelineParallel * layout.dataParallel) === 0) {
        remedy = `${tensorParallelRemedy(user, visible / (layout.pipelineParallel * layout.dataParallel))}, or raise ${target.gpuPath}`;
      } else {remedy = `lower the parallel sizes or raise ${target.gpuPath}`;}
      const culprit = user.tensorParallel ?? user.dataParallel ?? user.pipelineParallel;
      const message = `${target.subject}: ${engineName} needs ${layout.world} GPUs for ${layout.text}, but ${sees}; ` +
        `${engineName} cannot start with more ranks than GPUs it sees: ${remedy}`;
      errors.push(culprit ? invalid(culprit.path, culprit.pathValue, message) : invalid(target.gpuPath, target.gpuCount, message));
    } else if (layout.world < allocated) {
      const idle = allocated - layout.world;
      let remedy: string;
      if (mig) {
        remedy = `a CUDA process sees only one MIG device: set ${target.gpuPath} to 1`;
      } else if (allocated % (layout.pipelineParallel * layout.dataParallel) === 0) {
        remedy = tensorParallelRemedy(user, allocated / (layout.pipelineParallel * layout.dataParallel));
      } else {
        const others = [user.pipelineParallel, user.dataParallel].filter((f): f is ParallelFlag => f !== undefined).map((f) => f.written);
        remedy = `make the tensor parallel size × ${others.join(' × ')} equal ${allocated}`;
      }
      warnings.push(
        `${target.subject}: ${engineName} uses ${layout.world} of the ${allocated} ${unit} of ${scope} (${source}) with ${layout.text}; ` +
          `${idle} ${plural(idle, 'stays', 'stay')} idle: ${remedy}`,
      );
    }
  }
  return { errors, warnings };
}
