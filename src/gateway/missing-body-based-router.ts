import type { IConstruct } from 'constructs';
import { BodyBasedRouter } from './body-based-router';
import { MODEL_NAME_HEADER } from './model-name';
import { Warnings } from '../api/warnings';

/** Apps whose first routed deployment already carries the warning: it is given once per app. */
const warnedApps = new WeakSet<IConstruct>();

/**
 * Records, once per app, the warning that the synthesized HTTPRoutes match on
 * `X-Gateway-Model-Name` while nothing in the app sets it. Decided when warnings are collected,
 * so a `BodyBasedRouter` (or `BodyBasedRouter.fromExisting`) added after the deployments counts.
 * `route` names the first routed deployment's HTTPRoute (`namespace/name`).
 */
export function warnIfNoBodyBasedRouter(scope: IConstruct, route: string): void {
  const root = scope.node.root;
  if (warnedApps.has(root)) return;
  warnedApps.add(root);
  Warnings._addDeferred(scope, () => appHasBodyBasedRouter(scope) ? undefined : missingBodyBasedRouterWarning(route));
}

/** True when the app of `scope` has a body-based router, synthesized or declared. */
function appHasBodyBasedRouter(scope: IConstruct): boolean {
  return scope.node.root.node.findAll().some((c) => BodyBasedRouter.isBodyBasedRouter(c));
}

/** The text of the warning, for tests and docs. */
export function missingBodyBasedRouterWarning(route: string): string {
  return `HTTPRoute ${route} matches on the ${MODEL_NAME_HEADER} header, which clients do not send: a body-based router must copy ` +
    "the request body's model into it, and none is declared (this holds for every model route of the app). Add a BodyBasedRouter and wire it " +
    "into the Gateway, or install the Inference Extension's body-based-routing Helm chart; if one already runs, declare it with " +
    'BodyBasedRouter.fromExisting (CLI: --body-based-router-installed)';
}
