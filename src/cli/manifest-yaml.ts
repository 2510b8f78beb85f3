/**
 * The YAML text of API objects, exactly as cdk8s's `Yaml.stringify` writes it, several times
 * faster: the CLI's output. `Yaml.stringify` builds a yaml Document (a node per value) and asks
 * each string's type of every tag of the schema; for a fleet of 1,000 deployments that was 1.2 s
 * of a 3 s run, more than translating them.
 *
 * What `Yaml.stringify` writes (the yaml package, YAML 1.1 schema, `lineWidth: 0`, so no folding):
 * block mappings and sequences two spaces deep (a sequence under a key indented too), `{}` and
 * `[]` when empty, and each scalar by yaml's rules. The fast path writes the same for what
 * manifests are made of: numbers, booleans, null, single-line strings — plain unless yaml's
 * plain-scalar test fails or another YAML 1.1 type would read them back (the schema's own tests:
 * `"true"`, `"8080"`, `"2026-01-01"`, `""`), then single-quoted when the string holds `"` and no
 * `'`, else double-quoted as JSON — and multi-line strings as literal blocks (`|` or `|-`; a
 * KubeRay serve config, a script). A document holding anything else — a block needing an
 * indentation indicator or `|+`, a tab or another control character, a key that would need
 * quoting, an object met twice (yaml writes an alias), `undefined`, a class instance — is handed
 * to `Yaml.stringify` whole, so the output never differs. test/cli/manifest-yaml.test.ts compares
 * the two on every example and on generated hostile strings.
 */
import * as path from 'path';
import { Yaml } from 'cdk8s';

/**
 * The yaml package cdk8s writes with, resolved as cdk8s itself resolves it (its bundled copy):
 * its YAML 1.1 schema is the one whose tests decide quoting, and it is loaded already.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const CDK8S_YAML: typeof import('yaml') = require(require.resolve('yaml', { paths: [path.dirname(require.resolve('cdk8s'))] }));

/** yaml's test for a string that cannot be a plain scalar (stringifyString.js, plainString). */
const NOT_PLAIN = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
/** Characters the fast path leaves to yaml: controls but the line feed, surrogates, BOM. */
const NOT_FAST = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff]/;
/**
 * Multi-line strings the fast path writes as yaml does (a literal block, `|` with one final line
 * feed, `|-` with none): not starting with a space or a line feed (yaml would add an indentation
 * indicator), not ending in whitespace other than one line feed after a non-blank character.
 */
const SIMPLE_BLOCK = /^[^ \n][^]*(?:[^\s]\n?)$/;
/** Keys the fast path writes as they are (others, rare in manifests, go to yaml). */
const SIMPLE_KEY = /^[A-Za-z0-9_][A-Za-z0-9_./-]*$/;
/** A string yaml identifies as a merge key, whatever its place. */
const MERGE_KEY = '<<';
/** yaml writes keys longer than this as explicit `? key` entries. */
const MAX_IMPLICIT_KEY = 1024;

/** The YAML 1.1 schema's tests for scalars of another type than string, as yaml applies them. */
const OTHER_TYPE_TESTS: readonly RegExp[] = (() => {
  const schema = new CDK8S_YAML.Document(null, { version: '1.1' }).schema as unknown as { tags: any[]; compat?: any[] | null };
  return [...schema.tags, ...schema.compat ?? []]
    // (`default: 'key'` is the merge key `<<`, which yaml writes as a merge node: left to yaml)
    .filter((tag) => tag.default === true && tag.tag !== 'tag:yaml.org,2002:str' && tag.test instanceof RegExp)
    .map((tag) => tag.test as RegExp);
})();

/** Thrown inside the fast path when a document needs yaml itself. */
const NEEDS_YAML = Symbol('needs yaml');

/** `Yaml.stringify(...objects)`, the same text. */
export function manifestsYaml(objects: readonly unknown[]): string {
  return objects.map((o) => fastDocument(o) ?? Yaml.stringify(o)).join('---\n');
}

/** The YAML of one document by the fast path, or undefined when it must be left to yaml. */
export function fastDocument(doc: unknown): string | undefined {
  if (!isPlainObject(doc)) return undefined;
  try {
    return isBlock(doc) ? mapping(doc, '', new Set<object>()) : '{}\n';
  } catch (e) {
    if (e === NEEDS_YAML) return undefined;
    throw e;
  }
}

