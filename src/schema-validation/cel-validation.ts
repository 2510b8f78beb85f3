/**
 * CEL validation rules (`x-kubernetes-validations`) of upstream CRDs, evaluated with @bufbuild/cel
 * as the API server does on create (see `checkCelRules` for how values are bound and the known
 * differences), and coverage statistics: which rules are evaluated, which are transition rules,
 * which use what @bufbuild/cel lacks (never evaluated, never failed), and which evaluations could
 * not decide.
 */
import type { CelRule, CelSchema } from './cel-schema';
import { upstreamCelSchema } from './upstream-schemas';
import { CelExpr, childrenOf } from '../cel/ast';
import { CelCheckEnvironment, checkCel, CelProblem } from '../cel/checker';
import { celModules } from '../cel/kubernetes-libraries';
import { CEL_GO_LENGTH, parseCel } from '../cel/parse';
import { CelProgram as Program, planCel } from '../cel/plan';
import { DYN } from '../cel/types';
import { joinPath, Report } from '../core/field-path';

type Json = any;

/** How a rule is handled when an object is created. */
export type CelRuleStatus =
  /** Evaluated with @bufbuild/cel. */
  | 'evaluated'
  /** Uses `oldSelf` (without `optionalOldSelf`): the API server runs it on update only. */
  | 'transition'
  /** Uses something @bufbuild/cel cannot evaluate as Kubernetes does: never evaluated, never fails. */
  | 'unsupported';

/** One rule of one kind: where it is declared and how it is handled. */
export interface CelRuleInfo {
  readonly apiVersion: string;
  readonly kind: string;
  /** Schema path of the node that declares the rule; `[*]` stands for list items and map values. */
  readonly path: string;
  readonly rule: string;
  readonly status: CelRuleStatus;
  /** What an unsupported rule uses that cannot be evaluated. */
  readonly reason?: string;
}

/** How many of one kind's rules are evaluated. */
export interface CelKindCoverage {
  readonly apiVersion: string;
  readonly kind: string;
  readonly rules: number;
  readonly evaluated: number;
  readonly transition: number;
  readonly unsupported: number;
}

/** A rule evaluation that could not decide (never reported as a violation), counted by cause. */
export interface CelUndecided {
  readonly apiVersion: string;
  readonly kind: string;
  readonly path: string;
  readonly rule: string;
  readonly reason: string;
  readonly count: number;
}

/** What the CEL check did in this process (in jest: in this test file). */
export interface CelRuleStats {
  /** Every kind with rules that was validated, or passed to `celRuleCoverage`. */
  kinds: CelKindCoverage[];
  /** The unsupported rules of those kinds, with the reason. */
  unsupported: CelRuleInfo[];
  /** Distinct rule and messageExpression texts compiled (each once), and the time that took. */
  compiled: number;
  compileMs: number;
  /** Rule evaluations, and the milliseconds spent converting values and evaluating rules. */
  evaluations: number;
  evalMs: number;
  /** Evaluations that ended in an error Kubernetes would not raise (see `UNDECIDED_ERROR`). */
  undecided: CelUndecided[];
}

type CelProgram = Program<{ self: unknown }>;

interface CompiledCel {
  readonly status: CelRuleStatus;
  readonly program?: CelProgram;
  readonly reason?: string;
}

/** A kind's rules and the schema path of the node declaring each; compiled on first use. */
interface CelKind {
  readonly apiVersion: string;
  readonly kind: string;
  readonly paths: Map<CelRule, string>;
}

/**
 * What a rule may refer to: `self` and `oldSelf`, both dyn (the values' types are the schema's,
 * which the evaluation follows), and the Kubernetes library of src/cel/overloads.ts — the
 * standard library, the strings extension (Kubernetes enables strings v2) and Kubernetes'
 * quantity and semver libraries. The other Kubernetes libraries — lists, regex find, URLs, IPs,
 * CIDRs, format, optionals — have no counterpart here, and rules that call them are unsupported.
 * The API server parses rules with cel-go's default limits; `cel.bind` is not expanded (rules
 * that use it are unsupported, as before the checker was shared).
 */
