/**
 * The environment checked device selectors are evaluated in, and the program a checked selector
 * becomes: @bufbuild/cel's standard library, the strings extension and Kubernetes' quantity and
 * semver libraries, plus what the device model needs:
 *
 * a domain of `device.attributes` or `device.capacity` that the device lacks reads as an empty
 * map, as Kubernetes documents (`"x" in device.attributes` and `has(...)` still see it absent):
 * the lookups the checker found are rewritten into calls of `@dra_domain`. The program is then
 * planned as every CEL expression is (src/cel/plan.ts).
 *
 * Kubernetes bounds a selector's cost; this evaluator bounds it too, so that no selector hangs
 * the build or exhausts its memory: at most 100,000 comprehension steps, at most 1,000,000 cost
 * units (every function call costs 1 plus the size of its arguments — characters, bytes, list
 * and map entries, counted deeply — and `replace` the work its repeated rewriting takes), and no
 * string, bytes or list longer than 65,536 built by `+`, `replace`, `join` or `format` (a
 * device's strings are at most 64 characters, a selector at most 10 KiB).
 */
import type * as CelLib from '@bufbuild/cel';
import { CelExpr, childrenOf } from './ast';
import type { CheckedSelector } from './device-selector';
import { celModules, kubernetesCelLibraries } from './kubernetes-libraries';
import { CelProgram, planCel } from './plan';
import { QUANTITY_TYPE_NAME } from './quantity';
import { SEMVER_TYPE_NAME } from './semver';

/** Comprehension steps one evaluation may take. */
export const SELECTOR_MAX_STEPS = 100_000;
/** Cost units one evaluation may spend. */
export const SELECTOR_MAX_COST = 1_000_000;
/** The longest string, bytes or list an evaluation may build. */
export const SELECTOR_MAX_VALUE_SIZE = 65_536;

/** A planned selector: evaluates with `device` bound. */
export type SelectorProgram = CelProgram<{ device: unknown }>;

/** The environment and what building device values needs. */
export interface SelectorRuntime {
  readonly env: CelLib.CelEnv;
  /** A `kubernetes.Quantity` message holding the text. */
  quantity(text: string): unknown;
  /** A `kubernetes.Semver` message holding the text. */
  semver(text: string): unknown;
  /** Runs a program within the budgets; throws when it exceeds one. */
  run(program: SelectorProgram, device: unknown): unknown;
}

let runtime: SelectorRuntime | undefined;
const spent = { steps: 0, cost: 0 };

/** The runtime, built on first use. */
export function selectorRuntime(): SelectorRuntime {
  if (runtime) {
    return runtime;
  }
  const modules = celModules();
  const { cel, ext, protobuf } = modules;
  const kubernetes = kubernetesCelLibraries(modules);
  const { STRING, BYTES, DYN } = cel.CelScalar;
  const LIST = cel.listType(DYN);

  // Functions that can grow a value refuse to build one beyond the limit, before building it.
  const growing: CelLib.CelFunc[] = [
    cel.celFunc('_+_', [STRING, STRING], STRING, (a, b) => within(a.length + b.length, 'a string') && a + b),
    cel.celFunc('_+_', [BYTES, BYTES], BYTES, (a, b) => {
      within(a.length + b.length, 'a bytes value');
      const out = new Uint8Array(a.length + b.length);
      out.set(a, 0);
      out.set(b, a.length);
      return out;
    }),
    cel.celFunc('_+_', [LIST, LIST], LIST, (a, b) => within(a.size + b.size, 'a list') && cel.celListConcat(a, b)),
  ];
  const strings = ext.strings.map((f) => {
    switch (f.name) {
      case 'replace':
        return guarded(f, (s, [from, to, n]) => {
          const count = occurrences(s as string, from as string, n === undefined ? -1 : Number(n));
          charge(count * (s as string).length);
          return (s as string).length + count * ((to as string).length - (from as string).length);
        });
      case 'join':
        return guarded(f, (list, [sep]) => joinedLength(list as CelLib.CelList, sep === undefined ? 0 : (sep as string).length));
      case 'format':
        return guarded(f, (format, [args]) => (format as string).length + 2 * sizeOf(args, SELECTOR_MAX_VALUE_SIZE));
      default:
        return f;
    }
  });
  function guarded(f: CelLib.CelFunc, projected: (target: unknown, args: unknown[]) => number): CelLib.CelFunc {
    return cel.celMethod(f.name, f.target!, f.arguments, f.result, function (this: unknown, ...args: unknown[]) {
      within(projected(this, args), 'a string');
      return unwrap(f.call(0, this as CelLib.CelValue, args as CelLib.CelValue[]), f.name);
    } as any);
  }
  const base = cel.celEnv({ funcs: [...strings, ...kubernetes.funcs, ...growing], registry: kubernetes.registry });
  // Every function, the standard library's included, is metered (the same id replaces it).
  const metered = [...base.funcs].map((f) => {
    const impl = function (this: unknown, ...args: unknown[]) {
      charge(1 + sizeOf(this, SELECTOR_MAX_COST) + args.reduce<number>((n, a) => n + sizeOf(a, SELECTOR_MAX_COST), 0));
      return unwrap(f.call(0, this as CelLib.CelValue, args as CelLib.CelValue[]), f.name);
    } as any;
    return f.target ? cel.celMethod(f.name, f.target, f.arguments, f.result, impl) : cel.celFunc(f.name, f.arguments, f.result, impl);
  });
  const device = [
    cel.celFunc('@dra_domain', [DYN, STRING], DYN, (domains, name) => {
      if (!cel.isCelMap(domains)) {
        throw new Error('device domains are not a map');
      }
      return (domains.get(name) ?? new Map()) as any;
    }),
    cel.celFunc('@dra_step', [DYN], DYN, (condition) => {
      if (++spent.steps > SELECTOR_MAX_STEPS) {
        throw new Error(`the selector took more than ${SELECTOR_MAX_STEPS} comprehension steps`);
      }
      return condition;
    }),
  ];
  const env = cel.celEnv({ funcs: [...metered, ...device], registry: kubernetes.registry });
  const quantityDesc = kubernetes.registry.getMessage(QUANTITY_TYPE_NAME)!;
  const semverDesc = kubernetes.registry.getMessage(SEMVER_TYPE_NAME)!;
  runtime = {
    env,
    quantity: (text) => protobuf.create(quantityDesc, { value: text } as any),
    semver: (text) => protobuf.create(semverDesc, { value: text } as any),
    run: (program, value) => {
      spent.steps = 0;
      spent.cost = 0;
      const result = program({ device: value });
      // CEL's `||` and `&&` absorb an error when the other side decides: a budget exceeded there
      // still fails the evaluation, as it does in Kubernetes.
      if (spent.steps > SELECTOR_MAX_STEPS) {
        throw new Error(`the selector took more than ${SELECTOR_MAX_STEPS} comprehension steps`);
      }
      if (spent.cost > SELECTOR_MAX_COST) {
        throw new Error(`the selector exceeded the evaluation cost limit of ${SELECTOR_MAX_COST}`);
      }
      return result;
    },
  };
  return runtime;

  /** The function's result; an error it returned is thrown again, so it reaches the caller as one. */
  function unwrap(result: ReturnType<CelLib.CelFunc['call']>, name: string): any {
    if (result === undefined) {
      throw new Error(`found no matching overload for '${name}'`);
    }
    if (cel.isCelError(result)) {
      throw new Error(result.message);
    }
    return result;
  }

  /**
   * The size of a value, counted deeply (characters, bytes, entries; 1 for a scalar), up to
   * `limit` — the walk stops there, so measuring costs no more than the limit.
   */
  function sizeOf(value: unknown, limit: number): number {
    let size = 0;
    const stack: unknown[] = [value];
    while (stack.length > 0 && size <= limit) {
      const v = stack.pop();
      if (typeof v === 'string' || v instanceof Uint8Array) {
        size += v.length;
      } else if (cel.isCelList(v)) {
        size += 1;
        for (let i = 0; i < v.size && i <= limit; i++) stack.push(v.get(i));
      } else if (cel.isCelMap(v)) {
        size += 1;
        for (const [k, x] of v) {
          stack.push(k, x);
          if (stack.length > limit) break;
        }
      } else {
        size += 1;
      }
    }
    return size;
  }
}

