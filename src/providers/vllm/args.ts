import { DIRECT_VLLM_VERSION } from './images';
import { extraArgFlagKey, validateEngineArgs } from '../../core/engine-args';
import { FieldError, invalid } from '../../core/field-error';
import type { ModelDeploymentSpec } from '../../core/generated/model-deployment-spec';
import { multiNodeVllmFlags } from '../../multinode/vllm-flags';
import { SpecEngineSetting, specEngineFlags, tensorParallelFlag } from '../../provider-kit/engine-flag-table';
import {
  explicitEngineFlagKeys,
  invalidEngineArgKeyMessage,
  isValidEngineArgKey,
  namedEngineFlags,
  sortedEngineArgKeys,
} from '../../provider-kit/engine-flags';
import { engineArgumentTable, switchValueErrors } from '../../provider-kit/engine-switches';
import type { MultiNodeLayout } from '../../provider-kit/multi-node-layout';
import { removedEngineFlagErrors } from '../../provider-kit/retired-engine-flags';
import { vllmServeModel } from '../../provider-kit/vllm-serve';

/** The options of the default image's vLLM (its real parser's), for `engine.args` switches. */
export const DIRECT_VLLM_ARGUMENTS = engineArgumentTable(`vllm-${DIRECT_VLLM_VERSION.replace(/^v/, '')}`);

/** Address the Direct vLLM server binds; the container port, Service and probes assume it. */
export const DIRECT_VLLM_HOST = '0.0.0.0';
/** Port of the Direct vLLM server, container, probes and Service. */
export const DIRECT_VLLM_PORT = 8000;


const NETWORKING_REASON = `Direct vLLM currently requires host ${DIRECT_VLLM_HOST} and port ${DIRECT_VLLM_PORT} to keep the container, Service, and probes aligned`;

/** True when an `engine.args` key names `host` or `port` in any spelling (`--port`, `port=1`). */
function isReservedNetworkingKey(key: string): boolean {
  let normalized = key.trim().replace(/^-+/, '');
  const eq = normalized.indexOf('=');
  if (eq >= 0) normalized = normalized.slice(0, eq);
  normalized = normalized.trim();
  return normalized === 'host' || normalized === 'port';
}

/**
 * Direct vLLM's checks of the launch flags, as field errors with AI Runway's exact messages:
 * `host`/`port` may not be set by the user (args keys, then `--host`/`--port` extraArgs tokens),
 * a flag may not be set in both args and extraArgs (the first collision), and every args key must
 * be valid (a key already refused as host/port is not reported twice).
 */
export function directVllmArgErrors(spec: ModelDeploymentSpec): FieldError[] {
  const errors: FieldError[] = [];
  const args = spec.engine?.args ?? {};
  const extraArgs = spec.engine?.extraArgs ?? [];
  const reserved = new Set<string>();

  for (const key of sortedEngineArgKeys(spec)) {
    if (isReservedNetworkingKey(key)) {
      reserved.add(key);
      errors.push(
        invalid(`spec.engine.args.${key}`, args[key], `engine arg ${JSON.stringify(key)} conflicts with Direct vLLM generated networking; ${NETWORKING_REASON}`),
      );
    }
  }
  extraArgs.forEach((token, i) => {
    const key = extraArgFlagKey(token);
    if (key !== undefined && isReservedNetworkingKey(key)) {
      errors.push(
        invalid(`spec.engine.extraArgs[${i}]`, token, `engine extraArg ${JSON.stringify(token)} conflicts with Direct vLLM generated networking; ${NETWORKING_REASON}`),
      );
    }
  });

  const conflict = validateEngineArgs(args, extraArgs);
  if (conflict !== undefined) {
    const index = extraArgs.findIndex((token) => {
      const key = extraArgFlagKey(token);
      return key !== undefined && Object.prototype.hasOwnProperty.call(args, key);
    });
    errors.push(invalid(`spec.engine.extraArgs[${index}]`, extraArgs[index], conflict));
  }

  for (const key of sortedEngineArgKeys(spec)) {
    if (!reserved.has(key) && !isValidEngineArgKey(key)) {
      errors.push(invalid(`spec.engine.args.${key}`, key, invalidEngineArgKeyMessage(key)));
    }
  }
  errors.push(...switchValueErrors(spec, DIRECT_VLLM_ARGUMENTS, `vLLM ${DIRECT_VLLM_VERSION}`));
  errors.push(...removedEngineFlagErrors(spec, DIRECT_VLLM_ARGUMENTS, `vLLM ${DIRECT_VLLM_VERSION}`));
  return errors;
}

/** Per-Deployment inputs of the argument list. */
export interface DirectVllmArgsOptions {
  /**
   * GPU count of the container being rendered; when 0, `spec.resources.gpu.count` is used.
   * `--tensor-parallel-size` is emitted when it exceeds 1.
   */
  readonly gpuCount?: number;
  /**
   * The layout of a multi-node replica: its tensor and pipeline parallel sizes and the Ray
   * executor (`multiNodeVllmFlags`) replace the derived `--tensor-parallel-size`.
   */
  readonly multiNode?: MultiNodeLayout;
  /** LoRA adapter flags (`loraEngineFlags`), rendered after the derived flags and before `engine.args`. */
  readonly loraFlags?: readonly string[];
}

/**
 * Direct vLLM's order of the structured settings (AI Runway providers spec §6.4). Prefix caching
 * renders both states: AI Runway renders only "on", but vLLM's V1 engine caches by default, so
 * `enablePrefixCaching: false` needs `--no-enable-prefix-caching` (README, "Where we differ").
 */
const DIRECT_VLLM_SETTINGS: readonly SpecEngineSetting[] = [
  'servedModelName', 'contextLength', 'trustRemoteCode', 'enforceEager', 'prefixCachingOn', 'prefixCachingOff',
];

/**
 * The `vllm serve` arguments of a Direct vLLM container, in AI Runway's order with the model as
 * the positional (`../common/vllm-serve`): the model id, networking
 * (`--host 0.0.0.0 --port 8000`), then the structured settings through the engine flag table
 * (`--served-model-name`, `--max-model-len`, `--trust-remote-code`, `--enforce-eager`,
 * `--enable-prefix-caching` or `--no-enable-prefix-caching`, then `--tensor-parallel-size` when the container has more than one
 * GPU), each skipped when the user sets the same flag in `engine.args` or as an `extraArgs`
 * `--key`/`--key=value` token, so vLLM never receives two conflicting values; then `engine.args`
 * sorted by key, `extraArgs` verbatim.
 *
 * Expects a spec `validateDirectVllm` accepted (`directVllmArgErrors` reported nothing).
 */
export function renderDirectVllmArgs(spec: ModelDeploymentSpec, options: DirectVllmArgsOptions = {}): string[] {
  const explicit = explicitEngineFlagKeys(spec);
  const out: string[] = [...vllmServeModel(spec, explicit), '--host', DIRECT_VLLM_HOST, '--port', String(DIRECT_VLLM_PORT)];
  out.push(...specEngineFlags(spec, 'vllm', DIRECT_VLLM_SETTINGS, explicit));
  const tensorParallel = options.gpuCount || spec.resources?.gpu?.count || 0;
  out.push(...(options.multiNode ? multiNodeVllmFlags(options.multiNode, explicit) : tensorParallelFlag('vllm', tensorParallel, explicit)));
  out.push(...(options.loraFlags ?? []));

  out.push(...namedEngineFlags(spec, undefined, DIRECT_VLLM_ARGUMENTS));
  out.push(...(spec.engine?.extraArgs ?? []));
  return out;
}
