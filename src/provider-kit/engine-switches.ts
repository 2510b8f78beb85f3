/**
 * `engine.args` values of "true" and "false" for an engine's switches. AI Runway renders every
 * non-empty value as `--key value`, so `enable-chunked-prefill: "true"` becomes
 * `--enable-chunked-prefill true`: the switch takes no value, and argparse reads `true` as a stray
 * positional — "unrecognized arguments" for vLLM's API server and SGLang, the served model's name
 * under `vllm serve`. Which options are switches is read from the engine's real parser
 * (`generated/engine-arguments`, extracted from the PyPI package of the default image's version):
 *
 * - `"true"` (any case) renders the switch alone: `--enable-chunked-prefill`;
 * - `"false"` renders its off form where the engine has one (`--no-enable-chunked-prefill`, vLLM's
 *   BooleanOptionalAction), and nothing where it has none (a switch left out is off);
 * - any other value of a switch is a field error naming the switch;
 * - an option that takes a value gets the value as before (`--dtype true` is the user's business).
 */
import { ENGINE_ARGUMENT_TABLES, EngineArgumentKind, EngineArgumentTable } from './generated/engine-arguments';
import { FieldError, invalid } from '../core/field-error';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';

/** The engines' argument tables by id (`vllm-0.11.0`, `dynamo-1.1.1-sglang`), or undefined for one not extracted. */
export function engineArgumentTable(id: string): EngineArgumentTable | undefined {
  return ENGINE_ARGUMENT_TABLES[id];
}

/** An option of an engine: as written in the table, its destination and how it takes a value. */
export interface EngineOption {
  readonly option: string;
  readonly dest: string;
  readonly kind: EngineArgumentKind;
}

/** The option an `engine.args` key names, with its kind: `--key`, else `--key` with `_` read as `-` (vLLM's parser does). */
export function engineOption(table: EngineArgumentTable, key: string): EngineOption | undefined {
  for (const option of [`--${key}`, `--${key.replace(/_/g, '-')}`]) {
    const found = table.options[option];
    if (found) return { option, dest: found[0], kind: found[1] };
  }
  return undefined;
}

function isSwitch(kind: EngineArgumentKind): boolean {
  return kind === 's' || kind === 'b';
}

/**
 * The tokens of `engine.args` `key: value` when `key` is one of the engine's switches and the
 * value says true or false; undefined otherwise (the caller renders `--key value`).
 */
export function switchTokens(table: EngineArgumentTable | undefined, key: string, value: string): string[] | undefined {
  if (!table) return undefined;
  const option = engineOption(table, key);
  if (!option || !isSwitch(option.kind)) return undefined;
  const v = value.trim().toLowerCase();
  if (v === 'true') return [`--${key}`];
  if (v === 'false') {
    const off = `--no-${option.option.slice(2)}`;
    return option.kind === 'b' || table.options[off] ? [off] : [];
  }
  return undefined;
}

/** Field errors for switches given a value other than "", "true" or "false". */
export function switchValueErrors(spec: ModelDeploymentSpec, table: EngineArgumentTable | undefined, engineName: string): FieldError[] {
  if (!table) return [];
  const args = spec.engine?.args ?? {};
  const errors: FieldError[] = [];
  for (const key of Object.keys(args).sort()) {
    const value = args[key] ?? '';
    const option = engineOption(table, key);
    if (!option || !isSwitch(option.kind) || value === '' || switchTokens(table, key, value)) continue;
    errors.push(invalid(`spec.engine.args.${key}`, value,
      `${option.option} is a switch of ${engineName} (it takes no value; a value would be read as a stray argument): ` +
        'set "" or "true" to pass it, "false" to leave it off'));
  }
  return errors;
}
