import { LLMD_DEFAULT_IMAGE } from './images';
import { extraArgFlagKey } from '../../core/engine-args';
import { FieldError, invalid } from '../../core/field-error';
import type { ModelDeploymentSpec } from '../../core/generated/model-deployment-spec';
import { multiNodeVllmFlags } from '../../multinode/vllm-flags';
import { engineFlag, specEngineFlag, specEngineFlags, tensorParallelFlag } from '../../provider-kit/engine-flag-table';
import {
  explicitEngineFlagKeys,
  invalidEngineArgKeyError,
  isValidEngineArgKey,
  namedEngineFlags,
  NIXL_KV_TRANSFER_CONFIG,
  sortedEngineArgKeys,
} from '../../provider-kit/engine-flags';
import { engineArgumentTable, switchValueErrors } from '../../provider-kit/engine-switches';
import type { MultiNodeLayout } from '../../provider-kit/multi-node-layout';
import { removedEngineFlagErrors } from '../../provider-kit/retired-engine-flags';
import { vllmServeModel } from '../../provider-kit/vllm-serve';

/**
 * Port the llm-d vLLM server listens on: vLLM's own default, which llm-d never passes. The
 * container port, the Service and the InferencePool's target port all assume it.
 */
export const LLMD_VLLM_PORT = 8000;

/** The options of the default image's vLLM (its real parser's), for `engine.args` switches. */
export const LLMD_VLLM_ARGUMENTS = engineArgumentTable(`vllm-${LLMD_DEFAULT_IMAGE.replace(/^.*:v/, '')}`);

/** The default image's vLLM, for messages (`vLLM v0.33.0`). */
export const LLMD_VLLM_NAME = `vLLM ${LLMD_DEFAULT_IMAGE.replace(/^.*:/, '')}`;

/**
 * `--kv-transfer-config` of both disaggregated llm-d roles: NIXL, each side able to send and
 * receive (llm-d's routing sidecar drives NIXL's transfer). AI Runway renders the V0
 * PyNcclConnector (consumer/producer), which vLLM's V1 engine refuses (README, "Where we differ").
 */
export const LLMD_KV_TRANSFER_CONFIG = NIXL_KV_TRANSFER_CONFIG;

const PORT_REASON =
  `the llm-d vLLM server must listen on ${LLMD_VLLM_PORT}, where its container port, Service and InferencePool send traffic; remove the flag`;

/** The rejection of a `port` key in `spec.engine.args`. */
export function llmdPortArgMessage(key: string): string {
  return `engine arg ${JSON.stringify(key)} cannot be set for llm-d: ${PORT_REASON}`;
}

/** The rejection of a `--port` / `--port=<n>` token in `spec.engine.extraArgs`. */
export function llmdPortExtraArgMessage(token: string): string {
  return `engine extraArg ${JSON.stringify(token)} cannot be set for llm-d: ${PORT_REASON}`;
}

/**
 * llm-d's checks of the launch flags, as field errors:
 *
 * - every `spec.engine.args` key must be valid (AI Runway's transformer rule and exact message);
 * - (ours) `port` may not be set, neither as an args key nor as a `--port`/`--port=<n>` extraArgs
 *   token. AI Runway's transformer at the commit we follow lets it through, and the server then
 *   listens where neither its Service nor the InferencePool sends traffic: a silently dead
 *   endpoint, which a synth error prevents.
 *
 * The admission-time args/extraArgs conflict check (`ValidateEngineArgs`) runs in core
 * validation for every provider and is not repeated here.
 */
export function llmdArgErrors(spec: ModelDeploymentSpec): FieldError[] {
  const errors: FieldError[] = [];
  const args = spec.engine?.args ?? {};
  for (const key of sortedEngineArgKeys(spec)) {
    if (key === 'port') {
      errors.push(invalid(`spec.engine.args.${key}`, args[key], llmdPortArgMessage(key)));
    } else if (!isValidEngineArgKey(key)) {
      errors.push(invalidEngineArgKeyError(key));
    }
  }
  (spec.engine?.extraArgs ?? []).forEach((token, i) => {
    if (extraArgFlagKey(token) === 'port') {
      errors.push(invalid(`spec.engine.extraArgs[${i}]`, token, llmdPortExtraArgMessage(token)));
    }
  });
  errors.push(...switchValueErrors(spec, LLMD_VLLM_ARGUMENTS, LLMD_VLLM_NAME));
  errors.push(...removedEngineFlagErrors(spec, LLMD_VLLM_ARGUMENTS, LLMD_VLLM_NAME));
  return errors;
}

