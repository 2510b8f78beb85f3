import { Construct, IConstruct } from 'constructs';
import { GatewayRef, InferencePoolApiVersion } from './gateway';
import { InferenceProvider } from './inference-provider';
import { InferenceProviderConfig } from './inference-provider-config';
import type { NodePool } from './node-pool';
import { FieldError, formatFieldError, invalid } from '../core/field-error';
import { didYouMean } from '../core/suggest';
import { MAX_NODE_POOLS, nodePoolErrors, NodePoolSpec } from '../dra/node-inventory';
import { DEFAULT_ENDPOINT_PICKER_IMAGE } from '../gateway/endpoint-picker';
import type { RoutingDefaults } from '../gateway/model-routing';
import { shippedProviders } from '../providers/shipped-providers';
import { ProviderCatalog, providerCatalog } from '../selection/provider-catalog';

const REGISTRY_SYMBOL = Symbol.for('cdk8s-inference.ProviderRegistry');

/**
 * Props of a `ProviderRegistry`.
 */
export interface ProviderRegistryProps {
  /**
   * The Gateway that model routes attach to unless a deployment names its own (AI Runway's
   * `--gateway-name`/`--gateway-namespace`). Knowing a Gateway turns routing on for deployments
   * that do not set `gateway.enabled`.
   * @default - no Gateway: routing is off unless a deployment names one
   */
  readonly gateway?: GatewayRef;

  /**
   * API version of the InferencePools synthesized for controller-managed routing.
   * @default InferencePoolApiVersion.V1
   */
  readonly inferencePoolApiVersion?: InferencePoolApiVersion;

  /**
   * Endpoint picker image for providers that do not name their own (AI Runway's `--epp-image`).
   * @default 'registry.k8s.io/gateway-api-inference-extension/epp:v1.5.0'
   */
  readonly endpointPickerImage?: string;

  /**
   * Start with the providers AI Runway ships (`DynamoProvider`, `KaitoProvider`,
   * `KubeRayProvider`, `LlmdProvider`, `DirectVllmProvider`) with default settings, all ready.
   * @default true
   */
  readonly includeShippedProviders?: boolean;

  /**
   * Further providers; one with the name of a registered provider replaces it (e.g.
   * `new DynamoProvider({ apiVersion: DynamoApiVersion.V1BETA1 })`).
   * @default - none
   */
  readonly providers?: InferenceProvider[];

  /**
   * InferenceProviderConfigs to declare (see `register`).
   * @default - none
   */
  readonly providerConfigs?: InferenceProviderConfig[];

  /**
   * The cluster's node pools, for the build-time capacity check (see `addNodePool`).
   * @default - no inventory: capacity is not checked
   */
  readonly nodePools?: NodePool[];
}

/** One registered name: its config and the provider object behind it, if any. */
interface Registration {
  readonly config: InferenceProviderConfig;
  readonly provider?: InferenceProvider;
}

/**
 * The providers that engine and provider selection consider, with the settings of the target
 * cluster. Add one to an App or Chart; every ModelDeployment below it uses it
 * (`ProviderRegistry.tryOf`). Without one, a deployment uses the shipped providers.
 */
export class ProviderRegistry extends Construct {
  /**
   * True if `x` is a ProviderRegistry (works across copies of this module).
   */
  public static isProviderRegistry(x: any): x is ProviderRegistry {
    return x !== null && typeof x === 'object' && REGISTRY_SYMBOL in x;
  }

  /**
   * The registry nearest to `scope`: one that is a child of `scope` or of any of its ancestors.
   * Returns undefined when there is none.
   */
  public static tryOf(scope: IConstruct): ProviderRegistry | undefined {
    for (let s: IConstruct | undefined = scope; s; s = s.node.scope) {
      const found = s.node.children.find(ProviderRegistry.isProviderRegistry);
      if (found) return found;
    }
    return undefined;
  }

  /** The default Gateway of model routes, if any. */
  public readonly gateway?: GatewayRef;

  /** API version of synthesized InferencePools. */
  public readonly inferencePoolApiVersion: InferencePoolApiVersion;

  /** Endpoint picker image for providers that do not name their own. */
  public readonly endpointPickerImage: string;

  private readonly registrations = new Map<string, Registration>();
  private readonly pools: NodePoolSpec[] = [];
  private readonly poolErrors: FieldError[] = [];
  /** Path of the first deployment that read the registry; changes after that are refused. */
  private consumedBy?: string;
  /** The catalog of the current registrations, built on first read (every deployment reads it). */
  private catalog?: ProviderCatalog;

  public constructor(scope: Construct, id: string, props: ProviderRegistryProps = {}) {
    super(scope, id);
    Object.defineProperty(this, REGISTRY_SYMBOL, { value: true });
    this.gateway = props.gateway;
    this.inferencePoolApiVersion = props.inferencePoolApiVersion ?? InferencePoolApiVersion.V1;
    this.endpointPickerImage = props.endpointPickerImage ?? DEFAULT_ENDPOINT_PICKER_IMAGE;
    if (props.includeShippedProviders ?? true) {
      for (const p of shippedProviders()) this.addProvider(p);
    }
    for (const p of props.providers ?? []) this.addProvider(p);
    for (const c of props.providerConfigs ?? []) this.register(c);
    for (const pool of props.nodePools ?? []) this.addNodePool(pool);
    this.node.addValidation({ validate: () => this.poolErrors.map(formatFieldError) });
  }

