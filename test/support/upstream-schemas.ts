/**
 * Upstream schema registry for tests.
 *
 * Loads the upstream CustomResourceDefinitions, Crossplane CompositeResourceDefinitions and
 * Kubernetes OpenAPI v3 documents kept in `../shared/upstream` (override the location with
 * `CDK8S_INFERENCE_UPSTREAM_DIR`), turns each schema into a plain JSON Schema that encodes
 * what the Kubernetes API server does with it, and compiles it with Ajv once per process.
 *
 * Everything is lazy: a test that only validates a Deployment never parses the Dynamo CRD.
 * CRD files are indexed by a cheap scan of their header (group and kind); a file is parsed
 * with `yaml` only when one of its kinds is asked for. Compiled validators are cached by
 * apiVersion+kind, and subschemas shared between kinds (PodSpec in RayService, LeaderWorkerSet,
 * DynamoGraphDeployment ...) are compiled only once (see `hoistSharedSubschemas`).
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
 * - formats: int32 is range-checked, byte is checked as base64, ipv4/ipv6 are checked; every
 *   other format (int64, double, float, date-time, duration, quantity, uri ...) is ignored;
 * - at the root of a custom resource apiVersion and kind must equal the GVK and metadata is
 *   the core ObjectMeta schema;
 * - Kubernetes OpenAPI: `IntOrString` is an int32 or a string, `Quantity` a number or a string in
 *   quantity syntax, `Time`/`MicroTime` may be null (`creationTimestamp: null`), `RawExtension`,
 *   `FieldsV1` and `Patch` are open objects; the closed string sets the API server enforces in
 *   Go for commonly generated fields (imagePullPolicy, restartPolicy, Service type, protocols,
 *   access modes ...) are added as enums (`BUILTIN_ENUMS`).
 *
 * Each CRD version's `x-kubernetes-validations` (CEL rules) are kept, with what evaluating them
 * needs, as a pruned `CelSchema` (`upstreamCelSchema`); schema-validator.ts evaluates them.
 *
 * Known gaps (not checked here):
 * - CEL rules are evaluated by schema-validator.ts, with the gaps listed there;
 *   `x-kubernetes-list-map-keys` are not required to be present in each item;
 * - Go-side validation of built-in kinds beyond their OpenAPI schema, except what
 *   schema-validator.ts adds (names, labels, selectors, container/port names, restart policies)
 *   and `BUILTIN_ENUMS`: e.g. requests <= limits, volume/volumeMount consistency, env var names;
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
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import * as YAML from 'yaml';
import { TranslatedPattern, translateGoPattern } from './go-regex';

/** A JSON (Schema) value as read from the upstream files. */
type Json = any;

/** Where a schema came from. */
export type UpstreamSchemaSource = 'crd' | 'xrd' | 'kubernetes';

/** One apiVersion+kind known to the registry. */
export interface UpstreamSchemaEntry {
  readonly apiVersion: string;
  readonly kind: string;
  readonly source: UpstreamSchemaSource;
  /** File the schema came from, relative to the upstream directory. */
  readonly file: string;
  /** `deprecated: true` on the CRD version. */
  readonly deprecated: boolean;
}

/** Timings and counters, for measuring what the registry costs. */
export interface SchemaLoadStats {
  /** Milliseconds spent indexing, reading, parsing and converting upstream files. */
  loadMs: number;
  /** Milliseconds spent compiling validators (Ajv compile plus sharing of subschemas). */
  compileMs: number;
  /** Number of apiVersion+kind validators compiled. */
  compiled: number;
  /** Upstream files loaded, relative to the upstream directory. */
  filesLoaded: string[];
  /** How many CRD/XRD files came from the on-disk cache instead of being parsed. */
  cacheHits: number;
  /** Patterns skipped because JavaScript regular expressions cannot express them, with why. */
  droppedPatterns: DroppedPattern[];
}

/** An upstream `pattern` the validator does not check, and why (see go-regex.ts). */
export interface DroppedPattern {
  /** File the pattern came from, relative to the upstream directory. */
  readonly file: string;
  readonly pattern: string;
  readonly reason: string;
}

