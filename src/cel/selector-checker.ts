/**
 * A CEL type checker for DRA device selectors, over the AST @bufbuild/cel's `parse` returns
 * (its own checker is internal and does not check calls). It knows one variable, `device`:
 *
 * - `device.driver`: string
 * - `device.attributes`: map(string, map(string, dyn)) — by domain, then attribute name; the
 *   values are strings, ints, bools or versions, which only the device knows, so they are `dyn`
 * - `device.capacity`: map(string, map(string, kubernetes.Quantity))
 *
 * (Kubernetes 1.35 declares `device.allowMultipleAllocations` only behind the alpha
 * DRAConsumableCapacity gate; a default API server refuses it, so it is not declared here.)
 *
 * and the functions of src/cel/overloads.ts. Rules, as CEL's own checker applies them:
 * identifiers must be declared (`device`, a macro's variables, type names such as `int`); a field
 * of `device` must exist; a map's fields are its string keys; a call must match an overload of
 * its name and style (function or method) with arguments of fitting types — `dyn` fits anything,
 * so `dyn` values may be used wherever the other operands fit, and a call matching overloads
 * with different results is `dyn`; `&&`, `||`, `!`, conditions and macro predicates take bools;
 * list and map literals of mixed types are `dyn`; the result must be bool (or `dyn`, checked when
 * evaluated). A sub-expression that fails is reported once and then treated as `dyn`.
 */
import { CelExpr } from './ast';
import { CelOverload, functionOverloads, methodOverloads } from './overloads';
import { DeviceSelectorError, selectorError } from './selector-error';
import { ParsedSelector, positionOf, skipBlanks } from './selector-parse';
import {
  BOOL, BYTES, CelType, DEVICE, DOUBLE, DURATION, DYN, ERROR, FREE, fits, INT, isDynamic, join, listOf, mapOf, NULL, QUANTITY,
  STRING, substitute, TIMESTAMP, TYPE, typeName, UINT,
} from './types';

/** The fields of the `device` variable and their types. */
export const DEVICE_FIELDS: ReadonlyMap<string, CelType> = new Map<string, CelType>([
  ['driver', STRING],
  ['attributes', { kind: 'map', key: STRING, value: mapOf(STRING, DYN), domains: true }],
  ['capacity', { kind: 'map', key: STRING, value: mapOf(STRING, QUANTITY), domains: true }],
]);

