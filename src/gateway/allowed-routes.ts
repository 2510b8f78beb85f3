import type { ApiObject } from 'cdk8s';
import { Warnings } from '../api/warnings';
import { isJsonObject } from '../core/json-object';

/** The label the API server puts on every Namespace, holding its name. */
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

const GATEWAY_API_GROUP = 'gateway.networking.k8s.io';

/**
 * Where a Gateway keeps the route namespaces registered on it. A global symbol rather than a
 * module-level WeakMap, so that two copies of this module still share one registry (and one
 * `toJson` wrapper) per Gateway.
 */
const ADMISSION = Symbol.for('cdk8s-inference.routing.allowed-routes');

interface Admission {
  /** Gateway namespace at registration; the final JSON's own namespace wins when it has one. */
  readonly gatewayNamespace: string;
  /** Route namespaces other than the Gateway's, in registration order. */
  readonly namespaces: Set<string>;
  /** `listener\0namespace` pairs already warned about, so no warning is recorded twice. */
  readonly warned: Set<string>;
  /** The Gateway's own rendering, before our changes. */
  readonly render: () => any;
}

type Json = any;

/**
 * Lets HTTPRoutes of `namespace` attach to `gateway`, a Gateway synthesized in the same app.
 *
 * At synth every listener of the Gateway admits the registered namespaces plus the Gateway's own
 * through `allowedRoutes.namespaces = {from: Selector, selector: kubernetes.io/metadata.name In
 * [...sorted]}`, the form AI Runway patches in at run time (§6.6), except that:
 * - a listener with `from: All` is left alone;
 * - a listener that already selects by `kubernetes.io/metadata.name In [...]` (or the older
 *   single-name `matchLabels`) gets the registered namespaces added to its list;
 * - a listener with any other selector is left alone, and a warning on the Gateway says which
 *   namespace it may not admit (none when the selector provably admits it).
 *
 * Registering the Gateway's own namespace, or a namespace twice, changes nothing.
 */
export function admitRoutesFrom(gateway: ApiObject, namespace: string): void {
  if (gateway.kind !== 'Gateway' || !gateway.apiVersion.startsWith(`${GATEWAY_API_GROUP}/`)) {
    throw new Error(`admitRoutesFrom: expected a ${GATEWAY_API_GROUP} Gateway, got ${gateway.apiVersion} ${gateway.kind} "${gateway.name}"`);
  }
  const gatewayNamespace = gateway.metadata.namespace;
  if (!gatewayNamespace) {
    throw new Error(`admitRoutesFrom: Gateway "${gateway.name}" has no namespace; give it one (or put it in a chart with a namespace)`);
  }
  // Routes of the Gateway's own namespace are admitted by every `from` policy.
  if (namespace === gatewayNamespace) return;

  const admission = admissionOf(gateway, gatewayNamespace);
  if (admission.namespaces.has(namespace)) return;
  admission.namespaces.add(namespace);
  // Warnings are read before synthesis (the CLI prints them before writing YAML), so the
  // listeners are inspected now; the toJson wrapper inspects them again in case they changed.
  admitInGateway(gateway, admission, admission.render());
}

/**
 * The warning for a Gateway known only by name whose namespace differs from the route's: nothing
 * here can change its listeners.
 */
export function referencedGatewayWarning(gateway: { name: string; namespace: string }, routeNamespace: string): string {
  return `Gateway ${gateway.namespace}/${gateway.name} is not part of this app: the allowedRoutes of its listeners must admit `
    + `HTTPRoutes from namespace "${routeNamespace}" (for example from: Selector on ${NAMESPACE_NAME_LABEL}, or from: All), `
    + 'otherwise the route is not attached';
}

/** The gateway's registry, created (and its `toJson` wrapped) on first use. */
function admissionOf(gateway: ApiObject, gatewayNamespace: string): Admission {
  const holder = gateway as unknown as { [ADMISSION]?: Admission };
  const existing = holder[ADMISSION];
  if (existing) return existing;

  const admission: Admission = {
    gatewayNamespace,
    namespaces: new Set(),
    warned: new Set(),
    render: gateway.toJson.bind(gateway),
  };
  Object.defineProperty(gateway, ADMISSION, { value: admission, enumerable: false });
  // Wrapping the final JSON instead of `addJsonPatch`: a JSON patch needs listener indexes and
  // would be re-serialized through the L1's generated mapper; the wrapper sees exactly what is
  // written and keeps everything it does not touch.
  Object.defineProperty(gateway, 'toJson', {
    value: () => admitInGateway(gateway, admission, admission.render()),
    configurable: true,
    writable: true,
  });
  return admission;
}

