import { extraArgFlagKey, validateEngineArgs } from '../../core/engine-args';
import { FieldError, invalid } from '../../core/field-error';
import type { ModelDeploymentSpec } from '../../core/generated/model-deployment-spec';
import { invalidEngineArgKeyMessage, isValidEngineArgKey, namedEngineFlags, sortedEngineArgKeys } from '../common/engine-flags';

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
  return errors;
}

/** Per-Deployment inputs of the argument list. */
export interface DirectVllmArgsOptions {
  /**
   * GPU count of the container being rendered; when 0, `spec.resources.gpu.count` is used.
   * `--tensor-parallel-size` is emitted when it exceeds 1.
   */
  readonly gpuCount?: number;
}

/**
 * The vLLM server arguments of a Direct vLLM container, in AI Runway's order: networking, then
 * the flags derived from structured fields (each skipped when the user sets the same flag in
 * `engine.args` or as an `extraArgs` `--key`/`--key=value` token, so vLLM never receives two
 * conflicting values), `engine.args` sorted by key, `extraArgs` verbatim.
 *
 * Throws the first of `directVllmArgErrors` when the spec has not been validated.
 */
export function renderDirectVllmArgs(spec: ModelDeploymentSpec, options: DirectVllmArgsOptions = {}): string[] {
  const errors = directVllmArgErrors(spec);
  if (errors.length > 0) throw new Error(errors[0].message);

  const engine = spec.engine ?? {};
  const engineArgs = engine.args ?? {};
  const extraArgs = engine.extraArgs ?? [];
  const explicit = new Set<string>(Object.keys(engineArgs));
  for (const token of extraArgs) {
    const key = extraArgFlagKey(token);
    if (key !== undefined) explicit.add(key);
  }
  const derived = (key: string) => !explicit.has(key);

  const out: string[] = ['--host', DIRECT_VLLM_HOST, '--port', String(DIRECT_VLLM_PORT)];
  // AI Runway passes the id even when empty (custom source); vLLM then reports the problem.
  if (derived('model')) out.push('--model', spec.model.id ?? '');
  if (spec.model.servedName && derived('served-model-name')) out.push('--served-model-name', spec.model.servedName);
  // contextLength is a pointer upstream: an explicit 0 is still rendered.
  if (engine.contextLength !== undefined && engine.contextLength !== null && derived('max-model-len')) {
    out.push('--max-model-len', String(engine.contextLength));
  }
  if (engine.trustRemoteCode && derived('trust-remote-code')) out.push('--trust-remote-code');
  if (engine.enforceEager && derived('enforce-eager')) out.push('--enforce-eager');
  // Direct vLLM only ever turns prefix caching on; false renders nothing (llm-d differs).
  if (engine.enablePrefixCaching && derived('enable-prefix-caching')) out.push('--enable-prefix-caching');

  const tensorParallel = options.gpuCount || spec.resources?.gpu?.count || 0;
  if (tensorParallel > 1 && derived('tensor-parallel-size')) out.push('--tensor-parallel-size', String(tensorParallel));

  out.push(...namedEngineFlags(spec));
  out.push(...extraArgs);
  return out;
}
