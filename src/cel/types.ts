/**
 * The CEL types the checker (src/cel/checker.ts) reasons with, written as CEL names them in messages
 * (`int`, `list(string)`, `map(string, dyn)`, `kubernetes.Quantity`), and the two relations it
 * needs: whether a value of one type may be passed where another is declared (`dyn` fits
 * everything and everything fits `dyn`, as in CEL's own checker; `null` fits the object types),
 * and the common type of two branches or elements (the type itself when they agree, else `dyn`).
 */

/** The types without parameters or names. */
type SimpleKind = 'bool' | 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'null' | 'dyn' | 'duration' | 'timestamp';

/** A CEL type as the checker sees it. */
export type CelType =
  | { readonly kind: SimpleKind }
  /** An opaque object type: `kubernetes.Quantity`, `kubernetes.Semver`. */
  | { readonly kind: 'object'; readonly name: string }
  | { readonly kind: 'list'; readonly elem: CelType }
  /**
   * A map. `domains` marks `device.attributes` and `device.capacity`, where a domain without
   * entries reads as an empty map rather than a missing key.
   */
  | { readonly kind: 'map'; readonly key: CelType; readonly value: CelType; readonly domains?: boolean }
  /**
   * A variable with a fixed set of typed fields, such as the `device` of a DRA selector: any
   * other field is an error.
   */
  | { readonly kind: 'record'; readonly name: string; readonly fields: ReadonlyMap<string, CelType> }
  /** A type value (`int`, `type(x)`). */
  | { readonly kind: 'type' }
  /** A type parameter of an overload (`A` in `_==_(A, A)`). */
  | { readonly kind: 'param'; readonly name: string }
  /** The element type of an empty literal (`[]`): not known yet, fits anything. */
  | { readonly kind: 'free' }
  /** The type of a sub-expression that already failed: fits anything, so one mistake is reported once. */
  | { readonly kind: 'error' };

const simple = (kind: SimpleKind): CelType => ({ kind });

export const BOOL = simple('bool');
export const INT = simple('int');
export const UINT = simple('uint');
export const DOUBLE = simple('double');
export const STRING = simple('string');
export const BYTES = simple('bytes');
export const NULL = simple('null');
export const DYN = simple('dyn');
export const DURATION = simple('duration');
export const TIMESTAMP = simple('timestamp');
export const TYPE: CelType = { kind: 'type' };
export const FREE: CelType = { kind: 'free' };
export const ERROR: CelType = { kind: 'error' };
export const QUANTITY: CelType = { kind: 'object', name: 'kubernetes.Quantity' };
export const SEMVER: CelType = { kind: 'object', name: 'kubernetes.Semver' };

export function listOf(elem: CelType): CelType {
  return { kind: 'list', elem };
}

export function mapOf(key: CelType, value: CelType): CelType {
  return { kind: 'map', key, value };
}

/** The type as CEL prints it in messages. */
export function typeName(t: CelType): string {
  switch (t.kind) {
    case 'object': return t.name;
    case 'record': return t.name;
    case 'list': return `list(${typeName(t.elem)})`;
    case 'map': return `map(${typeName(t.key)}, ${typeName(t.value)})`;
    case 'param': return t.name;
    case 'null': return 'null_type';
    case 'duration': return 'google.protobuf.Duration';
    case 'timestamp': return 'google.protobuf.Timestamp';
    case 'free': return 'dyn';
    case 'error': return '*error*';
    default: return t.kind;
  }
}

/** Whether the type is only known at run time (`dyn`, an unknown element type, or a failed sub-expression). */
export function isDynamic(t: CelType): boolean {
  return t.kind === 'dyn' || t.kind === 'free' || t.kind === 'error';
}

/** Type parameter bindings while one overload is tried. */
export type Bindings = Map<string, CelType>;

/**
 * Whether a value of type `actual` may be passed where `declared` is expected, binding the type
 * parameters of `declared` on the way (the first binding of a parameter is kept, unless it was a
 * still unknown element type or a failed sub-expression).
 */
