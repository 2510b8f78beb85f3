/**
 * Upstream schemas -> JSON Schema: what the Kubernetes API server does with a CRD structural
 * schema or a Kubernetes OpenAPI v3 component schema, written as a plain JSON Schema for Ajv.
 * The one converter of structural schemas: the check of our own AI Runway spec schemas
 * (structural-schema.ts) uses it too.
 *
 * What the conversion encodes (API server semantics, but unknown fields are errors, not pruned):
 * - structural objects with `properties` (or with nothing at all) and neither
 *   `additionalProperties` nor `x-kubernetes-preserve-unknown-fields: true` are closed;
 * - `x-kubernetes-int-or-string` accepts an integer or a string;
 * - `x-kubernetes-embedded-resource` accepts apiVersion/kind (required) and ObjectMeta metadata;
 * - `nullable: true` accepts null; null anywhere else is an error (the API server would drop it);
 * - `x-kubernetes-list-type: set` items are unique; `map` items are unique by their map keys;
 * - `required` properties that have a `default` may be omitted (the API server defaults first);
 * - OpenAPI 3.0 boolean `exclusiveMinimum`/`exclusiveMaximum` become the JSON Schema numbers;
 * - formats: int32 is range-checked (with `ConvertContext.integerFormats`, int32 and int64 as
 *   formats whose messages name the range), byte is checked as base64, ipv4/ipv6 are checked;
 *   every other format (double, float, date-time, duration, quantity, uri ...) is ignored;
 * - at the root of a custom resource apiVersion and kind must equal the GVK and metadata is
 *   the core ObjectMeta schema;
 * - Kubernetes OpenAPI: `IntOrString` is an int32 or a string, `Quantity` a number or a string in
 *   quantity syntax, `Time`/`MicroTime` may be null (`creationTimestamp: null`), `RawExtension`,
 *   `FieldsV1` and `Patch` are open objects; the closed string sets the API server enforces in
 *   Go for commonly generated fields (imagePullPolicy, restartPolicy, Service type, protocols,
 *   access modes ...) are added as enums (`BUILTIN_ENUMS`).
 *
 * Each CRD version's `x-kubernetes-validations` (CEL rules) are kept, with what evaluating them
 * needs, as a pruned `CelSchema` (cel-schema.ts); cel-validation.ts evaluates them.
 *
 * Known gaps (not checked here):
 * - CEL rules are evaluated by cel-validation.ts, with the gaps listed there;
 *   `x-kubernetes-list-map-keys` are not required to be present in each item;
 * - Go-side validation of built-in kinds beyond their OpenAPI schema, except what
 *   kubernetes-names.ts and builtin-kind-rules.ts add (names, labels, selectors, container/port
 *   names, restart policies) and `BUILTIN_ENUMS`: e.g. requests <= limits, volume/volumeMount
 *   consistency, env var names;
 * - whether an object's namespace fits its scope (namespaced vs cluster) is not checked;
 * - formats other than int32/byte/ipv4/ipv6 (date-time, duration, uri, ...), and int64 beyond
 *   JavaScript's 2^53;
 * - defaulting: for the Ajv check only "a required field with a default may be omitted" is
 *   modelled (CEL rules do run on the defaulted object);
 * - Go-only regular-expression syntax in `pattern` is translated (go-regex.ts); a pattern with
 *   no ECMAScript equivalent is skipped and listed, with the reason, by `schemaLoadStats()`;
 * - Crossplane XRDs: the fields Crossplane itself adds to a composite resource's `spec`
 *   (`spec.crossplane` in v2, the v1 composition fields) are accepted without checking them;
 * - conversion webhooks are not run: each served version is validated against its own schema.
 */
import { TranslatedPattern, translateGoPattern } from './go-regex';
import { integerRangeOf } from '../core/integer-formats';

/** A JSON (Schema) value as read from the upstream files. */
type Json = any;

/** Where a schema came from. */
export type UpstreamSchemaSource = 'crd' | 'xrd' | 'kubernetes';

