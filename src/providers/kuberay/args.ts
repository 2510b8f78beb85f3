import { EngineKwargs, engineArgTokens, engineKwargs, extraArgTokens, SourcedToken } from './engine-kwargs';
import { KUBERAY_VLLM_ARGUMENTS_ID } from './images';
import type { ModelDeploymentSpec } from '../../core/generated/model-deployment-spec';
import { multiNodeVllmFlags } from '../../multinode/vllm-flags';
import { SpecEngineSetting, specEngineFlags, tensorParallelFlag } from '../../provider-kit/engine-flag-table';
import { explicitEngineFlagKeys, NIXL_KV_TRANSFER_CONFIG } from '../../provider-kit/engine-flags';
import { engineArgumentTable } from '../../provider-kit/engine-switches';
import type { EngineArgumentTable } from '../../provider-kit/generated/engine-arguments';
import type { MultiNodeLayout } from '../../provider-kit/multi-node-layout';

/** Per-engine inputs of the engine arguments. */
export interface KubeRayEngineArgsOptions {
  /**
   * GPUs of one Serve replica's Ray worker pod. When it exceeds 1, the tensor parallel size is
   * that many unless the user sets it.
   * @default 0 (no derivation)
   */
  readonly gpusPerWorker?: number;
  /**
   * The layout of a replica that spans worker pods (`./multi-node`): its tensor and pipeline
   * parallel sizes and the Ray executor (`multiNodeVllmFlags`) replace the derived tensor
   * parallel size, each unless the user sets it.
   * @default - one worker pod per replica
   */
  readonly multiNode?: MultiNodeLayout;
  /** A prefill or decode engine of a disaggregated deployment: NIXL KV transfer. */
  readonly role?: 'prefill' | 'decode';
}

/** The structured settings, as for the other vLLM providers. */
const KUBERAY_SETTINGS: readonly SpecEngineSetting[] = [
  'contextLength', 'trustRemoteCode', 'enforceEager', 'prefixCachingOn', 'prefixCachingOff',
];

/** The vLLM options of the Ray image's engine (its real parser's). */
function vllmArguments(): EngineArgumentTable {
  const table = engineArgumentTable(KUBERAY_VLLM_ARGUMENTS_ID);
  if (!table) throw new Error(`no vLLM argument table ${KUBERAY_VLLM_ARGUMENTS_ID} (scripts/engine-parsers/argument-tables.ts writes them)`);
  return table;
}

/** How the engine is named in messages. */
export const KUBERAY_ENGINE_NAME = 'the vLLM of the Ray image';

/**
 * The vLLM engine arguments of a KubeRay Serve replica, as tokens with the spec field each came
 * from: the structured settings (context length, remote code, eager mode, prefix caching in both
 * states), the tensor parallel size derived from the worker pod's GPUs (or a multi-node layout's
 * sizes), NIXL KV transfer for a prefill/decode engine, then `engine.args` sorted by key and
 * `engine.extraArgs`, which win. Each derived option is skipped when the user sets it.
 */
export function kuberayEngineTokens(spec: ModelDeploymentSpec, options: KubeRayEngineArgsOptions = {}): SourcedToken[] {
  const explicit = explicitEngineFlagKeys(spec);
  const derived = (path: string, tokens: readonly string[]) => tokens.map((token) => ({ token, path }));
  const out: SourcedToken[] = [...derived('spec.engine', specEngineFlags(spec, 'vllm', KUBERAY_SETTINGS, explicit))];
  out.push(...derived('spec.resources.gpu.count', options.multiNode
    ? multiNodeVllmFlags(options.multiNode, explicit)
    : tensorParallelFlag('vllm', options.gpusPerWorker ?? 0, explicit)));
  if (options.role && !explicit.has('kv-transfer-config')) out.push(...derived('spec.serving.mode', ['--kv-transfer-config', NIXL_KV_TRANSFER_CONFIG]));
  out.push(...engineArgTokens(spec, vllmArguments()));
  out.push(...extraArgTokens(spec));
  return out;
}

/**
 * The engine arguments as Ray Serve LLM's `engine_kwargs` (`./engine-kwargs`), or the field
 * errors of the settings vLLM's engine would refuse.
 */
export function kuberayEngineKwargs(spec: ModelDeploymentSpec, options: KubeRayEngineArgsOptions = {}): EngineKwargs {
  return engineKwargs(kuberayEngineTokens(spec, options), vllmArguments(), KUBERAY_ENGINE_NAME);
}
