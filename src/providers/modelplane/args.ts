/**
 * The command line of modelplane's `engine` container, from the deployment's engine settings
 * through the shared engine flag table (../common/engine-flag-table).
 *
 * Every flag is one `--flag=value` token. modelplane reads some flags back from the arguments
 * (`--model` to decide whether to point the engine at a mounted ModelCache, `--port` of a decode
 * engine for its sidecar, `--block-size` for its endpoint picker), and its documentation writes
 * them in that form; one token per flag keeps those reads unambiguous. `engine.args` are rendered
 * the same way (`--key=value`, or `--key` for an empty value); `engine.extraArgs` verbatim.
 *
 * Order: the structured settings (each skipped when the user sets the same flag in `engine.args`
 * or `extraArgs`, so the engine never receives two values), the tensor-parallel size for a pod
 * with several GPUs, the prefill/decode flags, then `engine.args` sorted by key, then `extraArgs`.
 */
import { MODELPLANE_SGLANG_IMAGE, MODELPLANE_VLLM_IMAGE } from './settings';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { extraArgFlagKey } from '../../core/engine-args';
import { FieldError, invalid } from '../../core/field-error';
import type { ModelDeploymentSpec } from '../../core/generated/model-deployment-spec';
import type { EngineName } from '../../core/model-deployment-object';
import { DECODE_ENGINE_PORT, ENGINE_PORT, MODEL_CACHE_MOUNT_PATH } from '../../modelplane/limits';
import { multiNodeVllmFlags } from '../../multinode/vllm-flags';
import { engineFlag, engineFlagKey, SpecEngineSetting, specEngineSetting, tensorParallelFlag } from '../../provider-kit/engine-flag-table';
import { explicitEngineFlagKeys, invalidEngineArgKeyError, isValidEngineArgKey, NIXL_KV_TRANSFER_CONFIG, sortedEngineArgKeys } from '../../provider-kit/engine-flags';
import { engineArgumentTable, switchTokens, switchValueErrors } from '../../provider-kit/engine-switches';
import type { MultiNodeLayout } from '../../provider-kit/multi-node-layout';
import { deprecatedEngineFlagWarnings, removedEngineFlagErrors } from '../../provider-kit/retired-engine-flags';
import { VLLM_SERVE_COMMAND, vllmServeModel } from '../../provider-kit/vllm-serve';

/** Which engine of the deployment a command line is for. */
export type EngineRole = 'serving' | 'prefill' | 'decode';

/**
 * `--kv-transfer-config` of both phase engines: NIXL, each engine able to send and receive.
 * modelplane's prefill/decode routing is llm-d's disaggregation sidecar speaking NIXL
 * (`--kv-connector=nixlv2`), and modelplane leaves the engine's own KV-transfer flag to the
 * emitter, so without this the engines would not exchange KV caches.
 */
export const MODELPLANE_KV_TRANSFER_CONFIG = NIXL_KV_TRANSFER_CONFIG;

/** SGLang's server module: its image has no serving entrypoint of its own. */
export const SGLANG_COMMAND: readonly string[] = ['python3', '-m', 'sglang.launch_server'];

/** Address SGLang must bind (its default is 127.0.0.1, unreachable for modelplane's probe and pool). */
export const SGLANG_HOST = '0.0.0.0';

const NETWORKING_REASON =
  `modelplane serves every engine on port ${ENGINE_PORT} (its container port, readiness probe and InferencePool target) on all interfaces, ` +
  `and sets the decode engine of prefill/decode serving to ${DECODE_ENGINE_PORT} itself`;

/** True for `host`/`port` in any spelling (`--port`, `port=1`). */
function isNetworkingKey(key: string): boolean {
  const bare = key.trim().replace(/^-+/, '').split('=')[0].trim();
  return bare === 'host' || bare === 'port';
}

/**
 * modelplane's checks of the launch flags: every `engine.args` key valid (AI Runway's rule), and
 * no `host` or `port`, neither as an args key nor as an extraArgs token (see `NETWORKING_REASON`).
 * The args/extraArgs conflict check runs in admission for every provider.
 */
