import * as fs from 'fs';
import { Construct, IConstruct } from 'constructs';
import { DEFAULT_ENDPOINT_PICKER, EndpointPicker, endpointPickerImageFor } from '../api/gateway/endpoint-picker-choice';
import type { EndpointPickerResources } from '../api/gateway/endpoint-picker-resources';
import { GatewayRef, InferencePoolApiVersion } from '../api/gateway/gateway';
import type { NodePool } from '../api/node-pool';
import { PodSecurityLevel } from '../api/pod-security-level';
import { InferenceProvider } from '../api/provider/inference-provider';
import { InferenceProviderConfig } from '../api/provider/inference-provider-config';
import type { ClusterProfileRef } from '../api/provider/provider-config-entry';
import { addBrand, brandSymbol, hasBrand } from '../core/construct-brand';
import { FieldError, formatFieldError, invalid, required } from '../core/field-error';
import { didYouMean } from '../core/suggest';
import { yamlPackage } from '../core/yaml-package';
import { MAX_NODE_POOLS, nodePoolErrors, NodePoolSpec } from '../dra/node-inventory';
import { DEFAULT_ENDPOINT_PICKER_IMAGE, endpointPickerResourceErrors } from '../gateway/endpoint-picker';
import type { RoutingDefaults } from '../gateway/model-routing';
import { shippedProviders } from '../pipeline/shipped-providers';
import { ClusterProfile, ProfileProblem, readClusterProfile } from '../selection/cluster-profile';
import { ProviderCatalog, providerCatalog, ProviderRegistration } from '../selection/provider-catalog';

const REGISTRY_SYMBOL = brandSymbol('ProviderRegistry');
/**
 * Set on the scope of the first registry added to it, so that `tryOf` finds it without scanning
 * the scope's children: a chart of N deployments has N children, and each deployment looks the
 * registry up once (a scan made that quadratic: 10,000 deployments took 50 s, not 25).
 */
