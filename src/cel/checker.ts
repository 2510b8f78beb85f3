/**
 * The CEL type checker, over the AST @bufbuild/cel's `parse` returns (its own checker is internal
 * and does not check calls), for every caller: each declares its variables and the library of
 * functions it may call (src/cel/overloads.ts) in a `CelCheckEnvironment`. Rules, as CEL's own
 * checker applies them: identifiers must be declared (the variables, a macro's variables, type
 * names such as `int`); a field of a record variable (a DRA selector's `device`) must exist; a
 * map's fields are its string keys; a call must match an overload of its name and style
 * (function or method) with arguments of fitting types — `dyn` fits anything, so `dyn` values
 * may be used wherever the other operands fit, and a call matching overloads with different
 * results is `dyn`; `&&`, `||`, `!`, conditions and macro predicates take bools; list and map
 * literals of mixed types are `dyn`. A sub-expression that fails is reported once and then
 * treated as `dyn`. The result type is the caller's to judge.
 *
 * Where cel-go words a mistake differently: an operand of `&&`, `||` or a condition that is not
 * a bool is "found no matching overload for '_&&_' ..." in cel-go and "expected type 'bool' but
 * found ..." here (the DRA selector tests pin this wording).
 */
import { CelExpr, positionOf } from './ast';
import { CelError, celError } from './cel-error';
import { CelLibrary, CelOverload, functionOverloads, methodOverloads } from './overloads';
import { ParsedCel, skipBlanks } from './parse';
import {
  BOOL, BYTES, CelType, DOUBLE, DURATION, DYN, ERROR, FREE, fits, INT, isDynamic, join, listOf, mapOf, NULL,
  STRING, substitute, TIMESTAMP, TYPE, typeName, UINT,
} from './types';

/** What an expression may refer to. */
export interface CelCheckEnvironment {
  /** What the expressions are, in messages: `device selectors`. */
  readonly subject: string;
  /** The variables and their types (`dyn` when only the value knows). */
  readonly variables: ReadonlyMap<string, CelType>;
  readonly library: CelLibrary;
  /** Added to the message for an undeclared name: for `self` in a device selector, which variable it has. */
  readonly undeclaredHints?: ReadonlyMap<string, string>;
}

/** What kind of mistake a problem is, for callers that sort them (the CRD rule coverage). */
export type CelProblemKind =
  /** A name that is not declared. */
  | 'undeclared'
  /** A function or method the library does not declare. */
  | 'unknown-function'
  /** Syntax @bufbuild/cel parses but the environment has no meaning for (optionals, objects, two-variable comprehensions). */
  | 'unsupported'
  /** Operands or a result of the wrong type. */
  | 'type';

/** One problem the checker found. */
export interface CelProblem {
  readonly error: CelError;
  readonly kind: CelProblemKind;
  /** The name at fault, for `undeclared` and `unknown-function`. */
  readonly name?: string;
  /** For `unknown-function`: whether it was called as a method. */
  readonly method?: boolean;
}

/**
 * Identifiers that name types, which are values in CEL (`type(x) == string`). cel-go's standard
 * library declares exactly the first set (its type variables; Duration and Timestamp go by
 * their protobuf names, which neither set has), so selection rules match AI Runway. The DRA
 * selector and CRD rule checks have always accepted `dyn` as well, which the API server, built on
 * cel-go, refuses unless Kubernetes declares it; kept as it was rather than silently narrowed.
 */
