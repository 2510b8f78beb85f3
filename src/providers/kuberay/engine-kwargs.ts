/**
 * vLLM's engine arguments as Ray Serve LLM's `engine_kwargs`: Ray Serve LLM starts vLLM's engine
 * from a dictionary of its arguments by their Python names (`max_model_len: 8192`), not from a
 * command line. The flags we render for vLLM (`renderKubeRayEngineArgs`: the structured settings,
 * the derived tensor parallel size, `engine.args`, `engine.extraArgs`) are read here the way vLLM's
 * parser reads them — the option's destination and value type from the real parser
 * (`generated/engine-arguments`) — into that dictionary, and an option vLLM's engine does not take
 * is a field error at the setting that wrote it.
 */
import { FieldError, invalid } from '../../core/field-error';
import type { ModelDeploymentSpec } from '../../core/generated/model-deployment-spec';
import { engineOption, switchTokens } from '../../provider-kit/engine-switches';
import type { EngineArgumentTable } from '../../provider-kit/generated/engine-arguments';

/** One rendered token and the spec field it came from (for errors). */
export interface SourcedToken {
  readonly token: string;
  /** `spec.engine.args.<key>`, `spec.engine.extraArgs[i]`, or the setting a derived flag renders. */
  readonly path: string;
}

/** Options of vLLM's OpenAI server that are not engine arguments: Ray Serve LLM's ingress and `model_loading_config` take their place. */
const SERVER_ONLY = new Set(['--host', '--port', '--model', '--served-model-name']);

/** What converting the tokens gave: the kwargs, or the errors. */
export interface EngineKwargs {
  readonly kwargs: Record<string, unknown>;
  readonly errors: FieldError[];
}

function typedValue(kind: string, raw: string): { value: unknown } | { error: string } {
  switch (kind) {
    case 'i':
      return /^\s*[+-]?\d+(_\d+)*\s*$/.test(raw) ? { value: Number(raw.replace(/_/g, '')) } : { error: 'takes an integer' };
    case 'f': {
      const n = Number(raw.trim());
      return raw.trim() !== '' && Number.isFinite(n) ? { value: n } : { error: 'takes a number' };
    }
    case 'j':
      try {
        return { value: JSON.parse(raw) };
      } catch {
        return { error: 'takes JSON' };
      }
    case 'u':
      // A JSON object, else the string itself.
      try {
        const parsed: unknown = JSON.parse(raw);
        return { value: parsed !== null && typeof parsed === 'object' ? parsed : raw };
      } catch {
        return { value: raw };
      }
    case 'o': {
      const v = raw.trim().toLowerCase();
      if (['true', '1', 'yes'].includes(v)) return { value: true };
      if (['false', '0', 'no'].includes(v)) return { value: false };
      return { error: 'takes true or false' };
    }
    default:
      return { value: raw };
  }
}

/**
 * The kwargs of `tokens` (`--opt value`, `--opt=value`, switches, `--no-<switch>`), read with
 * `table`; `engineName` names the engine in messages. Later occurrences win, as with argparse.
 */
export function engineKwargs(tokens: readonly SourcedToken[], table: EngineArgumentTable, engineName: string): EngineKwargs {
  const kwargs: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const { token, path } = tokens[i];
    if (!token.startsWith('-') || /^-\d/.test(token)) {
      errors.push(invalid(path, token, `is not an option: Ray Serve LLM passes vLLM its engine arguments by name (engine_kwargs), so every token must be a --option of ${engineName}`));
      continue;
    }
    const eq = token.indexOf('=');
    const written = eq >= 0 ? token.slice(0, eq) : token;
    const explicit = eq >= 0 ? token.slice(eq + 1) : undefined;
    // A short option (`-tp`) is looked up as written; a long one also with `_` read as `-`.
    const short = !written.startsWith('--');
    const name = short ? written : written.slice(2);
    const shortEntry = short ? table.options[written] : undefined;
    let option = short
      ? (shortEntry && { option: written, dest: shortEntry[0], kind: shortEntry[1] })
      : engineOption(table, name);
    let negated = false;
    if (!option && !short && name.startsWith('no-')) {
      const on = engineOption(table, name.slice(3));
      if (on?.kind === 'b') {
        option = on;
        negated = true;
      }
    }
    if (!option) {
      errors.push(invalid(path, token, `${written} is not an option of ${engineName}, whose engine arguments Ray Serve LLM passes as engine_kwargs`));
      continue;
    }
    if (SERVER_ONLY.has(option.option)) continue;
    if (option.kind === 's' || option.kind === 'b') {
      // A BooleanOptionalAction's `--no-` string is in the table too: it turns the option off.
      kwargs[option.dest] = !(negated || (option.kind === 'b' && option.option.startsWith('--no-')));
      continue;
    }
    let raw = explicit;
    if (raw === undefined) {
      const next = tokens[i + 1];
      if (!next || next.token.startsWith('--')) {
        errors.push(invalid(path, token, `${written} needs a value`));
        continue;
      }
      raw = next.token;
      i++;
    }
    if (option.kind === 'l') {
      const values = [raw];
      while (tokens[i + 1] && !tokens[i + 1].token.startsWith('--')) values.push(tokens[++i].token);
      kwargs[option.dest] = values;
      continue;
    }
    const typed = typedValue(option.kind, raw);
    if ('error' in typed) errors.push(invalid(tokens[i].path, raw, `${written} ${typed.error}`));
    else kwargs[option.dest] = typed.value;
  }
  return { kwargs, errors };
}

/**
 * `engine.args` as sourced tokens: `--key value`, a bare `--key` for an empty value, and a switch
 * of the engine given "true"/"false" as the switch or its off form (`switchTokens`).
 */
export function engineArgTokens(spec: ModelDeploymentSpec, table: EngineArgumentTable): SourcedToken[] {
  const args = spec.engine?.args ?? {};
  const out: SourcedToken[] = [];
  for (const key of Object.keys(args).sort()) {
    const path = `spec.engine.args.${key}`;
    const value = args[key];
    const tokens = value === '' || value === undefined || value === null ? [`--${key}`] : switchTokens(table, key, value) ?? [`--${key}`, value];
    for (const token of tokens) out.push({ token, path });
  }
  return out;
}

/** `engine.extraArgs` as sourced tokens. */
export function extraArgTokens(spec: ModelDeploymentSpec): SourcedToken[] {
  return (spec.engine?.extraArgs ?? []).map((token, i) => ({ token, path: `spec.engine.extraArgs[${i}]` }));
}
