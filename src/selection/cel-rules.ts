import type * as CelLib from '@bufbuild/cel';
import type { CelSpecMap } from './cel-spec-map';

/**
 * CEL selection rules of InferenceProviderConfigs, evaluated as AI Runway does: one variable,
 * `spec` (dynamic), the standard library only, and "did not match" for anything but a boolean
 * `true` — a compile error, a runtime error (`has()` on a missing parent, a missing map key) or a
 * result of another type all leave the provider's priority unchanged.
 *
 * AI Runway compiles every rule on every selection. The outcome does not depend on that, so each
 * distinct condition is compiled once per process here and its plan reused: a fleet of
 * deployments evaluates the same handful of shipped rules over and over.
 */

/** How one rule fared against one spec. */
export type RuleOutcome =
  /** Evaluated to `true`: the rule's priority counts. */
  | 'matched'
  /** Evaluated to `false`. */
  | 'false'
  /**
   * Did not parse, references a name other than `spec`, or applies an operator to operands whose
   * types are known up front and do not fit it (`1 == 1.0`), as cel-go's checker would reject.
   */
  | 'compile-error'
  /** Evaluation failed (e.g. `has()` on a missing parent, a missing key, no such overload). */
  | 'runtime-error'
  /** Evaluated to something other than a boolean. */
  | 'non-bool';

export interface RuleEvaluation {
  readonly outcome: RuleOutcome;
  /** True only for `matched`. */
  readonly matched: boolean;
  /** For every outcome but `matched`/`false`: what went wrong, for `explain`. */
  readonly message?: string;
}

type Program = (bindings: { spec: CelSpecMap }) => unknown;

/** A condition after compilation: a reusable program, or why there is none. */
export interface CompiledRule {
  readonly condition: string;
  readonly program?: Program;
  readonly compileError?: string;
}

/**
 * @bufbuild/cel, loaded when the first rule is compiled: a deployment that names its provider
 * evaluates no rule, and loading the library took about 110 ms of each CLI start.
 */
let celLib: typeof CelLib | undefined;
let celEnvironment: CelLib.CelEnv | undefined;

function cel(): typeof CelLib {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  celLib ??= require('@bufbuild/cel') as typeof CelLib;
  return celLib;
}

function env(): CelLib.CelEnv {
  celEnvironment ??= cel().celEnv({ variables: { spec: cel().CelScalar.DYN } });
  return celEnvironment;
}

/**
 * Identifiers a rule may use besides `spec` and comprehension variables: the standard type
 * names, which are values in CEL (`type(x) == string`).
 */
const BUILTIN_IDENTIFIERS = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type']);

/** Plans by condition text; bounded so that a generator of unique rules cannot grow it forever. */
const cache = new Map<string, CompiledRule>();
const CACHE_LIMIT = 10_000;

/** Compiles (or fetches the cached compilation of) a selection rule condition. */
export function compileRule(condition: string): CompiledRule {
  let compiled = cache.get(condition);
  if (compiled === undefined) {
    compiled = compileUncached(condition);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(condition, compiled);
  }
  return compiled;
}

/** Evaluates a selection rule condition against a CEL spec map (see `celSpecMap`). */
export function evaluateRule(condition: string, spec: CelSpecMap): RuleEvaluation {
  const compiled = compileRule(condition);
  if (!compiled.program) return { outcome: 'compile-error', matched: false, message: compiled.compileError };
  let result: unknown;
  try {
    result = compiled.program({ spec });
  } catch (e) {
    return { outcome: 'runtime-error', matched: false, message: errorMessage(e) };
  }
  if (cel().isCelError(result)) return { outcome: 'runtime-error', matched: false, message: result.message };
  if (typeof result !== 'boolean') {
    return { outcome: 'non-bool', matched: false, message: `did not return bool, got ${celTypeName(result)}` };
  }
  return result ? { outcome: 'matched', matched: true } : { outcome: 'false', matched: false };
}

function compileUncached(condition: string): CompiledRule {
  let parsed: ReturnType<typeof CelLib.parse>;
  try {
    parsed = cel().parse(condition);
  } catch (e) {
    return { condition, compileError: errorMessage(e) };
  }
  // cel-go type-checks at compile time; this evaluator has no checker. Unknown names would still
  // fail at run time (same outcome, vaguer message); operator misuse on literals would not.
  const undeclared = firstUndeclaredIdentifier(parsed.expr, new Set(['spec']));
  if (undeclared !== undefined) return { condition, compileError: `undeclared reference to '${undeclared}'` };
  const typeError = staticTypeCheck(parsed.expr).error;
  if (typeError !== undefined) return { condition, compileError: typeError };
  try {
    const program = cel().plan(env(), parsed) as unknown as Program;
    return { condition, program };
  } catch (e) {
    return { condition, compileError: errorMessage(e) };
  }
}

