/**
 * The functions CEL expressions may call, with their signatures, as the checker knows them, in
 * two libraries:
 *
 * - `cel-go`: CEL's standard library as cel-go declares it by default (operators, conversions,
 *   `size`, string and time functions) — what AI Runway compiles selection rules with;
 * - `kubernetes`: what the API server adds for DRA device selectors and CRD rules — cross-type
 *   numeric comparisons (`1 < 1.5`), the strings extension at the version Kubernetes enables
 *   (charAt ... upperAscii, format, quote, join), and Kubernetes' quantity and semver libraries.
 *
 * Written from the documented signatures, one line per overload: `name(args) result` for a
 * function, `target.name(args) result` for a method; capital letters are type parameters.
 *
 * Kubernetes' other libraries (lists, regex `find`, URLs, IPs, CIDRs, sets, two-variable
 * comprehensions) are not declared: a selector that calls them is reported as calling an
 * unknown function, which is stricter than the API server. test/envtest/dra-on-api-server.test.ts
 * sends a corpus of selectors to a real API server and pins exactly these differences.
 */
import { CelType, parseTypeName, splitTopLevel } from './types';

/** One overload of a function or method. */
export interface CelOverload {
  readonly name: string;
  /** The receiver type of a method; undefined for a global function. */
  readonly target?: CelType;
  readonly args: readonly CelType[];
  readonly result: CelType;
  /** The declaration as written in the table, for messages. */
  readonly text: string;
}