  /**
   * Declares a node pool of the target cluster. With at least one pool declared, every
   * deployment that requests GPUs or DRA devices must fit a pool (its nodeSelector matching the
   * pool's labels, each pod's GPUs or device requests on one node, all its pods on the pool's
   * nodes), else the synth fails with `InsufficientCapacity` and why each pool does not fit.
   * Without pools, capacity is not checked.
   */
  public addNodePool(pool: NodePool): void {
    this.assertNotConsumed('addNodePool');
    const at = `nodePools[${JSON.stringify(pool.name)}]`;
    if (typeof pool.name !== 'string' || pool.name === '') {
      this.poolErrors.push(invalid('nodePools[].name', pool.name, 'a node pool needs a name'));
      return;
    }
    if (this.pools.some((p) => p.name === pool.name)) {
      this.poolErrors.push(invalid(`${at}.name`, pool.name, 'is declared twice; pool names are unique'));
      return;
    }
    if (this.pools.length >= MAX_NODE_POOLS) {
      this.poolErrors.push(invalid(at, pool.name, `more than ${MAX_NODE_POOLS} node pools`));
      return;
    }
    // A copy: the check must see the pool as it was declared, whatever the caller changes later.
    const spec: NodePoolSpec = structuredClone({ ...pool });
    const errors = nodePoolErrors(spec, at);
    if (errors.length > 0) this.poolErrors.push(...errors);
    else this.pools.push(spec);
  }

  /** Names of the declared node pools, in declaration order. */
  public get nodePoolNames(): string[] {
    return this.pools.map((p) => p.name);
  }

  /**
   * Adds a provider, or replaces the one with the same name (its config included).
   */
  public addProvider(provider: InferenceProvider): void {
    this.assertNotConsumed('addProvider');
    if (!InferenceProvider.isInferenceProvider(provider)) {
      throw new Error(`ProviderRegistry ${this.node.path}: addProvider() expects an InferenceProvider`);
    }
    this.registrations.set(provider.name, { config: provider.config, provider });
    this.catalog = undefined;
  }

  /**
   * Declares an InferenceProviderConfig, as applying one to a cluster does: a provider already
   * registered under its name keeps its translation and takes these capabilities, selection
   * rules and readiness; a new name can be selected, but a deployment that selects it fails the
   * synth (no translation) until a provider of that name is added.
   */
  public register(config: InferenceProviderConfig): void {
    this.assertNotConsumed('register');
    this.registrations.set(config.name, { config, provider: this.registrations.get(config.name)?.provider });
    this.catalog = undefined;
  }

  /**
   * Marks a registered provider ready or not ready (e.g. not installed in the target cluster).
   */
  public setReady(name: string, ready: boolean): void {
    this.assertNotConsumed('setReady');
    const registration = this.registrations.get(name);
    if (!registration) throw new Error(`ProviderRegistry: no provider named "${name}" (registered: ${this.providerNames.join(', ')})${didYouMean(name, this.providerNames)}`);
    this.registrations.set(name, { ...registration, config: registration.config.withReady(ready) });
    this.catalog = undefined;
  }

  /**
   * The InferenceProviderConfig registered under this name, if any.
   */
  public tryGet(name: string): InferenceProviderConfig | undefined {
    return this.registrations.get(name)?.config;
  }

  /**
   * The provider registered under this name, if any (undefined for a config declared without one).
   */
  public tryGetProvider(name: string): InferenceProvider | undefined {
    return this.registrations.get(name)?.provider;
  }

  /**
   * Names of the registered providers, sorted.
   */
  public get providerNames(): string[] {
    return [...this.registrations.keys()].sort();
  }

  /**
   * What a deployment resolves against. A deployment resolves when it is constructed, so the
   * first read fixes the registry: a later change would silently not apply to it.
   * @internal
   */
  public _catalog(consumer?: string): ProviderCatalog {
    this.consumedBy ??= consumer;
    this.catalog ??= providerCatalog([...this.registrations.values()].map((r) => ({ config: r.config._toEntry(), provider: r.provider })));
    return this.catalog;
  }

  /**
   * The declared node pools; reading them fixes the registry, as `_catalog` does.
   * @internal
   */
  public _nodePools(consumer?: string): readonly NodePoolSpec[] {
    this.consumedBy ??= consumer;
    return this.pools;
  }

  /** @internal */
  public _routingDefaults(): RoutingDefaults {
    return { gateway: this.gateway, inferencePoolApiVersion: this.inferencePoolApiVersion, endpointPickerImage: this.endpointPickerImage };
  }

  private assertNotConsumed(method: string): void {
    if (this.consumedBy !== undefined) {
      throw new Error(
        `ProviderRegistry ${this.node.path}: ${method}() after ${this.consumedBy} already selected its provider from this registry; ` +
          'register providers and set readiness before creating ModelDeployments',
      );
    }
  }
}
