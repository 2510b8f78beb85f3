/**
 * The upstream schemas shipped in the npm package: `schemas/upstream/upstream-schemas.json.gz`.
 *
 * Users of the package have no `../shared/upstream`, so everything the registry
 * (upstream-schemas.ts) reads there is bundled into one gzipped JSON file by
 * `npx projen bundle-schemas` (scripts/bundle-upstream-schemas.ts), committed and shipped.
 *
 * The bundle holds the upstream schemas themselves, compacted, not our conversion of them: the
 * registry converts bundled definitions with the same code as files read from the directory, so
 * a change to the conversion (schema-conversion.ts, cel-schema.ts) never makes the bundle stale
 * and both sources give the same verdicts by construction. Compaction keeps every keyword the
 * conversion reads and drops what it never reads:
 * - `description` of every schema node (most of the bytes; never a property named
 *   `description`, and nothing inside `default`, `enum` or `x-kubernetes-validations` values);
 * - of a CRD/XRD document, everything but apiVersion, kind, spec.group, spec.names.kind and each
 *   version's name, served, deprecated and openAPIV3Schema (and the pre-v1 spec.validation);
 *   documents that define nothing (not a CRD/XRD) are left out;
 * - of the Kubernetes OpenAPI documents, everything but `components.schemas`, each component
 *   kept once: from the first file (in sorted order) that has it, which is the one the
 *   registry uses.
 *
 * About 1.6 MB of JSON, about 100 KB gzipped; read and parsed in about 30 ms.
 * test/schema-validation/schema-bundle.test.ts fails when the committed bundle differs from
 * what the upstream directory gives, and checks that both give the same verdicts.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';
import * as jsYaml from 'js-yaml';
import type { UpstreamSchemaSource } from './schema-conversion';

/** A JSON (Schema) value as read from the upstream files. */
type Json = any;

/** Version of the bundle layout; the registry refuses a bundle of another version. */
export const SCHEMA_BUNDLE_FORMAT = 1;

/** Where the bundle lives: `<package>/schemas/upstream/`, from src/schema-validation or lib/schema-validation. */
export const SCHEMA_BUNDLE_FILE = path.resolve(__dirname, '..', '..', 'schemas', 'upstream', 'upstream-schemas.json.gz');

/** The Kubernetes OpenAPI component schemas one upstream file contributes. */
export interface BundledKubernetesFile {
  /** The file, relative to the upstream directory. */
  readonly file: string;
  /** Component name -> compacted schema; only components no earlier file has. */
  readonly schemas: Record<string, Json>;
}

/** The CRD/XRD documents of one upstream file. */
export interface BundledDefinitionFile {
  /** The file, relative to the upstream directory. */
  readonly file: string;
  /** `group Kind` of every definition in the file (the registry's index). */
  readonly definitions: string[];
  /** The compacted CRD/XRD documents, in file order. */
  readonly documents: Json[];
}

/** The whole bundle. Deterministic: the same upstream files always give the same JSON. */
export interface SchemaBundle {
  readonly format: number;
  /** Every upstream file read, relative, with its sha256: what the bundle was made from. */
  readonly sources: Array<{ readonly file: string; readonly sha256: string }>;
  readonly kubernetes: BundledKubernetesFile[];
  readonly definitions: BundledDefinitionFile[];
}

/** Every regular file under `dir` (following symbolic links), sorted. */
export function listUpstreamFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const stat = entry.isSymbolicLink() ? fs.statSync(full) : entry;
    if (stat.isDirectory()) {
      out.push(...listUpstreamFiles(full));
    } else if (stat.isFile()) {
      out.push(full);
    }
  }
  return out.sort();
}

/** Whether a document defines a kind: a CRD (`crd`), a Crossplane XRD (`xrd`), or neither. */
export function definitionSource(obj: Json): UpstreamSchemaSource | undefined {
  if (!obj || typeof obj !== 'object') {
    return undefined;
  }
  if (obj.kind === 'CustomResourceDefinition' && /^apiextensions\.k8s\.io\//.test(obj.apiVersion ?? '')) {
    return 'crd';
  }
  if (obj.kind === 'CompositeResourceDefinition' && /^apiextensions\.crossplane\.io\//.test(obj.apiVersion ?? '')) {
    return 'xrd';
  }
  return undefined;
}

/** `group Kind`: how the registry indexes definitions. */
export function groupKindKey(group: string, kind: string): string {
  return `${group} ${kind}`;
}

/**
 * The documents of a CRD/XRD file (YAML), parsed as the registry parses them. These are trusted
 * upstream files of up to 1.6 MB, not user input: js-yaml reads them two to seven times faster
 * than yaml, with the same YAML 1.2 core schema (no timestamps, no merge keys), and aliases
 * unlimited.
 */