type Expr = ReturnType<typeof CelLib.parse>['expr'];

/** The first identifier that is neither `spec`, a type name, nor a comprehension variable. */
function firstUndeclaredIdentifier(expr: Expr | undefined, scope: ReadonlySet<string>): string | undefined {
  if (!expr) return undefined;
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'identExpr':
      return scope.has(kind.value.name) || BUILTIN_IDENTIFIERS.has(kind.value.name) ? undefined : kind.value.name;
    case 'selectExpr':
      return firstUndeclaredIdentifier(kind.value.operand, scope);
    case 'callExpr': {
      const inTarget = firstUndeclaredIdentifier(kind.value.target, scope);
      if (inTarget !== undefined) return inTarget;
      for (const arg of kind.value.args) {
        const found = firstUndeclaredIdentifier(arg, scope);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    case 'listExpr':
      for (const element of kind.value.elements) {
        const found = firstUndeclaredIdentifier(element, scope);
        if (found !== undefined) return found;
      }
      return undefined;
    case 'structExpr':
      for (const entry of kind.value.entries) {
        const key = entry.keyKind.case === 'mapKey' ? firstUndeclaredIdentifier(entry.keyKind.value, scope) : undefined;
        const found = key ?? firstUndeclaredIdentifier(entry.value, scope);
        if (found !== undefined) return found;
      }
      return undefined;
    case 'comprehensionExpr': {
      const c = kind.value;
      const outer = firstUndeclaredIdentifier(c.iterRange, scope) ?? firstUndeclaredIdentifier(c.accuInit, scope);
      if (outer !== undefined) return outer;
      const inner = new Set(scope);
      for (const v of [c.iterVar, c.iterVar2, c.accuVar]) if (v) inner.add(v);
      return firstUndeclaredIdentifier(c.loopCondition, inner)
        ?? firstUndeclaredIdentifier(c.loopStep, inner)
        ?? firstUndeclaredIdentifier(c.result, inner);
    }
    default:
      return undefined;
  }
}

/** Types the checker can know without input; everything from `spec` is `dyn` (undefined). */
type StaticType = 'int' | 'uint' | 'double' | 'string' | 'bool' | 'bytes';

const NUMERIC: ReadonlySet<StaticType> = new Set(['int', 'uint', 'double']);
const ORDERED: ReadonlySet<StaticType> = new Set(['int', 'uint', 'double', 'string', 'bool', 'bytes']);
/** Operand types each binary operator accepts when both sides have the same static type. */
const BINARY_OPERANDS: Readonly<Record<string, ReadonlySet<StaticType>>> = {
  '_==_': ORDERED,
  '_!=_': ORDERED,
  '_<_': ORDERED,
  '_<=_': ORDERED,
  '_>_': ORDERED,
  '_>=_': ORDERED,
  '_+_': new Set(['int', 'uint', 'double', 'string', 'bytes']),
  '_-_': NUMERIC,
  '_*_': NUMERIC,
  '_/_': NUMERIC,
  '_%_': new Set(['int', 'uint']),
};
const COMPARISONS = new Set(['_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_']);
const CONVERSIONS: Readonly<Record<string, StaticType>> = { int: 'int', uint: 'uint', double: 'double', string: 'string', bool: 'bool', bytes: 'bytes' };
const BOOLEAN_FUNCTIONS = new Set(['@in', 'startsWith', 'endsWith', 'contains', 'matches']);

/**
 * A small part of cel-go's type checker: operators applied to operands whose types are known
 * without input (literals, `size()`, conversions, arithmetic on those) and have no overload for
 * them — `1 == 1.0`, `size(x) > 0u`, `1 + 'a'` — are compile errors in AI Runway, while this
 * evaluator would compare them at run time (cel-go's cross-type numeric comparison is off by
 * default; it applies only to `dyn` values, such as everything read from `spec`).
 */
function staticTypeCheck(
  expr: Expr | undefined,
  vars: ReadonlyMap<string, StaticType | undefined> = new Map(),
): { type?: StaticType; error?: string } {
  if (!expr) return {};
  const check = (e: Expr | undefined) => staticTypeCheck(e, vars);
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'identExpr':
      return { type: vars.get(kind.value.name) };
    case 'constExpr':
      switch (kind.value.constantKind.case) {
        case 'int64Value': return { type: 'int' };
        case 'uint64Value': return { type: 'uint' };
        case 'doubleValue': return { type: 'double' };
        case 'stringValue': return { type: 'string' };
        case 'boolValue': return { type: 'bool' };
        case 'bytesValue': return { type: 'bytes' };
        default: return {};
      }
    case 'selectExpr':
      return { error: check(kind.value.operand).error };
    case 'listExpr':
      for (const element of kind.value.elements) {
        const error = check(element).error;
        if (error !== undefined) return { error };
      }
      return {};
    case 'structExpr':
      for (const entry of kind.value.entries) {
        const error = (entry.keyKind.case === 'mapKey' ? check(entry.keyKind.value).error : undefined) ?? check(entry.value).error;
        if (error !== undefined) return { error };
      }
      return {};
    case 'comprehensionExpr': {
      const c = kind.value;
      const range = check(c.iterRange);
      const init = check(c.accuInit);
      if (range.error !== undefined) return range;
      if (init.error !== undefined) return init;
      // Over a list literal whose elements share a static type, the loop variable has that type.
      const inner = new Map(vars);
      inner.set(c.iterVar, listElementType(c.iterRange, vars));
      if (c.iterVar2) inner.set(c.iterVar2, undefined);
      inner.set(c.accuVar, init.type);
      for (const part of [c.loopCondition, c.loopStep, c.result]) {
        const error = staticTypeCheck(part, inner).error;
        if (error !== undefined) return { error };
      }
      return {};
    }
    case 'callExpr': {
      const call = kind.value;
      const operands = [...(call.target ? [call.target] : []), ...call.args].map(check);
      const nested = operands.find((o) => o.error !== undefined);
      if (nested) return nested;
      const types = operands.map((o) => o.type);
      const fn = call.function;
      const noOverload = (): { error: string } => ({
        error: `found no matching overload for '${fn}' applied to '(${types.map((t) => t ?? 'dyn').join(', ')})'`,
      });
      const allowed = BINARY_OPERANDS[fn];
      if (allowed && types.length === 2) {
        const [left, right] = types;
        if (left !== undefined && right !== undefined && (left !== right || !allowed.has(left))) return noOverload();
        if (COMPARISONS.has(fn)) return { type: 'bool' };
        return left !== undefined && left === right ? { type: left } : {};
      }
      if (fn === '!_' || fn === '_&&_' || fn === '_||_') {
        if (types.some((t) => t !== undefined && t !== 'bool')) return noOverload();
        return { type: 'bool' };
      }
      if (fn === '-_' && types.length === 1) {
        if (types[0] !== undefined && types[0] !== 'int' && types[0] !== 'double') return noOverload();
        return { type: types[0] };
      }
      if (fn === '_?_:_' && types.length === 3) {
        if (types[0] !== undefined && types[0] !== 'bool') return noOverload();
        if (types[1] !== undefined && types[2] !== undefined && types[1] !== types[2]) return noOverload();
        return types[1] !== undefined && types[1] === types[2] ? { type: types[1] } : {};
      }
      if (fn === 'size') return { type: 'int' };
      if (fn in CONVERSIONS && !call.target && call.args.length === 1) return { type: CONVERSIONS[fn] };
      if (BOOLEAN_FUNCTIONS.has(fn)) return { type: 'bool' };
      return {};
    }
    default:
      return {};
  }
}

/** The common static type of a list literal's elements, if any. */
function listElementType(expr: Expr | undefined, vars: ReadonlyMap<string, StaticType | undefined>): StaticType | undefined {
  if (expr?.exprKind.case !== 'listExpr' || expr.exprKind.value.elements.length === 0) return undefined;
  const types = expr.exprKind.value.elements.map((e) => staticTypeCheck(e, vars).type);
  return types.every((t) => t !== undefined && t === types[0]) ? types[0] : undefined;
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** CEL type names of evaluation results, for messages. */
function celTypeName(value: unknown): string {
  switch (typeof value) {
    case 'bigint': return 'int';
    case 'number': return 'double';
    case 'string': return 'string';
    default:
      if (value === null) return 'null_type';
      if (value instanceof Uint8Array) return 'bytes';
      if (cel().isCelUint(value)) return 'uint';
      if (cel().isCelList(value)) return 'list';
      if (cel().isCelMap(value)) return 'map';
      if (cel().isCelType(value)) return 'type';
      return typeof value;
  }
}
