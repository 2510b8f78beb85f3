/**
 * Upstream schema registry.
 *
 * Loads the upstream CustomResourceDefinitions, Crossplane CompositeResourceDefinitions and
 * Kubernetes OpenAPI v3 documents, turns each schema into a plain JSON Schema that encodes what
 * the Kubernetes API server does with it (schema-conversion.ts, which lists what is encoded and
 * the known gaps), and compiles it with Ajv once per process.
 *
 * Where the schemas come from (`upstreamSchemaLocation()`), first match wins:
 * 1. `CDK8S_INFERENCE_SCHEMAS=bundled`: the bundle shipped in the package, even in a checkout
 *    (to check the bundle itself);
 * 2. `$CDK8S_INFERENCE_UPSTREAM_DIR`: that directory (an error when it does not exist);
 * 3. `<repo>/../shared/upstream` when it exists: development and the tests, which always see
 *    the upstream files themselves, never a bundle that may lag behind them;
 * 4. otherwise the bundle shipped in the package, `schemas/upstream/upstream-schemas.json.gz`
 *    (schema-bundle.ts): what users of the npm package get (`cdk8s-inference validate`, the
 *    cdk8s validation plugin). The bundle holds the same upstream schemas, compacted, and is
 *    converted by the same code, so both give the same verdicts (schema-bundle.test.ts).
 *
 * Everything is lazy: a test that only validates a Deployment never parses the multi-megabyte CRDs.
 * CRD files are indexed by a cheap scan of their header (group and kind); a file is parsed
 * with `yaml` only when one of its kinds is asked for (the bundle carries its own index).
 * Compiled validators are cached by apiVersion+kind, and subschemas shared between kinds (PodSpec
 * in RayService, LeaderWorkerSet, and the other workload CRDs) are compiled only once (see
 * `hoistSharedSubschemas`).
 *
 * Converted CRD/XRD files of the directory are kept on disk between processes
 * (conversion-cache.ts); the bundle, JSON without descriptions, converts fast enough without.
 * Each CRD version's `x-kubernetes-validations` are kept as a pruned `CelSchema` (cel-schema.ts,
 * `upstreamCelSchema`); cel-validation.ts evaluates them.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { CelSchema, extractCelSchema } from './cel-schema';
import { CompiledValidatorCache } from './compiled-validators';
import { ConversionCache, ConvertedFile, schemaCacheDir } from './conversion-cache';
import { listMapKeyword } from './list-map-keyword';
import {
  definitionSource, groupKindKey, listUpstreamFiles, parseDefinitionDocuments, readSchemaBundle, SCHEMA_BUNDLE_FILE, SchemaBundle,
} from './schema-bundle';
import {
  convertCustomResource,
  ConvertContext,
  convertKubernetesComponent,
  K8S_ID_PREFIX,
  UpstreamSchemaSource,
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
  /** How many of those were standalone code stored by an earlier process (compiled-validators.ts). */
  validatorCacheHits: number;
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
 * Name of the environment variable that chooses the schema source: `bundled` reads the bundle
 * shipped in the package even where an upstream directory exists; unset or `auto`, see
 * `upstreamSchemaLocation()`.
 */
export const SCHEMA_SOURCE_ENV = 'CDK8S_INFERENCE_SCHEMAS';

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

/** Where the registry reads the upstream schemas: a directory of upstream files, or the bundle. */
export interface UpstreamSchemaLocation {
  /** `directory` (upstream files) or `bundle` (the gzipped bundle shipped in the package). */
  readonly kind: 'directory' | 'bundle';
  /** The directory, or the bundle file. */
  readonly path: string;
}

/** The schema source this process uses; the precedence is in the module comment. */
export function upstreamSchemaLocation(): UpstreamSchemaLocation {
  const choice = process.env[SCHEMA_SOURCE_ENV];
  if (choice === 'bundled') {
    return { kind: 'bundle', path: SCHEMA_BUNDLE_FILE };
  }
  if (choice && choice !== 'auto') {
    throw new Error(`${SCHEMA_SOURCE_ENV}=${JSON.stringify(choice)}: expected "bundled" or "auto"`);
  }
  const dir = upstreamDir();
  if (process.env[UPSTREAM_DIR_ENV] || fs.existsSync(dir)) {
    return { kind: 'directory', path: dir };
  }
  return { kind: 'bundle', path: SCHEMA_BUNDLE_FILE };
}

