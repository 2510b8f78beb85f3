/**
 * The engine flags of LoRA adapters, shared by every provider that serves them, and the check
 * that the user does not set the same flags by hand.
 *
 * vLLM (the only engine we serve adapters with, see `LORA_ENGINES`): `--enable-lora`,
 * `--lora-modules <name>=<dir> ...` (one `name=dir` element per adapter after a single flag, which
 * vLLM reads as a list), `--max-loras <n>` and, when set, `--max-lora-rank <r>`. Each adapter is
 * served under its name, so a client selects it with `"model": "<name>"`.
 */
import { adapterPath } from './adapter-layout';
import { loraPath, loraSettingsOf, LoraSettings, LORA_ANNOTATION_PATH } from '../api/lora/lora-annotation';
import { extraArgFlagKey } from '../core/engine-args';
import { FieldError, invalid } from '../core/field-error';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';

/**
 * Engines that serve adapters under their own model name. SGLang loads adapters too, but its
 * OpenAI-compatible API selects one by `"model": "<base>:<adapter>"`; a request for the bare
 * adapter name would be answered by the base model, so routing by adapter name would silently
 * serve the wrong model. TensorRT-LLM and llama.cpp have no such server flags.
 */
export const LORA_ENGINES: readonly string[] = ['vllm'];

/** The flags this module sets, as `engine.args` keys (dashed spelling). */
const OWNED_KEYS = ['enable-lora', 'no-enable-lora', 'lora-modules', 'max-loras', 'max-lora-rank'];

/** The vLLM flags of checked settings. */
export function vllmLoraFlags(settings: LoraSettings): string[] {
  return [
    '--enable-lora',
    '--lora-modules',
    ...settings.adapters.map((a) => `${a.name}=${adapterPath(a.name)}`),
    '--max-loras',
    String(settings.maxLoras),
    ...(settings.maxRank !== undefined ? ['--max-lora-rank', String(settings.maxRank)] : []),
  ];
}

/** The vLLM flags of a deployment's adapters; none when it has none. */
export function loraEngineFlags(annotations: Readonly<Record<string, string>> | undefined): string[] {
  const settings = loraSettingsOf(annotations);
  return settings ? vllmLoraFlags(settings) : [];
}

/** A flag key as vLLM reads it: no leading dashes or `=value`, `_` as `-`. */
function canonicalKey(key: string): string {
  let out = key.trim().replace(/^-+/, '');
  const eq = out.indexOf('=');
  if (eq >= 0) out = out.slice(0, eq);
  return out.trim().replace(/_/g, '-');
}

/**
 * `engine.args` keys and `engine.extraArgs` tokens that set a flag the adapters set: the engine
 * would receive two values (or the adapters switched off), so each is a field error.
 */
export function loraFlagCollisionErrors(spec: ModelDeploymentSpec): FieldError[] {
  const errors: FieldError[] = [];
  const reason = (shown: string) =>
    `sets ${shown}, which the LoRA adapters (${LORA_ANNOTATION_PATH}) set from their annotation; ` +
    `remove it and set ${loraPath('maxRank')} or ${loraPath('maxLoras')} instead`;
  const args = spec.engine?.args ?? {};
  for (const key of Object.keys(args).sort()) {
    if (OWNED_KEYS.includes(canonicalKey(key))) errors.push(invalid(`spec.engine.args.${key}`, args[key], reason(`--${canonicalKey(key)}`)));
  }
  (spec.engine?.extraArgs ?? []).forEach((token, i) => {
    const key = extraArgFlagKey(token);
    if (key !== undefined && OWNED_KEYS.includes(canonicalKey(key))) {
      errors.push(invalid(`spec.engine.extraArgs[${i}]`, token, reason(`--${canonicalKey(key)}`)));
    }
  });
  return errors;
}
