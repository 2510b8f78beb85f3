import { kthenaNeedsMetricsFlag } from './autoscaling';
import { KTHENA_DEFAULT_SGLANG_IMAGE, KTHENA_DEFAULT_VLLM_IMAGE } from './images';
import type { KthenaRolePlan } from './roles';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { extraArgFlagKey } from '../../core/engine-args';
import { FieldError, invalid } from '../../core/field-error';
import type { EngineName } from '../../core/model-deployment-object';
import { loraEngineFlags } from '../../lora/engine-flags';
import { multiNodeVllmFlags } from '../../multinode/vllm-flags';
import { SpecEngineSetting, specEngineFlags, tensorParallelFlag } from '../../provider-kit/engine-flag-table';
import {
  NIXL_KV_TRANSFER_CONFIG,
  explicitEngineFlagKeys,
  invalidEngineArgKeyError,
  isValidEngineArgKey,
  namedEngineFlags,
  sortedEngineArgKeys,
} from '../../provider-kit/engine-flags';
import { engineArgumentTable, switchValueErrors } from '../../provider-kit/engine-switches';
import { removedEngineFlagErrors } from '../../provider-kit/retired-engine-flags';
import { VLLM_SERVE_COMMAND, vllmServeModel } from '../../provider-kit/vllm-serve';

/** Address the engine binds: SGLang's own default is loopback, which no other pod reaches. */
export const KTHENA_ENGINE_HOST = '0.0.0.0';
/** Port of the engine in every role: the container port, probes, Service and ModelServer `workloadPort`. */
export const KTHENA_ENGINE_PORT = 8000;

/**
 * `--kv-transfer-config` of both vLLM roles: NIXL, with each side able to send and receive.
 * kthena-router's `nixl` connector is the one that drives vLLM's NixlConnector (it asks the
 * prefill pod for `kv_transfer_params` and hands them to the decode pod), so the ModelServer
 * declares `kvConnector.type: nixl` with it.
 */
export const KTHENA_VLLM_KV_TRANSFER_CONFIG = NIXL_KV_TRANSFER_CONFIG;

/** The engine command of each engine, set by us so any image with the engine works: `vllm serve`, SGLang's server module. */
export const KTHENA_ENGINE_COMMANDS: Readonly<Record<'vllm' | 'sglang', readonly string[]>> = {
  vllm: VLLM_SERVE_COMMAND,
  sglang: ['python3', '-m', 'sglang.launch_server'],
};

/** A flag the provider sets itself, which the user may not set too. */
interface OwnedFlag {
  /** `engine.args` keys naming it, in their canonical (dashed) spelling. */
  readonly keys: readonly string[];
  readonly reason: string;
}

const NETWORKING: OwnedFlag = {
  keys: ['host', 'port'],
  reason: `the container port, the probes, the Service and the ModelServer's workloadPort expect the engine on ${KTHENA_ENGINE_HOST}:${KTHENA_ENGINE_PORT}`,
};

const MODEL_NAME_REASON =
  'the ModelServer and the ModelRoute route by the model the engine serves, which comes from spec.model.id and spec.model.servedName; set those instead';

function ownedFlags(engine: EngineName, disaggregated: boolean): OwnedFlag[] {
  if (engine === 'sglang') {
    return [
      NETWORKING,
      { keys: ['model-path', 'model', 'served-model-name'], reason: MODEL_NAME_REASON },
      ...(disaggregated
        ? [{ keys: ['disaggregation-mode'], reason: 'each role gets --disaggregation-mode prefill or decode from its role' }]
        : []),
    ];
  }
  return [
    NETWORKING,
    { keys: ['model', 'served-model-name'], reason: MODEL_NAME_REASON },
    ...(disaggregated
      ? [{
        keys: ['kv-transfer-config'],
        reason: `both roles run ${KTHENA_VLLM_KV_TRANSFER_CONFIG}, which the ModelServer's kvConnector (nixl) must match`,
      }]
      : []),
  ];
}

/**
 * How the engines read a flag name: without leading dashes or a `=value`, and with `_` as `-`
 * (vLLM's parser reads `--served_model_name` as `--served-model-name`; for SGLang the check is
 * merely stricter than it needs to be).
 */
function canonicalFlagKey(key: string): string {
  let out = key.trim().replace(/^-+/, '');
  const eq = out.indexOf('=');
  if (eq >= 0) out = out.slice(0, eq);
  return out.trim().replace(/_/g, '-');
}

/**
 * Kthena's checks of the launch flags, as field errors: every `engine.args` key valid (AI
 * Runway's rule), and none of the flags the provider sets itself — networking, the model and its
 * served name, and in disaggregated mode the KV transfer setup — in `engine.args` or as an
 * `engine.extraArgs` `--key`/`--key=value` token, each with the reason.
 *
 * The admission-time args/extraArgs conflict check runs in core validation for every provider
 * and is not repeated here.
 */