const CRD_RULES: CelCheckEnvironment = { subject: 'CRD rules', variables: new Map([['self', DYN], ['oldSelf', DYN]]), library: 'kubernetes' };
/**
 * Run-time errors that mean "this evaluator does not know how", not "the value is wrong": a
 * function missing for the operand types (e.g. the Kubernetes lists extension's `indexOf` on a
 * list, which shares its name with the strings one). The API server type-checks rules when the
 * CRD is created, so it never reports these for a CRD it accepted.
 */
const UNDECIDED_ERROR = /^(unbound function|found no matching overload)/;
/** CEL reserved words: Kubernetes exposes such property names as `__name__`. */
const CEL_RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);
const CEL_REASONS: Record<string, string> = {
  FieldValueRequired: 'Required value',
  FieldValueForbidden: 'Forbidden',
  FieldValueDuplicate: 'Duplicate value',
};
/** Marks a value that does not fit its schema (Ajv reports it); rules that see it are not run. */
const CEL_INVALID = Symbol('invalid');
/** Marks a value this evaluator cannot represent (an unparsable format); rules that see it are undecided. */
const CEL_OPAQUE = Symbol('opaque');

const compiledCel = new Map<string, CompiledCel>();
const celKinds = new WeakMap<CelSchema, CelKind>();
const celKindsByGvk = new Map<string, CelKind>();
const celUndecided = new Map<string, CelUndecided>();
const celCounters = { compileMs: 0, evaluations: 0, evalMs: 0 };
let celFormatPrograms: { duration: CelProgram; timestamp: CelProgram } | undefined;

/** Counters of the CEL check in this process. */
export function celRuleStats(): CelRuleStats {
  const kinds = [...celKindsByGvk.values()].map(celKindReport);
  return {
    kinds: kinds.map((k) => k.coverage),
    unsupported: kinds.flatMap((k) => k.rules.filter((i) => i.status === 'unsupported')),
    compiled: compiledCel.size,
    compileMs: celCounters.compileMs,
    evaluations: celCounters.evaluations,
    evalMs: celCounters.evalMs,
    undecided: [...celUndecided.values()].map((u) => ({ ...u })),
  };
}

/**
 * Compile every rule of apiVersion+kind and say how each is handled; undefined when the kind has
 * no rules (or no upstream schema).
 */
export function celRuleCoverage(apiVersion: string, kind: string): { coverage: CelKindCoverage; rules: CelRuleInfo[] } | undefined {
  const schema = upstreamCelSchema(apiVersion, kind);
  if (!schema) {
    return undefined;
  }
  return celKindReport(celKindOf(apiVersion, kind, schema));
}

/** Compile every rule of a kind (cached) and say how each is handled. */
function celKindReport(k: CelKind): { coverage: CelKindCoverage; rules: CelRuleInfo[] } {
  const rules: CelRuleInfo[] = [...k.paths].map(([rule, path]) => {
    const compiled = compileCel(rule.rule, rule.optionalOldSelf === true);
    const info: CelRuleInfo = { apiVersion: k.apiVersion, kind: k.kind, path, rule: rule.rule, status: compiled.status };
    return compiled.reason ? { ...info, reason: compiled.reason } : info;
  });
  const count = (s: CelRuleStatus) => rules.filter((i) => i.status === s).length;
  return {
    coverage: { apiVersion: k.apiVersion, kind: k.kind, rules: rules.length, evaluated: count('evaluated'), transition: count('transition'), unsupported: count('unsupported') },
    rules,
  };
}

