/**
 * The shape of the AST that @bufbuild/cel's `parse` returns, as the DRA selector check walks it
 * (the libraries themselves load through src/cel/kubernetes-libraries.ts).
 */
import type * as CelLib from '@bufbuild/cel';

/** A parsed CEL expression (`cel.expr.Expr`). */
export type CelExpr = ReturnType<typeof CelLib.parse>['expr'];
/** The kinds of expression node, by `exprKind.case`. */
export type CelExprKind = CelExpr['exprKind'];
/** Where each node of a parsed expression starts: node id to offset in the text. */
export type CelPositions = NonNullable<ReturnType<typeof CelLib.parse>['sourceInfo']>['positions'];
