import { FieldError, invalid } from '../../core/field-error';
import type { ModelDeploymentSpec } from '../../core/generated/model-deployment-spec';
import type { MultiNodeLayout } from '../../multinode/layout';
import { multiNodeVllmFlags } from '../../multinode/vllm-flags';
import { SpecEngineSetting, specEngineFlag, specEngineFlags, tensorParallelFlag } from '../common/engine-flag-table';
import { explicitEngineFlagKeys, namedEngineFlags } from '../common/engine-flags';

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
  /**
   * The layout of a replica that spans worker pods (`./multi-node`): its tensor and pipeline
   * parallel sizes and the Ray executor (`multiNodeVllmFlags`) replace the derived
   * `--tensor-parallel-size`, each unless the user sets it.
   * @default - one worker pod per replica
   */
  readonly multiNode?: MultiNodeLayout;
}

/** KubeRay's order of the settings after `--model`: AI Runway's (providers spec §3.5), then ours. */
const KUBERAY_SETTINGS: readonly SpecEngineSetting[] = [
  'contextLength', 'servedModelName', 'trustRemoteCode', 'enforceEager', 'prefixCachingOff',
];

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
  const out = spec.model.id ? specEngineFlag(spec, 'vllm', 'model') : [];
  out.push(...specEngineFlags(spec, 'vllm', KUBERAY_SETTINGS));
  const explicit = explicitEngineFlagKeys(spec);
  out.push(...(options.multiNode ? multiNodeVllmFlags(options.multiNode, explicit) : tensorParallelFlag('vllm', options.gpusPerWorker ?? 0, explicit)));
  out.push(...namedEngineFlags(spec));
  out.push(...(spec.engine?.extraArgs ?? []));
  return out;
}

/** The `VLLM_ENGINE_ARGS` value: the flags of {@link renderKubeRayEngineArgs} joined by single spaces. */
export function kuberayEngineArgString(spec: ModelDeploymentSpec, options: KubeRayEngineArgsOptions = {}): string {
  return renderKubeRayEngineArgs(spec, options).join(' ');
}

/**
 * `VLLM_ENGINE_ARGS` is one string that the Serve application in the Ray image splits on
 * whitespace into vLLM's argv. We cannot quote for it (the splitting is the image's, and a
 * quote would reach vLLM as part of the value), so a flag key or value with whitespace would
 * split into extra flags: `max-model-len: "4096 --trust-remote-code"` would turn on a flag the
 * spec turned off. Such values are refused instead, each at its field.
 */
export function kuberayArgWhitespaceErrors(spec: ModelDeploymentSpec): FieldError[] {
  const errors: FieldError[] = [];
  const why = `${VLLM_ENGINE_ARGS_ENV} is split on whitespace into vLLM's arguments, so whitespace here would inject other flags`;
  const check = (path: string, value: unknown) => {
    if (typeof value === 'string' && /\s/.test(value)) errors.push(invalid(path, shortValue(value), `must not contain whitespace on KubeRay: ${why}`));
  };
  check('spec.model.id', spec.model?.id);
  check('spec.model.servedName', spec.model?.servedName);
  for (const [key, value] of Object.entries(spec.engine?.args ?? {})) {
    const path = fieldPathOfKey('spec.engine.args', key);
    check(path, key);
    if (!/\s/.test(key)) check(path, value);
  }
  (spec.engine?.extraArgs ?? []).forEach((token, i) => check(`spec.engine.extraArgs[${i}]`, token));
  return errors;
}

function fieldPathOfKey(base: string, key: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key.length > 80 ? key.slice(0, 80) : key)}]`;
}

function shortValue(value: string): string {
  return value.length > 80 ? `${value.slice(0, 80)}… (${value.length} characters)` : value;
}