/**
 * Evaluate the kind's CEL rules the way the API server does on create (apiextensions-apiserver
 * and apiserver/pkg/cel/common `UnstructuredToVal`): on the object after structural defaulting
 * (a non-nullable null is pruned, then defaulted; a nullable null is kept and reads as absent),
 * each rule at the node that declares it with `self` bound to the value there (only where a value
 * is present); integers as CEL ints, numbers as doubles (also when integral), int-or-string as
 * either, strings of format byte/duration/date/date-time as bytes/durations/timestamps; declared
 * property names escaped (`namespace` -> `__namespace__`) and undeclared ones invisible, map keys
 * as they are; at the root and in embedded resources apiVersion, kind and metadata.name and
 * metadata.generateName only. Values that do not fit the schema (Ajv reports them) skip the rules
 * that see them.
 *
 * Known differences: lists of x-kubernetes-list-type set/map compare as ordered lists in `==`;
 * `size()` of an object counts its declared fields (Kubernetes counts every field present); the
 * API server's cost limits are not applied; messages of run-time errors are @bufbuild/cel's
 * (`field not found: x` where Kubernetes says `no such key: x`).
 */
export function checkCelRules(obj: Json, apiVersion: string, kind: string, report: Report): void {
  const schema = upstreamCelSchema(apiVersion, kind);
  if (!schema) {
    return;
  }
  const k = celKindOf(apiVersion, kind, schema);
  const started = performance.now();
  celVisit(schema, obj, '', false, { kind: k, report }, true);
  celCounters.evalMs += performance.now() - started;
}

function celKindOf(apiVersion: string, kind: string, schema: CelSchema): CelKind {
  let k = celKinds.get(schema);
  if (k) {
    return k;
  }
  const paths = new Map<CelRule, string>();
  const walk = (node: CelSchema, at: string) => {
    for (const rule of node['x-kubernetes-validations'] ?? []) {
      paths.set(rule, at || '(root)');
    }
    for (const [name, sub] of Object.entries(node.properties ?? {})) {
      walk(sub, joinPath(at, name, false));
    }
    if (node.items) {
      walk(node.items, `${at}[*]`);
    }
    if (node.additionalProperties) {
      walk(node.additionalProperties, `${at}[*]`);
    }
  };
  walk(schema, '');
  k = { apiVersion, kind, paths };
  celKinds.set(schema, k);
  celKindsByGvk.set(`${apiVersion} ${kind}`, k);
  return k;
}

// --- Compiling ---------------------------------------------------------------------------------

/** Compile (once per process) a rule or message expression. */
function compileCel(expression: string, optionalOldSelf: boolean): CompiledCel {
  const key = `${optionalOldSelf ? '?' : '-'}${expression}`;
  let compiled = compiledCel.get(key);
  if (!compiled) {
    const started = performance.now();
    compiled = compileCelUncached(expression, optionalOldSelf);
    celCounters.compileMs += performance.now() - started;
    compiledCel.set(key, compiled);
  }
  return compiled;
}

function compileCelUncached(expression: string, optionalOldSelf: boolean): CompiledCel {
  const { parsed, error } = parseCel(expression, { length: CEL_GO_LENGTH, bind: false });
  if (!parsed) {
    return { status: 'unsupported', reason: `@bufbuild/cel cannot parse it (${error.message})` };
  }
  if (optionalOldSelf) {
    withoutOldSelf(parsed.expr);
  }
  const check = checkCel(parsed, CRD_RULES);
  const oldSelf = check.referenced.has('oldSelf');
  if (oldSelf && !optionalOldSelf) {
    return { status: 'transition' };
  }
  const unsupported = new Set(check.problems.map(unsupportedReason));
  if (oldSelf) {
    // optionalOldSelf: at create oldSelf is optional.none(); only hasValue()/orValue() are rewritten.
    unsupported.add('oldSelf as an optional value');
  }
  if (unsupported.size > 0) {
    return { status: 'unsupported', reason: [...unsupported].join(', ') };
  }
  try {
    return { status: 'evaluated', program: planCel(parsed.expr) };
  } catch (e) {
    return { status: 'unsupported', reason: `@bufbuild/cel cannot plan it (${errorText(e)})` };
  }
}

/**
 * Why a rule the checker refuses cannot be evaluated: the name for an undeclared identifier
 * (`identifier x`) or an unknown function (`isURL()`, `.value()`), else the checker's message.
 * The API server, checking against the schema's types and all of Kubernetes' libraries, may
 * accept what is refused here (`self.indexOf(1)` on a list); such a rule is never evaluated and
 * never fails.
 */
