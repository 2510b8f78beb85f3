import { extraArgFlagKey } from '../../core/engine-args';
import type { ModelDeploymentSpec } from '../../core/generated/model-deployment-spec';
import { namedEngineFlags } from '../common/engine-flags';

/** Name of the env var that carries the vLLM command line to the Ray Serve application. */
export const VLLM_ENGINE_ARGS_ENV = 'VLLM_ENGINE_ARGS';
/** Name of the env var that carries the model id to the Ray Serve application. */
export const MODEL_ID_ENV = 'MODEL_ID';

/** Per-RayService inputs of the engine arguments. */
export interface KubeRayEngineArgsOptions {
  /**
   * GPUs of one Ray worker pod (the smallest of the worker groups). When it exceeds 1,
   * `--tensor-parallel-size <n>` is added unless the user sets that flag.
   * @default 0 (no derivation)
   */
  readonly gpusPerWorker?: number;
}

/**
 * The vLLM flags of a KubeRay deployment, in AI Runway's order: `--model <id>`,
 * `--max-model-len <n>`, `--served-model-name <name>`, `--trust-remote-code`, then
 * `engine.args` sorted by key (`--k v`, or a bare `--k` for an empty value). AI Runway does not
 * check the keys for KubeRay, and neither do we.
 *
 * Four deliberate additions, so that every structured field reaches vLLM on this provider too
 * (AI Runway's KubeRay transformer drops them); none of them changes the default output:
 * - `--enforce-eager` when `engine.enforceEager` is true;
 * - `--no-enable-prefix-caching` when `engine.enablePrefixCaching` is explicitly false (vLLM
 *   enables prefix caching by default, so true renders nothing, exactly as upstream);
 * - `--tensor-parallel-size <n>` when a worker pod has more than one GPU (what llm-d and Direct
 *   vLLM do; upstream leaves the extra GPUs idle unless the user sets the flag), skipped when
 *   the user sets `tensor-parallel-size` in `engine.args` or as an `extraArgs` token;
 * - `engine.extraArgs` appended verbatim at the end (llm-d and Direct vLLM do; upstream drops
 *   them). Admission already refuses a flag that is in both `args` and `extraArgs`.
 *
 * An empty model id (custom source) renders no `--model` rather than a dangling flag.
 */
export function renderKubeRayEngineArgs(spec: ModelDeploymentSpec, options: KubeRayEngineArgsOptions = {}): string[] {
  const engine = spec.engine ?? {};
  const engineArgs = engine.args ?? {};
  const extraArgs = engine.extraArgs ?? [];

  const out: string[] = [];
  if (spec.model.id) out.push('--model', spec.model.id);
  // contextLength is a pointer upstream: an explicit 0 is still rendered.
  if (engine.contextLength !== undefined && engine.contextLength !== null) out.push('--max-model-len', String(engine.contextLength));
  if (spec.model.servedName) out.push('--served-model-name', spec.model.servedName);
  if (engine.trustRemoteCode) out.push('--trust-remote-code');
  if (engine.enforceEager) out.push('--enforce-eager');
  if (engine.enablePrefixCaching === false) out.push('--no-enable-prefix-caching');

  const gpus = options.gpusPerWorker ?? 0;
  if (gpus > 1 && !setsFlagExplicitly(engineArgs, extraArgs, 'tensor-parallel-size')) {
    out.push('--tensor-parallel-size', String(gpus));
  }

  out.push(...namedEngineFlags(spec));
  out.push(...extraArgs);
  return out;
}

function setsFlagExplicitly(args: Readonly<Record<string, string>>, extraArgs: readonly string[], flag: string): boolean {
  return Object.prototype.hasOwnProperty.call(args, flag) || extraArgs.some((token) => extraArgFlagKey(token) === flag);
}

/** The `VLLM_ENGINE_ARGS` value: the flags of {@link renderKubeRayEngineArgs} joined by single spaces. */
export function kuberayEngineArgString(spec: ModelDeploymentSpec, options: KubeRayEngineArgsOptions = {}): string {
  return renderKubeRayEngineArgs(spec, options).join(' ');
}
