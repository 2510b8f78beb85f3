import { ApiObject } from 'cdk8s';

/**
 * API version of the InferencePools synthesized for controller-managed routing.
 */
export enum InferencePoolApiVersion {
  /** `inference.networking.k8s.io/v1` (Gateway API Inference Extension 1.0+). */
  V1 = 'inference.networking.k8s.io/v1',
  /** `inference.networking.x-k8s.io/v1alpha2`, for clusters on Inference Extension releases before 1.0. */
  V1ALPHA2 = 'inference.networking.x-k8s.io/v1alpha2',
}

/**
 * A Gateway managed outside this app, by namespace and name.
 */
export interface GatewayName {
  /** Namespace of the Gateway. */
  readonly namespace: string;
  /** Name of the Gateway. */
  readonly name: string;
}

/**
 * The Gateway (`gateway.networking.k8s.io`) that model routes attach to: either a reference by
 * name, or a Gateway object synthesized in the same app, whose listeners then admit the routes'
 * namespaces.
 */
export class GatewayRef {
  /**
   * A Gateway managed outside this app, by named props, so the two strings cannot be swapped
   * (the CLI's `--gateway` reads `NAMESPACE/NAME`). Its listeners' `allowedRoutes` must admit the
   * namespaces of the routes (a warning says so for cross-namespace routes).
   */
  public static of(gateway: GatewayName): GatewayRef {
    return new GatewayRef(gateway.name, gateway.namespace, undefined);
  }

  /**
   * A Gateway managed outside this app: the name first, then the namespace (the reverse of the
   * CLI's `NAMESPACE/NAME`; `GatewayRef.of({ namespace, name })` says which is which).
   */
  public static fromName(name: string, namespace: string): GatewayRef {
    return new GatewayRef(name, namespace, undefined);
  }

  /**
   * A Gateway synthesized in the same app (for example the L1 `gateway.Gateway`). For
   * cross-namespace routes its listeners' `allowedRoutes` are set at synth to admit the routes'
   * namespaces. The Gateway must have a namespace (its own or its chart's).
   */
  public static fromGateway(gateway: ApiObject): GatewayRef {
    if (gateway.kind !== 'Gateway' || !gateway.apiVersion.startsWith('gateway.networking.k8s.io/')) {
      throw new Error(`GatewayRef.fromGateway: expected a gateway.networking.k8s.io Gateway, got ${gateway.apiVersion} ${gateway.kind} "${gateway.name}"`);
    }
    const namespace = gateway.metadata.namespace;
    if (!namespace) {
      throw new Error(`GatewayRef.fromGateway: Gateway "${gateway.name}" has no namespace; give it one (or put it in a chart with a namespace)`);
    }
    return new GatewayRef(gateway.name, namespace, gateway);
  }

  /** Name of the Gateway. */
  public readonly name: string;
  /** Namespace of the Gateway. */
  public readonly namespace: string;
  /** The Gateway object, when it is synthesized in the same app. */
  public readonly gateway?: ApiObject;

  private constructor(name: string, namespace: string, gateway: ApiObject | undefined) {
    this.name = name;
    this.namespace = namespace;
    this.gateway = gateway;
  }
}

/**
 * Gateway API Inference Extension routing (`spec.gateway`, plus where to attach).
 */
export interface GatewayOptions {
  /**
   * Route the model through the inference gateway: an InferencePool and endpoint picker (or the
   * provider's own pool) and an HTTPRoute on the Gateway. `true` needs a Gateway (`gatewayRef`
   * here or on the ProviderRegistry).
   * @default - enabled when a Gateway is known (here or on the ProviderRegistry), else disabled
   */
  readonly enabled?: boolean;

  /**
   * Model name matched in the `X-Gateway-Model-Name` header.
   * @default - `servedName` (unless the provider ignores it), else the model id
   */
  readonly modelName?: string;

  /**
   * Name of a user-managed HTTPRoute in the deployment's namespace; no HTTPRoute is synthesized.
   * @default - an HTTPRoute is synthesized
   */
  readonly httpRouteRef?: string;

  /**
   * The Gateway the HTTPRoute attaches to.
   * @default - the ProviderRegistry's `gateway`
   */
  readonly gatewayRef?: GatewayRef;

  /**
   * API version of the synthesized InferencePool.
   * @default - the ProviderRegistry's `inferencePoolApiVersion` (InferencePoolApiVersion.V1)
   */
  readonly inferencePoolApiVersion?: InferencePoolApiVersion;
}
