import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { HttpRoute, ReferenceGrantV1Beta1 } from '../imports/gateway.networking.k8s.io';

/** Suffix of the grant's name after the pool's name. */
const REFERENCE_GRANT_SUFFIX = '-referencegrant';

/** The InferencePool that HTTPRoutes of another namespace may send traffic to. */
export interface PoolReferenceGrantOptions {
  /** API group, name and namespace of the InferencePool. */
  readonly pool: { readonly group: string; readonly name: string; readonly namespace: string };
  /** Namespace of the HTTPRoutes that reference the pool (differs from the pool's). */
  readonly routeNamespace: string;
  /** Labels of the grant (omitted from the manifest when empty). */
  readonly labels: Record<string, string>;
}

/**
 * Adds a `ReferenceGrant` (id `ReferenceGrant`) to `scope`: `<pool>-referencegrant` in the pool's
 * namespace, letting HTTPRoutes of `routeNamespace` use that one InferencePool as a backend.
 * Call it only for cross-namespace routes; a route may always reference a pool of its own
 * namespace.
 *
 * The apiVersion is `gateway.networking.k8s.io/v1beta1`, the version AI Runway writes (and
 * served by every Gateway API release that has ReferenceGrant). AI Runway makes the provider's
 * pool the grant's owner; that uid is unknown at build time, so the grant carries labels only.
 */
export function addPoolReferenceGrant(scope: Construct, options: PoolReferenceGrantOptions): ApiObject {
  const { pool } = options;
  return new ReferenceGrantV1Beta1(scope, 'ReferenceGrant', {
    metadata: {
      name: `${pool.name}${REFERENCE_GRANT_SUFFIX}`,
      namespace: pool.namespace,
      ...(Object.keys(options.labels).length > 0 ? { labels: { ...options.labels } } : {}),
    },
    spec: {
      from: [{ group: groupOf(HttpRoute.GVK.apiVersion), kind: HttpRoute.GVK.kind, namespace: options.routeNamespace }],
      to: [{ group: pool.group, kind: 'InferencePool', name: pool.name }],
    },
  });
}

function groupOf(apiVersion: string): string {
  return apiVersion.split('/')[0];
}
