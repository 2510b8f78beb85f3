/**
 * The list of objects synthesized for a ModelDeployment, carried by its record as an annotation.
 *
 * It is decided at build time, where the objects are known: the record's uid is not (the API
 * server assigns it), so the objects cannot name their owner in the YAML. The controller reads
 * this list to give each object an ownerReference to the record when asked to
 * (`--set-owner-references`), so that deleting the record garbage-collects them; tools can read
 * it to find a deployment's objects without guessing from labels (a custom provider's objects
 * need not carry ours).
 */
import { readJsonArrayAnnotation } from './annotation-json-array';
import { isJsonObject } from './json-object';

/** Annotation of the record: a JSON array of `{apiVersion, kind, name[, namespace]}`. */
export const ANNOTATION_RENDERED_OBJECTS = 'inference.cdk8s.io/rendered-objects';

/** One synthesized object. */
export interface RenderedObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /** Only when it differs from the record's namespace. */
  readonly namespace?: string;
}

/** The annotation value for these objects, in the order given. */
export function encodeRenderedObjects(refs: readonly RenderedObjectRef[]): string {
  return JSON.stringify(refs.map((r) => ({
    apiVersion: r.apiVersion,
    kind: r.kind,
    name: r.name,
    ...(r.namespace !== undefined && { namespace: r.namespace }),
  })));
}

/** What a record's annotation says: the objects, or why it cannot be read. */
export type DecodedRenderedObjects = { readonly refs: RenderedObjectRef[] } | { readonly error: string };

/**
 * Reads the annotation value. A record without it (rendered by an older version, or written by
 * hand) has no list: `{ refs: [] }`. Entries that are not objects with string fields are an
 * error, not skipped: a list half-read would leave objects without an owner unnoticed.
 */
export function decodeRenderedObjects(value: unknown): DecodedRenderedObjects {
  const read = readJsonArrayAnnotation(ANNOTATION_RENDERED_OBJECTS, value);
  if (read.error !== undefined) return { error: read.error };
  if (read.entries === undefined) return { refs: [] };
  const parsed = read.entries;
  const refs: RenderedObjectRef[] = [];
  for (const [i, entry] of parsed.entries()) {
    const fields = ['apiVersion', 'kind', 'name'] as const;
    if (!isJsonObject(entry) || fields.some((f) => typeof entry[f] !== 'string' || entry[f] === '')
      || (entry.namespace !== undefined && typeof entry.namespace !== 'string')) {
      return { error: `annotation ${ANNOTATION_RENDERED_OBJECTS}[${i}]: expected {apiVersion, kind, name[, namespace]} strings` };
    }
    refs.push({
      apiVersion: entry.apiVersion as string,
      kind: entry.kind as string,
      name: entry.name as string,
      ...(entry.namespace !== undefined && { namespace: entry.namespace as string }),
    });
  }
  return { refs };
}
