/**
 * Whether an installed CustomResourceDefinition takes what a record's custom resources need
 * (upstream-fields.ts): it serves their apiVersion, and its structural schema keeps every field
 * they set. The API server prunes a field its CRD does not know from custom resources without an
 * error (unless the client asks for strict field validation), so an object applied to a cluster on
 * an older operator silently loses it; the controller reports that instead (`IncompatibleUpstream`).
 *
 * "Keeps" follows the API server's pruning of structural schemas: a field is kept when its
 * object's schema lists it in `properties`, or has `additionalProperties` (a map: any key), or
 * `x-kubernetes-preserve-unknown-fields: true` (anything below it), or
 * `x-kubernetes-embedded-resource: true` (for `apiVersion`, `kind`, `metadata`). List elements
 * follow `items`. Types and validations are not compared: the synth already validated the objects
 * against the target version's schema, and a value of the wrong type is refused, not dropped.
 */
import type { FieldShape, UpstreamFields } from './upstream-fields';
import { apiGroupOf } from './upstream-fields';
import { isJsonObject } from '../core/json-object';

/** The CustomResourceDefinitions the controller reads. */
export const CRD_API_VERSION = 'apiextensions.k8s.io/v1';
export const CRD_KIND = 'CustomResourceDefinition';
export const CRD_RESOURCE = 'customresourcedefinitions';

/** Why a CRD does not take a record's objects. */
export type CrdIncompatibility =
  | { readonly reason: 'NotServed'; readonly apiVersion: string; readonly kind: string; readonly crdName: string; readonly served: readonly string[] }
  | { readonly reason: 'MissingFields'; readonly apiVersion: string; readonly kind: string; readonly crdName: string; readonly fieldPaths: readonly string[] };

/** Schema keywords that decide which fields the API server keeps; the cache drops the rest of a schema. */
const PRUNING_KEYWORDS = [
  'type',
  'properties',
  'items',
  'additionalProperties',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
] as const;

/** The name of the CRD that serves `apiVersion kind` with the plural resource name `resource`. */
export function crdName(apiVersion: string, resource: string): string {
  return `${resource}.${apiGroupOf(apiVersion)}`;
}

/**
 * What the controller caches of a CRD: its name, group, kind, and per version whether it is
 * served and the schema keywords that decide pruning (descriptions, validations and defaults
 * are most of a CRD — megabytes for the ones embedding pod templates — and are not needed).
 */
export function compactCrd(crd: any): any {
  if (!isJsonObject(crd)) return crd;
  const spec = isJsonObject(crd.spec) ? crd.spec : {};
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  return {
    apiVersion: crd.apiVersion,
    kind: crd.kind,
    metadata: crd.metadata,
    spec: {
      group: spec.group,
      names: isJsonObject(spec.names) ? { kind: spec.names.kind, plural: spec.names.plural } : spec.names,
      versions: versions.map((v: any) => {
        const schema = isJsonObject(v) && isJsonObject(v.schema) ? v.schema.openAPIV3Schema : undefined;
        return {
          name: v?.name,
          served: v?.served,
          ...(schema !== undefined && { schema: { openAPIV3Schema: pruningSchema(schema) } }),
        };
      }),
    },
  };
}

function pruningSchema(schema: unknown): unknown {
  if (!isJsonObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const key of PRUNING_KEYWORDS) {
    if (!(key in schema)) continue;
    const v = schema[key];
    if (key === 'properties' && isJsonObject(v)) out[key] = Object.fromEntries(Object.entries(v).map(([k, s]) => [k, pruningSchema(s)]));
    else if (key === 'items' || key === 'additionalProperties') out[key] = pruningSchema(v);
    else out[key] = v;
  }
  return out;
}

/**
 * How `crd` (as the API server returns it, or `compactCrd` of it) falls short of what `expected`
 * needs; undefined when it takes every field. Field paths are dotted from the object's root, `[]`
 * for the elements of a list, `["key"]` for a map key or a name that is not a plain identifier.
 */
export function crdIncompatibility(crd: any, name: string, expected: UpstreamFields): CrdIncompatibility | undefined {
  const versions: any[] = Array.isArray(crd?.spec?.versions) ? crd.spec.versions : [];
  const wanted = expected.apiVersion.slice(expected.apiVersion.lastIndexOf('/') + 1);
  const version = versions.find((v) => isJsonObject(v) && v.name === wanted);
  if (!version || version.served !== true) {
    const served = versions.filter((v) => isJsonObject(v) && v.served === true && typeof v.name === 'string').map((v) => v.name as string);
    return { reason: 'NotServed', apiVersion: expected.apiVersion, kind: expected.kind, crdName: name, served };
  }
  const schema = version.schema?.openAPIV3Schema;
  // apiextensions.k8s.io/v1 requires a schema per version; without one nothing is pruned.
  if (!isJsonObject(schema)) return undefined;
  const missing: string[] = [];
  walk(schema, expected.fields, '', missing);
  return missing.length > 0 ? { reason: 'MissingFields', apiVersion: expected.apiVersion, kind: expected.kind, crdName: name, fieldPaths: missing } : undefined;
}

/** Collects into `missing` the paths of `shape` that `schema` does not keep. */
function walk(schema: Record<string, any>, shape: FieldShape, path: string, missing: string[]): void {
  if (shape === 1) return;
  if (Array.isArray(shape)) {
    if (shape.length === 0 || !isJsonObject(schema.items)) return;
    walk(schema.items, shape[0], `${path}[]`, missing);
    return;
  }
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const additional = schema.additionalProperties;
  for (const [key, sub] of Object.entries(shape as Record<string, FieldShape>)) {
    const named = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
    if (isJsonObject(named)) {
      walk(named, sub, join(path, key, false), missing);
    } else if (isJsonObject(additional)) {
      walk(additional, sub, join(path, key, true), missing);
    } else if (additional === true || schema['x-kubernetes-preserve-unknown-fields'] === true) {
      continue;
    } else if (schema['x-kubernetes-embedded-resource'] === true && (key === 'apiVersion' || key === 'kind' || key === 'metadata')) {
      continue;
    } else {
      missing.push(join(path, key, false));
    }
  }
}

function join(path: string, key: string, mapKey: boolean): string {
  if (!mapKey && /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** Paths a message lists before `and N more`. */
const MAX_LISTED_PATHS = 8;

/** The sentence of a condition message about one incompatibility. */
export function describeIncompatibility(i: CrdIncompatibility): string {
  const installed = `the installed CustomResourceDefinition ${i.crdName}`;
  if (i.reason === 'NotServed') {
    const served = i.served.length > 0 ? `it serves ${i.served.map((v) => `${apiGroupOf(i.apiVersion)}/${v}`).join(', ')}` : 'it serves no version';
    return `${i.kind} ${i.apiVersion}: ${installed} does not serve ${i.apiVersion} (${served})`;
  }
  const listed = i.fieldPaths.slice(0, MAX_LISTED_PATHS).join(', ');
  const more = i.fieldPaths.length > MAX_LISTED_PATHS ? ` and ${i.fieldPaths.length - MAX_LISTED_PATHS} more` : '';
  const noun = i.fieldPaths.length === 1 ? 'field' : 'fields';
  return `${i.kind} ${i.apiVersion}: ${installed} has no ${noun} ${listed}${more}, which the rendered object sets (the API server drops unknown fields)`;
}