const REGISTRY_OF_SCOPE = Symbol.for('cdk8s-inference.ProviderRegistry.ofScope');

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
   * The endpoint picker generation of controller-managed InferencePools: the llm-d Router's
   * picker, or the Gateway API Inference Extension v1.5 generation's (GAIE's own picker, and llm-d
   * inference scheduler v0.6.0 for llm-d), which GAIE v1.6.0 removed. It picks the default images,
   * the configuration's API group and the picker's RBAC; a deployment chooses for itself with the
   * annotation `inference.cdk8s.io/endpoint-picker` (`llmd-router` or `gaie-v1.5`).
   * @default EndpointPicker.LLMD_ROUTER
   */
  readonly endpointPicker?: EndpointPicker;

  /**
   * Endpoint picker image for providers that do not name their own (AI Runway's `--epp-image`).
   * @default - the `endpointPicker` generation's: 'ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0'
   * (EndpointPicker.LLMD_ROUTER), 'registry.k8s.io/gateway-api-inference-extension/epp:v1.5.0'
   * (EndpointPicker.GAIE_V1_5)
   */
  readonly endpointPickerImage?: string;

  /**
   * Compute resources of the endpoint pickers synthesized for controller-managed routing.
   * @default - requests 250m CPU and 512Mi, limits 2 CPUs and 2Gi
   */
  readonly endpointPickerResources?: EndpointPickerResources;

  /**
   * Start with the providers AI Runway ships (`DynamoProvider`, `KaitoProvider`,
   * `KubeRayProvider`, `LlmdProvider`, `DirectVllmProvider`) with default settings, all ready.
   * @default true
   */
  readonly includeShippedProviders?: boolean;

  /**
   * The providers installed in the target cluster (its cluster profile), by name. Only these are
   * considered by engine and provider auto-selection (and of them only the ready ones); a
   * deployment whose `provider.name` is another fails, naming the installed ones. Every name must
   * be a registered provider. `ProviderRegistry.fromProfile` reads the list from a YAML file.
   * @default - every registered provider is installed (readiness still applies)
   */
  readonly installedProviders?: string[];

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

  /**
   * Pod Security Standard of the model-server pods of every deployment that does not choose its
   * own (`ModelDeploymentProps.podSecurity` or the annotation `inference.cdk8s.io/pod-security`).
   * `RESTRICTED` needs images that run as a non-root user (see the README's "Pod security").
   * @default PodSecurityLevel.BASELINE
   */
  readonly podSecurity?: PodSecurityLevel;

  /**
   * Let `spec.provider.overrides` give the pods what the Pod Security Standard "baseline" refuses
   * (hostPath volumes, host ports, host namespaces, privileged containers, capabilities beyond
   * the container runtime's default set, unconfined seccomp or AppArmor, unsafe sysctls) and add
   * init or ephemeral containers. Off, such an override fails the synth with the overrides path
   * that brought it in: overrides are an escape hatch into the provider's objects, and a
   * deployment's author should not get access to the node through them. Turn on only for a
   * cluster whose namespaces do not enforce "baseline" and whose deployment authors are trusted
   * with the node. AI Runway's own key filter (no `securityContext`, `hostNetwork`, ... keys in
   * overrides) applies either way.
   * @default false
   */
  readonly allowPrivilegedPodOverrides?: boolean;
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
    return hasBrand(x, REGISTRY_SYMBOL);
  }

  /**
   * The registry nearest to `scope`: one that is a child of `scope` or of any of its ancestors.
   * Returns undefined when there is none.
   */
  public static tryOf(scope: IConstruct): ProviderRegistry | undefined {
    for (let s: IConstruct | undefined = scope; s; s = s.node.scope) {
      const marked: ProviderRegistry | undefined = (s as any)[REGISTRY_OF_SCOPE];
      if (!marked) continue; // no registry was ever added here
      if (s.node.tryFindChild(marked.node.id) === marked) return marked;
      // The marked one was removed (tryRemoveChild): another registry added here may remain.
      const other = s.node.children.find(ProviderRegistry.isProviderRegistry);
      if (other) return other;
    }
    return undefined;
  }

  /**
   * A registry for the cluster a profile file describes: `InferenceProviderConfig` documents name
   * the installed providers, with `status.ready` saying whether each is ready (absent counts as not
   * ready, as in AI Runway); at most one `Gateway` document (`gateway.networking.k8s.io/v1`) is the
   * default Gateway of model routes (it exists in the cluster: it is not synthesized); `NodePool`
   * documents declare the node pools. A `kind: List` of these, as
   * `kubectl get inferenceproviderconfigs -o yaml` prints, works as it is. A provider document
   * with a `spec` replaces the registered spec of that name; one without only marks it installed.
   * Throws, listing every problem with its document and field path, when the file is not a valid
   * profile.
   *
   * @param scope the App or Chart whose deployments use the registry
   * @param id construct id
   * @param file path of the profile YAML file
   * @param props further settings; `installedProviders` must not be set (the profile says it), a
   * `gateway` given here wins over the profile's, `nodePools` add to the profile's
   */
  public static fromProfile(scope: Construct, id: string, file: string, props: ProviderRegistryProps = {}): ProviderRegistry {
    if (props.installedProviders !== undefined) {
      throw new Error(`ProviderRegistry.fromProfile(${JSON.stringify(file)}): installedProviders must not be set; the profile lists the installed providers`);
    }
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e: any) {
      throw new Error(`ProviderRegistry.fromProfile: cannot read ${file}: ${e.code ?? e.message}`);
    }
    const problems: string[] = [];
    const documents: Array<{ index: number; content: unknown }> = [];
    yamlPackage().parseAllDocuments(text).forEach((doc: any, index: number) => {
      if (doc.errors?.length > 0) {
        for (const err of doc.errors) problems.push(`${file}[doc ${index + 1}]: invalid YAML: ${String(err.message).split('\n')[0]}`);
        return;
      }
      const content = doc.toJS();
      if (content !== null && content !== undefined) documents.push({ index, content });
    });
    const { profile, problems: profileProblems } = readClusterProfile(documents);
    const describe = (p: ProfileProblem) => `${file}[doc ${p.index + 1}]: ${formatFieldError(p.error)}`;
    problems.push(...profileProblems.map(describe));
    let gateway = props.gateway;
    if (!gateway && profile.gateways.length > 1) {
      problems.push(`${file}: the profile holds ${profile.gateways.length} Gateways (${profile.gateways.map((g) => `${g.namespace}/${g.name}`).join(', ')}); ` +
        'keep the one model routes attach to, or pass props.gateway');
    } else if (!gateway && profile.gateways.length === 1) {
      gateway = GatewayRef.fromName(profile.gateways[0].name, profile.gateways[0].namespace);
    }
    if (problems.length > 0) throw new Error(`ProviderRegistry.fromProfile: invalid cluster profile:\n  ${problems.join('\n  ')}`);
    const registry = new ProviderRegistry(scope, id, {
      ...props,
      gateway,
      nodePools: [...(props.nodePools ?? []), ...profile.nodePools.map((p) => p.pool as NodePool)],
    });
    const applied = registry._applyProfile(profile, file);
    if (applied.length > 0) throw new Error(`ProviderRegistry.fromProfile: invalid cluster profile:\n  ${applied.map(describe).join('\n  ')}`);
    return registry;
  }

  /** The default Gateway of model routes, if any. */
  public readonly gateway?: GatewayRef;

  /** API version of synthesized InferencePools. */
  public readonly inferencePoolApiVersion: InferencePoolApiVersion;

  /** Endpoint picker image for providers that do not name their own. */
  public readonly endpointPickerImage: string;

  /** The endpoint picker generation of deployments that do not choose one (`ProviderRegistryProps.endpointPicker`). */
  public readonly endpointPicker: EndpointPicker;

  /** Compute resources of the endpoint pickers, where set (`ProviderRegistryProps.endpointPickerResources`). */
  public readonly endpointPickerResources?: EndpointPickerResources;

  /**
   * Pod Security Standard of the model-server pods of deployments that do not choose their own.
   * @default - baseline (unset)
   */
  public readonly podSecurity?: PodSecurityLevel;

  /** Whether provider overrides may take pods below the Pod Security Standard "baseline" (see the prop). */
  public readonly allowPrivilegedPodOverrides: boolean;

  private readonly registrations = new Map<string, Registration>();
  private readonly pools: NodePoolSpec[] = [];
  /** `ProviderRegistryProps.endpointPickerImage`, when set. */
  private readonly namedEndpointPickerImage?: string;
  /** Field errors of the props (node pools, endpoint picker resources), reported at synth. */
  private readonly propsErrors: FieldError[] = [];
  /** Path of the first deployment that read the registry; changes after that are refused. */
  private consumedBy?: string;
  /** The catalog of the current registrations, built on first read (every deployment reads it). */
  private catalog?: ProviderCatalog;
  /** The installed providers and where that was said, when a cluster profile is in effect. */
  private profile?: { readonly names: ReadonlySet<string>; readonly source: string };

  public constructor(scope: Construct, id: string, props: ProviderRegistryProps = {}) {
    super(scope, id);
    addBrand(this, REGISTRY_SYMBOL);
    if (!(scope as any)[REGISTRY_OF_SCOPE]) Object.defineProperty(scope, REGISTRY_OF_SCOPE, { value: this });
    this.gateway = props.gateway;
    this.inferencePoolApiVersion = props.inferencePoolApiVersion ?? InferencePoolApiVersion.V1;
    this.endpointPicker = props.endpointPicker ?? DEFAULT_ENDPOINT_PICKER;
    this.endpointPickerImage = props.endpointPickerImage ?? endpointPickerImageFor(DEFAULT_ENDPOINT_PICKER_IMAGE, this.endpointPicker, false);
    this.namedEndpointPickerImage = props.endpointPickerImage;
    this.endpointPickerResources = props.endpointPickerResources;
    this.propsErrors.push(...endpointPickerResourceErrors(props.endpointPickerResources));
    this.podSecurity = props.podSecurity;
    this.allowPrivilegedPodOverrides = props.allowPrivilegedPodOverrides ?? false;
    if (props.includeShippedProviders ?? true) {
      for (const p of shippedProviders()) this.addProvider(p);
    }
    for (const p of props.providers ?? []) this.addProvider(p);
    for (const c of props.providerConfigs ?? []) this.register(c);
    for (const pool of props.nodePools ?? []) this.addNodePool(pool);
    if (props.installedProviders) this._useProfile(props.installedProviders, `installedProviders of ProviderRegistry ${this.node.path}`);
    this.node.addValidation({ validate: () => this.propsErrors.map(formatFieldError) });
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
      this.propsErrors.push(invalid('nodePools[].name', pool.name, 'a node pool needs a name'));
      return;
    }
    if (this.pools.some((p) => p.name === pool.name)) {
      this.propsErrors.push(invalid(`${at}.name`, pool.name, 'is declared twice; pool names are unique'));
      return;
    }
    if (this.pools.length >= MAX_NODE_POOLS) {
      this.propsErrors.push(invalid(at, pool.name, `more than ${MAX_NODE_POOLS} node pools`));
      return;
    }
    // A copy: the check must see the pool as it was declared, whatever the caller changes later.
    const spec: NodePoolSpec = structuredClone({ ...pool });
    const errors = nodePoolErrors(spec, at);
    if (errors.length > 0) this.propsErrors.push(...errors);
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
   * Names of the providers installed in the target cluster, sorted, when a cluster profile is in
   * effect (`installedProviders` or `fromProfile`); undefined when every registered provider counts
   * as installed.
   */
  public get installedProviders(): string[] | undefined {
    return this.profile && [...this.profile.names].sort();
  }

  /**
   * What a deployment resolves against. A deployment resolves when it is constructed, so the
   * first read fixes the registry: a later change would silently not apply to it. With a cluster
   * profile, the providers it lacks stay in the catalog only to say why they were skipped.
   * @internal
   */
  public _catalog(consumer?: string): ProviderCatalog {
    this.consumedBy ??= consumer;
    this.catalog ??= providerCatalog([...this.registrations.values()].map((r) => this.catalogRegistration(r)));
    return this.catalog;
  }

  /**
   * Makes `names` the installed providers; `source` names the profile in messages.
   * @internal
   */
  public _useProfile(names: readonly string[], source: string): void {
    this.assertNotConsumed('installedProviders');
    this.profile = { names: new Set(names), source };
    this.catalog = undefined;
  }

  /**
   * The cluster profile in effect, if any.
   * @internal
   */
  public _profile(): ClusterProfileRef | undefined {
    return this.profile && { source: this.profile.source, providers: [...this.profile.names].sort() };
  }

  /**
   * Applies a cluster profile read from `source`: a provider document with a spec registers it
   * (keeping the translation of that name), one without sets the readiness of the registered
   * provider; then only the listed providers are installed. Returns the providers it cannot apply.
   * @internal
   */
  public _applyProfile(profile: ClusterProfile, source: string): ProfileProblem[] {
    const problems: ProfileProblem[] = [];
    const installed: string[] = [];
    for (const p of profile.providers) {
      if (p.entry) {
        this.register(InferenceProviderConfig._fromEntry(p.entry));
        installed.push(p.name);
      } else if (this.registrations.has(p.name)) {
        this.setReady(p.name, p.ready);
        installed.push(p.name);
      } else {
        problems.push({
          index: p.at.index,
          error: required(`${p.at.prefix}spec`,
            `"${p.name}" is not a registered provider (registered: ${this.providerNames.join(', ')})${didYouMean(p.name, this.providerNames)}; ` +
            'give its spec here, or define it with an InferenceProviderConfig of its own'),
        });
      }
    }
    this._useProfile(installed, source);
    return problems;
  }

  /** One registration as selection sees it: with a profile, marked installed or not. */
  private catalogRegistration(r: Registration): ProviderRegistration {
    const entry = r.config._toEntry();
    const profile = this._profile();
    if (!profile) return { config: entry, provider: r.provider };
    const unknown = profile.providers.filter((name) => !this.registrations.has(name));
    if (unknown.length > 0) {
      throw new Error(`ProviderRegistry ${this.node.path}: ${profile.source} names ${unknown.map((n) => JSON.stringify(n)).join(', ')}, ` +
        `which ${unknown.length > 1 ? 'are' : 'is'} not registered (registered: ${this.providerNames.join(', ')})${didYouMean(unknown[0], this.providerNames)}`);
    }
    if (profile.providers.includes(entry.name)) return { config: { ...entry, profile }, provider: r.provider };
    // Not in the cluster: no capabilities for compatibility checks to count, no translation.
    return { config: { name: entry.name, ready: false, spec: {}, profile, notInProfile: true } };
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
    return {
      gateway: this.gateway,
      inferencePoolApiVersion: this.inferencePoolApiVersion,
      // Unnamed, the shipped default: it follows each deployment's generation (endpointPickerImageFor).
      endpointPickerImage: this.namedEndpointPickerImage ?? DEFAULT_ENDPOINT_PICKER_IMAGE,
      endpointPickerResources: this.endpointPickerResources,
      endpointPicker: this.endpointPicker,
    };
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
