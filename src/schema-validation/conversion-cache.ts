/**
 * On-disk cache of converted CRD/XRD files.
 *
 * Jest gives every test file a fresh module registry, so each one would parse the same
 * megabytes of CRD YAML again. Converted schemas are kept as JSON on disk instead, keyed by
 * the file content and by the source of the conversion (a change to it invalidates the cache).
 * Writes are atomic (temporary file + rename), so parallel jest workers can share it; any I/O
 * problem just disables the cache.
 *
 * The salt hashes the modules whose code decides what a cached file holds, whatever their
 * extension: the .ts sources under ts-jest and ts-node, the .js files of the jsii-compiled lib/,
 * or the CLI bundle that holds them (module-sources.ts).
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { CelSchema } from './cel-schema';
import { moduleSources } from './module-sources';
import type { UpstreamSchemaSource } from './schema-conversion';

/** A JSON (Schema) value as read from the upstream files. */
type Json = any;

/**
 * Name of the environment variable that controls the on-disk cache of converted CRD schemas:
 * `off` disables it, any other value is the cache directory.
 * Default: `<os.tmpdir()>/cdk8s-inference-upstream-schemas` (outside the repository).
 */
export const SCHEMA_CACHE_ENV = 'CDK8S_INFERENCE_SCHEMA_CACHE';

/**
 * The modules (next to this one, by base name) whose code the cached content depends on: the
 * registry that reads and converts a file, the conversions it calls, and this cache.
 */
const CONVERSION_MODULES = ['upstream-schemas', 'schema-bundle', 'schema-conversion', 'cel-schema', 'go-regex', 'conversion-cache', 'module-sources'];

/** A CRD/XRD file converted to JSON Schema: what the on-disk cache holds. */
export interface ConvertedFile {
  /** group+kind of every definition in the file. */
  definitions: string[];
  entries: Array<{ apiVersion: string; kind: string; source: UpstreamSchemaSource; deprecated: boolean; schema: Json; celSchema?: CelSchema }>;
  droppedPatterns: Array<{ pattern: string; reason: string }>;
}

/** Converted CRD/XRD files on disk, keyed by their content and the conversion's source. */
export class ConversionCache {
  private readonly dir: string | undefined;
  private readonly salt: string;

  public constructor(dir: string | undefined) {
    this.dir = dir;
    const source = moduleSources(CONVERSION_MODULES) ?? 'no-source';
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