/** Core ObjectMeta schema name in the Kubernetes OpenAPI documents. */
const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const K8S_REF_PREFIX = '#/components/schemas/';
/** Ajv key prefix of the Kubernetes OpenAPI component schemas (`k8s:<component name>`). */
export const K8S_ID_PREFIX = 'k8s:';
/** Ajv keyword for `x-kubernetes-list-type: map` (see list-map-keyword.ts). */
export const LIST_MAP_KEYWORD = 'x-k8s-list-map-keys';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
/** Kubernetes quantity syntax (resource.Quantity), e.g. 100m, 1.5Gi, 1e3. */
const QUANTITY_PATTERN = '^[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[KMGTPE]i|[numkMGTPE]|[eE][+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))?$';
const BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';

/** Built-in types whose JSON form is not what their OpenAPI `type` says. */
const SPECIAL_K8S_TYPES: Record<string, Json> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
    anyOf: [{ type: 'integer', minimum: INT32_MIN, maximum: INT32_MAX }, { type: 'string' }],
  },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': {
    anyOf: [{ type: 'string', pattern: QUANTITY_PATTERN }, { type: 'number' }],
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { type: ['string', 'null'] },
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': { type: ['string', 'null'] },
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': { type: 'object' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch': { type: 'object' },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': { type: 'object' },
};

/**
 * Closed string sets of built-in kinds. The Kubernetes OpenAPI v3 documents only name these
 * values in prose; the API server's Go validation rejects anything else. Only fields that
 * generated manifests commonly set are listed; an empty string means "unset, use the default".
 */
const BUILTIN_ENUMS: Record<string, Record<string, string[]>> = {
  'io.k8s.api.core.v1.PodSpec': {
    restartPolicy: ['Always', 'OnFailure', 'Never'],
    dnsPolicy: ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'],
    preemptionPolicy: ['PreemptLowerPriority', 'Never'],
  },
  'io.k8s.api.core.v1.Container': {
    imagePullPolicy: ['Always', 'Never', 'IfNotPresent'],
    terminationMessagePolicy: ['File', 'FallbackToLogsOnError'],
  },
  'io.k8s.api.core.v1.ContainerPort': { protocol: ['TCP', 'UDP', 'SCTP'] },
  'io.k8s.api.core.v1.ServicePort': { protocol: ['TCP', 'UDP', 'SCTP'] },
  'io.k8s.api.core.v1.ServiceSpec': {
    type: ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'],
    sessionAffinity: ['None', 'ClientIP'],
    externalTrafficPolicy: ['Cluster', 'Local'],
    internalTrafficPolicy: ['Cluster', 'Local'],
    ipFamilyPolicy: ['SingleStack', 'PreferDualStack', 'RequireDualStack'],
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec': { volumeMode: ['Filesystem', 'Block'] },
  'io.k8s.api.core.v1.HTTPGetAction': { scheme: ['HTTP', 'HTTPS'] },
  'io.k8s.api.core.v1.Toleration': { operator: ['', 'Equal', 'Exists'], effect: ['', 'NoSchedule', 'PreferNoSchedule', 'NoExecute'] },
  'io.k8s.api.core.v1.NodeSelectorRequirement': { operator: ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'] },
  'io.k8s.api.core.v1.TopologySpreadConstraint': { whenUnsatisfiable: ['DoNotSchedule', 'ScheduleAnyway'] },
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement': { operator: ['In', 'NotIn', 'Exists', 'DoesNotExist'] },
  'io.k8s.api.apps.v1.DeploymentStrategy': { type: ['Recreate', 'RollingUpdate'] },
  'io.k8s.api.apps.v1.StatefulSetSpec': { podManagementPolicy: ['OrderedReady', 'Parallel'] },
  'io.k8s.api.batch.v1.JobSpec': { completionMode: ['NonIndexed', 'Indexed'] },
  'io.k8s.api.batch.v1.CronJobSpec': { concurrencyPolicy: ['Allow', 'Forbid', 'Replace'] },
};
/** Item values of built-in string lists, as above. */
const BUILTIN_ITEM_ENUMS: Record<string, Record<string, string[]>> = {
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec': { accessModes: ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'] },
};

