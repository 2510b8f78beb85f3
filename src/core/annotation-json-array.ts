/**
 * The JSON-array annotations the synth writes on a record for the controller to read
 * (`inference.cdk8s.io/rendered-objects`, `inference.cdk8s.io/upstream-fields`): one reader of the
 * envelope, so both refuse a value that is not a string, not JSON or not an array with the same
 * messages, naming the annotation.
 */

/** The array's entries (undefined when the annotation is absent), or why the value cannot be read. */
export type JsonArrayAnnotation = { readonly entries?: readonly unknown[]; readonly error?: undefined } | { readonly error: string };

/** Reads the value of annotation `name` as a JSON array; `{}` (no entries) when absent. */
export function readJsonArrayAnnotation(name: string, value: unknown): JsonArrayAnnotation {
  if (value === undefined) return {};
  if (typeof value !== 'string') return { error: `annotation ${name} is not a string` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return { error: `annotation ${name} is not JSON` };
  }
  if (!Array.isArray(parsed)) return { error: `annotation ${name} is not a JSON array` };
  return { entries: parsed };
}