export function kthenaArgErrors(md: ResolvedModelDeployment): FieldError[] {
  const errors: FieldError[] = [];
  const owned = ownedFlags(md.engine, md.mode === 'disaggregated');
  const ownerOf = (key: string) => owned.find((o) => o.keys.includes(canonicalFlagKey(key)));
  const args = md.spec.engine?.args ?? {};
  for (const key of sortedEngineArgKeys(md.spec)) {
    const flag = ownerOf(key);
    if (flag) {
      errors.push(invalid(`spec.engine.args.${key}`, args[key], `engine arg ${JSON.stringify(key)} cannot be set for Kthena: ${flag.reason}`));
    } else if (!isValidEngineArgKey(key)) {
      errors.push(invalidEngineArgKeyError(key));
    }
  }
  (md.spec.engine?.extraArgs ?? []).forEach((token, i) => {
    const key = extraArgFlagKey(token);
    const flag = key === undefined ? undefined : ownerOf(key);
    if (flag) {
      errors.push(invalid(`spec.engine.extraArgs[${i}]`, token, `engine extraArg ${JSON.stringify(token)} cannot be set for Kthena: ${flag.reason}`));
    }
  });
  const engine = md.engine === 'sglang' ? 'sglang' : 'vllm';
  errors.push(...switchValueErrors(md.spec, KTHENA_ENGINE_ARGUMENTS[engine], engine === 'sglang' ? 'SGLang' : 'vLLM'));
  errors.push(...removedEngineFlagErrors(md.spec, KTHENA_ENGINE_ARGUMENTS[engine], kthenaEngineName(engine)));
  return errors;
}

/**
 * The structured settings each engine takes on its command line, in order, through the shared
 * flag table: SGLang's radix (prefix) cache is on by default, so only "off" has a flag, and its
 * eager mode is no CUDA graphs (the engine flag table's).
 */
const SETTINGS: Readonly<Record<'vllm' | 'sglang', readonly SpecEngineSetting[]>> = {
  vllm: ['servedModelName', 'contextLength', 'trustRemoteCode', 'prefixCachingOn', 'prefixCachingOff', 'enforceEager'],
  sglang: ['model', 'servedModelName', 'contextLength', 'trustRemoteCode', 'prefixCachingOff', 'enforceEager'],
};

/** The default image's engine and release, for messages (`SGLang v0.5.23`). */
export function kthenaEngineName(engine: 'vllm' | 'sglang'): string {
  return engine === 'sglang' ? `SGLang ${KTHENA_DEFAULT_SGLANG_IMAGE.replace(/^.*:/, '')}` : `vLLM ${KTHENA_DEFAULT_VLLM_IMAGE.replace(/^.*:/, '')}`;
}

/** The options of the default images' engines (their real parsers'), for `engine.args` switches. */
export const KTHENA_ENGINE_ARGUMENTS = {
  vllm: engineArgumentTable(`vllm-${KTHENA_DEFAULT_VLLM_IMAGE.replace(/^.*:v/, '')}`),
  sglang: engineArgumentTable(`sglang-${KTHENA_DEFAULT_SGLANG_IMAGE.replace(/^.*:v/, '')}`),
};

/**
 * The engine arguments of one role's entry container:
 *
 * 1. vLLM: the model as `vllm serve`'s positional; then `--host 0.0.0.0 --port 8000`;
 * 2. the structured settings through the shared flag table (`SETTINGS`: SGLang's `--model-path`
 *    first), vLLM rendering both
 *    prefix-caching states and SGLang only "off"; then SGLang's no-CUDA-graph options for eager
 *    mode;
 * 3. `--tensor-parallel-size <gpus>` when the role's pod has more than one GPU; for a multi-node
 *    role, the layout's tensor and pipeline parallel sizes and the Ray executor instead
 *    (`multiNodeVllmFlags`: the engine spans the role instance's pods);
 * 4. disaggregated: vLLM `--kv-transfer-config` (NIXL), SGLang `--disaggregation-mode <role>`
 *    (its transfer backend is SGLang's default unless `engine.args` names one);
 * 5. the LoRA adapters' flags (`loraEngineFlags`; vLLM only, see `kthenaServesLora`); SGLang's
 *    `--enable-metrics` when Kthena's autoscaler scrapes it (`kthenaNeedsMetricsFlag`);
 * 6. `engine.args` sorted by key, then `engine.extraArgs` verbatim.
 *
 * A derived setting whose flag the user also sets in `engine.args`/`extraArgs` is skipped, so the
 * engine never receives two values (the flags the provider owns are refused by `kthenaArgErrors`).
 */
export function renderKthenaArgs(md: ResolvedModelDeployment, role: KthenaRolePlan): string[] {
  const engine = md.engine === 'sglang' ? 'sglang' : 'vllm';
  const explicit = explicitEngineFlagKeys(md.spec);
  // vLLM: `vllm serve <model>` (../common/vllm-serve); the provider owns the model flags, so never explicit.
  const out = [...(engine === 'vllm' ? vllmServeModel(md.spec, explicit) : []), '--host', KTHENA_ENGINE_HOST, '--port', String(KTHENA_ENGINE_PORT)];
  out.push(...specEngineFlags(md.spec, engine, SETTINGS[engine], explicit));
  out.push(...(role.layout ? multiNodeVllmFlags(role.layout, explicit) : tensorParallelFlag(engine, role.gpuCount, explicit)));
  if (md.mode === 'disaggregated') {
    out.push(...(engine === 'sglang' ? ['--disaggregation-mode', role.name] : ['--kv-transfer-config', KTHENA_VLLM_KV_TRANSFER_CONFIG]));
  }
  out.push(...loraEngineFlags(md.annotations));
  if (kthenaNeedsMetricsFlag(md) && !explicit.has('enable-metrics')) out.push('--enable-metrics');
  out.push(...namedEngineFlags(md.spec, undefined, KTHENA_ENGINE_ARGUMENTS[engine]));
  out.push(...(md.spec.engine?.extraArgs ?? []));
  return out;
}