/** A non-empty sequence or mapping: written as a block of lines (empty ones are `[]` and `{}`). */
function isBlock(value: unknown): value is unknown[] | Record<string, unknown> {
  return Array.isArray(value) ? value.length > 0 : isPlainObject(value) && Object.keys(value).length > 0;
}

function block(value: unknown[] | Record<string, unknown>, indent: string, seen: Set<object>): string {
  return Array.isArray(value) ? sequence(value, indent, seen) : mapping(value, indent, seen);
}

function mapping(obj: Record<string, unknown>, indent: string, seen: Set<object>): string {
  enter(obj, seen);
  let out = '';
  for (const key of Object.keys(obj)) {
    if (!SIMPLE_KEY.test(key) || key.length > MAX_IMPLICIT_KEY || isOtherType(key)) throw NEEDS_YAML;
    const value = obj[key];
    // A block goes on the lines after `key:`, a scalar on the same line.
    out += isBlock(value)
      ? `${indent}${key}:\n${block(value, `${indent}  `, seen)}`
      : `${indent}${key}: ${scalarOrEmpty(value, `${indent}  `)}\n`;
  }
  return out;
}

function sequence(items: readonly unknown[], indent: string, seen: Set<object>): string {
  enter(items, seen);
  let out = '';
  for (const item of items) {
    // A block item starts on the dash's line: its first line loses the indentation it was written with.
    out += isBlock(item)
      ? `${indent}- ${block(item, `${indent}  `, seen).slice(indent.length + 2)}`
      : `${indent}- ${scalarOrEmpty(item, `${indent}  `)}\n`;
  }
  return out;
}

/** A scalar, `{}` or `[]`; `blockIndent` indents the lines of a literal block. */
function scalarOrEmpty(value: unknown, blockIndent: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return value.includes('\n') ? literalBlock(value, blockIndent) : stringScalar(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value) || Object.is(value, -0)) throw NEEDS_YAML;
      return JSON.stringify(value);
    default:
      if (Array.isArray(value)) return '[]'; // (non-empty ones are blocks)
      if (isPlainObject(value)) return '{}';
      throw NEEDS_YAML; // undefined, bigint, symbol, function, Date, class instances
  }
}

function stringScalar(s: string): string {
  if (NOT_FAST.test(s) || s === MERGE_KEY) throw NEEDS_YAML;
  if (!NOT_PLAIN.test(s) && !isOtherType(s)) return s;
  return s.includes('"') && !s.includes("'") ? `'${s}'` : JSON.stringify(s);
}

/** A multi-line string as yaml writes it in a block collection: `|` or `|-`, then its indented lines. */
function literalBlock(s: string, indent: string): string {
  if (NOT_FAST.test(s) || !SIMPLE_BLOCK.test(s)) throw NEEDS_YAML;
  const clip = s.endsWith('\n');
  const body = clip ? s.slice(0, -1) : s;
  return `|${clip ? '' : '-'}\n${indent}${body.replace(/\n+/g, `$&${indent}`)}`;
}

/**
 * Whether a YAML 1.1 type other than string would read `s` back. The answers are kept: the keys
 * and many values of a fleet's objects repeat (`name`, `RuntimeDefault`, ...), and asking every
 * tag's test of each was a sixth of the emitter's time. Bounded, so no output grows it without end.
 */
function isOtherType(s: string): boolean {
  let answer = OTHER_TYPE_ANSWERS.get(s);
  if (answer === undefined) {
    answer = OTHER_TYPE_TESTS.some((test) => test.test(s));
    if (OTHER_TYPE_ANSWERS.size < MAX_OTHER_TYPE_ANSWERS) OTHER_TYPE_ANSWERS.set(s, answer);
  }
  return answer;
}

const OTHER_TYPE_ANSWERS = new Map<string, boolean>();
const MAX_OTHER_TYPE_ANSWERS = 50_000;

/** yaml writes an object met twice in a document as an anchor and an alias. */
function enter(node: object, seen: Set<object>): void {
  if (seen.has(node)) throw NEEDS_YAML;
  seen.add(node);
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== 'object' || Array.isArray(x)) return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}