export function fits(declared: CelType, actual: CelType, bindings: Bindings): boolean {
  if (declared.kind === 'param') {
    const bound = bindings.get(declared.name);
    if (bound === undefined || bound.kind === 'free' || bound.kind === 'error') {
      bindings.set(declared.name, actual);
      return true;
    }
    return fits(bound, actual, bindings);
  }
  if (isDynamic(actual) || isDynamic(declared)) {
    return true;
  }
  switch (declared.kind) {
    case 'list':
      return actual.kind === 'list' && fits(declared.elem, actual.elem, bindings);
    case 'map':
      return actual.kind === 'map' && fits(declared.key, actual.key, bindings) && fits(declared.value, actual.value, bindings);
    case 'object':
      return (actual.kind === 'object' && actual.name === declared.name) || actual.kind === 'null';
    case 'duration':
    case 'timestamp':
      return actual.kind === declared.kind || actual.kind === 'null';
    default:
      return actual.kind === declared.kind;
  }
}

/** `t` with its type parameters replaced by their bindings (unbound ones by `dyn`). */
export function substitute(t: CelType, bindings: Bindings): CelType {
  switch (t.kind) {
    case 'param': {
      const bound = bindings.get(t.name);
      return bound === undefined || bound.kind === 'free' ? DYN : bound;
    }
    case 'list': return listOf(substitute(t.elem, bindings));
    case 'map': return mapOf(substitute(t.key, bindings), substitute(t.value, bindings));
    default: return t;
  }
}

/** Whether two types are the same type. */
export function sameType(a: CelType, b: CelType): boolean {
  if (a.kind !== b.kind) {
    return false;
  }
  switch (a.kind) {
    case 'object': return a.name === (b as typeof a).name;
    case 'record': return a.name === (b as typeof a).name;
    case 'list': return sameType(a.elem, (b as typeof a).elem);
    case 'map': return sameType(a.key, (b as typeof a).key) && sameType(a.value, (b as typeof a).value);
    case 'param': return a.name === (b as typeof a).name;
    default: return true;
  }
}

/**
 * The type of a value that is either `a` or `b` (list elements, map entries, the branches of
 * `_?_:_`): an unknown element type gives way to a known one, the same types stay, different ones
 * are `dyn`.
 */
export function join(a: CelType, b: CelType): CelType {
  if (a.kind === 'free' || a.kind === 'error') {
    return b.kind === 'error' ? a : b;
  }
  if (b.kind === 'free' || b.kind === 'error') {
    return a;
  }
  if (a.kind === 'list' && b.kind === 'list') {
    return listOf(join(a.elem, b.elem));
  }
  if (a.kind === 'map' && b.kind === 'map') {
    return mapOf(join(a.key, b.key), join(a.value, b.value));
  }
  if (a.kind === 'null' && fits(b, a, new Map())) {
    return b;
  }
  if (b.kind === 'null' && fits(a, b, new Map())) {
    return a;
  }
  return sameType(a, b) ? a : DYN;
}

/**
 * Parses a type as the overload table writes it: `int`, `list(A)`, `map(K, V)`, `quantity`,
 * `semver`; single capital letters are type parameters.
 */
export function parseTypeName(text: string): CelType {
  const s = text.trim();
  const m = /^(list|map)\((.*)\)$/.exec(s);
  if (m) {
    if (m[1] === 'list') {
      return listOf(parseTypeName(m[2]));
    }
    const comma = splitTopLevel(m[2]);
    return mapOf(parseTypeName(comma[0]), parseTypeName(comma[1]));
  }
  if (/^[A-Z]$/.test(s)) {
    return { kind: 'param', name: s };
  }
  const named: Record<string, CelType> = {
    bool: BOOL,
    int: INT,
    uint: UINT,
    double: DOUBLE,
    string: STRING,
    bytes: BYTES,
    null_type: NULL,
    dyn: DYN,
    duration: DURATION,
    timestamp: TIMESTAMP,
    type: TYPE,
    quantity: QUANTITY,
    semver: SEMVER,
  };
  const t = named[s];
  if (!t) {
    throw new Error(`unknown type in the overload table: ${s}`);
  }
  return t;
}

/** Splits `a, b` at top-level commas (not those inside parentheses). */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') {depth++;} else if (c === ')') {depth--;} else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  const last = text.slice(start);
  if (last.trim() !== '' || parts.length > 0) {
    parts.push(last);
  }
  return parts.map((p) => p.trim());
}