/** Name of the environment variable that overrides the upstream directory. */
export const UPSTREAM_DIR_ENV = 'CDK8S_INFERENCE_UPSTREAM_DIR';
/**
 * Name of the environment variable that controls the on-disk cache of converted CRD schemas:
 * `off` disables it, any other value is the cache directory.
 * Default: `<os.tmpdir()>/cdk8s-inference-upstream-schemas` (outside the repository).
 */
export const SCHEMA_CACHE_ENV = 'CDK8S_INFERENCE_SCHEMA_CACHE';

/** Core ObjectMeta schema name in the Kubernetes OpenAPI documents. */
const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const K8S_REF_PREFIX = '#/components/schemas/';
const K8S_ID_PREFIX = 'k8s:';
const SHARED_ID_PREFIX = 'shared:';
const LIST_MAP_KEYWORD = 'x-k8s-list-map-keys';

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

/** Subschemas smaller than this (JSON characters) are not worth sharing between kinds. */
const SHARE_MIN_CHARS = 2000;

// ---------------------------------------------------------------------------------------------
// Locating files
// ---------------------------------------------------------------------------------------------

/** The upstream directory: `$CDK8S_INFERENCE_UPSTREAM_DIR` or `<repo>/../shared/upstream`. */
export function upstreamDir(): string {
  const fromEnv = process.env[UPSTREAM_DIR_ENV];
  return fromEnv ? path.resolve(fromEnv) : path.resolve(__dirname, '..', '..', '..', 'shared', 'upstream');
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const stat = entry.isSymbolicLink() ? fs.statSync(full) : entry;
    if (stat.isDirectory()) {
      out.push(...listFiles(full));
    } else if (stat.isFile()) {
      out.push(full);
    }
  }
  return out.sort();
}

function gvkKey(apiVersion: string, kind: string): string {
  return `${apiVersion} ${kind}`;
}

function groupKindKey(group: string, kind: string): string {
  return `${group} ${kind}`;
}

function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

// ---------------------------------------------------------------------------------------------
// Registry
// ---------------------------------------------------------------------------------------------

/** A CRD/XRD file converted to JSON Schema: what the on-disk cache holds. */
interface ConvertedFile {
  /** group+kind of every definition in the file. */
  definitions: string[];
  entries: Array<{ apiVersion: string; kind: string; source: UpstreamSchemaSource; deprecated: boolean; schema: Json; celSchema?: CelSchema }>;
  droppedPatterns: Array<{ pattern: string; reason: string }>;
}

interface Entry extends UpstreamSchemaEntry {
  /** Ajv key of the schema to compile. */
  readonly schemaId: string;
  /** Converted JSON Schema (CRD/XRD only; built-ins live in the shared Ajv instance). */
  schema?: Json;
  /** What CEL validation rules need of the schema; undefined when the version has no rules. */
  celSchema?: CelSchema;
}

/** A CRD/XRD file found by the header scan, parsed on demand. */
interface DefinitionFile {
  readonly file: string;
  /** group+kind the header scan found (undefined when the scan gave up). */
  readonly scanned?: string;
  parsed: boolean;
}

class UpstreamSchemas {
  private readonly root: string;
  private readonly cache: ConversionCache;
  private readonly ajv: Ajv;
  private readonly entries = new Map<string, Entry>();
  private readonly validators = new Map<string, ValidateFunction>();
  /** group+kind -> CRD/XRD files whose header names it. */
  private definitionFiles?: Map<string, DefinitionFile[]>;
  /** CRD/XRD files that could not be indexed by the header scan; parsed on first miss. */
  private unscannedFiles: DefinitionFile[] = [];
  private kubernetesLoaded = false;
  /** Shared subschemas already added to Ajv, by content hash. */
  private readonly sharedIds = new Set<string>();
  private readonly droppedPatterns: DroppedPattern[] = [];
  private readonly stats: SchemaLoadStats = {
    loadMs: 0, compileMs: 0, compiled: 0, filesLoaded: [], cacheHits: 0, droppedPatterns: [],
  };

