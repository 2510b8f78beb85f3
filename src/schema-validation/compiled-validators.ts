/**
 * Compiled validators kept on disk between processes, as Ajv standalone code.
 *
 * Compiling the validator of a large schema (a Deployment's PodSpec, a RayService, a Dynamo
 * graph) takes Ajv hundreds of milliseconds, and every process — each jest test file, each
 * `cdk8s-inference validate`, each `cdk8s synth` with the validation plugin — compiled the same
 * ones again. Ajv can write a compiled validator out as JavaScript ("standalone code"); loading
 * that back costs a few milliseconds. Entries are keyed by what the code depends on: the schema
 * (or the upstream documents it came from), Ajv's version, and the source of the modules that
 * turn a schema into a validator.
 *
 * The code is executed, so it is only read from a directory this user owns and no one else can
 * write (mode 0700), never from one another user created in a shared temp directory. Any I/O
 * problem, or `$CDK8S_INFERENCE_SCHEMA_CACHE=off`, just means compiling as before.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import * as listMapKeywordModule from './list-map-keyword';
import { moduleSources } from './module-sources';

/**
 * The modules (next to this one, by base name) whose code decides what a compiled validator
 * does: the registry's Ajv options, the schema conversion, the keywords, and this loader.
 */
const VALIDATOR_MODULES = ['upstream-schemas', 'schema-conversion', 'list-map-keyword', 'go-regex', 'compiled-validators', 'module-sources'];

/** Standalone validators on disk, in `<cache dir>/validators`. */
export class CompiledValidatorCache {
  private readonly dir: string | undefined;
  private readonly salt: string;
  private trusted?: boolean;

  public constructor(cacheDir: string | undefined) {
    this.dir = cacheDir ? path.join(cacheDir, 'validators') : undefined;
    const hash = crypto.createHash('sha1');
    try {
      hash.update(fs.readFileSync(require.resolve('ajv/package.json')));
    } catch {
      // ajv's package.json unreadable: our sources alone key the code
    }
    hash.update(moduleSources(VALIDATOR_MODULES) ?? 'no-source');
    this.salt = hash.digest('hex');
  }

  /** The validator stored for `identity` (what the schema depends on), or undefined. */
  public load(identity: string): ValidateFunction | undefined {
    const file = this.fileFor(identity);
    if (!file || !this.isTrusted()) {
      return undefined;
    }
    let code: string;
    try {
      code = fs.readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
    const module: { exports: any } = { exports: {} };
    // The code requires Ajv's runtime helpers (from the ajv package) and ./list-map-keyword, given
    // here as the module this one imports: in the CLI's bundle no such file is beside this code.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const requireForCode = (id: string): unknown => (id === listMapKeywordModule.LIST_MAP_KEYWORD_MODULE ? listMapKeywordModule : require(id));
    new Function('require', 'module', 'exports', code)(requireForCode, module, module.exports);
    return typeof module.exports === 'function' ? (module.exports as ValidateFunction) : undefined;
  }

  /** Stores the standalone code of `validate` (compiled by `ajv`) under `identity`. */
  public store(identity: string, ajv: Ajv, validate: ValidateFunction): void {
    const file = this.fileFor(identity);
    if (!file) {
      return;
    }
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      fs.mkdirSync(this.dir!, { recursive: true, mode: 0o700 });
      if (!this.isTrusted()) {
        return;
      }
      fs.writeFileSync(tmp, standaloneCode(ajv, validate), { mode: 0o600 });
      fs.renameSync(tmp, file);
    } catch {
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // Nothing more to do: the cache is an optimisation.
      }
    }
  }

  private fileFor(identity: string): string | undefined {
    if (!this.dir) {
      return undefined;
    }
    const key = crypto.createHash('sha1').update(this.salt).update('\u0000').update(identity).digest('hex');
    return path.join(this.dir, `${key}.js`);
  }

  /**
   * The directory and its parent are real directories of this user's that no one else can write
   * (so no one else can put code in them or swap them).
   */
  private isTrusted(): boolean {
    if (this.trusted !== undefined) {
      return this.trusted;
    }
    const uid = process.getuid?.();
    const ownedAndPrivate = (dir: string): boolean => {
      const st = fs.lstatSync(dir);
      // eslint-disable-next-line no-bitwise -- the group and other write bits of the mode
      return st.isDirectory() && (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
    };
    try {
      this.trusted = ownedAndPrivate(this.dir!) && ownedAndPrivate(path.dirname(this.dir!));
    } catch {
      return false; // Not created yet: ask again after store() creates it.
    }
    return this.trusted;
  }
}