/** Keywords copied as-is from an upstream schema (every other key is an annotation). */
const PLAIN_KEYWORDS = [
  'enum', 'const', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'multipleOf',
  'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
];

/** What a conversion needs besides the schema. */
export interface ConvertContext {
  /**
   * `int32`/`int64` on an integer as Ajv `format`s, range-checked by INTEGER_FORMATS
   * (core/integer-formats.ts) so a message names the Go type's range, instead of int32 as
   * `minimum`/`maximum` and int64 unchecked. The check of our own spec (structural-schema.ts)
   * reports in AI Runway's words and sets it.
   * @default false
   */
  readonly integerFormats?: boolean;
  /**
   * Items of an `x-kubernetes-list-type: map` list are unique by their map keys. The check of our
   * own spec leaves it out: AI Runway's validation refuses a repeated volume name itself, in its
   * own words, after the schema check.
   * @default true
   */
  readonly listMapKeys?: boolean;
  /** Records a `pattern` the conversion had to leave out (see go-regex.ts). */
  dropPattern(pattern: string, reason: string): void;
}

/**
 * Convert a served CRD/XRD version's openAPIV3Schema: the structural schema, with apiVersion and
 * kind fixed to the GVK and metadata the core ObjectMeta.
 */
export function convertCustomResource(openAPI: Json, apiVersion: string, kind: string, source: UpstreamSchemaSource, ctx: ConvertContext): Json {
  const converted = convertStructural(openAPI, ctx);
  // A CRD may restrict metadata.name/generateName (the only metadata fields it may restrict);
  // everything else about metadata is the core ObjectMeta.
  const declared = openAPI.properties?.metadata?.properties ?? {};
  const restricted: Json = {};
  for (const field of ['name', 'generateName']) {
    if (declared[field]) {
      restricted[field] = convertStructural(declared[field], ctx, true);
    }
  }
  const objectMeta = { $ref: K8S_ID_PREFIX + OBJECT_META };
  converted.type = 'object';
  converted.properties = {
    ...converted.properties,
    apiVersion: { const: apiVersion },
    kind: { const: kind },
    metadata: Object.keys(restricted).length > 0 ? { allOf: [objectMeta, { properties: restricted }] } : objectMeta,
  };
  converted.required = [...new Set([...(converted.required ?? []), 'apiVersion', 'kind'])];
  if (converted.additionalProperties === undefined) {
    converted.additionalProperties = false;
  }
  if (source === 'xrd') {
    allowCrossplaneFields(converted);
  }
  return converted;
}

/**
 * Convert a Kubernetes OpenAPI v3 component schema, by its name in `components.schemas`: the
 * special types' JSON forms and the closed string sets of `BUILTIN_ENUMS` included.
 */
export function convertKubernetesComponent(name: string, s: Json, ctx: ConvertContext): Json {
  return SPECIAL_K8S_TYPES[name] ?? withBuiltinEnums(name, convertKubernetes(s, ctx));
}

const patternCache = new Map<string, TranslatedPattern>();

/** The upstream (Go RE2) pattern as an ECMAScript pattern, or why it cannot be one; memoised. */
function ecmaPattern(pattern: string): TranslatedPattern {
  let translated = patternCache.get(pattern);
  if (translated === undefined) {
    translated = translateGoPattern(pattern);
    patternCache.set(pattern, translated);
  }
  return translated;
}