export function modelplaneArgErrors(spec: ModelDeploymentSpec): FieldError[] {
  const errors: FieldError[] = [];
  const args = spec.engine?.args ?? {};
  for (const key of sortedEngineArgKeys(spec)) {
    if (isNetworkingKey(key)) {
      errors.push(invalid(`spec.engine.args.${key}`, args[key], `engine arg ${JSON.stringify(key)} cannot be set for modelplane: ${NETWORKING_REASON}`));
    } else if (!isValidEngineArgKey(key)) {
      errors.push(invalidEngineArgKeyError(key));
    }
  }
  (spec.engine?.extraArgs ?? []).forEach((token, i) => {
    const key = extraArgFlagKey(token);
    if (key !== undefined && isNetworkingKey(key)) {
      errors.push(invalid(`spec.engine.extraArgs[${i}]`, token, `engine extraArg ${JSON.stringify(token)} cannot be set for modelplane: ${NETWORKING_REASON}`));
    }
  });
  const engine = spec.engine?.type === 'sglang' ? 'sglang' : 'vllm';
  errors.push(...switchValueErrors(spec, MODELPLANE_ENGINE_ARGUMENTS[engine], engine === 'sglang' ? 'SGLang' : 'vLLM'));
  errors.push(...removedEngineFlagErrors(spec, MODELPLANE_ENGINE_ARGUMENTS[engine], modelplaneEngineName(engine)));
  return errors;
}

/** Warnings for deprecated flags of the default image's engine in `engine.args`/`extraArgs`. */
export function modelplaneDeprecatedFlagWarnings(spec: ModelDeploymentSpec): string[] {
  const engine = spec.engine?.type === 'sglang' ? 'sglang' : 'vllm';
  return deprecatedEngineFlagWarnings(spec, MODELPLANE_ENGINE_ARGUMENTS[engine], modelplaneEngineName(engine));
}

/** The default image's engine and release, for messages (`SGLang v0.5.23`). */
function modelplaneEngineName(engine: 'vllm' | 'sglang'): string {
  return engine === 'sglang' ? `SGLang ${MODELPLANE_SGLANG_IMAGE.replace(/^.*:/, '')}` : `vLLM ${MODELPLANE_VLLM_IMAGE.replace(/^.*:/, '')}`;
}

/** The options of the default images' engines (their real parsers'), for `engine.args` switches. */
const MODELPLANE_ENGINE_ARGUMENTS = {
  vllm: engineArgumentTable(`vllm-${MODELPLANE_VLLM_IMAGE.replace(/^.*:v/, '')}`),
  sglang: engineArgumentTable(`sglang-${MODELPLANE_SGLANG_IMAGE.replace(/^.*:v/, '')}`),
};

/** `['--flag', 'value']` as `['--flag=value']`; a switch stays as it is. */
function oneToken(tokens: readonly string[]): string[] {
  return tokens.length === 2 ? [`${tokens[0]}=${tokens[1]}`] : [...tokens];
}

/** Inputs of one engine's command line. */
export interface EngineArgsOptions {
  readonly role: EngineRole;
  /** GPUs of the engine's pod; `--tensor-parallel-size` when more than one. */
  readonly gpuCount: number;
  /** The deployment references a ModelCache: the engine loads the model from its mount. */
  readonly cached: boolean;
  /**
   * The layout of a multi-node engine: its tensor and pipeline parallel sizes and the Ray
   * executor (`multiNodeVllmFlags`) replace the derived `--tensor-parallel-size`.
   * @default - one pod: the tensor parallel size from `gpuCount`
   */
  readonly multiNode?: MultiNodeLayout;
}

/** `['--a', '1', '--b', '2']` as `['--a=1', '--b=2']`: flags that all take a value. */
function pairedTokens(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i += 2) out.push(...oneToken(tokens.slice(i, i + 2)));
  return out;
}

/**
 * The structured settings each engine takes, in its order. SGLang's prefix cache (its radix
 * cache) is on by default and has no "on" flag, so only "off" is rendered; its eager mode is
 * the engine flag table's (no CUDA graphs for decode and prefill).
 */
const SETTINGS: Readonly<Record<'vllm' | 'sglang', readonly SpecEngineSetting[]>> = {
  vllm: ['servedModelName', 'contextLength', 'trustRemoteCode', 'enforceEager', 'prefixCachingOn', 'prefixCachingOff'],
  sglang: ['servedModelName', 'contextLength', 'trustRemoteCode', 'prefixCachingOff', 'enforceEager'],
};