/** `json` with every listener admitting the registered namespaces; records warnings on `gateway`. */
function admitInGateway(gateway: ApiObject, admission: Admission, json: Json): Json {
  const listeners = json?.spec?.listeners;
  if (!Array.isArray(listeners)) return json;
  const gatewayNamespace = typeof json.metadata?.namespace === 'string' && json.metadata.namespace
    ? json.metadata.namespace
    : admission.gatewayNamespace;
  const cross = [...admission.namespaces].filter((ns) => ns !== gatewayNamespace);
  if (cross.length === 0) return json;

  const out = listeners.map((listener: Json) => {
    const result = admitOnListener(listener, gatewayNamespace, cross);
    for (const ns of result.unsure) {
      const key = `${listener?.name}\0${ns}`;
      if (admission.warned.has(key)) continue;
      admission.warned.add(key);
      Warnings.add(gateway, `Gateway ${gatewayNamespace}/${json.metadata?.name ?? gateway.name} listener "${listener?.name}" `
        + `selects route namespaces with a selector of its own, which is left as it is: HTTPRoutes from namespace "${ns}" `
        + 'may not be admitted');
    }
    return result.listener;
  });
  return { ...json, spec: { ...json.spec, listeners: out } };
}

interface ListenerAdmission {
  readonly listener: Json;
  /** Registered namespaces the listener may not admit (left alone). */
  readonly unsure: readonly string[];
}

function admitOnListener(listener: Json, gatewayNamespace: string, cross: readonly string[]): ListenerAdmission {
  const namespaces = listener?.allowedRoutes?.namespaces;
  const from = namespaces?.from ?? 'Same';
  // `All` already admits every namespace. AI Runway's run-time patch narrows it to a Selector
  // (its read of the current set only looks at selectors); we deliberately do not, since that
  // would detach the routes of every other namespace the user meant to admit.
  if (from === 'All') return { listener, unsure: [] };
  if (from === 'Same') {
    return { listener: withNameSelector(listener, [gatewayNamespace, ...cross]), unsure: [] };
  }
  if (from === 'Selector') {
    const selector = namespaces?.selector;
    const listed = namesOfNameSelector(selector);
    if (listed) return { listener: withNameSelector(listener, [...listed, gatewayNamespace, ...cross]), unsure: [] };
    return { listener, unsure: cross.filter((ns) => !selectsNamespace(selector, ns)) };
  }
  // A policy this code does not know (the schema allows none): leave it, and say so.
  return { listener, unsure: [...cross] };
}

/** `listener` whose routes may come from exactly the named namespaces. */
function withNameSelector(listener: Json, names: readonly string[]): Json {
  const values = [...new Set(names)].sort();
  return {
    ...listener,
    allowedRoutes: {
      ...listener.allowedRoutes,
      namespaces: {
        from: 'Selector',
        selector: { matchExpressions: [{ key: NAMESPACE_NAME_LABEL, operator: 'In', values }] },
      },
    },
  };
}

/**
 * The names a selector lists when it has the form we write (one `kubernetes.io/metadata.name In`
 * expression) or AI Runway's older single-name `matchLabels`; `undefined` for any other selector.
 */
function namesOfNameSelector(selector: Json): string[] | undefined {
  if (!isJsonObject(selector)) return undefined;
  const labels = isJsonObject(selector.matchLabels) ? Object.entries(selector.matchLabels) : [];
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  if (labels.length === 0 && expressions.length === 1) {
    const [e] = expressions;
    if (e?.key === NAMESPACE_NAME_LABEL && e.operator === 'In' && Array.isArray(e.values)) return e.values.map(String);
  }
  if (expressions.length === 0 && labels.length === 1 && labels[0][0] === NAMESPACE_NAME_LABEL) {
    return [String(labels[0][1])];
  }
  return undefined;
}

/**
 * Whether a label selector certainly selects the namespace `name`. Only the namespace-name label
 * is known at build time, so a requirement on any other label answers "not certain" (false).
 */
function selectsNamespace(selector: Json, name: string): boolean {
  if (!isJsonObject(selector)) return false;
  const labels = isJsonObject(selector.matchLabels) ? Object.entries(selector.matchLabels) : [];
  const expressions: Json[] = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  return labels.every(([key, value]) => key === NAMESPACE_NAME_LABEL && value === name)
    && expressions.every((e) => {
      if (e?.key !== NAMESPACE_NAME_LABEL) return false;
      const values: unknown[] = Array.isArray(e.values) ? e.values : [];
      switch (e.operator) {
        case 'In': return values.includes(name);
        case 'NotIn': return !values.includes(name);
        case 'Exists': return true;
        default: return false;
      }
    });
}
