import type { UpstreamKind } from '../api/provider/provider-status';

/*
 * The kinds the routing code synthesizes for a deployment (`addModelRouting`): what the
 * controller's ClusterRole must cover besides the providers' `emittedKinds()`.
 */
export const INFERENCE_POOL_KINDS: readonly UpstreamKind[] = [
  { apiVersion: 'inference.networking.k8s.io/v1', kind: 'InferencePool', resource: 'inferencepools' },
  { apiVersion: 'inference.networking.x-k8s.io/v1alpha2', kind: 'InferencePool', resource: 'inferencepools' },
];
export const HTTP_ROUTE_KIND: UpstreamKind = { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', resource: 'httproutes' };
export const GATEWAY_KIND: UpstreamKind = { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', resource: 'gateways' };

/**
 * The routing objects a record's status reads (`GatewayReady`, `status.gateway`): its HTTPRoute,
 * the InferencePool it sends to and the Gateway it attaches to.
 */
export const ROUTING_STATUS_KINDS: readonly UpstreamKind[] = [HTTP_ROUTE_KIND, GATEWAY_KIND, ...INFERENCE_POOL_KINDS];

/** Every kind `addModelRouting` can emit: pool, route, the endpoint picker and its RBAC, the ReferenceGrant. */
export const ROUTING_EMITTED_KINDS: readonly UpstreamKind[] = [
  ...INFERENCE_POOL_KINDS,
  HTTP_ROUTE_KIND,
  { apiVersion: 'gateway.networking.k8s.io/v1beta1', kind: 'ReferenceGrant', resource: 'referencegrants' },
  { apiVersion: 'v1', kind: 'ServiceAccount', resource: 'serviceaccounts' },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', resource: 'roles' },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', resource: 'rolebindings' },
  { apiVersion: 'v1', kind: 'ConfigMap', resource: 'configmaps' },
  { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' },
  { apiVersion: 'v1', kind: 'Service', resource: 'services' },
];