/** Copy the value-validation keywords every dialect shares, translating formats. */
function copyValueKeywords(s: Json, out: Json, ctx: ConvertContext): void {
  for (const k of PLAIN_KEYWORDS) {
    if (s[k] !== undefined) {
      out[k] = s[k];
    }
  }
  if (out.pattern !== undefined) {
    const translated = ecmaPattern(out.pattern);
    if ('unsupported' in translated) {
      ctx.dropPattern(out.pattern, translated.unsupported);
      delete out.pattern;
    } else {
      out.pattern = translated.pattern;
    }
  }
  // OpenAPI 3.0 (and Kubernetes) use booleans for exclusive bounds.
  if (s.exclusiveMinimum === true && typeof s.minimum === 'number') {
    out.exclusiveMinimum = s.minimum;
    delete out.minimum;
  }
  if (s.exclusiveMaximum === true && typeof s.maximum === 'number') {
    out.exclusiveMaximum = s.maximum;
    delete out.maximum;
  }
  if (ctx.integerFormats && integerRangeOf(s.format) !== undefined) {
    if (s.type === 'integer') out.format = s.format;
    return;
  }
  switch (s.format) {
    case 'int32':
      out.minimum = Math.max(out.minimum ?? INT32_MIN, INT32_MIN);
      out.maximum = Math.min(out.maximum ?? INT32_MAX, INT32_MAX);
      break;
    case 'byte':
      if (out.pattern === undefined) {
        out.pattern = BASE64_PATTERN;
      }
      break;
    case 'ipv4':
    case 'ipv6':
      out.format = s.format;
      break;
    default:
      // int64, double, float, date-time, duration, quantity, uri, ...: not checked.
      break;
  }
}

function allowNull(out: Json): void {
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
  } else if (out.type === undefined && (out.anyOf || out.oneOf)) {
    const key = out.anyOf ? 'anyOf' : 'oneOf';
    out[key] = [...out[key], { type: 'null' }];
  }
  if (Array.isArray(out.enum) && !out.enum.includes(null)) {
    out.enum = [...out.enum, null];
  }
}

/**
 * Convert a CRD structural schema to JSON Schema. Inside `allOf`/`anyOf`/`oneOf`/`not` (value
 * validation, not structure) objects are not closed.
 */
export function convertStructural(s: Json, ctx: ConvertContext, inJunctor = false): Json {
  if (!s || typeof s !== 'object') {
    return {};
  }
  const out: Json = {};
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserveUnknown = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;

  if (typeof s.type === 'string' && !intOrString) {
    out.type = s.type;
  }
  copyValueKeywords(s, out, ctx);

  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[junctor])) {
      out[junctor] = s[junctor].map((sub: Json) => convertStructural(sub, ctx, true));
    }
  }
  if (s.not) {
    out.not = convertStructural(s.not, ctx, true);
  }
  if (intOrString && !out.anyOf && !out.oneOf) {
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }

  if (s.items && typeof s.items === 'object') {
    out.items = convertStructural(s.items, ctx, inJunctor);
  }
  if (s['x-kubernetes-list-type'] === 'set') {
    out.uniqueItems = true;
  } else if (s['x-kubernetes-list-type'] === 'map' && Array.isArray(s['x-kubernetes-list-map-keys']) && ctx.listMapKeys !== false) {
    out[LIST_MAP_KEYWORD] = s['x-kubernetes-list-map-keys'];
  }

  const isObject = s.type === 'object' || (s.type === undefined && s.properties !== undefined);
  if (s.properties && typeof s.properties === 'object') {
    out.properties = {};
    for (const [name, sub] of Object.entries(s.properties)) {
      out.properties[name] = convertStructural(sub, ctx, inJunctor);
    }
  }
  if (Array.isArray(s.required)) {
    // The API server applies defaults before validating, so a defaulted field may be omitted.
    const required = s.required.filter((name: string) => inJunctor || s.properties?.[name]?.default === undefined);
    if (required.length > 0) {
      out.required = required;
    }
  }
  if (s.additionalProperties !== undefined) {
    out.additionalProperties = typeof s.additionalProperties === 'object'
      ? convertStructural(s.additionalProperties, ctx, inJunctor)
      : s.additionalProperties;
  }
  if (embedded) {
    out.type = out.type ?? 'object';
    out.properties = {
      ...out.properties,
      apiVersion: { type: 'string', minLength: 1 },
      kind: { type: 'string', minLength: 1 },
      metadata: { $ref: K8S_ID_PREFIX + OBJECT_META },
    };
    out.required = [...new Set([...(out.required ?? []), 'apiVersion', 'kind'])];
  }
  if (isObject && !inJunctor && !preserveUnknown && out.additionalProperties === undefined) {
    // Without properties and without preserve-unknown-fields the API server prunes every field.
    out.additionalProperties = false;
  }
  if (s.nullable === true) {
    allowNull(out);
  }
  return out;
}

