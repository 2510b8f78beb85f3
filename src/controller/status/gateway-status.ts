/**
 * `GatewayReady` and `status.gateway` of a routed record, read from the HTTPRoute, the
 * InferencePool it routes to and the Gateway it attaches to (core spec §6.9, §6.11).
 */
import { CONDITION_GATEWAY_READY, DesiredCondition } from './conditions';
import { describeRef, LiveObjectRef, liveRef, ObjectRef, RecordingLookup } from './object-ref';
import type { ValidRecord } from './record-deployment';
import { isJsonObject } from '../../core/json-object';
import { MODEL_NAME_HEADER } from '../../gateway/model-name';

export const GATEWAY_API_GROUP = 'gateway.networking.k8s.io';
export const HTTP_ROUTE_API_VERSION = `${GATEWAY_API_GROUP}/v1`;
export const GATEWAY_API_VERSION = `${GATEWAY_API_GROUP}/v1`;

/** The InferencePool version the controller reads, by API group of the route's backendRef. */
export const INFERENCE_POOL_API_VERSIONS: Readonly<Record<string, string>> = {
  'inference.networking.k8s.io': 'inference.networking.k8s.io/v1',
  'inference.networking.x-k8s.io': 'inference.networking.x-k8s.io/v1alpha2',
};

/** `GatewayReady` reasons: AI Runway's, and ours for what only an observer sees. */
export const REASON_GATEWAY_CONFIGURED = 'GatewayConfigured';
export const REASON_HTTP_ROUTE_FAILED = 'HTTPRouteFailed';
export const REASON_INFERENCE_POOL_FAILED = 'InferencePoolFailed';
export const REASON_NO_GATEWAY = 'NoGateway';
/** The route's Gateway implementation has not reported on the route yet. */
export const REASON_GATEWAY_NOT_REPORTED = 'GatewayNotReported';
/** AI Runway's message of `GatewayConfigured` (the same for provider-managed pools and `httpRouteRef`). */
export const GATEWAY_CONFIGURED_MESSAGE = 'InferencePool and HTTPRoute created';

/** `status.gateway`. */
export interface GatewayStatus {
  readonly endpoint?: string;
  readonly modelName?: string;
  /** The parent Gateway (the route's first parentRef): AI Runway's newer status names it beside its namespace. */
  readonly gatewayName?: string;
  readonly gatewayNamespace?: string;
}

/** What the routing objects say about a routed record. */
export interface GatewayOutcome {
  readonly condition: DesiredCondition;
  /** Undefined when the route was not found (nothing is known about where the model is served). */
  readonly status?: GatewayStatus;
  /**
   * `status.provider.inferencePoolRef`: the InferencePool the route sends to (ours, or the one
   * the provider manages, e.g. Dynamo's `<md>-pool`), when it exists.
   */
  readonly inferencePool?: LiveObjectRef;
}

/**
 * True when the record is routed through the inference gateway: `spec.gateway.enabled` is
 * recorded `true` and the provider runs no simulated backend for it (a mocker is never routed).
 */
export function isRouted(record: ValidRecord): boolean {
  const gateway = record.deployment.spec?.gateway;
  if (!isJsonObject(gateway) || gateway.enabled !== true) return false;
  try {
    return !record.provider.simulatedBackend(record.deployment);
  } catch {
    return true;
  }
}

/**
 * Looks up the HTTPRoute (`spec.gateway.httpRouteRef`, else the record's name, in its
 * namespace), the InferencePool of its backendRef and the Gateway of its first parentRef, and
 * decides `GatewayReady`, checking in this order:
 *
 * 1. route missing, or without a Gateway parentRef → False/`HTTPRouteFailed`;
 * 2. no InferencePool backendRef, or the pool missing → False/`InferencePoolFailed`;
 * 3. the Gateway missing → False/`NoGateway`;
 * 4. the route's `status.parents[]` entry for that Gateway reports `Accepted` or `ResolvedRefs`
 *    False (for the route's current generation) → False/`HTTPRouteFailed` with its message;
 * 5. the pool's parent entry for that Gateway reports `Accepted` or `ResolvedRefs` False →
 *    False/`InferencePoolFailed`;
 * 6. no current `Accepted=True` on the route from that Gateway yet → False/`GatewayNotReported`;
 * 7. otherwise True/`GatewayConfigured`/`InferencePool and HTTPRoute created`.
 *
 * `status.gateway` is written whenever the route exists: the Gateway's first non-empty
 * `status.addresses[].value`, the route's `X-Gateway-Model-Name` match and the Gateway's name and
 * namespace (when the route has a Gateway parent).
 */