function unsupportedReason(problem: CelProblem): string {
  switch (problem.kind) {
    case 'undeclared':
      return `identifier ${problem.name}`;
    case 'unknown-function':
      return `${problem.method ? '.' : ''}${problem.name}()`;
    default:
      return problem.error.message;
  }
}

/**
 * For a rule with `optionalOldSelf`, which the API server also runs on create with oldSelf =
 * optional.none(): `oldSelf.hasValue()` becomes `false` and `oldSelf.orValue(v)` becomes `v`, in
 * place (not where a comprehension variable named oldSelf hides it).
 */
function withoutOldSelf(expr: CelExpr): void {
  const kind = expr.exprKind;
  if (kind.case === 'callExpr') {
    const call = kind.value;
    const onOldSelf = call.target?.exprKind.case === 'identExpr' && call.target.exprKind.value.name === 'oldSelf';
    if (onOldSelf && call.function === 'hasValue' && call.args.length === 0) {
      expr.exprKind = { case: 'constExpr', value: { $typeName: 'cel.expr.Constant', constantKind: { case: 'boolValue', value: false } } } as CelExpr['exprKind'];
      return;
    }
    if (onOldSelf && call.function === 'orValue' && call.args.length === 1) {
      expr.exprKind = call.args[0].exprKind;
      withoutOldSelf(expr);
      return;
    }
  }
  if (kind.case === 'comprehensionExpr' && (kind.value.iterVar === 'oldSelf' || kind.value.accuVar === 'oldSelf')) {
    [kind.value.iterRange, kind.value.accuInit].forEach((e) => e && withoutOldSelf(e));
    return;
  }
  childrenOf(expr).forEach(withoutOldSelf);
}

// --- Evaluating ----------------------------------------------------------------------------------

interface CelWalk {
  readonly kind: CelKind;
  readonly report: Report;
}

/**
 * Evaluate the rules at and below `node` and return the node's CEL value when `want` (an
 * ancestor's rule sees it) or the node has rules itself; below such nodes the schema was not
 * pruned, elsewhere only the paths to rules remain.
 */
function celVisit(node: CelSchema, value: Json, at: string, want: boolean, w: CelWalk, resource: boolean): unknown {
  const rules = node['x-kubernetes-validations'];
  const need = want || rules !== undefined;
  const self = celValue(node, value, at, need, w, resource || node['x-kubernetes-embedded-resource'] === true);
  if (rules) {
    evaluateCelRules(rules, self, at, w);
  }
  return need ? self : undefined;
}

function celValue(node: CelSchema, value: Json, at: string, need: boolean, w: CelWalk, resource: boolean): unknown {
  if (value === null) {
    return node.nullable ? null : CEL_INVALID;
  }
  if (node['x-kubernetes-int-or-string']) {
    if (typeof value === 'string') {
      return value;
    }
    return Number.isInteger(value) ? BigInt(value) : CEL_INVALID;
  }
  const type = node.type ?? (node.properties || node.additionalProperties || resource ? 'object' : node.items ? 'array' : undefined);
  switch (type) {
    case 'object':
      return value && typeof value === 'object' && !Array.isArray(value) ? celObject(node, value, at, need, w, resource) : CEL_INVALID;
    case 'array': {
      if (!Array.isArray(value)) {
        return CEL_INVALID;
      }
      const items = node.items;
      if (!need) {
        value.forEach((item, i) => items && celVisit(items, item, joinPath(at, String(i), true), false, w, false));
        return undefined;
      }
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        const v = items ? celVisit(items, value[i], joinPath(at, String(i), true), true, w, false) : celUntyped(value[i]);
        if (v === CEL_INVALID || v === CEL_OPAQUE) {
          return v;
        }
        out.push(v);
      }
      return out;
    }
    case 'string':
      return typeof value === 'string' ? celString(node.format, value) : CEL_INVALID;
    case 'integer':
      return Number.isInteger(value) ? BigInt(value) : CEL_INVALID;
    case 'number':
      return typeof value === 'number' ? value : CEL_INVALID;
    case 'boolean':
      return typeof value === 'boolean' ? value : CEL_INVALID;
    default:
      return need ? celUntyped(value) : undefined;
  }
}

