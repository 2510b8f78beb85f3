/**
 * Turning a checked expression into a program: the one way every caller evaluates CEL, in an
 * environment with Kubernetes' libraries — the plain one (src/cel/kubernetes-libraries.ts) for
 * selection rules and CRD rules, the metered one for DRA device selectors
 * (src/cel/selector-runtime.ts). What the checker accepts and @bufbuild/cel spells differently
 * is rewritten first: `matches(s, re)`, a global function in cel-go's standard library that
 * @bufbuild/cel only has as a method, becomes `s.matches(re)`.
 */
import type * as CelLib from '@bufbuild/cel';
import { CelExpr, childrenOf } from './ast';
import { celModules, kubernetesCelEnv } from './kubernetes-libraries';

/** A planned expression: evaluates with its variables bound; a CEL error comes back as a value. */
export type CelProgram<Bindings> = (bindings: Bindings) => unknown;

/** Plans a checked expression (rewriting its AST in place); throws when @bufbuild/cel cannot plan it. */
export function planCel<Bindings>(expr: CelExpr, env: CelLib.CelEnv = kubernetesCelEnv()): CelProgram<Bindings> {
  const visit = (e: CelExpr): void => {
    const kind = e.exprKind;
    if (kind.case === 'callExpr' && kind.value.function === 'matches' && !kind.value.target && kind.value.args.length === 2) {
      e.exprKind = { case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: 'matches', target: kind.value.args[0], args: [kind.value.args[1]] } } as CelExpr['exprKind'];
    }
    childrenOf(e).forEach(visit);
  };
  visit(expr);
  return celModules().cel.plan(env, expr) as unknown as CelProgram<Bindings>;
}
