/**
 * An environment variable of modelplane's engine container. Its XRD keeps a curated subset of
 * core/v1 `EnvVar`: a `value`, or a `valueFrom` with `secretKeyRef`, `configMapKeyRef` (each with
 * a required `name` and `key`) or `fieldRef` (a required `fieldPath`). Other sources
 * (`resourceFieldRef`, `fileKeyRef`) have no place in the schema, and the API server would drop
 * them — leaving a variable without its value. Both the typed constructs and the provider build
 * their env through here, so they keep and refuse the same things.
 */
import { isJsonObject } from '../core/json-object';

/** The `valueFrom` sources modelplane's engine container takes. */
const SUPPORTED_ENV_SOURCES: readonly string[] = ['secretKeyRef', 'configMapKeyRef', 'fieldRef'];

/** One `env[]` entry in the XRD's JSON shape. */
export interface EnvVarJson {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: Record<string, Record<string, unknown>>;
}

/** Something about one variable modelplane cannot take, relative to the variable (`valueFrom.fileKeyRef`). */
export interface EnvVarProblem {
  readonly field: string;
  readonly value: unknown;
  readonly message: string;
  /** True for a source modelplane does not have at all (as opposed to a missing field). */
  readonly unsupportedSource: boolean;
}

/** The fields kept from each supported source, and the ones the XRD requires. */
const SOURCE_FIELDS: Record<string, { keep: readonly string[]; required: readonly string[] }> = {
  secretKeyRef: { keep: ['name', 'key', 'optional'], required: ['name', 'key'] },
  configMapKeyRef: { keep: ['name', 'key', 'optional'], required: ['name', 'key'] },
  fieldRef: { keep: ['fieldPath', 'apiVersion'], required: ['fieldPath'] },
};

/**
 * The variable in the XRD's shape, or the problems that prevent it. As in AI Runway's providers a
 * non-empty `valueFrom` wins over `value` (Kubernetes refuses an entry with both), a non-empty
 * `value` comes next, and otherwise the variable is set empty.
 */
export function envVarJson(name: string, value: string | undefined, valueFrom: unknown): { env?: EnvVarJson; problems: EnvVarProblem[] } {
  const sources = isJsonObject(valueFrom) ? Object.entries(valueFrom).filter(([, v]) => v !== undefined && v !== null) : [];
  if (sources.length === 0) return { env: { name, ...(value ? { value } : {}) }, problems: [] };
  const problems: EnvVarProblem[] = [];
  const out: Record<string, Record<string, unknown>> = {};
  for (const [source, ref] of sources) {
    const rule = SOURCE_FIELDS[source];
    if (!rule) {
      problems.push({
        field: `valueFrom.${source}`,
        value: ref,
        message: `modelplane's engine container takes values from ${SUPPORTED_ENV_SOURCES.join(', ')} only`,
        unsupportedSource: true,
      });
      continue;
    }
    const fields = isJsonObject(ref) ? ref : {};
    for (const key of rule.required) {
      if (typeof fields[key] !== 'string' || fields[key] === '') {
        problems.push({ field: `valueFrom.${source}.${key}`, value: fields[key], message: `modelplane requires ${source}.${key}`, unsupportedSource: false });
      }
    }
    out[source] = Object.fromEntries(rule.keep.filter((k) => fields[k] !== undefined && fields[k] !== null).map((k) => [k, fields[k]]));
  }
  return problems.length > 0 ? { problems } : { env: { name, valueFrom: out }, problems };
}