export function gatewayOutcome(record: ValidRecord, lookup: RecordingLookup): GatewayOutcome {
  const { deployment } = record;
  const namespace = deployment.namespace;
  const spec = deployment.spec;
  const routeRefName = isJsonObject(spec?.gateway) && typeof spec.gateway.httpRouteRef === 'string' && spec.gateway.httpRouteRef !== ''
    ? spec.gateway.httpRouteRef
    : deployment.name;
  const routeRef: ObjectRef = { apiVersion: HTTP_ROUTE_API_VERSION, kind: 'HTTPRoute', namespace, name: routeRefName };
  const route = asObject(lookup.get(routeRef));
  if (!route) return { condition: notReady(REASON_HTTP_ROUTE_FAILED, `${describeRef(routeRef)} not found`) };

  const routeSpec = asObject(route.spec) ?? {};
  const gatewayRef = firstGatewayParent(routeSpec, namespace);
  const modelName = routedModelName(routeSpec);
  if (!gatewayRef) {
    return {
      condition: notReady(REASON_HTTP_ROUTE_FAILED, `${describeRef(routeRef)} has no Gateway as its first parentRef`),
      status: { ...(modelName && { modelName }) },
    };
  }
  const gateway = asObject(lookup.get(gatewayRef));
  const endpoint = gateway ? gatewayAddress(gateway) : undefined;
  const status: GatewayStatus = {
    ...(endpoint && { endpoint }),
    ...(modelName && { modelName }),
    gatewayName: gatewayRef.name,
    gatewayNamespace: gatewayRef.namespace,
  };
  const poolRef = inferencePoolBackend(routeSpec, namespace);
  const pool = poolRef ? asObject(lookup.get(poolRef)) : undefined;
  const inferencePool = poolRef && liveRef(poolRef, pool);
  const result = (condition: DesiredCondition): GatewayOutcome => ({ condition, status, ...(inferencePool && { inferencePool }) });

  if (!poolRef) return result(notReady(REASON_INFERENCE_POOL_FAILED, `${describeRef(routeRef)} routes to no InferencePool`));
  if (!pool) return result(notReady(REASON_INFERENCE_POOL_FAILED, `${describeRef(poolRef)} (${poolRef.apiVersion}) not found`));
  if (!gateway) return result(notReady(REASON_NO_GATEWAY, `${describeRef(gatewayRef)} not found`));

  const routeConditions = parentConditions(route, asArray(asObject(route.status)?.parents), gatewayRef, namespace);
  const routeFailure = firstFalse(routeConditions);
  if (routeFailure) {
    return result(notReady(REASON_HTTP_ROUTE_FAILED, `${describeRef(routeRef)} on ${describeRef(gatewayRef)}: ${routeFailure}`));
  }
  const poolStatus = asObject(pool.status);
  const poolConditions = parentConditions(pool, asArray(poolStatus?.parents ?? poolStatus?.parent), gatewayRef, poolRef.namespace);
  const poolFailure = firstFalse(poolConditions);
  if (poolFailure) {
    return result(notReady(REASON_INFERENCE_POOL_FAILED, `${describeRef(poolRef)} on ${describeRef(gatewayRef)}: ${poolFailure}`));
  }
  if (!routeConditions.some((c) => c.type === 'Accepted' && c.status === 'True')) {
    return result(notReady(REASON_GATEWAY_NOT_REPORTED, `${describeRef(gatewayRef)} has not reported on ${describeRef(routeRef)} yet`));
  }
  return result({ type: CONDITION_GATEWAY_READY, status: 'True', reason: REASON_GATEWAY_CONFIGURED, message: GATEWAY_CONFIGURED_MESSAGE });
}

function notReady(reason: string, message: string): DesiredCondition {
  return { type: CONDITION_GATEWAY_READY, status: 'False', reason, message };
}

