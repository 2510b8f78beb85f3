/**
 * The JSON merge patch (RFC 7386) that turns a stored status into the desired one.
 */
import { isJsonObject } from '../../core/json-object';

/** Structural equality of JSON values: key order is irrelevant, list order is not. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/**
 * The merge patch from `stored` to `desired` (both objects): every key whose value changed,
 * recursing into objects on both sides; `null` for keys only `stored` has; lists and scalars
 * whole. Undefined when nothing changed. `desired` must hold no nulls (a merge patch cannot
 * write them).
 */
export function mergePatch(stored: Record<string, unknown>, desired: Record<string, unknown>): Record<string, unknown> | undefined {
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(desired)) {
    const has = Object.prototype.hasOwnProperty.call(stored, key);
    const old = has ? stored[key] : undefined;
    if (has && isJsonObject(old) && isJsonObject(value)) {
      const inner = mergePatch(old, value);
      if (inner !== undefined) patch[key] = inner;
    } else if (!has || !jsonEqual(old, value)) {
      patch[key] = value;
    }
  }
  for (const key of Object.keys(stored)) {
    if (!Object.prototype.hasOwnProperty.call(desired, key)) patch[key] = null;
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/**
 * The body of a merge patch of the /status subresource: `{ status: <patch> }`, or undefined when
 * the stored status already equals the desired one. A stored status that is not an object is
 * replaced whole.
 */
export function statusPatch(storedStatus: unknown, desired: Record<string, unknown>): { status: unknown } | undefined {
  if (!isJsonObject(storedStatus)) return { status: desired };
  const patch = mergePatch(storedStatus, desired);
  return patch === undefined ? undefined : { status: patch };
}
