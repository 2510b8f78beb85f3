/**
 * The CLI's fast reader of input YAML: the documents of a text exactly as the `yaml` package reads
 * them (`parseAllDocuments(text)`, then `toJS()`), in a fraction of the time, or `undefined` when
 * the text must be left to `yaml`. For a fleet of 1,000 deployments `yaml` took 0.43 s of a 1.7 s
 * run to read 0.26 MB; js-yaml reads the same in a quarter of that, and loads as one module
 * instead of seventy.
 *
 * The two packages agree on the YAML manifests are written in, but not on everything, so the
 * fast reader takes only texts in the block style manifests use, checked line by line
 * (`isPlainBlockText`), and leaves anything else to `yaml` whole: slower, never different.
 *
 * - Scalars. `yaml` reads YAML 1.2's core schema; js-yaml's own schemas add binary integers,
 *   `_` digit separators, timestamps and merge keys, and miss `-.5`. The reader gives js-yaml the
 *   core schema as the YAML 1.2.2 specification defines it (section 10.3.2), and nothing more.
 * - Lines. Each line is blank, a comment, `---`, or an entry: sequence dashes, then a key and
 *   `:`, then a value on the same line, or a value after a dash; a key or dash with nothing after
 *   it must hold the deeper lines that follow (left empty before a dedent, js-yaml misplaces what
 *   comes next). A key is a plain word or a
 *   single-line quoted string, never a null (`yaml` makes `~:` the key `""`, js-yaml `"null"`). A
 *   value is a single-line plain or quoted scalar, an empty `{}` or `[]`, or a literal or folded
 *   block (`|`, `|-`, `>`, `>-`) whose lines are empty or indented alike. So tags, anchors and
 *   aliases, directives, explicit and merge keys, flow collections, multi-line plain and quoted
 *   scalars, tabs, carriage returns and control characters all go to `yaml`: each is read
 *   differently by the two, or refused by one only, somewhere in their corners.
 * - Errors. Whatever js-yaml refuses goes to `yaml` too, so that messages and positions are
 *   `yaml`'s own.
 *
 * test/cli/fast-yaml-reader.test.ts compares the two readers on every example and on thousands
 * of generated and mutated texts: each text the fast reader takes must read the same, document
 * by document, as it does with `yaml`, and a text `yaml` refuses must never be taken.
 */
import type * as JsYaml from 'js-yaml';

/** Characters that never appear in the texts the fast reader takes. */
const UNUSUAL_CHARACTERS = /[\t\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff]/;

/** A plain scalar on one line: no indicator first, no `: ` or ` #` inside, no trailing space. */
const PLAIN = String.raw`(?:[^\s\-?:,\[\]{}#&*!|>'"%@\x60]|-(?=\S))(?:[^\s:#]|:(?=\S)| +(?=[^\s#]))*`;
const SINGLE_QUOTED = String.raw`'(?:[^']|'')*'`;
const DOUBLE_QUOTED = String.raw`"(?:[^"\\]|\\.)*"`;
/** A key: a plain word that is not a null, or a quoted string. */
const KEY = String.raw`(?!(?:null|Null|NULL):)[A-Za-z0-9_./][A-Za-z0-9_./-]*|${SINGLE_QUOTED}|${DOUBLE_QUOTED}`;
const VALUE = String.raw`${PLAIN}|${SINGLE_QUOTED}|${DOUBLE_QUOTED}|\{\}|\[\]`;
/** A comment after a value (not after a bare key or dash: js-yaml misplaces a dedent after one). */
const COMMENT = String.raw`(?: +#.*)?`;
/**
 * One entry line of a text the fast reader takes: indentation, sequence dashes, then a key, a
 * last dash, or a value (groups `block` and `itemBlock`: a block scalar's header after a key or
 * after a dash).
 */