function celObject(node: CelSchema, value: Json, at: string, need: boolean, w: CelWalk, resource: boolean): unknown {
  const out = need ? new Map<string, unknown>() : undefined;
  let bad: symbol | undefined;
  const put = (key: string | undefined, v: unknown) => {
    if (v === CEL_INVALID || v === CEL_OPAQUE) {
      bad = bad === CEL_INVALID ? bad : v;
    } else if (out && key !== undefined) {
      out.set(key, v);
    }
  };
  if (node.properties) {
    for (const [name, sub] of Object.entries(node.properties)) {
      if (resource && (name === 'apiVersion' || name === 'kind' || name === 'metadata')) {
        continue;
      }
      let child = value[name];
      if (child === null) {
        if (sub.nullable) {
          continue; // Kept as null, not defaulted; CEL treats a null property as absent.
        }
        child = undefined; // The API server prunes it, then defaults.
      }
      if (child === undefined) {
        child = sub.default;
      }
      if (child !== undefined) {
        put(escapeCelName(name), celVisit(sub, child, joinPath(at, name, false), need, w, false));
      }
    }
  } else if (node.additionalProperties) {
    for (const [key, child] of Object.entries(value)) {
      put(key, celVisit(node.additionalProperties, child, joinPath(at, key, false), need, w, false));
    }
  }
  // An object with x-kubernetes-preserve-unknown-fields and no properties is an empty object to CEL.
  if (out && resource) {
    for (const field of ['apiVersion', 'kind']) {
      if (typeof value[field] === 'string') {
        out.set(field, value[field]);
      }
    }
    const metadata = value.metadata;
    if (metadata && typeof metadata === 'object') {
      out.set('metadata', new Map(['name', 'generateName'].filter((f) => typeof metadata[f] === 'string').map((f) => [f, metadata[f]])));
    }
  }
  return bad ?? out;
}

function celString(format: string | undefined, value: string): unknown {
  switch (format) {
    case 'byte':
      return new Uint8Array(Buffer.from(value, 'base64'));
    case 'duration':
      return celFormatted('duration', value);
    case 'date-time':
      return celFormatted('timestamp', value);
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) ? celFormatted('timestamp', `${value}T00:00:00Z`) : CEL_OPAQUE;
    default:
      return value;
  }
}

/**
 * A duration or timestamp parsed by @bufbuild/cel's own conversion functions. Kubernetes parses
 * these formats with go-openapi's strfmt, which accepts more spellings ("1 day"): anything
 * @bufbuild/cel does not parse is opaque, and rules that see it are undecided.
 */
function celFormatted(fn: 'duration' | 'timestamp', value: string): unknown {
  const conversion = (expression: string): CelProgram => planCel(parseCel(expression, { length: CEL_GO_LENGTH, bind: false }).parsed!.expr);
  celFormatPrograms ??= { duration: conversion('duration(self)'), timestamp: conversion('timestamp(self)') };
  const result = celFormatPrograms[fn]({ self: value });
  return celModules().cel.isCelError(result) ? CEL_OPAQUE : result;
}

/**
 * Values without a type (x-kubernetes-preserve-unknown-fields without type, which Kubernetes
 * exposes for equality only): integral numbers are ints, as Kubernetes decodes JSON.
 */
function celUntyped(value: Json): unknown {
  if (Array.isArray(value)) {
    return value.map(celUntyped);
  }
  if (value && typeof value === 'object') {
    return new Map(Object.entries(value).map(([k, v]) => [k, celUntyped(v)]));
  }
  return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
}

