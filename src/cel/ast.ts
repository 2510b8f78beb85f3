/**
 * The shape of the AST that @bufbuild/cel's `parse` returns, and the one walk over it that the
 * parser's limits, the checker, the planner and the callers' rewrites share: a node's direct
 * sub-expressions in source order (the libraries themselves load through
 * src/cel/kubernetes-libraries.ts).
 */
import type * as CelLib from '@bufbuild/cel';

/** A parsed CEL expression (`cel.expr.Expr`). */
export type CelExpr = ReturnType<typeof CelLib.parse>['expr'];
/** The kinds of expression node, by `exprKind.case`. */
export type CelExprKind = CelExpr['exprKind'];
/** Where each node of a parsed expression starts: node id to offset in the text. */
export type CelPositions = NonNullable<ReturnType<typeof CelLib.parse>['sourceInfo']>['positions'];

/** The direct sub-expressions of a node, in source order. */
export function childrenOf(expr: CelExpr): CelExpr[] {
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'selectExpr':
      return kind.value.operand ? [kind.value.operand] : [];
    case 'callExpr':
      return [...(kind.value.target ? [kind.value.target] : []), ...kind.value.args];
    case 'listExpr':
      return [...kind.value.elements];
    case 'structExpr':
      return kind.value.entries.flatMap((e) => [...(e.keyKind.case === 'mapKey' ? [e.keyKind.value] : []), ...(e.value ? [e.value] : [])]);
    case 'comprehensionExpr': {
      const c = kind.value;
      return [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result].filter((x): x is CelExpr => x !== undefined);
    }
    default:
      return [];
  }
}

/** Where a node starts in the text (0 when the parser did not record it). */
export function positionOf(positions: CelPositions, expr: CelExpr): number {
  return positions[String(expr.id)] ?? 0;
}
