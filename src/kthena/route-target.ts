import { integerErrors, sameNamespaceErrors } from './checks';
import { IKthenaModelServer, KthenaModelServer } from './model-server';
import { FieldError, invalid } from '../core/field-error';

/** Options of a route target. */
export interface KthenaRouteTargetOptions {
  /**
   * Share of the rule's traffic, 0 to 100, relative to the rule's other targets.
   * @default 100
   */
  readonly weight?: number;
}

/** What a target points at: exactly one of the three. */
interface TargetRef {
  readonly server?: IKthenaModelServer;
  readonly serverName?: string;
  readonly providerName?: string;
}

/**
 * Where a ModelRoute rule sends requests (`targetModels[]`): a ModelServer in the route's
 * namespace, or an ExternalModelProvider. Exactly one of the two, which the factories guarantee.
 */
export class KthenaRouteTarget {
  /** A ModelServer built here (or imported with `KthenaModelServer.fromModelServerName`). */
  public static modelServer(server: IKthenaModelServer, options: KthenaRouteTargetOptions = {}): KthenaRouteTarget {
    return new KthenaRouteTarget({ server }, options);
  }

  /** A ModelServer by name. */
  public static modelServerName(name: string, options: KthenaRouteTargetOptions = {}): KthenaRouteTarget {
    return new KthenaRouteTarget({ serverName: name }, options);
  }

  /** An ExternalModelProvider (a hosted model API) by name. */
  public static externalModelProvider(name: string, options: KthenaRouteTargetOptions = {}): KthenaRouteTarget {
    return new KthenaRouteTarget({ providerName: name }, options);
  }

  /** The target's weight, when given. */
  public readonly weight?: number;

  private readonly ref: TargetRef;

  private constructor(ref: TargetRef, options: KthenaRouteTargetOptions) {
    this.ref = ref;
    this.weight = options.weight;
  }

  /** The target in JSON form and its problems, at `path` of a route in `routeNamespace`. @internal */
  public _render(path: string, routeNamespace: string | undefined): { json: any; errors: FieldError[] } {
    const errors = integerErrors(`${path}.weight`, this.weight, 0, 100, 'a share of the rule\'s traffic');
    const weight = this.weight !== undefined ? { weight: this.weight } : {};
    const { server, providerName } = this.ref;
    if (providerName !== undefined) {
      if (providerName === '') errors.push(invalid(`${path}.externalModelProviderName`, providerName, 'must not be empty'));
      return { json: { externalModelProviderName: providerName, ...weight }, errors };
    }
    // Read at synth: a server's name is fixed by then.
    const name = server ? server.name : this.ref.serverName!;
    const at = `${path}.modelServerName`;
    if (name === '') errors.push(invalid(at, name, 'must not be empty'));
    if (KthenaModelServer.isKthenaModelServer(server)) {
      errors.push(...sameNamespaceErrors(at, name, server.apiObject.metadata.namespace, 'ModelRoute', routeNamespace));
    }
    return { json: { modelServerName: name, ...weight }, errors };
  }
}