/** Kubernetes' escaping of property names in CEL (apiserver/pkg/cel/escaping.go); undefined when not accessible. */
function escapeCelName(name: string): string | undefined {
  if (name === '' || /^[0-9]/.test(name)) {
    return undefined;
  }
  if (CEL_RESERVED.has(name)) {
    return `__${name}__`;
  }
  let ok = true;
  const escaped = name.replace(/__|[-./]|[^a-zA-Z0-9\-./_]/g, (m) => {
    switch (m) {
      case '__': return '__underscores__';
      case '.': return '__dot__';
      case '-': return '__dash__';
      case '/': return '__slash__';
      default:
        ok = false;
        return '';
    }
  });
  return ok ? escaped : undefined;
}

function evaluateCelRules(rules: CelRule[], self: unknown, at: string, w: CelWalk): void {
  for (const rule of rules) {
    const compiled = compileCel(rule.rule, rule.optionalOldSelf === true);
    if (compiled.status !== 'evaluated' || self === CEL_INVALID) {
      continue;
    }
    if (self === CEL_OPAQUE) {
      celUndecidedAt(w, rule, 'it sees a duration or date that @bufbuild/cel cannot parse');
      continue;
    }
    celCounters.evaluations++;
    let result: unknown;
    try {
      result = compiled.program!({ self });
    } catch (e) {
      celUndecidedAt(w, rule, `@bufbuild/cel threw: ${errorText(e)}`);
      continue;
    }
    if (result === true) {
      continue;
    }
    if (result === false) {
      const reason = rule.reason ? CEL_REASONS[rule.reason] : undefined;
      const message = celFailureMessage(rule, self);
      w.report(celFieldPath(at, rule.fieldPath), reason ? `${reason}: ${message}` : message);
    } else if (celModules().cel.isCelError(result)) {
      if (UNDECIDED_ERROR.test(result.message)) {
        celUndecidedAt(w, rule, result.message);
      } else {
        // A run-time error (a missing key, an index out of range ...) rejects the object.
        w.report(at, `${result.message} evaluating rule: ${rule.message?.trim() || rule.rule.trim()}`);
      }
    } else {
      celUndecidedAt(w, rule, `the rule returned ${typeof result}, not a boolean`);
    }
  }
}

/** messageExpression (when it evaluates to a non-blank single-line string), else message, else the rule. */
function celFailureMessage(rule: CelRule, self: unknown): string {
  if (rule.messageExpression) {
    const compiled = compileCel(rule.messageExpression, rule.optionalOldSelf === true);
    try {
      const text = compiled.program?.({ self });
      if (typeof text === 'string' && text.trim() !== '' && !text.includes('\n')) {
        return text;
      }
    } catch {
      // Fall back as the API server does when a message expression fails.
    }
  }
  return rule.message?.trim() ? rule.message.trim() : `failed rule: ${rule.rule.trim()}`;
}

/** The node path extended by a rule's `fieldPath` (`.a.b`, `['c.d']`, `[0]`). */
function celFieldPath(at: string, fieldPath: string | undefined): string {
  if (!fieldPath) {
    return at;
  }
  const segment = /\.([^.[\]]+)|\[\s*'((?:[^'\\]|\\.)*)'\s*\]|\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\[(\d+)\]/y;
  let out = at;
  let i = 0;
  while (i < fieldPath.length) {
    segment.lastIndex = i;
    const m = segment.exec(fieldPath);
    if (!m) {
      return `${at}${fieldPath.startsWith('.') || fieldPath.startsWith('[') || !at ? '' : '.'}${fieldPath}`;
    }
    out = m[4] !== undefined ? joinPath(out, m[4], true) : joinPath(out, m[1] ?? m[2] ?? m[3], false);
    i = segment.lastIndex;
  }
  return out;
}

function celUndecidedAt(w: CelWalk, rule: CelRule, reason: string): void {
  const { apiVersion, kind } = w.kind;
  const path = w.kind.paths.get(rule) ?? '';
  const key = `${apiVersion} ${kind}\u0000${path}\u0000${rule.rule}\u0000${reason}`;
  const known = celUndecided.get(key);
  celUndecided.set(key, { apiVersion, kind, path, rule: rule.rule, reason, count: (known?.count ?? 0) + 1 });
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
