/**
 * Reading the annotations of ours whose value is YAML (or JSON): DRA device requests, autoscaling,
 * multi-node replicas, LoRA adapters. Each value is refused above a size before parsing, parsed
 * with aliases limited (no alias bombs) and duplicate keys as errors, and parsed once per distinct
 * text: admission, every provider's checks and translation, and the routing all read the same
 * annotation of the same deployment, and a fleet repeats the same settings.
 */
import { FieldError, invalid } from './field-error';
import { isJsonObject } from './json-object';
import { yamlPackage } from './yaml-package';

/** A deployment's annotations, as every reader takes them. */
export type Annotations = Readonly<Record<string, string>> | undefined;

/** Distinct values remembered per annotation: plenty for a fleet that shares a few settings. */
const CACHE_SIZE = 64;

/**
 * A reader of one annotation that parses each distinct value once (the `CACHE_SIZE` most recent).
 * `absent` is what a deployment without the annotation reads. Callers must not modify the result:
 * it is shared by every deployment with the same text.
 */
export function cachedAnnotationReader<T>(annotation: string, parseValue: (value: string) => T, absent: T): (annotations: Annotations) => T {
  const parsedByValue = new Map<string, T>();
  return (annotations) => {
    const value = annotations?.[annotation];
    if (value === undefined) return absent;
    const known = parsedByValue.get(value);
    if (known !== undefined) return known;
    const result = parseValue(value);
    if (parsedByValue.size >= CACHE_SIZE) parsedByValue.delete(parsedByValue.keys().next().value!);
    parsedByValue.set(value, result);
    return result;
  };
}

/**
 * The value as a YAML mapping, or the error at `path`: too large (over `maxBytes`), not YAML or
 * JSON, or not a mapping (`shape` says what it should be, e.g. `a mapping with maxReplicas and metrics`).
 */
export function parseAnnotationMapping(
  value: string,
  path: string,
  maxBytes: number,
  shape: string,
): { doc?: Record<string, unknown>; errors: FieldError[] } {
  const bytes = Buffer.byteLength(value);
  if (bytes > maxBytes) {
    return { errors: [invalid(path, `${value.slice(0, 40)}…`, `is ${bytes} bytes, more than the ${maxBytes} allowed`)] };
  }
  let doc: unknown;
  try {
    doc = yamlPackage().parse(value, { maxAliasCount: 16, uniqueKeys: true, prettyErrors: false });
  } catch (e) {
    return { errors: [invalid(path, value, `is not YAML or JSON: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`)] };
  }
  if (!isJsonObject(doc)) return { errors: [invalid(path, value, `must be ${shape}`)] };
  return { doc, errors: [] };
}

/** One error per key of `doc` not in `known`, at `<path>.<key>`, listing the known keys. */
export function unknownKeyErrors(doc: Record<string, unknown>, known: readonly string[], path: string): FieldError[] {
  return Object.keys(doc)
    .filter((key) => !known.includes(key))
    .map((key) => invalid(`${path}.${key}`, doc[key], `unknown key; known keys: ${known.join(', ')}`));
}
