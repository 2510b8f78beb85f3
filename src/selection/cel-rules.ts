import type { CelSpecMap } from './cel-spec-map';
import { CelCheckEnvironment, checkCel } from '../cel/checker';
import { celModules } from '../cel/kubernetes-libraries';
import { CEL_GO_LENGTH, parseCel } from '../cel/parse';
import { CelProgram, planCel } from '../cel/plan';
import { DYN } from '../cel/types';

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
   * Did not parse, references a name other than `spec`, calls a function cel-go's standard
   * library lacks, or applies an operator to operands whose types are known up front and do not
   * fit it (`1 == 1.0`), as cel-go's checker would reject.
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

type Program = CelProgram<{ spec: CelSpecMap }>;

/** A condition after compilation: a reusable program, or why there is none. */
export interface CompiledRule {
  readonly condition: string;
  readonly program?: Program;
  readonly compileError?: string;
}

/**
 * What AI Runway compiles a rule against: cel-go's default environment with one variable, `spec`,
 * of type dyn, and its default parser limits. No `cel.bind` and no extension library: calling
 * their functions is a compile error there, and so here.
 */
const SELECTION_RULES: CelCheckEnvironment = { subject: 'selection rules', variables: new Map([['spec', DYN]]), library: 'cel-go' };

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
  if (celModules().cel.isCelError(result)) return { outcome: 'runtime-error', matched: false, message: result.message };
  if (typeof result !== 'boolean') {
    return { outcome: 'non-bool', matched: false, message: `did not return bool, got ${celTypeName(result)}` };
  }
  return result ? { outcome: 'matched', matched: true } : { outcome: 'false', matched: false };
}

/**
 * The first problem is the compile error: a name other than `spec`, a function outside cel-go's
 * standard library, or an operator applied to operands whose types are known up front and do not
 * fit it (`1 == 1.0`, `size(x) > 0u`, `1 < 1.5`: cel-go's cross-type numeric comparison is off by
 * default; at run time it still applies to `dyn` values, such as everything read from `spec`).
 * A result that is not a bool is left to the evaluation, which says what it got.
 */
function compileUncached(condition: string): CompiledRule {
  const { parsed, error } = parseCel(condition, { length: CEL_GO_LENGTH, bind: false });
  if (!parsed) return { condition, compileError: error.message };
  const [problem] = checkCel(parsed, SELECTION_RULES).problems;
  if (problem) return { condition, compileError: problem.error.message };
  try {
    return { condition, program: planCel(parsed.expr) };
  } catch (e) {
    return { condition, compileError: errorMessage(e) };
  }
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
      if (celModules().cel.isCelUint(value)) return 'uint';
      if (celModules().cel.isCelList(value)) return 'list';
      if (celModules().cel.isCelMap(value)) return 'map';
      if (celModules().cel.isCelType(value)) return 'type';
      return typeof value;
  }
}