function gvkKey(apiVersion: string, kind: string): string {
  return `${apiVersion} ${kind}`;
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

/** A CRD/XRD file found by the header scan (or listed in the bundle), parsed on demand. */
interface DefinitionFile {
  /** The file, relative to the upstream directory. */
  readonly file: string;
  /** group+kind the header scan found (undefined when the scan gave up, and for the bundle). */
  readonly scanned?: string;
  /** The bundle's compacted documents of the file; undefined: read the file from the directory. */
  readonly documents?: Json[];
  parsed: boolean;
}

class UpstreamSchemas {
  /** The upstream directory; undefined when reading the bundle. */
  private readonly root?: string;
  /** The bundle; undefined when reading the directory. */
  private readonly bundle?: SchemaBundle;
  private readonly cache: ConversionCache;
  private readonly ajv: Ajv;
  private readonly entries = new Map<string, Entry>();
  private readonly validators = new Map<string, ValidateFunction>();
  /** Validators compiled by earlier processes (compiled-validators.ts). */
  private readonly compiledValidators = new CompiledValidatorCache(schemaCacheDir());
  /** A hash of the Kubernetes OpenAPI documents read (see `kubernetesFingerprint`). */
  private kubernetesHash?: string;
  /** group+kind -> CRD/XRD files whose header names it. */
  private definitionFiles?: Map<string, DefinitionFile[]>;
  /** CRD/XRD files that could not be indexed by the header scan; parsed on first miss. */
  private unscannedFiles: DefinitionFile[] = [];
  private kubernetesLoaded = false;
  /** Shared subschemas already added to Ajv, by content hash. */
  private readonly sharedIds = new Set<string>();
  private readonly droppedPatterns: DroppedPattern[] = [];
  private readonly stats: SchemaLoadStats = {
    loadMs: 0, compileMs: 0, compiled: 0, validatorCacheHits: 0, filesLoaded: [], cacheHits: 0, droppedPatterns: [],
  };

  public constructor(location: UpstreamSchemaLocation, cache: ConversionCache) {
    if (location.kind === 'bundle') {
      const started = performance.now();
      this.bundle = readSchemaBundle(location.path);
      this.stats.loadMs += performance.now() - started;
    } else {
      this.root = location.path;
    }
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
      // Keep the generated code, so that compiled validators can be stored (compiled-validators.ts).
      code: { source: true },
    });
    addFormats(this.ajv, ['ipv4', 'ipv6']);
    this.ajv.addKeyword(listMapKeyword);
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
    // What the validator depends on: a CRD's converted schema, or the Kubernetes documents.
    const identity = entry.schema !== undefined
      ? `${entry.schemaId}\n${JSON.stringify(entry.schema)}`
      : `${entry.schemaId}\n${this.kubernetesFingerprint()}`;
    let validate = this.compiledValidators.load(identity);
    if (validate) {
      this.stats.validatorCacheHits++;
    } else {
      if (entry.schema !== undefined) {
        validate = this.ajv.compile(this.hoistSharedSubschemas(entry.schema));
      } else {
        validate = this.ajv.getSchema(entry.schemaId);
      }
      if (!validate) {
        throw new Error(`upstream schema ${entry.schemaId} for ${key} did not compile`);
      }
      this.compiledValidators.store(identity, this.ajv, validate);
    }
    entry.schema = undefined; // The validator holds what it needs; let the converted tree go.
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

  /**
   * `group Kind` of every resource kind upstream defines (`''` is the core group). Cheaper than
   * `all()`: CRD files the header scan indexed are not parsed. Kubernetes' meta kinds that every
   * group lists (DeleteOptions, WatchEvent, ...) are left out.
   */
  public groupKinds(): string[] {
    this.loadKubernetes();
    const keys = new Set(this.scanDefinitions().keys());
    this.unscannedFiles.forEach((f) => this.parseDefinitionFile(f));
    for (const e of this.entries.values()) {
      if (e.source !== 'kubernetes' || e.schemaId.startsWith(`${K8S_ID_PREFIX}io.k8s.api.`)) {
        keys.add(groupKindKey(groupOf(e.apiVersion), e.kind));
      }
    }
    return [...keys].sort();
  }

  /** The apiVersions upstream defines group+kind in, sorted. */
  public apiVersionsOf(group: string, kind: string): string[] {
    (this.scanDefinitions().get(groupKindKey(group, kind)) ?? []).forEach((f) => this.parseDefinitionFile(f));
    this.unscannedFiles.forEach((f) => this.parseDefinitionFile(f));
    this.loadKubernetes();
    return [...this.entries.values()].filter((e) => e.kind === kind && groupOf(e.apiVersion) === group).map((e) => e.apiVersion).sort();
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
    const add = (key: string, def: DefinitionFile) => index.set(key, [...(index.get(key) ?? []), def]);
    if (this.bundle) {
      // The bundle lists what each file defines: one entry per file, indexed under every name.
      for (const f of this.bundle.definitions) {
        const def: DefinitionFile = { file: f.file, documents: f.documents, parsed: false };
        f.definitions.forEach((key) => add(key, def));
      }
    } else {
      for (const full of listUpstreamFiles(this.root!)) {
        if (!/\.ya?ml$/i.test(full)) {
          continue;
        }
        const file = path.relative(this.root!, full);
        const header = scanDefinitionHeader(fs.readFileSync(full, 'utf8'));
        if (!header) {
          this.unscannedFiles.push({ file, parsed: false });
          continue;
        }
        const key = groupKindKey(header.group, header.kind);
        add(key, { file, scanned: key, parsed: false });
      }
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
    const relative = def.file;
    let converted: ConvertedFile | undefined;
    if (def.documents) {
      converted = convertDefinitionDocuments(def.documents);
    } else {
      const text = fs.readFileSync(path.join(this.root!, relative), 'utf8');
      const cacheFile = this.cache.fileFor(text);
      converted = this.cache.read(cacheFile);
      if (converted) {
        this.stats.cacheHits++;
      } else {
        converted = convertDefinitionDocuments(parseDefinitionDocuments(text, relative));
        this.cache.write(cacheFile, converted);
      }
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
    for (const { file: relative, schemas } of this.kubernetesFiles()) {
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

  /** A hash of the Kubernetes OpenAPI documents (loading them first), which built-in kinds' validators depend on. */
  private kubernetesFingerprint(): string {
    this.loadKubernetes();
    // The bundle is hashed only here, when a built-in kind's validator is first asked for.
    this.kubernetesHash ??= crypto.createHash('sha1').update(JSON.stringify(this.bundle!.kubernetes)).digest('hex');
    return this.kubernetesHash;
  }

  /** The component schemas of each Kubernetes OpenAPI document, in sorted file order. */
  private kubernetesFiles(): Array<{ file: string; schemas: Record<string, Json> }> {
    if (this.bundle) {
      return this.bundle.kubernetes;
    }
    // The directory's documents are hashed as they are read (see `kubernetesFingerprint`).
    const hash = crypto.createHash('sha1');
    const out: Array<{ file: string; schemas: Record<string, Json> }> = [];
    for (const full of listUpstreamFiles(this.root!)) {
      if (!full.endsWith('.json')) {
        continue;
      }
      const text = fs.readFileSync(full, 'utf8');
      hash.update(path.relative(this.root!, full)).update('\u0000').update(text);
      const doc = JSON.parse(text);
      const schemas = doc?.components?.schemas;
      if (doc?.openapi && schemas) {
        out.push({ file: path.relative(this.root!, full), schemas });
      }
    }
    this.kubernetesHash = hash.digest('hex');
    return out;
  }
}

/** Convert every served version's schema of a CRD/XRD file's documents (other documents are skipped). */
export function convertDefinitionDocuments(documents: readonly Json[]): ConvertedFile {
  const out: ConvertedFile = { definitions: [], entries: [], droppedPatterns: [] };
  const dropped = new Map<string, string>();
  const ctx: ConvertContext = { dropPattern: (pattern, reason) => dropped.set(pattern, reason) };
  for (const obj of documents) {
    const source = definitionSource(obj);
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

function publicEntry(e: Entry): UpstreamSchemaEntry {
  return { apiVersion: e.apiVersion, kind: e.kind, source: e.source, file: e.file, deprecated: e.deprecated };
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
  const location = upstreamSchemaLocation();
  const cacheDir = schemaCacheDir();
  const key = `${location.kind}\u0000${location.path}\u0000${cacheDir ?? ''}`;
  let registry = registries.get(key);
  if (!registry) {
    if (location.kind === 'directory' && !fs.existsSync(location.path)) {
      throw new Error(`upstream schemas not found at ${location.path} (set ${UPSTREAM_DIR_ENV} to the shared/upstream directory)`);
    }
    registry = new UpstreamSchemas(location, new ConversionCache(cacheDir));
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

/**
 * `group Kind` (the core group is `''`) of every resource kind the schema source defines, sorted:
 * for messages about a kind it does not define.
 */
export function upstreamGroupKinds(): string[] {
  return current().groupKinds();
}

/** The apiVersions the schema source defines the kind of a group in (the core group is `''`). */
export function upstreamApiVersionsOf(group: string, kind: string): string[] {
  return current().apiVersionsOf(group, kind);
}

/** Timings of the registry in this process. */
export function schemaLoadStats(): SchemaLoadStats {
  return current().loadStats();
}

/** Forget everything loaded (for tests of the registry itself). */
export function resetUpstreamSchemas(): void {
  registries.clear();
}

