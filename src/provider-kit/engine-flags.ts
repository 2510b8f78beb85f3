import { switchTokens } from './engine-switches';
import type { EngineArgumentTable } from './generated/engine-arguments';
import { extraArgFlagKey } from '../core/engine-args';
import { invalid, FieldError } from '../core/field-error';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';

/**
 * `--kv-transfer-config` of every disaggregated vLLM engine we render (Dynamo, llm-d, Kthena,
 * modelplane): NIXL, each side able to send and receive. NixlConnector is a V1 connector that
 * vLLM registers from v0.9 on; the V0 PyNcclConnector that AI Runway's llm-d renders is refused by
 * the V1 engine, and later releases no longer register it.
 */
export const NIXL_KV_TRANSFER_CONFIG = '{"kv_connector":"NixlConnector","kv_role":"kv_both"}';

/**
 * vLLM's NIXL connector tells the decode engine where to fetch the KV cache by this host, which is
 * `localhost` unless set: each prefill/decode pod advertises its own pod IP instead.
 */
export const NIXL_SIDE_CHANNEL_HOST_ENV = 'VLLM_NIXL_SIDE_CHANNEL_HOST';

/** `VLLM_NIXL_SIDE_CHANNEL_HOST` from the pod's IP (the downward API). */
export function nixlSideChannelHostEnv(): { name: string; valueFrom: { fieldRef: { fieldPath: string } } } {
  return { name: NIXL_SIDE_CHANNEL_HOST_ENV, valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } };
}

const ARG_KEY = /^[A-Za-z0-9_-]+$/;

/**
 * AI Runway's engine-arg key rule (Dynamo, llm-d, Direct vLLM): non-empty, not starting with `-`,
 * only letters, digits, `-` and `_`.
 */
export function isValidEngineArgKey(key: string): boolean {
  return key !== '' && !key.startsWith('-') && ARG_KEY.test(key);
}

/** The error text of an invalid `spec.engine.args` key. */
export function invalidEngineArgKeyMessage(key: string): string {
  return `invalid engine arg key ${JSON.stringify(key)}: must contain only alphanumeric characters, hyphens, and underscores`;
}

/** The field error of an invalid `spec.engine.args` key. */
export function invalidEngineArgKeyError(key: string): FieldError {
  return invalid(`spec.engine.args.${key}`, key, invalidEngineArgKeyMessage(key));
}

/** `spec.engine.args` keys in plain code-unit order, which is Go's byte order for ASCII keys. */
export function sortedEngineArgKeys(spec: ModelDeploymentSpec): string[] {
  return Object.keys(spec.engine?.args ?? {}).sort();
}

/**
 * `spec.engine.args` as flags, sorted by key: `--key value`, or a bare `--key` for an empty
 * value (AI Runway's convention for boolean flags). A switch of the engine (`table`, its real
 * parser's options) given "true" or "false" renders as the switch or its off form
 * (`./engine-switches`). Keys in `skip` are left out.
 */
export function namedEngineFlags(spec: ModelDeploymentSpec, skip: ReadonlySet<string> = new Set(), table?: EngineArgumentTable): string[] {
  const args = spec.engine?.args ?? {};
  const out: string[] = [];
  for (const key of sortedEngineArgKeys(spec)) {
    if (skip.has(key)) continue;
    const value = args[key];
    if (value === '' || value === undefined || value === null) {
      out.push(`--${key}`);
      continue;
    }
    out.push(...(switchTokens(table, key, value) ?? [`--${key}`, value]));
  }
  return out;
}

/**
 * The flags the user sets by hand: every `spec.engine.args` key and the `--key`/`--key=value`
 * key of every `spec.engine.extraArgs` token. A provider that skips a derived flag the user also
 * sets (Direct vLLM; KubeRay's tensor-parallel size) checks the table's flag key against it.
 */
export function explicitEngineFlagKeys(spec: ModelDeploymentSpec): Set<string> {
  const keys = new Set<string>(Object.keys(spec.engine?.args ?? {}));
  for (const token of spec.engine?.extraArgs ?? []) {
    const key = extraArgFlagKey(token);
    if (key !== undefined) keys.add(key);
  }
  return keys;
}