/**
 * The arguments of the `engine` container of `options.role` (vLLM or SGLang; expects a deployment
 * `validateModelplane` accepted):
 *
 * 1. the model: vLLM's positional `<id>` (`vllm serve <id>`; SGLang `--model-path=<id>`), or the ModelCache mount
 *    `/mnt/models` when the deployment is cached — then the served name defaults to the model id,
 *    so clients keep asking for the model by its id; left out for a custom source without an id
 *    (the image brings the model);
 * 2. SGLang only: `--host=0.0.0.0 --port=8000`, where modelplane probes and routes;
 * 3. served name, context length, remote code, eager mode, prefix caching (vLLM: on and off;
 *    SGLang: off as `--disable-radix-cache`, eager as `--cuda-graph-backend-{decode,prefill}=disabled`);
 * 4. `--tensor-parallel-size=<gpus>` for a pod with more than one GPU; for a multi-node engine
 *    the layout's tensor and pipeline parallel sizes and `--distributed-executor-backend=ray`;
 * 5. prefill/decode: `--kv-transfer-config=<NIXL>`; the decode engine also `--port=8001`, so it
 *    does not collide with the sidecar modelplane puts on 8000;
 * 6. `engine.args` sorted by key, then `engine.extraArgs`.
 */
export function renderEngineArgs(md: ResolvedModelDeployment, options: EngineArgsOptions): string[] {
  const engine = md.engine as 'vllm' | 'sglang';
  const spec = md.spec;
  const explicit = explicitEngineFlagKeys(spec);
  const out: string[] = [];
  const add = (setting: SpecEngineSetting | 'model', value: string | true | undefined) => {
    const key = engineFlagKey(engine as EngineName, setting);
    if (value === undefined || value === '' || (key !== undefined && explicit.has(key))) return;
    out.push(...pairedTokens(engineFlag(engine as EngineName, setting, value === true ? undefined : value)));
  };

  const id = spec.model.id ?? '';
  const model = options.cached ? MODEL_CACHE_MOUNT_PATH : id;
  // vLLM: `vllm serve <model>` (../common/vllm-serve); SGLang: `--model-path=<model>`.
  if (engine === 'vllm') out.push(...(model === '' ? [] : vllmServeModel(spec, explicit, model)));
  else add('model', model);
  if (engine === 'sglang') out.push(`--host=${SGLANG_HOST}`, `--port=${ENGINE_PORT}`);
  for (const setting of SETTINGS[engine]) {
    const value = specEngineSetting(spec, setting);
    add(setting, setting === 'servedModelName' && options.cached ? value ?? id : value);
  }
  out.push(...(options.multiNode
    ? pairedTokens(multiNodeVllmFlags(options.multiNode, explicit))
    : oneToken(tensorParallelFlag(engine, options.gpuCount, explicit))));

  if (options.role !== 'serving') {
    if (!explicit.has('kv-transfer-config')) out.push(`--kv-transfer-config=${MODELPLANE_KV_TRANSFER_CONFIG}`);
    if (options.role === 'decode') out.push(`--port=${DECODE_ENGINE_PORT}`);
  }
  const args = spec.engine?.args ?? {};
  for (const key of sortedEngineArgKeys(spec)) {
    const value = args[key];
    if (value === '' || value === undefined || value === null) out.push(`--${key}`);
    else out.push(...(switchTokens(MODELPLANE_ENGINE_ARGUMENTS[engine], key, value) ?? [`--${key}=${value}`]));
  }
  out.push(...(spec.engine?.extraArgs ?? []));
  return out;
}

/**
 * The container command: SGLang's server module, or `vllm serve` (set by us, not left to the
 * image's entrypoint, ../common/vllm-serve; a command also keeps modelplane from injecting
 * `--model=/mnt/models`, which `renderEngineArgs` renders as the positional itself).
 */
export function engineCommand(engine: EngineName): string[] {
  return engine === 'sglang' ? [...SGLANG_COMMAND] : [...VLLM_SERVE_COMMAND];
}
