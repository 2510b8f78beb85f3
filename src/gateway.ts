/**
 * Gateway API Inference Extension routing (`spec.gateway`).
 */
export interface GatewayOptions {
  /**
   * Route the model through the inference gateway.
   * @default - enabled whenever the cluster has the Gateway API Inference Extension CRDs
   */
  readonly enabled?: boolean;

  /**
   * Model name matched in the `X-Gateway-Model-Name` header.
   * @default - `servedName`, else the model id
   */
  readonly modelName?: string;

  /**
   * Name of a user-managed HTTPRoute in the deployment's namespace; no HTTPRoute is synthesized.
   * @default - an HTTPRoute is synthesized
   */
  readonly httpRouteRef?: string;
}