  public constructor(root: string, cache: ConversionCache) {
    this.root = root;
    this.cache = cache;
    this.ajv = new Ajv({
      allErrors: true,
      strict: false,
      // Validators are compiled for large schemas; skip Ajv's own meta-validation of them.
      validateSchema: false,
      addUsedSchema: false,
      formats: {},
      // Shared subschemas are compiled once as functions, never inlined into each user.
      inlineRefs: false,
    });
    addFormats(this.ajv, ['ipv4', 'ipv6']);
    this.ajv.addKeyword({
      keyword: LIST_MAP_KEYWORD,
      type: 'array',
      schemaType: 'array',
      errors: true,
      validate: validateListMapKeys,
    });
  }

  /** The schema entry for an apiVersion+kind, or undefined when upstream has none. */
  public find(apiVersion: string, kind: string): UpstreamSchemaEntry | undefined {
    return this.lookup(apiVersion, kind);
  }

  /** The CEL view of an apiVersion+kind's schema, or undefined when it has no CEL rules. */
  public celSchema(apiVersion: string, kind: string): CelSchema | undefined {
    return this.lookup(apiVersion, kind)?.celSchema;
  }

  /** The compiled validator for an apiVersion+kind, or undefined when upstream has none. */
  public validator(apiVersion: string, kind: string): ValidateFunction | undefined {
    const key = gvkKey(apiVersion, kind);
    const cached = this.validators.get(key);
    if (cached) {
      return cached;
    }
    const entry = this.lookup(apiVersion, kind);
    if (!entry) {
      return undefined;
    }
    const started = performance.now();
    let validate: ValidateFunction | undefined;
    if (entry.schema !== undefined) {
      validate = this.ajv.compile(this.hoistSharedSubschemas(entry.schema));
      entry.schema = undefined; // Ajv holds what it needs; let the converted tree go.
    } else {
      validate = this.ajv.getSchema(entry.schemaId);
    }
    if (!validate) {
      throw new Error(`upstream schema ${entry.schemaId} for ${key} did not compile`);
    }
    this.stats.compileMs += performance.now() - started;
    this.stats.compiled++;
    this.validators.set(key, validate);
    return validate;
  }

  /** Every apiVersion+kind upstream defines (parses every file: slow, meant for listings). */
  public all(): UpstreamSchemaEntry[] {
    this.loadKubernetes();
    for (const files of this.scanDefinitions().values()) {
      files.forEach((f) => this.parseDefinitionFile(f));
    }
    this.unscannedFiles.forEach((f) => this.parseDefinitionFile(f));
    return [...this.entries.values()].map(publicEntry).sort((a, b) =>
      gvkKey(a.apiVersion, a.kind).localeCompare(gvkKey(b.apiVersion, b.kind)));
  }

  public loadStats(): SchemaLoadStats {
    return { ...this.stats, filesLoaded: [...this.stats.filesLoaded], droppedPatterns: [...this.droppedPatterns] };
  }

