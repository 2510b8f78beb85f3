import type { ApiObject } from 'cdk8s';
import { isJsonObject } from './unstructured';
import { FieldError, forbidden, invalid } from '../../core/field-error';

/** Where users put the provider escape hatch. */
export const PROVIDER_OVERRIDES_PATH = 'spec.provider.overrides';

/** Top-level keys every AI Runway transformer refuses to take from overrides. */
export const BLOCKED_OVERRIDE_KEYS: readonly string[] = ['apiVersion', 'kind', 'metadata', 'status'];


/**
 * The transformer-side check of `spec.provider.overrides`: it must be an object and may not name
 * a blocked top-level key (`overriding "<key>" is not allowed`, one error per key).
 */
export function validateOverrideKeys(
  overrides: unknown,
  blockedKeys: readonly string[] = BLOCKED_OVERRIDE_KEYS,
): FieldError[] {
  if (overrides === undefined || overrides === null) return [];
  if (!isJsonObject(overrides)) {
    // The value is not echoed (overrides may carry secrets); only its JSON type is.
    const type = Array.isArray(overrides) ? 'array' : typeof overrides;
    return [invalid(PROVIDER_OVERRIDES_PATH, `<${type}>`, 'overrides must be a JSON object')];
  }
  return blockedKeys
    .filter((key) => Object.prototype.hasOwnProperty.call(overrides, key))
    .map((key) => forbidden(`${PROVIDER_OVERRIDES_PATH}.${key}`, `overriding ${JSON.stringify(key)} is not allowed`));
}

/** How a `null` in the overrides is applied. */
export enum OverrideNullHandling {
  /** The key is set to JSON null (Dynamo, llm-d, Direct vLLM). */
  SET_NULL = 'set-null',
  /** The key is removed (KAITO). */
  DELETE = 'delete',
}

/**
 * Deep merge of `source` into a copy of `target`: objects merge key by key, every other value
 * (lists and numbers included) replaces what was there.
 */
export function deepMergeJson(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
  nulls: OverrideNullHandling = OverrideNullHandling.SET_NULL,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(source)) {
    if (value === null && nulls === OverrideNullHandling.DELETE) {
      delete out[key];
    } else if (isJsonObject(value) && isJsonObject(out[key])) {
      out[key] = deepMergeJson(out[key] as Record<string, unknown>, value, nulls);
    } else {
      out[key] = cloneJson(value);
    }
  }
  return out;
}

function cloneJson(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/**
 * Deep-merges `overrides` into the final JSON of `obj`, after everything else (its own
 * rendering and any JSON patches). Done by wrapping `toJson()` rather than with `addJsonPatch`:
 * a typed L1 re-serializes its patched JSON through its generated `toJson_*` mapper, which drops
 * fields it does not know and string values in IntOrString/Quantity positions, so patches cannot
 * carry arbitrary overrides faithfully.
 */
export function mergeIntoFinalJson(
  obj: ApiObject,
  overrides: Record<string, unknown>,
  nulls: OverrideNullHandling = OverrideNullHandling.SET_NULL,
): void {
  const render = obj.toJson.bind(obj);
  Object.defineProperty(obj, 'toJson', {
    value: () => deepMergeJson(render(), overrides, nulls),
    configurable: true,
    writable: true,
  });
}
