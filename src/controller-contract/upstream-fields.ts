/**
 * What a record's rendered custom resources need of the cluster's CRDs, carried by the record as
 * an annotation: for each `apiVersion kind` of custom resource synthesized for the deployment, the
 * fields those objects set. The controller compares it with the installed CRDs
 * (crd-compatibility.ts) and reports `IncompatibleUpstream` when a CRD does not serve the version
 * or has no such field (the API server would drop the field from the object without an error:
 * CRD pruning), e.g. on a cluster still on an older operator.
 *
 * It is decided at build time, where the objects are known; the controller never renders them
 * (it runs the providers with their default settings, and the YAML may be changed by overrides
 * and patches after translation), so the record states what was actually emitted.
 *
 * The fields are a "shape": the object with every value replaced by `1` and every list by a
 * one-element list holding the union of its elements' shapes (`[]` for an empty list). Prefixes
 * are written once, and map keys need no escaping, so it stays small (a LeaderWorkerSet with its
 * pod templates: about 2 KiB) and exact. `apiVersion`, `kind`, `metadata` and `status` at the
 * root are left out: every custom resource has the first three, and nobody applies a status.
 * Built-in kinds (Deployment, Service, ...) are left out: no CRD serves them, and their schema
 * is the cluster's Kubernetes version, which the schema checks of the synth already target.
 */
import { readJsonArrayAnnotation } from '../core/annotation-json-array';
import { isJsonObject } from '../core/json-object';

/** Annotation of the record: a JSON array of `{apiVersion, kind, fields}`. */
export const ANNOTATION_UPSTREAM_FIELDS = 'inference.cdk8s.io/upstream-fields';

/** A field shape: `1` for a value, an object of shapes, or a list of at most one shape. */
export type FieldShape = 1 | { readonly [key: string]: FieldShape } | readonly FieldShape[];

/** The custom resources of one `apiVersion kind` a record's objects include, and their fields. */
export interface UpstreamFields {
  readonly apiVersion: string;
  readonly kind: string;
  readonly fields: FieldShape;
}

/**
 * The API groups Kubernetes serves itself (the core group is `''`): their kinds have no CRD.
 * Every other group, `*.k8s.io` ones such as `gateway.networking.k8s.io` included, is a CRD's.
 */
export const BUILT_IN_API_GROUPS: ReadonlySet<string> = new Set([
  '', 'admissionregistration.k8s.io', 'apiextensions.k8s.io', 'apiregistration.k8s.io', 'apps', 'authentication.k8s.io',
  'authorization.k8s.io', 'autoscaling', 'batch', 'certificates.k8s.io', 'coordination.k8s.io', 'discovery.k8s.io',
  'events.k8s.io', 'flowcontrol.apiserver.k8s.io', 'internal.apiserver.k8s.io', 'networking.k8s.io', 'node.k8s.io',
  'policy', 'rbac.authorization.k8s.io', 'resource.k8s.io', 'scheduling.k8s.io', 'storage.k8s.io', 'storagemigration.k8s.io',
]);

/** The API group of an apiVersion (`''` for the core group's `v1`). */
export function apiGroupOf(apiVersion: string): string {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** True for a kind a CustomResourceDefinition serves. */
export function isCustomResource(apiVersion: string): boolean {
  return !BUILT_IN_API_GROUPS.has(apiGroupOf(apiVersion));
}

/** Root fields every object has or nobody writes: not part of a shape. */
const ROOT_FIELDS_LEFT_OUT = new Set(['apiVersion', 'kind', 'metadata', 'status']);

/** The shape of a JSON value (see the file comment). */
export function shapeOf(value: unknown): FieldShape {
  if (Array.isArray(value)) {
    let merged: FieldShape | undefined;
    for (const element of value) merged = merged === undefined ? shapeOf(element) : mergeShapes(merged, shapeOf(element));
    return merged === undefined ? [] : [merged];
  }
  if (isJsonObject(value)) {
    const out: Record<string, FieldShape> = {};
    for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = shapeOf(v);
    return out;
  }
  return 1;
}

/** Both shapes' fields (where one has an object and the other a value, the object wins: it says more). */
export function mergeShapes(a: FieldShape, b: FieldShape): FieldShape {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length === 0) return b;
    if (b.length === 0) return a;
    return [mergeShapes(a[0], b[0])];
  }
  if (isShapeObject(a) && isShapeObject(b)) {
    const out: Record<string, FieldShape> = { ...a };
    for (const [key, v] of Object.entries(b)) out[key] = key in out ? mergeShapes(out[key], v) : v;
    return out;
  }
  return a === 1 ? b : a;
}

function isShapeObject(s: FieldShape): s is { readonly [key: string]: FieldShape } {
  return typeof s === 'object' && !Array.isArray(s);
}

/**
 * The annotation value for these objects (JSON as synthesized): one entry per `apiVersion kind`
 * of custom resource, in order of first appearance; undefined when there is none.
 */
export function encodeUpstreamFields(objects: readonly unknown[]): string | undefined {
  const byKind = new Map<string, { apiVersion: string; kind: string; fields: FieldShape }>();
  for (const o of objects) {
    if (!isJsonObject(o) || typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || !isCustomResource(o.apiVersion)) continue;
    const body: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(o)) if (!ROOT_FIELDS_LEFT_OUT.has(key)) body[key] = v;
    const key = `${o.apiVersion} ${o.kind}`;
    const entry = byKind.get(key);
    const fields = shapeOf(body);
    if (entry) entry.fields = mergeShapes(entry.fields, fields);
    else byKind.set(key, { apiVersion: o.apiVersion, kind: o.kind, fields });
  }
  return byKind.size === 0 ? undefined : JSON.stringify([...byKind.values()]);
}

/** What a record's annotation says, or why it cannot be read. */
export type DecodedUpstreamFields = { readonly entries: readonly UpstreamFields[]; readonly error?: undefined } | { readonly error: string };

/**
 * Reads the annotation value. A record without it (no custom resources, or rendered by an older
 * version) expects nothing: `{ entries: [] }`.
 */
export function decodeUpstreamFields(value: unknown): DecodedUpstreamFields {
  const read = readJsonArrayAnnotation(ANNOTATION_UPSTREAM_FIELDS, value);
  if (read.error !== undefined) return { error: read.error };
  if (read.entries === undefined) return { entries: [] };
  const parsed = read.entries;
  const entries: UpstreamFields[] = [];
  for (const [i, entry] of parsed.entries()) {
    if (!isJsonObject(entry) || typeof entry.apiVersion !== 'string' || entry.apiVersion === '' || typeof entry.kind !== 'string'
      || entry.kind === '' || !isShape(entry.fields)) {
      return { error: `annotation ${ANNOTATION_UPSTREAM_FIELDS}[${i}]: expected {apiVersion, kind, fields} with fields a shape of 1, objects and one-element lists` };
    }
    entries.push({ apiVersion: entry.apiVersion, kind: entry.kind, fields: entry.fields });
  }
  return { entries };
}

function isShape(value: unknown): value is FieldShape {
  if (value === 1) return true;
  if (Array.isArray(value)) return value.length <= 1 && value.every(isShape);
  return isJsonObject(value) && Object.values(value).every(isShape);
}