  private lookup(apiVersion: string, kind: string): Entry | undefined {
    const key = gvkKey(apiVersion, kind);
    const known = this.entries.get(key);
    if (known) {
      return known;
    }
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
      return undefined;
    }
    // Custom resources (including those whose group happens to look built-in) first: only the
    // files naming this group+kind are parsed.
    const files = this.scanDefinitions().get(groupKindKey(groupOf(apiVersion), kind)) ?? [];
    files.forEach((f) => this.parseDefinitionFile(f));
    if (!this.entries.has(key)) {
      this.loadKubernetes();
    }
    if (!this.entries.has(key) && this.unscannedFiles.length > 0) {
      this.unscannedFiles.forEach((f) => this.parseDefinitionFile(f));
    }
    return this.entries.get(key);
  }

  private register(entry: Entry): void {
    const key = gvkKey(entry.apiVersion, entry.kind);
    const existing = this.entries.get(key);
    if (existing) {
      // Kubernetes documents repeat meta kinds (DeleteOptions, WatchEvent) per group: harmless.
      if (existing.source === 'kubernetes' && entry.source === 'kubernetes') {
        return;
      }
      throw new Error(`${key} is defined twice upstream: in ${existing.file} and in ${entry.file}`);
    }
    this.entries.set(key, entry);
  }

  // --- CRDs and XRDs -------------------------------------------------------------------------

  /** Index CRD/XRD files by group+kind from their header, without parsing the YAML. */
  private scanDefinitions(): Map<string, DefinitionFile[]> {
    if (this.definitionFiles) {
      return this.definitionFiles;
    }
    const started = performance.now();
    const index = new Map<string, DefinitionFile[]>();
    for (const file of listFiles(this.root)) {
      if (!/\.ya?ml$/i.test(file)) {
        continue;
      }
      const header = scanDefinitionHeader(fs.readFileSync(file, 'utf8'));
      if (!header) {
        this.unscannedFiles.push({ file, parsed: false });
        continue;
      }
      const key = groupKindKey(header.group, header.kind);
      index.set(key, [...(index.get(key) ?? []), { file, scanned: key, parsed: false }]);
    }
    this.stats.loadMs += performance.now() - started;
    this.definitionFiles = index;
    return index;
  }

  private parseDefinitionFile(def: DefinitionFile): void {
    if (def.parsed) {
      return;
    }
    def.parsed = true;
    // Kubernetes types are referenced from every custom resource (ObjectMeta).
    this.loadKubernetes();
    const started = performance.now();
    const relative = path.relative(this.root, def.file);
    const text = fs.readFileSync(def.file, 'utf8');
    const cacheFile = this.cache.fileFor(text);
    let converted = this.cache.read(cacheFile);
    if (converted) {
      this.stats.cacheHits++;
    } else {
      converted = this.convertDefinitionFile(text, relative);
      this.cache.write(cacheFile, converted);
    }
    if (def.scanned && !converted.definitions.includes(def.scanned)) {
      // The header scan indexed this file under a name it does not define: a lookup of what it
      // does define would wrongly miss. Fail loudly rather than report "no upstream schema".
      throw new Error(`header scan of ${relative} found ${def.scanned}, but the file defines ${converted.definitions.join(', ')}`);
    }
    this.droppedPatterns.push(...converted.droppedPatterns.map((p) => ({ file: relative, ...p })));
    for (const e of converted.entries) {
      this.register({ ...e, file: relative, schemaId: `crd:${e.apiVersion}/${e.kind}` });
    }
    this.stats.loadMs += performance.now() - started;
    this.stats.filesLoaded.push(relative);
  }

  /** Parse a CRD/XRD file and convert every served version's schema. */
  private convertDefinitionFile(text: string, relative: string): ConvertedFile {
    const out: ConvertedFile = { definitions: [], entries: [], droppedPatterns: [] };
    const dropped = new Map<string, string>();
    const ctx: ConvertContext = { dropPattern: (pattern, reason) => dropped.set(pattern, reason) };
    for (const doc of YAML.parseAllDocuments(text)) {
      if (doc.errors.length > 0) {
        throw new Error(`cannot parse ${relative}: ${doc.errors[0].message}`);
      }
      const obj = doc.toJS({ maxAliasCount: -1 });
      const source = obj && typeof obj === 'object' ? definitionSource(obj) : undefined;
      if (!source) {
        continue;
      }
      const group: string = obj.spec?.group ?? '';
      const kind: string = obj.spec?.names?.kind;
      out.definitions.push(groupKindKey(group, kind));
      for (const version of obj.spec?.versions ?? []) {
        const openAPI = version.schema?.openAPIV3Schema ?? obj.spec?.validation?.openAPIV3Schema;
        if (!version.served || !openAPI) {
          continue; // The API server rejects unserved versions.
        }
        const apiVersion = apiVersionOf(group, version.name);
        out.entries.push({
          apiVersion,
          kind,
          source,
          deprecated: version.deprecated === true,
          schema: convertCustomResource(openAPI, apiVersion, kind, source, ctx),
          celSchema: extractCelSchema(openAPI),
        });
      }
    }
    out.droppedPatterns = [...dropped].map(([pattern, reason]) => ({ pattern, reason }));
    return out;
  }

  /**
   * Replace large subschemas by references to content-addressed shared schemas, so that the
   * pod template inside (say) RayService and LeaderWorkerSet is compiled once per process.
   */
  private hoistSharedSubschemas(schema: Json): Json {
    const hoist = (node: Json, isRoot: boolean): { node: Json; size: number } => {
      if (Array.isArray(node)) {
        let size = 2;
        const out = node.map((n) => {
          const r = hoist(n, false);
          size += r.size + 1;
          return r.node;
        });
        return { node: out, size };
      }
      if (!node || typeof node !== 'object') {
        return { node, size: JSON.stringify(node ?? null).length };
      }
      let size = 2;
      const out: Json = {};
      for (const [k, v] of Object.entries(node)) {
        if (k === 'properties' && v && typeof v === 'object' && !Array.isArray(v)) {
          // Property names are not schemas: hoist their values.
          const props: Json = {};
          for (const [name, sub] of Object.entries(v as Json)) {
            const r = hoist(sub, false);
            props[name] = r.node;
            size += r.size + name.length + 4;
          }
          out[k] = props;
          size += k.length + 4;
        } else if (['items', 'additionalProperties', 'not', 'allOf', 'anyOf', 'oneOf'].includes(k)) {
          const r = hoist(v, false);
          out[k] = r.node;
          size += r.size + k.length + 4;
        } else {
          out[k] = v;
          size += JSON.stringify(v).length + k.length + 4;
        }
      }
      if (isRoot || size < SHARE_MIN_CHARS) {
        return { node: out, size };
      }
      const text = JSON.stringify(out);
      const id = SHARED_ID_PREFIX + crypto.createHash('sha1').update(text).digest('hex');
      if (!this.sharedIds.has(id)) {
        this.ajv.addSchema(out, id);
        this.sharedIds.add(id);
      }
      return { node: { $ref: id }, size: 20 };
    };
    return hoist(schema, true).node;
  }

  // --- Kubernetes OpenAPI documents -----------------------------------------------------------

  private loadKubernetes(): void {
    if (this.kubernetesLoaded) {
      return;
    }
    this.kubernetesLoaded = true;
    const started = performance.now();
    const definitions = new Map<string, { schema: Json; file: string }>();
    for (const file of listFiles(this.root)) {
      if (!file.endsWith('.json')) {
        continue;
      }
      const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
      const schemas = doc?.components?.schemas;
      if (!doc?.openapi || !schemas) {
        continue;
      }
      const relative = path.relative(this.root, file);
      this.stats.filesLoaded.push(relative);
      for (const [name, schema] of Object.entries(schemas)) {
        if (!definitions.has(name)) {
          definitions.set(name, { schema, file: relative });
        }
      }
    }
    for (const [name, { schema, file }] of definitions) {
      const ctx: ConvertContext = { dropPattern: (pattern, reason) => this.droppedPatterns.push({ file, pattern, reason }) };
      this.ajv.addSchema(SPECIAL_K8S_TYPES[name] ?? withBuiltinEnums(name, convertKubernetes(schema, ctx)), K8S_ID_PREFIX + name);
      for (const gvk of (schema as Json)['x-kubernetes-group-version-kind'] ?? []) {
        this.register({
          apiVersion: apiVersionOf(gvk.group, gvk.version),
          kind: gvk.kind,
          source: 'kubernetes',
          file,
          deprecated: false,
          schemaId: `${K8S_ID_PREFIX}${name}`,
        });
      }
    }
    this.stats.loadMs += performance.now() - started;
  }
}