const ENTRY = new RegExp(
  String.raw`^( *)((?:- )*)(?:(?<key>${KEY}):(?: +(?:(?<keyValue>${VALUE})|(?<block>[|>]-?))${COMMENT})?|(?<lastDash>-)|(?:(?<itemValue>${VALUE})|(?<itemBlock>[|>]-?))${COMMENT})? *$`,
);
/** A line with no entry: blank, a comment or a document start. */
const NO_ENTRY = /^(?: *(?:#.*)?|--- *)$/;

/**
 * Whether every line of `text` is one the fast reader takes (see above). A block scalar's body is
 * its following lines that are empty or indented deeper than the key or dash it hangs from, the
 * first of them setting the indentation none of the others may go below.
 */
export function isPlainBlockText(text: string): boolean {
  if (UNUSUAL_CHARACTERS.test(text)) return false;
  let blockParent = -1; // while in a block scalar's body: the column of its key or dash
  let blockIndent = -1; // the indentation of the body's first non-empty line
  let bareEntry: { column: number; isKey: boolean } | undefined; // a key or dash with no value yet
  for (const line of text.split('\n')) {
    if (blockParent >= 0) {
      if (line === '') continue;
      const indent = line.search(/\S/);
      if (indent > blockParent) {
        if (blockIndent < 0) blockIndent = indent;
        else if (indent < blockIndent) return false;
        continue;
      }
      if (indent < 0) return false; // spaces only, at most as deep as the parent
      blockParent = -1;
      blockIndent = -1;
    }
    if (NO_ENTRY.test(line)) {
      if (bareEntry && line.startsWith('---')) return false;
      continue;
    }
    const m = ENTRY.exec(line);
    if (!m) return false;
    const { key, keyValue, lastDash, itemValue, block, itemBlock } = m.groups ?? {};
    // A line with neither dash nor key is a scalar document or a continuation line.
    if (m[2] === '' && key === undefined && lastDash === undefined) return false;
    const indent = m[1].length;
    const entryColumn = indent + m[2].length; // where the key or the value starts
    const lastDashColumn = lastDash !== undefined ? entryColumn : entryColumn - 2;
    // A bare key or dash must hold what follows: a deeper line, or a sequence at a key's column.
    // (Left null, a dedent after it is where js-yaml and yaml part.)
    if (bareEntry && !(indent > bareEntry.column || (bareEntry.isKey && indent === bareEntry.column && m[2] !== ''))) return false;
    bareEntry = undefined;
    if (key !== undefined ? keyValue === undefined && block === undefined : itemValue === undefined && itemBlock === undefined) {
      bareEntry = { column: key !== undefined ? entryColumn : lastDashColumn, isKey: key !== undefined };
    }
    if (block) blockParent = entryColumn;
    else if (itemBlock) blockParent = lastDashColumn;
  }
  return bareEntry === undefined;
}

/** The documents of `text` (null for an empty one), or undefined when it is left to `yaml`. */
export function fastYamlDocuments(text: string): unknown[] | undefined {
  return isPlainBlockText(text) ? readPlainBlockText(text) : undefined;
}

/** The documents of a text `isPlainBlockText` takes, or undefined when js-yaml refuses it. */
export function readPlainBlockText(text: string): unknown[] | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const jsYaml = require('js-yaml') as typeof JsYaml;
  try {
    return jsYaml.loadAll(text, undefined, { schema: coreSchema(jsYaml) });
  } catch {
    return undefined; // yaml reads it again, for its own message and position
  }
}

let schema: JsYaml.Schema | undefined;

/** YAML 1.2's core schema (YAML 1.2.2, 10.3.2): null, booleans, integers and floats. */
function coreSchema(jsYaml: typeof JsYaml): JsYaml.Schema {
  schema ??= jsYaml.FAILSAFE_SCHEMA.extend({
    implicit: [
      scalarType(jsYaml, 'null', /^(?:~|null|Null|NULL)?$/, () => null),
      scalarType(jsYaml, 'bool', /^(?:true|True|TRUE|false|False|FALSE)$/, (s) => s[0] === 't' || s[0] === 'T'),
      scalarType(jsYaml, 'int', /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/, intOf),
      scalarType(jsYaml, 'float', /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/, floatOf),
    ],
  });
  return schema;
}

function scalarType(jsYaml: typeof JsYaml, name: string, pattern: RegExp, construct: (s: string) => unknown): JsYaml.Type {
  return new jsYaml.Type(`tag:yaml.org,2002:${name}`, {
    kind: 'scalar',
    resolve: (s: string | null) => pattern.test(s ?? ''),
    construct: (s: string | null) => construct(s ?? ''),
  });
}

function intOf(s: string): number {
  if (s.startsWith('0o')) return parseInt(s.slice(2), 8);
  if (s.startsWith('0x')) return parseInt(s.slice(2), 16);
  return parseInt(s, 10);
}

function floatOf(s: string): number {
  const lower = s.toLowerCase();
  if (lower.endsWith('.nan')) return NaN;
  if (lower.endsWith('.inf')) return s[0] === '-' ? -Infinity : Infinity;
  return parseFloat(s);
}