const TYPE_NAMES: Readonly<Record<CelLibrary, ReadonlySet<string>>> = {
  'cel-go': new Set(['bool', 'int', 'uint', 'double', 'string', 'bytes', 'list', 'map', 'null_type', 'type']),
  'kubernetes': new Set(['bool', 'int', 'uint', 'double', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']),
};
/** Map key types CEL allows. */
const KEY_KINDS = new Set(['int', 'uint', 'bool', 'string']);
/** Errors collected before the checker stops reporting (one mistake rarely needs more). */
export const CEL_MAX_PROBLEMS = 20;

/** What the checker found. */
export interface CelCheck {
  readonly problems: CelProblem[];
  /** The expression's type (dyn for a value only known when evaluated). */
  readonly resultType: CelType;
  /** The declared variables the expression refers to. */
  readonly referenced: ReadonlySet<string>;
  /**
   * The nodes that look up an entry of a map whose type is marked `domains` (`_[_]` calls and
   * field selections): for `device.attributes` and `device.capacity`, where the DRA evaluator
   * reads a missing domain as an empty map.
   */
  readonly domainLookups: readonly CelExpr[];
}

/** Type-checks a parsed expression. */
export function checkCel(parsed: ParsedCel, env: CelCheckEnvironment): CelCheck {
  const checker = new Checker(parsed, env);
  const resultType = checker.check(parsed.expr);
  return { problems: checker.problems, resultType, referenced: checker.referenced, domainLookups: checker.domainLookups };
}

class Checker {
  public readonly problems: CelProblem[] = [];
  public readonly domainLookups: CelExpr[] = [];
  public readonly referenced = new Set<string>();
  private readonly scopes: Array<ReadonlyMap<string, CelType>> = [];

  constructor(private readonly parsed: ParsedCel, private readonly env: CelCheckEnvironment) {}

  /**
   * Records a problem at the node (at the name, for a field or method after a dot); returns ERROR.
   * Type errors are the default kind.
   */
  public error(expr: CelExpr, message: string, at?: { name?: string; kind?: CelProblemKind; culprit?: string; method?: boolean }): CelType {
    if (this.problems.length < CEL_MAX_PROBLEMS) {
      const offset = this.offsetOf(this.offsetOf(positionOf(this.parsed.positions, expr), at?.name), undefined);
      const problem: CelProblem = { error: celError(this.parsed.expression, offset, message), kind: at?.kind ?? 'type' };
      this.problems.push(at?.culprit === undefined ? problem : { ...problem, name: at.culprit, ...(at.method ? { method: true } : {}) });
    }
    return ERROR;
  }

  public check(expr: CelExpr): CelType {
    const kind = expr.exprKind;
    switch (kind.case) {
      case 'constExpr':
        return constantType(kind.value.constantKind.case);
      case 'identExpr':
        return this.ident(expr, kind.value.name);
      case 'selectExpr':
        return this.select(expr, kind.value.operand!, kind.value.field, kind.value.testOnly);
      case 'callExpr':
        return this.call(expr, kind.value.function, kind.value.target, kind.value.args);
      case 'listExpr': {
        if (kind.value.optionalIndices.length > 0) {
          return this.error(expr, `optional list elements ([?x]) are not supported in ${this.env.subject}`, { kind: 'unsupported' });
        }
        let elem = FREE;
        for (const e of kind.value.elements) {
          elem = join(elem, this.check(e));
        }
        return listOf(elem);
      }
      case 'structExpr': {
        if (kind.value.messageName) {
          return this.error(expr, `unknown type '${kind.value.messageName}': ${this.env.subject} cannot construct objects`, { kind: 'unsupported' });
        }
        let key = FREE;
        let value = FREE;
        for (const entry of kind.value.entries) {
          if (entry.optionalEntry) {
            return this.error(expr, `optional map entries ({?k: v}) are not supported in ${this.env.subject}`, { kind: 'unsupported' });
          }
          if (entry.keyKind.case === 'mapKey') {
            const k = this.check(entry.keyKind.value);
            if (!isDynamic(k) && !KEY_KINDS.has(k.kind)) {
              this.error(entry.keyKind.value, `unsupported map key type '${typeName(k)}' (map keys are int, uint, bool or string)`);
            }
            key = join(key, k);
          }
          value = join(value, entry.value ? this.check(entry.value) : ERROR);
        }
        return mapOf(key, value);
      }
      case 'comprehensionExpr':
        return this.comprehension(expr, kind.value);
      default:
        return this.error(expr, `unsupported expression (${String(kind.case)})`, { kind: 'unsupported' });
    }
  }

  private ident(expr: CelExpr, name: string): CelType {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i].get(name);
      if (t) {
        return t;
      }
    }
    const declared = this.env.variables.get(name);
    if (declared) {
      this.referenced.add(name);
      return declared;
    }
    if (TYPE_NAMES[this.env.library].has(name)) {
      return TYPE;
    }
    const hint = this.env.undeclaredHints?.get(name);
    return this.error(expr, `undeclared reference to '${name}'${hint ? ` ${hint}` : ''}`, { kind: 'undeclared', culprit: name });
  }

  private select(expr: CelExpr, operand: CelExpr, field: string, testOnly: boolean): CelType {
    const t = this.check(operand);
    const result = (v: CelType) => (testOnly ? BOOL : v);
    if (t.kind === 'record') {
      const f = t.fields.get(field);
      return f ? result(f) : this.error(expr, `undefined field '${field}' (a ${t.name} has ${[...t.fields.keys()].join(', ')})`, { name: field });
    }
    if (t.kind === 'map' && (t.key.kind === 'string' || isDynamic(t.key))) {
      if (t.domains && !testOnly) {
        this.domainLookups.push(expr);
      }
      return result(t.value);
    }
    if (isDynamic(t)) {
      return result(t.kind === 'error' ? ERROR : DYN);
    }
    return this.error(expr, `type '${typeName(t)}' does not support field selection`, { name: field });
  }

  private call(expr: CelExpr, fn: string, target: CelExpr | undefined, args: readonly CelExpr[]): CelType {
    switch (fn) {
      case '_&&_':
      case '_||_':
        args.forEach((a) => this.expectBool(a));
        return BOOL;
      case '_?_:_':
        return this.conditional(expr, args);
      case '_?._':
      case '_[?_]':
        args.forEach((a) => this.check(a));
        return this.error(expr, `optional field selection (.?) and indexing ([?]) are not supported in ${this.env.subject}`, { kind: 'unsupported' });
    }
    const library = this.env.library;
    if (target) {
      const qualified = this.qualifiedName(target);
      if (qualified !== undefined && functionOverloads(library, `${qualified}.${fn}`).length > 0) {
        return this.resolve(expr, `${qualified}.${fn}`, functionOverloads(library, `${qualified}.${fn}`), undefined, args.map((a) => this.check(a)));
      }
      const targetType = this.check(target);
      const argTypes = args.map((a) => this.check(a));
      const overloads = methodOverloads(library, fn);
      if (overloads.length === 0) {
        const hint = functionOverloads(library, fn).length > 0 ? `: '${fn}' is a function, call it as ${fn}(...)` : '';
        return this.error(expr, `unknown method '${fn}'${hint}`, { name: fn, kind: 'unknown-function', culprit: fn, method: true });
      }
      return this.resolve(expr, fn, overloads, targetType, argTypes);
    }
    const argTypes = args.map((a) => this.check(a));
    const overloads = functionOverloads(library, fn);
    if (overloads.length === 0) {
      const hint = methodOverloads(library, fn).length > 0 ? `: '${fn}' is a method, call it as x.${fn}(...)` : '';
      return this.error(expr, `unknown function '${fn}'${hint}`, { kind: 'unknown-function', culprit: fn });
    }
    if (fn === '_[_]' && argTypes[0]?.kind === 'map' && argTypes[0].domains) {
      this.domainLookups.push(expr);
    }
    return this.resolve(expr, fn, overloads, undefined, argTypes);
  }

  /** The overload of `fn` the argument types select, or an error naming the types. */
  private resolve(expr: CelExpr, fn: string, overloads: readonly CelOverload[], target: CelType | undefined, args: readonly CelType[]): CelType {
    // An operand that failed was reported already: one mistake, one message.
    if ([target, ...args].some((t) => t?.kind === 'error')) {
      return ERROR;
    }
    const results: CelType[] = [];
    for (const o of overloads) {
      if ((o.target === undefined) !== (target === undefined) || o.args.length !== args.length) {
        continue;
      }
      const bindings = new Map<string, CelType>();
      if ((target && !fits(o.target!, target, bindings)) || !o.args.every((declared, i) => fits(declared, args[i], bindings))) {
        continue;
      }
      results.push(substitute(o.result, bindings));
    }
    if (results.length > 0) {
      return results.reduce((a, b) => (typeName(a) === typeName(b) ? a : DYN));
    }
    const applied = `${target ? `${typeName(target)}.` : ''}(${args.map(typeName).join(', ')})`;
    return this.error(expr, `found no matching overload for '${fn}' applied to '${applied}'${this.candidates(fn, overloads, target)}`, { name: target ? fn : undefined });
  }

  /** `; expected ...` listing the overloads of a named function (operators have too many to list). */
  private candidates(fn: string, overloads: readonly CelOverload[], target: CelType | undefined): string {
    if (!/^[A-Za-z]/.test(fn)) {
      return '';
    }
    const style = overloads.filter((o) => (o.target === undefined) === (target === undefined));
    const receiverFits = style.filter((o) => !target || !o.target || fits(o.target, target, new Map()));
    const shown = (receiverFits.length > 0 ? receiverFits : style).map((o) =>
      `${o.target ? `${typeName(o.target)}.` : ''}${o.name}(${o.args.map(typeName).join(', ')})`);
    return shown.length > 0 ? `; expected ${shown.join(' or ')}` : '';
  }

  private conditional(expr: CelExpr, args: readonly CelExpr[]): CelType {
    this.expectBool(args[0]);
    const a = this.check(args[1]);
    const b = this.check(args[2]);
    const bindings = new Map<string, CelType>();
    const param: CelType = { kind: 'param', name: 'A' };
    if (fits(param, a, bindings) && fits(param, b, bindings)) {
      return join(a, b);
    }
    return this.error(expr, `found no matching overload for '_?_:_' applied to '(bool, ${typeName(a)}, ${typeName(b)})'`);
  }

  private comprehension(expr: CelExpr, c: Extract<CelExpr['exprKind'], { case: 'comprehensionExpr' }>['value']): CelType {
    if (c.iterVar2) {
      return this.error(expr, `two-variable comprehensions are not supported in ${this.env.subject}`, { kind: 'unsupported' });
    }
    const range = this.check(c.iterRange!);
    let iter: CelType;
    if (range.kind === 'list') {
      iter = range.elem;
    } else if (range.kind === 'map') {
      iter = range.key;
    } else if (isDynamic(range)) {
      iter = range.kind === 'error' ? ERROR : DYN;
    } else {
      this.error(c.iterRange!, `expression of type '${typeName(range)}' cannot be the range of a comprehension (must be list, map, or dynamic)`);
      iter = ERROR;
    }
    const init = this.check(c.accuInit!);
    // The step may refine the accumulator (`[]` becomes a list of what map() produces).
    this.scopes.push(new Map([[c.accuVar, init], [c.iterVar, iter]]));
    let accu = init;
    try {
      this.expectBool(c.loopCondition!);
      accu = join(init, this.check(c.loopStep!));
    } finally {
      this.scopes.pop();
    }
    this.scopes.push(new Map([[c.accuVar, accu]]));
    try {
      return this.check(c.result!);
    } finally {
      this.scopes.pop();
    }
  }

  private expectBool(expr: CelExpr): void {
    const t = this.check(expr);
    if (t.kind !== 'bool' && !isDynamic(t)) {
      this.error(expr, `expected type 'bool' but found '${typeName(t)}'`);
    }
  }

  /** `a.b` when the expression names a namespace (not a variable): `strings` in `strings.quote(x)`. */
  private qualifiedName(expr: CelExpr): string | undefined {
    const kind = expr.exprKind;
    if (kind.case === 'identExpr') {
      const name = kind.value.name;
      return this.env.variables.has(name) || this.scopes.some((s) => s.has(name)) ? undefined : name;
    }
    if (kind.case === 'selectExpr' && !kind.value.testOnly && kind.value.operand) {
      const operand = this.qualifiedName(kind.value.operand);
      return operand === undefined ? undefined : `${operand}.${kind.value.field}`;
    }
    return undefined;
  }

  /**
   * The node's offset: the parser records an operator with the blanks before it, so those are
   * skipped; for a field or method, the offset of its name after the dot.
   */
  private offsetOf(position: number, name: string | undefined): number {
    const text = this.parsed.expression;
    const at = skipBlanks(text, position);
    if (name !== undefined && text[at] === '.') {
      const m = /^\.\s*/.exec(text.slice(at, at + 64));
      if (m && text.startsWith(name, at + m[0].length)) {
        return at + m[0].length;
      }
    }
    if (name !== undefined && text.startsWith('has', at)) {
      return fieldInHas(text, at, name) ?? at;
    }
    return at;
  }
}

function constantType(kind: string | undefined): CelType {
  switch (kind) {
    case 'boolValue': return BOOL;
    case 'int64Value': return INT;
    case 'uint64Value': return UINT;
    case 'doubleValue': return DOUBLE;
    case 'stringValue': return STRING;
    case 'bytesValue': return BYTES;
    case 'nullValue': return NULL;
    case 'durationValue': return DURATION;
    case 'timestampValue': return TIMESTAMP;
    default: return ERROR;
  }
}

/**
 * The offset of `name` in `has(x.name)` opening at `at`: the last `.name` before the closing
 * parenthesis (string literals inside are skipped).
 */
function fieldInHas(text: string, at: number, name: string): number | undefined {
  const open = text.indexOf('(', at);
  let depth = 0;
  let found: number | undefined;
  const field = new RegExp(`\\.\\s*(${name.replace(/[^A-Za-z0-9_]/g, '')})\\b`, 'y');
  for (let i = open; i >= 0 && i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) break;
      i = end;
    } else if (c === '(') {
      depth++;
    } else if (c === ')' && --depth === 0) {
      break;
    } else if (c === '.') {
      field.lastIndex = i;
      const m = field.exec(text);
      if (m) found = i + m[0].length - m[1].length;
    }
  }
  return found;
}