/** Identifiers that name types, which are values in CEL (`type(x) == string`). */
const TYPE_NAMES = new Set(['bool', 'int', 'uint', 'double', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);
/** Map key types CEL allows. */
const KEY_KINDS = new Set(['int', 'uint', 'bool', 'string']);
/** Errors collected before the checker stops reporting (one mistake rarely needs more). */
const MAX_ERRORS = 20;

/** What the checker found. */
export interface SelectorTypeCheck {
  readonly errors: DeviceSelectorError[];
  /** The selector's type (bool when it is valid, or dyn for a value only known when evaluated). */
  readonly resultType: CelType;
  /**
   * The nodes that look up a domain of `device.attributes` or `device.capacity` (`_[_]` calls
   * and field selections): the evaluator reads a missing domain as an empty map there.
   */
  readonly domainLookups: readonly CelExpr[];
}

/** Type-checks a parsed selector. */
export function checkSelectorTypes(selector: ParsedSelector): SelectorTypeCheck {
  const checker = new Checker(selector);
  const resultType = checker.check(selector.expr);
  if (resultType.kind !== 'bool' && !isDynamic(resultType)) {
    // The whole expression is at fault: pointed at where it starts.
    checker.errorAt(0, `a device selector must evaluate to bool, not ${typeName(resultType)}`);
  }
  return { errors: checker.errors, resultType, domainLookups: checker.domainLookups };
}

class Checker {
  public readonly errors: DeviceSelectorError[] = [];
  public readonly domainLookups: CelExpr[] = [];
  private readonly scopes: Array<ReadonlyMap<string, CelType>> = [];

  constructor(private readonly selector: ParsedSelector) {}

  /** Records an error at the node (at the name, for a field or method after a dot); returns ERROR. */
  public error(expr: CelExpr, message: string, name?: string): CelType {
    return this.errorAt(this.offsetOf(positionOf(this.selector.positions, expr), name), message);
  }

  /** Records an error at an offset (blanks and comments there skipped); returns ERROR. */
  public errorAt(offset: number, message: string): CelType {
    if (this.errors.length < MAX_ERRORS) {
      this.errors.push(selectorError(this.selector.expression, this.offsetOf(offset, undefined), message));
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
          return this.error(expr, 'optional list elements ([?x]) are not supported in device selectors');
        }
        let elem = FREE;
        for (const e of kind.value.elements) {
          elem = join(elem, this.check(e));
        }
        return listOf(elem);
      }
      case 'structExpr': {
        if (kind.value.messageName) {
          return this.error(expr, `unknown type '${kind.value.messageName}': device selectors cannot construct objects`);
        }
        let key = FREE;
        let value = FREE;
        for (const entry of kind.value.entries) {
          if (entry.optionalEntry) {
            return this.error(expr, 'optional map entries ({?k: v}) are not supported in device selectors');
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
        return this.comprehension(kind.value);
      default:
        return this.error(expr, `unsupported expression (${String(kind.case)})`);
    }
  }

  private ident(expr: CelExpr, name: string): CelType {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i].get(name);
      if (t) {
        return t;
      }
    }
    if (name === 'device') {
      return DEVICE;
    }
    if (TYPE_NAMES.has(name)) {
      return TYPE;
    }
    return this.error(expr, `undeclared reference to '${name}'${name === 'self' ? " (a device selector's variable is 'device')" : ''}`);
  }

  private select(expr: CelExpr, operand: CelExpr, field: string, testOnly: boolean): CelType {
    const t = this.check(operand);
    const result = (v: CelType) => (testOnly ? BOOL : v);
    if (t.kind === 'device') {
      const f = DEVICE_FIELDS.get(field);
      return f ? result(f) : this.error(expr, `undefined field '${field}' (a device has ${[...DEVICE_FIELDS.keys()].join(', ')})`, field);
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
    return this.error(expr, `type '${typeName(t)}' does not support field selection`, field);
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
        return this.error(expr, 'optional field selection (.?) and indexing ([?]) are not supported in device selectors');
    }
    if (target) {
      const qualified = this.qualifiedName(target);
      if (qualified !== undefined && functionOverloads(`${qualified}.${fn}`).length > 0) {
        return this.resolve(expr, `${qualified}.${fn}`, functionOverloads(`${qualified}.${fn}`), undefined, args.map((a) => this.check(a)));
      }
      const targetType = this.check(target);
      const argTypes = args.map((a) => this.check(a));
      const overloads = methodOverloads(fn);
      if (overloads.length === 0) {
        const hint = functionOverloads(fn).length > 0 ? `: '${fn}' is a function, call it as ${fn}(...)` : '';
        return this.error(expr, `unknown method '${fn}'${hint}`, fn);
      }
      return this.resolve(expr, fn, overloads, targetType, argTypes);
    }
    const argTypes = args.map((a) => this.check(a));
    const overloads = functionOverloads(fn);
    if (overloads.length === 0) {
      const hint = methodOverloads(fn).length > 0 ? `: '${fn}' is a method, call it as x.${fn}(...)` : '';
      return this.error(expr, `unknown function '${fn}'${hint}`);
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
    return this.error(expr, `found no matching overload for '${fn}' applied to '${applied}'${this.candidates(fn, overloads, target)}`, target ? fn : undefined);
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

  private comprehension(c: Extract<CelExpr['exprKind'], { case: 'comprehensionExpr' }>['value']): CelType {
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
      return name === 'device' || this.scopes.some((s) => s.has(name)) ? undefined : name;
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
    const text = this.selector.expression;
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
