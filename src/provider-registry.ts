import { Construct, IConstruct } from 'constructs';
import type { ProviderConfigEntry } from './core/provider-config-entry';
import { GatewayRef, InferencePoolApiVersion } from './gateway';
import { InferenceProviderConfig } from './inference-provider-config';
import { DYNAMO_PROVIDER_NAME } from './providers/dynamo/config';
import { createDynamoTranslator } from './providers/dynamo/translator';
import { KAITO_PROVIDER_NAME } from './providers/kaito/config';
import { createKaitoTranslator } from './providers/kaito/translator';
import type { ProviderTranslator, TranslationOptions } from './providers/provider-translator';
import { SHIPPED_PROVIDER_CONFIGS } from './providers/shipped-configs';
import { SHIPPED_TRANSLATORS } from './providers/shipped-translators';
import { DEFAULT_ENDPOINT_PICKER_IMAGE } from './routing/endpoint-picker';
import type { RoutingDefaults } from './routing/model-routing';

const REGISTRY_SYMBOL = Symbol.for('cdk8s-inference.ProviderRegistry');

/**
 * DynamoGraphDeployment API versions the Dynamo provider can emit.
 */
export enum DynamoApiVersion {
  /** What AI Runway emits (`spec.services` map); still served by Dynamo, deprecated. */
  V1ALPHA1 = 'nvidia.com/v1alpha1',
  /** Dynamo's storage version (`spec.components` list). */
  V1BETA1 = 'nvidia.com/v1beta1',
}

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
   * Tag of the default NVIDIA Dynamo images (vLLM/SGLang/TensorRT-LLM runtimes, frontend).
   * @default '1.1.1'
   */
  readonly dynamoVersion?: string;

  /**
   * Image of the model download Job that fills a managed model cache (Dynamo).
   * @default 'ghcr.io/ai-runway/airunway/model-downloader:latest'
   */
  readonly modelDownloadImage?: string;

  /**
   * KAITO node auto-provisioning: the `resource.instanceType` of Workspaces that request GPUs.
   * @default - none: bring-your-own GPU nodes
   */
  readonly kaitoGpuInstanceType?: string;

  /**
   * KAITO node auto-provisioning: the `resource.instanceType` of Workspaces without GPUs.
   * @default - none: bring-your-own CPU nodes
   */
  readonly kaitoCpuInstanceType?: string;

  /**
   * DynamoGraphDeployment version for every deployment of this registry; a deployment may choose
   * its own with the annotation `inference.cdk8s.io/dynamo-api-version`.
   * @default DynamoApiVersion.V1ALPHA1
   */
  readonly dynamoApiVersion?: DynamoApiVersion;

  /**
   * Start with the providers AI Runway ships: dynamo, kaito, kuberay, llmd and vllm, all ready.
   * @default true
   */
  readonly includeShippedProviders?: boolean;

  /**
   * Further providers; one with the name of a shipped provider replaces it.
   * @default - none
   */
  readonly providers?: InferenceProviderConfig[];
}

/**
 * The InferenceProviderConfigs that engine and provider selection consider. Add one to an App or
 * Chart; every ModelDeployment below it uses it (`ProviderRegistry.of`). Without one, a
 * deployment uses the shipped providers.
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

  /** DynamoGraphDeployment version emitted for this registry's deployments. */
  public readonly dynamoApiVersion: DynamoApiVersion;

  /** The default Gateway of model routes, if any. */
  public readonly gateway?: GatewayRef;

  /** API version of synthesized InferencePools. */
  public readonly inferencePoolApiVersion: InferencePoolApiVersion;

  /** Endpoint picker image for providers that do not name their own. */
  public readonly endpointPickerImage: string;

  private readonly configsByName = new Map<string, InferenceProviderConfig>();
  /** Path of the first deployment that read the registry; changes after that are refused. */
  private consumedBy?: string;
  /** Translators by provider name; user-registered configs without one cannot be translated. */
  private readonly translators = new Map<string, ProviderTranslator>();

  public constructor(scope: Construct, id: string, props: ProviderRegistryProps = {}) {
    super(scope, id);
    Object.defineProperty(this, REGISTRY_SYMBOL, { value: true });
    this.dynamoApiVersion = props.dynamoApiVersion ?? DynamoApiVersion.V1ALPHA1;
    this.gateway = props.gateway;
    this.inferencePoolApiVersion = props.inferencePoolApiVersion ?? InferencePoolApiVersion.V1;
    this.endpointPickerImage = props.endpointPickerImage ?? DEFAULT_ENDPOINT_PICKER_IMAGE;
    if (props.includeShippedProviders ?? true) {
      for (const entry of SHIPPED_PROVIDER_CONFIGS) this.register(InferenceProviderConfig._fromEntry(entry));
    }
    for (const t of SHIPPED_TRANSLATORS) this.translators.set(t.providerName, t);
    // Providers whose translation depends on settings of this registry.
    const { dynamoVersion, modelDownloadImage } = props;
    this.translators.set(DYNAMO_PROVIDER_NAME, createDynamoTranslator({ dynamoVersion, modelDownloadImage }));
    this.translators.set(
      KAITO_PROVIDER_NAME,
      createKaitoTranslator({ nodeProvisioning: { gpuInstanceType: props.kaitoGpuInstanceType, cpuInstanceType: props.kaitoCpuInstanceType } }),
    );
    for (const p of props.providers ?? []) this.register(p);
  }

  /**
   * Adds a provider, or replaces the one with the same name.
   */
  public register(config: InferenceProviderConfig): void {
    this.assertNotConsumed('register');
    this.configsByName.set(config.name, config);
  }

  /**
   * Marks a registered provider ready or not ready (e.g. not installed in the target cluster).
   */
  public setReady(name: string, ready: boolean): void {
    this.assertNotConsumed('setReady');
    const config = this.configsByName.get(name);
    if (!config) throw new Error(`ProviderRegistry: no provider named "${name}" (registered: ${this.providerNames.join(', ')})`);
    this.configsByName.set(name, config.withReady(ready));
  }

  /**
   * The registered provider with this name, if any.
   */
  public tryGet(name: string): InferenceProviderConfig | undefined {
    return this.configsByName.get(name);
  }

  /**
   * Names of the registered providers, sorted.
   */
  public get providerNames(): string[] {
    return [...this.configsByName.keys()].sort();
  }

  /**
   * The entries selection considers. A deployment resolves when it is constructed, so the first
   * read fixes the registry: a later change would silently not apply to it.
   * @internal
   */
  public _entries(consumer?: string): ProviderConfigEntry[] {
    this.consumedBy ??= consumer;
    // Selection orders providers by name itself (byte order, as Go compares strings).
    return [...this.configsByName.values()].map((c) => c._toEntry());
  }

  private assertNotConsumed(method: string): void {
    if (this.consumedBy !== undefined) {
      throw new Error(
        `ProviderRegistry ${this.node.path}: ${method}() after ${this.consumedBy} already selected its provider from this registry; ` +
          'register providers and set readiness before creating ModelDeployments',
      );
    }
  }

  /** @internal */
  public _translator(name: string): ProviderTranslator | undefined {
    return this.translators.get(name);
  }

  /** @internal */
  public _translationOptions(): TranslationOptions {
    return { dynamoApiVersion: this.dynamoApiVersion };
  }

  /** @internal */
  public _routingDefaults(): RoutingDefaults {
    return { gateway: this.gateway, inferencePoolApiVersion: this.inferencePoolApiVersion, endpointPickerImage: this.endpointPickerImage };
  }
}