/** Per-Deployment inputs of the llm-d argument list. */
export interface LlmdArgsOptions {
  /**
   * GPU count of the container being rendered: `spec.resources.gpu.count` (aggregated) or the
   * component's (disaggregated). `--tensor-parallel-size` is emitted when it exceeds 1.
   */
  readonly gpuCount: number;
  /** `--kv-transfer-config` value (disaggregated mode only). */
  readonly kvTransferConfig?: string;
  /**
   * The layout of a multi-node replica: its tensor and pipeline parallel sizes and the Ray
   * executor (`multiNodeVllmFlags`) replace the derived `--tensor-parallel-size`.
   */
  readonly multiNode?: MultiNodeLayout;
  /** LoRA adapter flags (`loraEngineFlags`), rendered after the KV transfer and before `engine.args`. */
  readonly loraFlags?: readonly string[];
}

/**
 * The `vllm serve` arguments of an llm-d container, in AI Runway's order with the model as the
 * positional (`../common/vllm-serve`):
 *
 * 1. the model id; 2. `--served-model-name` if set; 3. `--max-model-len` if contextLength is
 * set (0 included); 4. `--trust-remote-code` if true; 5. `--enable-prefix-caching`, or
 * `--no-enable-prefix-caching` when it is false; 6. `--enforce-eager` if true;
 * 7. `--tensor-parallel-size <n>` when the container has more than one GPU;
 * 8. `--kv-transfer-config` (disaggregated); 9. `engine.args` sorted by key (`--k v`, or `--k`
 * for an empty value); 10. `engine.extraArgs` verbatim.
 *
 * Unlike Direct vLLM there is no `--host`/`--port` (vLLM's defaults, all interfaces and 8000,
 * are what the Service needs) and no skipping of derived flags the user also sets explicitly:
 * vLLM's parser keeps the last occurrence, so an explicit `engine.args`/`extraArgs` flag, which
 * comes later, wins.
 *
 * Prefix caching (AI Runway providers spec §8): llm-d names both states, Direct vLLM only the
 * on state. We keep llm-d's `--no-enable-prefix-caching`: it is a real vLLM flag (the option is a
 * boolean with a `--no-` form), and since vLLM's V1 engine turns prefix caching on by default,
 * rendering nothing for `false` would silently leave it on. An unset value counts as on, the
 * CRD default.
 *
 * Expects a spec `validateLlmd` accepted (`llmdArgErrors` reported nothing).
 */
export function renderLlmdArgs(spec: ModelDeploymentSpec, options: LlmdArgsOptions): string[] {
  const engine = spec.engine ?? {};
  const out = [...vllmServeModel(spec, explicitEngineFlagKeys(spec)), ...specEngineFlags(spec, 'vllm', ['servedModelName', 'contextLength', 'trustRemoteCode'])];
  // Always one of the two states: unset counts as on (the CRD default).
  out.push(...engineFlag('vllm', engine.enablePrefixCaching === false ? 'prefixCachingOff' : 'prefixCachingOn'));
  out.push(...specEngineFlag(spec, 'vllm', 'enforceEager'));
  out.push(...(options.multiNode ? multiNodeVllmFlags(options.multiNode) : tensorParallelFlag('vllm', options.gpuCount)));
  if (options.kvTransferConfig) out.push('--kv-transfer-config', options.kvTransferConfig);
  out.push(...(options.loraFlags ?? []));

  out.push(...namedEngineFlags(spec, undefined, LLMD_VLLM_ARGUMENTS));
  out.push(...(engine.extraArgs ?? []));
  return out;
}