function convertCustomResource(openAPI: Json, apiVersion: string, kind: string, source: UpstreamSchemaSource, ctx: ConvertContext): Json {
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

function publicEntry(e: Entry): UpstreamSchemaEntry {
  return { apiVersion: e.apiVersion, kind: e.kind, source: e.source, file: e.file, deprecated: e.deprecated };
}

function definitionSource(obj: Json): UpstreamSchemaSource | undefined {
  if (obj.kind === 'CustomResourceDefinition' && /^apiextensions\.k8s\.io\//.test(obj.apiVersion ?? '')) {
    return 'crd';
  }
  if (obj.kind === 'CompositeResourceDefinition' && /^apiextensions\.crossplane\.io\//.test(obj.apiVersion ?? '')) {
    return 'xrd';
  }
  return undefined;
}

/**
 * Read `spec.group` and `spec.names.kind` from a CRD/XRD file without parsing it, relying on
 * the block layout every generator emits. Returns undefined (and the file gets parsed in full
 * when needed) for anything unusual: several documents, flow style, other indentation.
 */
export function scanDefinitionHeader(text: string): { group: string; kind: string } | undefined {
  const definitions = text.match(/^kind:[ \t]*['"]?(?:CustomResourceDefinition|CompositeResourceDefinition)['"]?[ \t]*$/gm);
  if (!definitions || definitions.length !== 1) {
    return undefined;
  }
  const lines = text.split('\n');
  let section: 'none' | 'spec' | 'names' = 'none';
  let group: string | undefined;
  let kind: string | undefined;
  for (const raw of lines) {
    const line = raw.replace(/\r$/, '');
    if (/^\s*(#.*)?$/.test(line)) {
      continue; // Blank lines and comments do not end a block.
    }
    if (/^\S/.test(line)) {
      section = /^spec:[ \t]*(#.*)?$/.test(line) ? 'spec' : 'none';
      continue;
    }
    if (section === 'none') {
      continue;
    }
    if (/^ {2}\S/.test(line)) {
      section = 'spec';
      const g = /^ {2}group:[ \t]*['"]?([^'"\s#]+)['"]?[ \t]*(#.*)?$/.exec(line);
      if (g) {
        group = g[1];
      } else if (/^ {2}names:[ \t]*$/.test(line)) {
        section = 'names';
      }
      continue;
    }
    if (section === 'names') {
      const k = /^ {4}kind:[ \t]*['"]?([^'"\s#]+)['"]?[ \t]*(#.*)?$/.exec(line);
      if (k) {
        kind = k[1];
      }
    }
    if (group && kind) {
      return { group, kind };
    }
  }
  return group && kind ? { group, kind } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Schema conversion
// ---------------------------------------------------------------------------------------------

interface ConvertContext {
  dropPattern(pattern: string, reason: string): void;
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
  } else if (s['x-kubernetes-list-type'] === 'map' && Array.isArray(s['x-kubernetes-list-map-keys'])) {
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

// ---------------------------------------------------------------------------------------------
// CEL view of a schema (x-kubernetes-validations)
// ---------------------------------------------------------------------------------------------

/** One `x-kubernetes-validations` entry, as the CRD declares it. */
export interface CelRule {
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly fieldPath?: string;
  readonly reason?: string;
  readonly optionalOldSelf?: boolean;
}

/**
 * The parts of a CRD structural schema that evaluating its CEL rules needs: where the rules are,
 * and, for every value a rule can see, how the API server turns it into a CEL value (types,
 * formats, int-or-string, property names vs map keys, embedded resources) and the defaults it
 * applies first. Subtrees that neither carry a rule nor are seen by one are left out.
 */
export interface CelSchema {
  'type'?: string;
  /** Only the formats that change the CEL type: byte, duration, date, date-time. */
  'format'?: string;
  'nullable'?: boolean;
  'default'?: Json;
  'properties'?: Record<string, CelSchema>;
  'additionalProperties'?: CelSchema;
  'items'?: CelSchema;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-validations'?: CelRule[];
}

const CEL_TYPED_FORMATS = new Set(['byte', 'duration', 'date', 'date-time']);
const CEL_RULE_FIELDS = ['rule', 'message', 'messageExpression', 'fieldPath', 'reason', 'optionalOldSelf'] as const;

/**
 * The CEL view of a structural schema, or undefined when it has no `x-kubernetes-validations`.
 * Structural schemas may not carry rules or defaults inside allOf/anyOf/oneOf/not, so only
 * properties, additionalProperties and items are followed. `seen` is true below a rule: there
 * the whole subtree is kept, because the rule's `self` contains it.
 */
export function extractCelSchema(s: Json, seen = false): CelSchema | undefined {
  if (!s || typeof s !== 'object') {
    return undefined;
  }
  const rules: CelRule[] = (Array.isArray(s['x-kubernetes-validations']) ? s['x-kubernetes-validations'] : [])
    .filter((r: Json) => typeof r?.rule === 'string')
    .map((r: Json) => Object.fromEntries(CEL_RULE_FIELDS.filter((k) => r[k] !== undefined && r[k] !== '').map((k) => [k, r[k]])) as CelRule);
  const inside = seen || rules.length > 0;
  const out: CelSchema = {};
  let needed = inside;
  if (s.properties && typeof s.properties === 'object') {
    const properties: Record<string, CelSchema> = {};
    for (const [name, sub] of Object.entries(s.properties)) {
      const converted = extractCelSchema(sub, inside);
      if (converted) {
        properties[name] = converted;
        needed = true;
      }
    }
    if (Object.keys(properties).length > 0) {
      out.properties = properties;
    }
  }
  for (const key of ['additionalProperties', 'items'] as const) {
    const converted = s[key] && typeof s[key] === 'object' ? extractCelSchema(s[key], inside) : undefined;
    if (converted) {
      out[key] = converted;
      needed = true;
    }
  }
  if (!needed) {
    return undefined;
  }
  if (typeof s.type === 'string') {
    out.type = s.type;
  }
  if (typeof s.format === 'string' && CEL_TYPED_FORMATS.has(s.format)) {
    out.format = s.format;
  }
  if (s.default !== undefined) {
    out.default = s.default;
  }
  for (const flag of ['nullable', 'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource'] as const) {
    if (s[flag] === true) {
      out[flag] = true;
    }
  }
  if (rules.length > 0) {
    out['x-kubernetes-validations'] = rules;
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
 * v1: compositionRef, compositionSelector ... directly in spec). Accept them unchecked.
 */
function allowCrossplaneFields(root: Json): void {
  const spec = root.properties?.spec;
  if (!spec || typeof spec !== 'object' || spec.$ref) {
    return;
  }
  const open = { type: 'object' };
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

/** Ajv keyword: items of an `x-kubernetes-list-type: map` list are unique by their keys. */
function validateListMapKeys(keys: string[], data: Json[], _parent?: Json, dataCxt?: { instancePath: string }): boolean {
  const seen = new Set<string>();
  const errors: Json[] = [];
  data.forEach((item, index) => {
    if (!item || typeof item !== 'object') {
      return;
    }
    const id = JSON.stringify(keys.map((k) => item[k] ?? null));
    if (seen.has(id)) {
      const value = Object.fromEntries(keys.map((k) => [k, item[k]]));
      errors.push({
        keyword: LIST_MAP_KEYWORD,
        // Point at the duplicate item, not at the list.
        instancePath: `${dataCxt?.instancePath ?? ''}/${index}`,
        message: `duplicate entry for list-map key ${JSON.stringify(value)}`,
        params: { keys },
      });
    }
    seen.add(id);
  });
  (validateListMapKeys as Json).errors = errors.length > 0 ? errors : null;
  return errors.length === 0;
}

// ---------------------------------------------------------------------------------------------
// On-disk cache of converted CRD/XRD files
// ---------------------------------------------------------------------------------------------

/**
 * Jest gives every test file a fresh module registry, so each one would parse the same
 * megabytes of CRD YAML again. Converted schemas are kept as JSON on disk instead, keyed by
 * the file content and by this module's own source (a change to the conversion invalidates it).
 * Writes are atomic (temporary file + rename), so parallel jest workers can share it; any I/O
 * problem just disables the cache.
 */
class ConversionCache {
  private readonly dir: string | undefined;
  private readonly salt: string;

  public constructor(dir: string | undefined) {
    this.dir = dir;
    let source = 'no-source';
    try {
      // The conversion is this module and the pattern translation it calls.
      source = fs.readFileSync(__filename, 'utf8') + fs.readFileSync(path.join(__dirname, 'go-regex.ts'), 'utf8');
    } catch {
      // Bundled or compiled away: the content hash alone keys the cache.
    }
    this.salt = crypto.createHash('sha1').update(source).digest('hex');
  }

  public fileFor(text: string): string | undefined {
    if (!this.dir) {
      return undefined;
    }
    const key = crypto.createHash('sha1').update(this.salt).update(text).digest('hex');
    return path.join(this.dir, `${key}.json`);
  }

  public read(file: string | undefined): ConvertedFile | undefined {
    if (!file) {
      return undefined;
    }
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      return undefined;
    }
  }

  public write(file: string | undefined, value: ConvertedFile): void {
    if (!file) {
      return;
    }
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(tmp, JSON.stringify(value));
      fs.renameSync(tmp, file);
    } catch {
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // Nothing more to do: the cache is an optimisation.
      }
    }
  }
}

/** The cache directory from `$CDK8S_INFERENCE_SCHEMA_CACHE`, or undefined when disabled. */
export function schemaCacheDir(): string | undefined {
  const fromEnv = process.env[SCHEMA_CACHE_ENV];
  if (fromEnv === 'off' || fromEnv === '0' || fromEnv === 'false') {
    return undefined;
  }
  return fromEnv ? path.resolve(fromEnv) : path.join(os.tmpdir(), 'cdk8s-inference-upstream-schemas');
}

// ---------------------------------------------------------------------------------------------
// Process-wide registry
// ---------------------------------------------------------------------------------------------

/** One registry per upstream directory and cache setting (normally exactly one). */
const registries = new Map<string, UpstreamSchemas>();

function current(): UpstreamSchemas {
  const root = upstreamDir();
  const cacheDir = schemaCacheDir();
  const key = `${root}\u0000${cacheDir ?? ''}`;
  let registry = registries.get(key);
  if (!registry) {
    if (!fs.existsSync(root)) {
      throw new Error(`upstream schemas not found at ${root} (set ${UPSTREAM_DIR_ENV} to the shared/upstream directory)`);
    }
    registry = new UpstreamSchemas(root, new ConversionCache(cacheDir));
    registries.set(key, registry);
  }
  return registry;
}

/** The upstream schema entry for apiVersion+kind, or undefined when upstream defines none. */
export function findUpstreamSchema(apiVersion: string, kind: string): UpstreamSchemaEntry | undefined {
  const entry = current().find(apiVersion, kind);
  return entry ? publicEntry(entry as Entry) : undefined;
}

/** The compiled (and cached) Ajv validator for apiVersion+kind, or undefined. */
export function upstreamValidator(apiVersion: string, kind: string): ValidateFunction | undefined {
  return current().validator(apiVersion, kind);
}

/**
 * What the `x-kubernetes-validations` (CEL) rules of apiVersion+kind need of its schema (see
 * `CelSchema`), or undefined when the kind has no rules (built-in kinds never have any here).
 */
export function upstreamCelSchema(apiVersion: string, kind: string): CelSchema | undefined {
  return current().celSchema(apiVersion, kind);
}

/** Every apiVersion+kind the upstream directory defines. Parses every file: slow. */
export function listUpstreamSchemas(): UpstreamSchemaEntry[] {
  return current().all();
}

/** Timings of the registry in this process. */
export function schemaLoadStats(): SchemaLoadStats {
  return current().loadStats();
}

/** Forget everything loaded (for tests of the registry itself). */
export function resetUpstreamSchemas(): void {
  registries.clear();
}
