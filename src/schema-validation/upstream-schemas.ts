/**
 * Upstream schema registry.
 *
 * Loads the upstream CustomResourceDefinitions, Crossplane CompositeResourceDefinitions and
 * Kubernetes OpenAPI v3 documents kept in `../shared/upstream` (override the location with
 * `CDK8S_INFERENCE_UPSTREAM_DIR`), turns each schema into a plain JSON Schema that encodes
 * what the Kubernetes API server does with it (schema-conversion.ts, which lists what is
 * encoded and the known gaps), and compiles it with Ajv once per process.
 *
 * Everything is lazy: a test that only validates a Deployment never parses the multi-megabyte CRDs.
 * CRD files are indexed by a cheap scan of their header (group and kind); a file is parsed
 * with `yaml` only when one of its kinds is asked for. Compiled validators are cached by
 * apiVersion+kind, and subschemas shared between kinds (PodSpec in RayService, LeaderWorkerSet,
 * and the other workload CRDs) are compiled only once (see `hoistSharedSubschemas`).
 *
 * Converted CRD/XRD files are kept on disk between processes (conversion-cache.ts). Each CRD
 * version's `x-kubernetes-validations` are kept as a pruned `CelSchema` (cel-schema.ts,
 * `upstreamCelSchema`); cel-validation.ts evaluates them.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import * as YAML from 'yaml';
import { CelSchema, extractCelSchema } from './cel-schema';
import { ConversionCache, ConvertedFile, schemaCacheDir } from './conversion-cache';
import {
  convertCustomResource,
  ConvertContext,
  convertKubernetesComponent,
  K8S_ID_PREFIX,
  LIST_MAP_KEYWORD,
  UpstreamSchemaSource,
  validateListMapKeys,
} from './schema-conversion';

export { SCHEMA_CACHE_ENV, schemaCacheDir } from './conversion-cache';
export type { UpstreamSchemaSource } from './schema-conversion';

/** A JSON (Schema) value as read from the upstream files. */
type Json = any;

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

const SHARED_ID_PREFIX = 'shared:';

/** Subschemas smaller than this (JSON characters) are not worth sharing between kinds. */
const SHARE_MIN_CHARS = 2000;

// ---------------------------------------------------------------------------------------------
// Locating files
// ---------------------------------------------------------------------------------------------

/**
 * The upstream directory: `$CDK8S_INFERENCE_UPSTREAM_DIR` or `<repo>/../shared/upstream`,
 * resolved from this module's folder: src/schema-validation under ts-jest and ts-node,
 * lib/schema-validation once compiled (the same depth below the repository).
 */
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
      this.ajv.addSchema(convertKubernetesComponent(name, schema, ctx), K8S_ID_PREFIX + name);
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