/** Convert a Kubernetes OpenAPI v3 component schema to JSON Schema. */
export function convertKubernetes(s: Json, ctx: ConvertContext): Json {
  if (!s || typeof s !== 'object') {
    return {};
  }
  if (typeof s.$ref === 'string') {
    return { $ref: kubernetesRef(s.$ref) };
  }
  // `allOf: [{$ref}]` is how the documents attach a description/default to a reference.
  if (Array.isArray(s.allOf) && s.allOf.length === 1 && s.allOf[0]?.$ref && !s.properties && !s.type) {
    return { $ref: kubernetesRef(s.allOf[0].$ref) };
  }
  const out: Json = {};
  if (typeof s.type === 'string') {
    out.type = s.type;
  }
  copyValueKeywords(s, out, ctx);
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[junctor])) {
      out[junctor] = s[junctor].map((sub: Json) => convertKubernetes(sub, ctx));
    }
  }
  if (s.items && typeof s.items === 'object') {
    out.items = convertKubernetes(s.items, ctx);
  }
  if (s.properties && typeof s.properties === 'object') {
    out.properties = {};
    for (const [name, sub] of Object.entries(s.properties)) {
      out.properties[name] = convertKubernetes(sub, ctx);
    }
  }
  if (Array.isArray(s.required) && s.required.length > 0) {
    out.required = s.required;
  }
  if (s.additionalProperties !== undefined) {
    out.additionalProperties = typeof s.additionalProperties === 'object'
      ? convertKubernetes(s.additionalProperties, ctx)
      : s.additionalProperties;
  } else if (s.properties && s['x-kubernetes-preserve-unknown-fields'] !== true) {
    out.additionalProperties = false;
  }
  if (s.nullable === true) {
    allowNull(out);
  }
  return out;
}


function withBuiltinEnums(name: string, converted: Json): Json {
  for (const [prop, values] of Object.entries(BUILTIN_ENUMS[name] ?? {})) {
    const target = converted.properties?.[prop];
    if (target && target.type === 'string') {
      target.enum = values;
    }
  }
  for (const [prop, values] of Object.entries(BUILTIN_ITEM_ENUMS[name] ?? {})) {
    const target = converted.properties?.[prop]?.items;
    if (target && target.type === 'string') {
      target.enum = values;
    }
  }
  return converted;
}

function kubernetesRef(ref: string): string {
  if (!ref.startsWith(K8S_REF_PREFIX)) {
    throw new Error(`unexpected $ref ${ref} in a Kubernetes OpenAPI document`);
  }
  return K8S_ID_PREFIX + ref.slice(K8S_REF_PREFIX.length);
}

/**
 * Crossplane adds its own machinery fields to a composite resource's spec (v2: `spec.crossplane`;
 * v1: compositionRef, compositionSelector ... directly in spec) and status (`conditions`, v2's
 * `status.crossplane`, v1's `connectionDetails`). Accept them unchecked.
 */
function allowCrossplaneFields(root: Json): void {
  const open = { type: 'object' };
  const status = root.properties?.status;
  if (status && typeof status === 'object' && !status.$ref) {
    status.properties = {
      conditions: { type: 'array', items: open },
      crossplane: open,
      connectionDetails: open,
      ...status.properties,
    };
  }
  const spec = root.properties?.spec;
  if (!spec || typeof spec !== 'object' || spec.$ref) {
    return;
  }
  spec.properties = {
    crossplane: open,
    compositionRef: open,
    compositionSelector: open,
    compositionRevisionRef: open,
    compositionRevisionSelector: open,
    compositionUpdatePolicy: { type: 'string' },
    resourceRefs: { type: 'array' },
    writeConnectionSecretToRef: open,
    ...spec.properties,
  };
}