function charge(units: number): void {
  spent.cost += units;
  if (spent.cost > SELECTOR_MAX_COST) {
    throw new Error(`the selector exceeded the evaluation cost limit of ${SELECTOR_MAX_COST}`);
  }
}

/** True when a value of that size may be built; throws otherwise. */
function within(size: number, what: string): true {
  if (size > SELECTOR_MAX_VALUE_SIZE) {
    throw new Error(`${what} of size ${size} exceeds the evaluation limit of ${SELECTOR_MAX_VALUE_SIZE}`);
  }
  return true;
}

/** The length of the joined string (elements that are not strings count 1: join fails on them anyway). */
function joinedLength(list: CelLib.CelList, separator: number): number {
  let length = Math.max(0, list.size - 1) * separator;
  for (let i = 0; i < list.size; i++) {
    const item = list.get(i);
    length += typeof item === 'string' ? item.length : 1;
  }
  return length;
}

/** How many times `replace` would rewrite `from` in `s` (at most `n` when n >= 0). */
function occurrences(s: string, from: string, n: number): number {
  const cap = n < 0 ? Infinity : n;
  if (from === '') {
    return Math.min([...s].length + 1, cap);
  }
  let count = 0;
  for (let i = s.indexOf(from); i >= 0 && count < cap; i = s.indexOf(from, i + from.length)) {
    count++;
  }
  return count;
}

/** Plans a checked selector (rewriting its AST in place, which the check produced for this use). */
export function planSelector(selector: CheckedSelector): SelectorProgram {
  const ids = { next: 2n ** 40n };
  const call = (fn: string, args: CelExpr[]): CelExpr['exprKind'] =>
    ({ case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: fn, args } } as CelExpr['exprKind']);
  const node = (exprKind: CelExpr['exprKind']): CelExpr => ({ $typeName: 'cel.expr.Expr', id: ids.next++, exprKind } as CelExpr);

  for (const lookup of selector.domainLookups) {
    const kind = lookup.exprKind;
    if (kind.case === 'callExpr') {
      lookup.exprKind = call('@dra_domain', [kind.value.args[0], kind.value.args[1]]);
    } else if (kind.case === 'selectExpr') {
      const field = node({ case: 'constExpr', value: { $typeName: 'cel.expr.Constant', constantKind: { case: 'stringValue', value: kind.value.field } } } as CelExpr['exprKind']);
      lookup.exprKind = call('@dra_domain', [kind.value.operand!, field]);
    }
  }
  const visit = (expr: CelExpr): void => {
    const kind = expr.exprKind;
    if (kind.case === 'comprehensionExpr' && kind.value.loopCondition) {
      kind.value.loopCondition = node(call('@dra_step', [kind.value.loopCondition]));
    }
    childrenOf(expr).forEach(visit);
  };
  visit(selector.parsed.expr);
  return planCel(selector.parsed.expr, selectorRuntime().env);
}