export function parseDefinitionDocuments(text: string, relative: string): Json[] {
  try {
    return jsYaml.loadAll(text, undefined, { schema: jsYaml.CORE_SCHEMA, filename: relative }) as Json[];
  } catch (e: any) {
    throw new Error(`cannot parse ${relative}: ${e?.message ?? e}`);
  }
}

/** Build the bundle from an upstream directory (`npx projen bundle-schemas`). */
export function buildSchemaBundle(upstreamDir: string): SchemaBundle {
  const sources: Array<{ file: string; sha256: string }> = [];
  const kubernetes: BundledKubernetesFile[] = [];
  const definitions: BundledDefinitionFile[] = [];
  const seenComponents = new Set<string>();
  for (const full of listUpstreamFiles(upstreamDir)) {
    const file = path.relative(upstreamDir, full).split(path.sep).join('/');
    const isJson = full.endsWith('.json');
    if (!isJson && !/\.ya?ml$/i.test(full)) {
      continue;
    }
    const text = fs.readFileSync(full, 'utf8');
    if (isJson) {
      const doc = JSON.parse(text);
      const components = doc?.components?.schemas;
      if (!doc?.openapi || !components) {
        continue;
      }
      const schemas: Record<string, Json> = {};
      for (const [name, schema] of Object.entries(components)) {
        if (!seenComponents.has(name)) {
          seenComponents.add(name);
          schemas[name] = compactSchema(schema);
        }
      }
      kubernetes.push({ file, schemas });
    } else {
      const documents = parseDefinitionDocuments(text, file).filter((d) => definitionSource(d)).map(compactDefinition);
      if (documents.length === 0) {
        continue;
      }
      definitions.push({
        file,
        definitions: documents.map((d) => groupKindKey(d.spec?.group ?? '', d.spec?.names?.kind)),
        documents,
      });
    }
    sources.push({ file, sha256: crypto.createHash('sha256').update(text).digest('hex') });
  }
  return { format: SCHEMA_BUNDLE_FORMAT, sources, kubernetes, definitions };
}

/** The bundle as the committed file holds it: gzipped JSON. */
export function encodeSchemaBundle(bundle: SchemaBundle): Buffer {
  return zlib.gzipSync(JSON.stringify(bundle), { level: 9 });
}

/** Read a bundle file; throws, naming the file, when it is missing, corrupt or of another format. */
export function readSchemaBundle(file: string = SCHEMA_BUNDLE_FILE): SchemaBundle {
  let bundle: SchemaBundle;
  try {
    bundle = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8'));
  } catch (e: any) {
    throw new Error(`cannot read the bundled upstream schemas ${file}: ${e?.code ?? e?.message ?? e}`);
  }
  if (bundle?.format !== SCHEMA_BUNDLE_FORMAT || !Array.isArray(bundle.kubernetes) || !Array.isArray(bundle.definitions)) {
    throw new Error(`the bundled upstream schemas ${file} have format ${JSON.stringify(bundle?.format)}; this version reads format ${SCHEMA_BUNDLE_FORMAT} (regenerate with npx projen bundle-schemas)`);
  }
  return bundle;
}

/** A CRD/XRD document without what the registry never reads. */
function compactDefinition(obj: Json): Json {
  const spec = obj.spec ?? {};
  const compactVersion = (v: Json): Json => ({
    name: v.name,
    served: v.served,
    ...(v.deprecated !== undefined && { deprecated: v.deprecated }),
    ...(v.schema?.openAPIV3Schema !== undefined && { schema: { openAPIV3Schema: compactSchema(v.schema.openAPIV3Schema) } }),
  });
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    spec: {
      group: spec.group,
      names: { kind: spec.names?.kind },
      ...(Array.isArray(spec.versions) && { versions: spec.versions.map(compactVersion) }),
      ...(spec.validation?.openAPIV3Schema !== undefined && { validation: { openAPIV3Schema: compactSchema(spec.validation.openAPIV3Schema) } }),
    },
  };
}

/** Keys whose value is one schema. */
const SCHEMA_KEYS = new Set(['items', 'additionalProperties', 'not']);
/** Keys whose value is a list of schemas. */
const SCHEMA_LIST_KEYS = new Set(['allOf', 'anyOf', 'oneOf']);

/**
 * A schema without `description`s. Only schema positions are followed (properties' values,
 * items, additionalProperties, not, allOf/anyOf/oneOf entries): every other value (default,
 * enum, example, x-kubernetes-validations ...) is data and is kept as it is.
 */
export function compactSchema(s: Json): Json {
  if (!s || typeof s !== 'object' || Array.isArray(s)) {
    return s;
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(s)) {
    if (key === 'description') {
      continue;
    }
    if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, compactSchema(sub)]));
    } else if (SCHEMA_KEYS.has(key)) {
      out[key] = compactSchema(value);
    } else if (SCHEMA_LIST_KEYS.has(key) && Array.isArray(value)) {
      out[key] = value.map(compactSchema);
    } else {
      out[key] = value;
    }
  }
  return out;
}
