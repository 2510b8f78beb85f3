/**
 * Routing objects as the API server returns them once a Gateway implementation reported on them:
 * statuses from the Gateway API (HTTPRoute `status.parents[]`, Gateway `status.addresses`) and
 * Inference Extension (InferencePool `status.parents[]`, v1alpha2 `status.parent[]`) schemas.
 */
import { GATEWAY } from './support';

export const CONTROLLER = 'istio.io/gateway-controller';
export const GATEWAY_PARENT = { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: GATEWAY.name, namespace: GATEWAY.namespace };

/** A condition of a route or pool status. */
export function cond(type: string, status: 'True' | 'False' | 'Unknown', reason: string, message = '', observedGeneration = 1): Record<string, unknown> {
  return { type, status, reason, message, lastTransitionTime: '2026-03-01T09:59:30Z', observedGeneration };
}

export const ACCEPTED = cond('Accepted', 'True', 'Accepted', 'Route was valid');
export const RESOLVED = cond('ResolvedRefs', 'True', 'ResolvedRefs', 'All references resolved');

/** An HTTPRoute status with one entry for `parent`. */
export function routeStatus(conditions: Record<string, unknown>[], parent: Record<string, unknown> = GATEWAY_PARENT): Record<string, unknown> {
  return { parents: [{ parentRef: parent, controllerName: CONTROLLER, conditions }] };
}

/** An InferencePool v1 status with one entry for `parent`. */
export function poolStatus(conditions: Record<string, unknown>[], parent: Record<string, unknown> = GATEWAY_PARENT): Record<string, unknown> {
  return { parents: [{ parentRef: parent, conditions }] };
}

/** The Gateway the routes attach to, with its addresses. */
export function gatewayObject(addresses: Array<{ type?: string; value: string }> = [{ type: 'IPAddress', value: '10.0.0.7' }]): any {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: { name: GATEWAY.name, namespace: GATEWAY.namespace, generation: 1, uid: 'uid-gateway' },
    spec: { gatewayClassName: 'istio', listeners: [{ name: 'http', port: 80, protocol: 'HTTP', allowedRoutes: { namespaces: { from: 'All' } } }] },
    status: {
      addresses,
      conditions: [cond('Accepted', 'True', 'Accepted', 'Resource accepted'), cond('Programmed', 'True', 'Programmed', 'Resource programmed')],
    },
  };
}