function asObject(value: unknown): Record<string, any> | undefined {
  return isJsonObject(value) ? value : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The route's first parentRef when it is a Gateway (group and kind defaulted as the CRD does). */
function firstGatewayParent(routeSpec: Record<string, any>, routeNamespace: string): ObjectRef | undefined {
  const parent = asObject(asArray(routeSpec.parentRefs)[0]);
  const name = nonEmptyString(parent?.name);
  if (!parent || !name) return undefined;
  const group = parent.group ?? GATEWAY_API_GROUP;
  const kind = parent.kind ?? 'Gateway';
  if (group !== GATEWAY_API_GROUP || kind !== 'Gateway') return undefined;
  return { apiVersion: GATEWAY_API_VERSION, kind: 'Gateway', namespace: nonEmptyString(parent.namespace) ?? routeNamespace, name };
}

/** The value the first rule's matches require of `X-Gateway-Model-Name` (header names are case-insensitive). */
function routedModelName(routeSpec: Record<string, any>): string | undefined {
  const rule = asObject(asArray(routeSpec.rules)[0]);
  for (const match of asArray(rule?.matches)) {
    for (const header of asArray(asObject(match)?.headers)) {
      const h = asObject(header);
      if (typeof h?.name === 'string' && h.name.toLowerCase() === MODEL_NAME_HEADER.toLowerCase()) {
        const value = nonEmptyString(h.value);
        if (value) return value;
      }
    }
  }
  return undefined;
}

/** The first InferencePool among the route's backendRefs (rules in order). */
function inferencePoolBackend(routeSpec: Record<string, any>, routeNamespace: string): ObjectRef | undefined {
  for (const rule of asArray(routeSpec.rules)) {
    for (const backend of asArray(asObject(rule)?.backendRefs)) {
      const b = asObject(backend);
      const name = nonEmptyString(b?.name);
      const apiVersion = typeof b?.group === 'string' ? INFERENCE_POOL_API_VERSIONS[b.group] : undefined;
      if (b && name && b.kind === 'InferencePool' && apiVersion) {
        return { apiVersion, kind: 'InferencePool', namespace: nonEmptyString(b.namespace) ?? routeNamespace, name };
      }
    }
  }
  return undefined;
}

/** The Gateway's first non-empty `status.addresses[].value`. */
function gatewayAddress(gateway: Record<string, any>): string | undefined {
  for (const address of asArray(asObject(gateway.status)?.addresses)) {
    const value = nonEmptyString(asObject(address)?.value);
    if (value) return value;
  }
  return undefined;
}

interface ReportedCondition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
}

/**
 * The `Accepted` and `ResolvedRefs` conditions of every status entry of `obj` whose parentRef
 * is `gateway` (group, kind and namespace defaulted as the CRDs do; `localNamespace` is the
 * object's own), leaving out those observed at an older generation of `obj`.
 */
function parentConditions(obj: Record<string, any>, entries: unknown[], gateway: ObjectRef, localNamespace: string): ReportedCondition[] {
  const generation = asObject(obj.metadata)?.generation;
  const out: ReportedCondition[] = [];
  for (const entry of entries) {
    const e = asObject(entry);
    const ref = asObject(e?.parentRef);
    if (!e || !ref) continue;
    const sameParent = ref.name === gateway.name
      && (nonEmptyString(ref.namespace) ?? localNamespace) === gateway.namespace
      && (ref.group ?? GATEWAY_API_GROUP) === GATEWAY_API_GROUP
      && (ref.kind ?? 'Gateway') === 'Gateway';
    if (!sameParent) continue;
    for (const condition of asArray(e.conditions)) {
      const c = asObject(condition);
      if (!c || (c.type !== 'Accepted' && c.type !== 'ResolvedRefs')) continue;
      const stale = typeof generation === 'number' && typeof c.observedGeneration === 'number' && c.observedGeneration < generation;
      if (stale) continue;
      out.push({ type: c.type, status: String(c.status), reason: typeof c.reason === 'string' ? c.reason : '', message: typeof c.message === 'string' ? c.message : '' });
    }
  }
  return out;
}

/** `Accepted=False (Reason): message` of the first condition reported False. */
function firstFalse(conditions: readonly ReportedCondition[]): string | undefined {
  const c = conditions.find((x) => x.status === 'False');
  if (!c) return undefined;
  return `${c.type}=False${c.reason ? ` (${c.reason})` : ''}${c.message ? `: ${c.message}` : ''}`;
}
