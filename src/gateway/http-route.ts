import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { MODEL_NAME_HEADER } from './model-name';
import {
  HttpRoute,
  HttpRouteSpecRulesMatchesHeadersType,
  HttpRouteSpecRulesMatchesPathType,
} from '../imports/gateway.networking.k8s.io';

/** `timeouts.request` of the model route: generation requests routinely outlast proxy defaults. */
export const ROUTE_REQUEST_TIMEOUT = '300s';

/** Kind of the route's backend. */
const INFERENCE_POOL_KIND = 'InferencePool';

/** What the model route is called, where it attaches and where it sends matching requests. */
export interface HttpRouteOptions {
  /** `metadata.name` of the route (AI Runway: the ModelDeployment's name). */
  readonly name: string;
  /**
   * `metadata.namespace` of the route.
   * @default - the chart's namespace
   */
  readonly namespace?: string;
  /** Labels of the route (omitted from the manifest when empty). */
  readonly labels: Record<string, string>;
  /** The Gateway the route attaches to (always referenced with its namespace). */
  readonly gateway: { readonly name: string; readonly namespace: string };
  /** Value the `X-Gateway-Model-Name` header must equal exactly. */
  readonly modelName: string;
  /**
   * Further model names served by the same pool, each its own match of the rule (the LoRA
   * adapters a deployment serves beside its base model).
   * @default - none
   */
  readonly adapterNames?: readonly string[];
  /** The InferencePool that serves matching requests: API group, name and namespace. */
  readonly pool: { readonly group: string; readonly name: string; readonly namespace: string };
}

/**
 * Adds the model's `HTTPRoute` (id `HTTPRoute`) to `scope`: attached to the Gateway, one rule
 * matching every path whose `X-Gateway-Model-Name` header equals the model name (or one of the
 * adapter names, a match each), sending it to the InferencePool with a 300 s request timeout.
 *
 * AI Runway sets a controller ownerReference to the ModelDeployment; at build time the uid is
 * unknown, so the labels are what tie the route to its deployment.
 */
export function addHttpRoute(scope: Construct, options: HttpRouteOptions): ApiObject {
  if (options.modelName === '') {
    throw new Error(`HTTPRoute "${options.name}": the model name matched in ${MODEL_NAME_HEADER} must not be empty`);
  }
  return new HttpRoute(scope, 'HTTPRoute', {
    metadata: {
      name: options.name,
      ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
      ...(Object.keys(options.labels).length > 0 ? { labels: { ...options.labels } } : {}),
    },
    spec: {
      // The namespace is always written: the route usually lives elsewhere than the Gateway, and
      // an omitted namespace would mean the route's own.
      parentRefs: [{ name: options.gateway.name, namespace: options.gateway.namespace }],
      rules: [
        {
          // Matches are ORed: one per name, so every name reaches the same pool.
          matches: [options.modelName, ...(options.adapterNames ?? [])].map((name) => ({
            path: { type: HttpRouteSpecRulesMatchesPathType.PATH_PREFIX, value: '/' },
            headers: [{ type: HttpRouteSpecRulesMatchesHeadersType.EXACT, name: MODEL_NAME_HEADER, value: name }],
          })),
          // No port (an InferencePool is not a Service) and no weight: a single backend.
          backendRefs: [
            {
              group: options.pool.group,
              kind: INFERENCE_POOL_KIND,
              name: options.pool.name,
              namespace: options.pool.namespace,
            },
          ],
          timeouts: { request: ROUTE_REQUEST_TIMEOUT },
        },
      ],
    },
  });
}