const ORDERED = ['bool', 'int', 'uint', 'double', 'string', 'bytes', 'timestamp', 'duration'];
const NUMERIC = ['int', 'uint', 'double'];
const COMPARISONS = ['_<_', '_<=_', '_>_', '_>=_'];
const TIME_PARTS = ['getFullYear', 'getMonth', 'getDate', 'getDayOfMonth', 'getDayOfWeek', 'getDayOfYear', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds'];

/** A set of functions an environment declares. */
export type CelLibrary = 'cel-go' | 'kubernetes';

const STANDARD: readonly string[] = [
  // Logic and equality (`_&&_`, `_||_` and `_?_:_` are checked by the checker itself).
  '!_(bool) bool',
  '@not_strictly_false(bool) bool',
  '_==_(A, A) bool',
  '_!=_(A, A) bool',
  // Ordering of values of the same type.
  ...COMPARISONS.flatMap((op) => ORDERED.map((t) => `${op}(${t}, ${t}) bool`)),
  // Arithmetic.
  '-_(int) int',
  '-_(double) double',
  ...['int', 'uint', 'double', 'string', 'bytes'].map((t) => `_+_(${t}, ${t}) ${t}`),
  '_+_(list(A), list(A)) list(A)',
  '_+_(timestamp, duration) timestamp',
  '_+_(duration, timestamp) timestamp',
  '_+_(duration, duration) duration',
  ...NUMERIC.map((t) => `_-_(${t}, ${t}) ${t}`),
  '_-_(timestamp, timestamp) duration',
  '_-_(timestamp, duration) timestamp',
  '_-_(duration, duration) duration',
  ...NUMERIC.flatMap((t) => [`_*_(${t}, ${t}) ${t}`, `_/_(${t}, ${t}) ${t}`]),
  '_%_(int, int) int',
  '_%_(uint, uint) uint',
  // Indexing and membership.
  '_[_](list(A), int) A',
  '_[_](map(K, V), K) V',
  '@in(A, list(A)) bool',
  '@in(K, map(K, V)) bool',
  // Size.
  ...['string', 'bytes', 'list(A)', 'map(K, V)'].flatMap((t) => [`size(${t}) int`, `${t}.size() int`]),
  // Conversions.
  ...['int', 'uint', 'double', 'string', 'timestamp'].map((t) => `int(${t}) int`),
  ...['int', 'uint', 'double', 'string'].map((t) => `uint(${t}) uint`),
  ...['int', 'uint', 'double', 'string'].map((t) => `double(${t}) double`),
  ...['int', 'uint', 'double', 'bool', 'string', 'bytes', 'timestamp', 'duration'].map((t) => `string(${t}) string`),
  'bytes(string) bytes',
  'bytes(bytes) bytes',
  'bool(bool) bool',
  'bool(string) bool',
  'dyn(A) dyn',
  'type(A) type',
  'duration(string) duration',
  'duration(duration) duration',
  'timestamp(string) timestamp',
  'timestamp(timestamp) timestamp',
  // Strings.
  'string.contains(string) bool',
  'string.startsWith(string) bool',
  'string.endsWith(string) bool',
  'string.matches(string) bool',
  'matches(string, string) bool',
  // Time.
  ...TIME_PARTS.flatMap((p) => [`timestamp.${p}() int`, `timestamp.${p}(string) int`]),
  ...['getHours', 'getMinutes', 'getSeconds', 'getMilliseconds'].map((p) => `duration.${p}() int`),
];

const KUBERNETES: readonly string[] = [
  // Every pair of numeric types (Kubernetes enables cross-type numeric comparisons; cel-go's default does not).
  ...COMPARISONS.flatMap((op) => NUMERIC.flatMap((a) => NUMERIC.filter((b) => b !== a).map((b) => `${op}(${a}, ${b}) bool`))),
  // The strings extension.
  'string.charAt(int) string',
  'string.indexOf(string) int',
  'string.indexOf(string, int) int',
  'string.lastIndexOf(string) int',
  'string.lastIndexOf(string, int) int',
  'string.lowerAscii() string',
  'string.upperAscii() string',
  'string.replace(string, string) string',
  'string.replace(string, string, int) string',
  'string.split(string) list(string)',
  'string.split(string, int) list(string)',
  'string.substring(int) string',
  'string.substring(int, int) string',
  'string.trim() string',
  'string.format(list(dyn)) string',
  'list(string).join() string',
  'list(string).join(string) string',
  'strings.quote(string) string',
  // Kubernetes' quantity library.
  'quantity(string) quantity',
  'isQuantity(string) bool',
  // No `sign()`: the API server's DRA environment has no such overload (test/envtest/dra-on-api-server.test.ts).
  'quantity.isInteger() bool',
  'quantity.asInteger() int',
  'quantity.asApproximateFloat() double',
  'quantity.add(quantity) quantity',
  'quantity.add(int) quantity',
  'quantity.sub(quantity) quantity',
  'quantity.sub(int) quantity',
  'quantity.compareTo(quantity) int',
  'quantity.isGreaterThan(quantity) bool',
  'quantity.isLessThan(quantity) bool',
  // Kubernetes' semver library.
  'semver(string) semver',
  'semver(string, bool) semver',
  'isSemver(string) bool',
  'isSemver(string, bool) bool',
  'semver.major() int',
  'semver.minor() int',
  'semver.patch() int',
  'semver.compareTo(semver) int',
  'semver.isGreaterThan(semver) bool',
  'semver.isLessThan(semver) bool',
];

interface OverloadTable {
  readonly functions: Map<string, CelOverload[]>;
  readonly methods: Map<string, CelOverload[]>;
}

const tables = new Map<CelLibrary, OverloadTable>();

/** The global functions of that name (`quantity`, `_+_`, `strings.quote`); empty when there are none. */
export function functionOverloads(library: CelLibrary, name: string): readonly CelOverload[] {
  return overloads(library).functions.get(name) ?? [];
}

/** The methods of that name (`compareTo`, `startsWith`); empty when there are none. */
export function methodOverloads(library: CelLibrary, name: string): readonly CelOverload[] {
  return overloads(library).methods.get(name) ?? [];
}

function overloads(library: CelLibrary): OverloadTable {
  let table = tables.get(library);
  if (!table) {
    table = { functions: new Map(), methods: new Map() };
    for (const text of library === 'kubernetes' ? [...STANDARD, ...KUBERNETES] : STANDARD) {
      const o = parseDeclaration(text);
      const into = o.target ? table.methods : table.functions;
      into.set(o.name, [...(into.get(o.name) ?? []), o]);
    }
    tables.set(library, table);
  }
  return table;
}

/** `[target.]name(args) result`; the name may contain operator characters and dots (`strings.quote`). */
function parseDeclaration(text: string): CelOverload {
  const space = text.lastIndexOf(' ');
  const head = text.slice(0, space);
  // The argument list is the parenthesis that closes the head; a receiver may have its own (`list(A).size()`).
  let depth = 0;
  let open = head.length - 1;
  for (; open >= 0; open--) {
    depth += head[open] === ')' ? 1 : head[open] === '(' ? -1 : 0;
    if (depth === 0) break;
  }
  if (!head.endsWith(')') || open <= 0) {
    throw new Error(`bad overload declaration: ${text}`);
  }
  const callee = head.slice(0, open);
  const args = splitTopLevel(head.slice(open + 1, -1)).map(parseTypeName);
  const result = parseTypeName(text.slice(space + 1));
  // A method's receiver ends in `)` (list(A).size) or is a lower-case type name followed by a dot.
  const method = /^(.*\)|bool|int|uint|double|string|bytes|timestamp|duration|quantity|semver)\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(callee);
  if (method) {
    return { name: method[2], target: parseTypeName(method[1]), args, result, text };
  }
  return { name: callee, args, result, text };
}
