/**
 * @bufbuild/cel and @bufbuild/protobuf for the DRA selector check, loaded on first use (loading
 * them costs tens of milliseconds, and most programs never check a selector), and the shape of
 * the AST that `parse` returns.
 */
import type * as CelLib from '@bufbuild/cel';
import type * as CelExt from '@bufbuild/cel/ext';
import type * as Protobuf from '@bufbuild/protobuf';
import type * as ProtobufWkt from '@bufbuild/protobuf/wkt';

/** A parsed CEL expression (`cel.expr.Expr`). */
export type CelExpr = ReturnType<typeof CelLib.parse>['expr'];
/** The kinds of expression node, by `exprKind.case`. */
export type CelExprKind = CelExpr['exprKind'];
/** Where each node of a parsed expression starts: node id to offset in the text. */
export type CelPositions = NonNullable<ReturnType<typeof CelLib.parse>['sourceInfo']>['positions'];

/** The loaded libraries. */
export interface CelModules {
  readonly cel: typeof CelLib;
  readonly ext: typeof CelExt;
  readonly protobuf: typeof Protobuf;
  readonly wkt: typeof ProtobufWkt;
}

let modules: CelModules | undefined;

/** @bufbuild/cel, its extensions and @bufbuild/protobuf, loaded once. */
export function celModules(): CelModules {
  if (!modules) {
    /* eslint-disable @typescript-eslint/no-require-imports */
    modules = {
      cel: require('@bufbuild/cel'),
      ext: require('@bufbuild/cel/ext'),
      protobuf: require('@bufbuild/protobuf'),
      wkt: require('@bufbuild/protobuf/wkt'),
    };
    /* eslint-enable @typescript-eslint/no-require-imports */
  }
  return modules;
}
