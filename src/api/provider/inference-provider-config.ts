import { EngineType } from '../engine';
import { ApiFormat, ServingMode } from '../serving';
import { parseInferenceProviderConfigManifest } from './inference-provider-config-manifest';
import { EXPLICIT_SELECTION_ONLY_ANNOTATION, ProviderConfigEntry } from './provider-config-entry';
import type { EngineCapability, InferenceProviderConfigSpec } from '../../core/generated/inference-provider-config-spec';

/**
 * What a provider's gateway integration needs (`capabilities.engines[].gateway`).
 */
export interface GatewayCapabilityOptions {
  /**
   * The provider creates its own InferencePool; no pool or endpoint picker is synthesized for it.
   * @default false
   */
  readonly managesInferencePool?: boolean;

  /**
   * Name of the provider's pool, with `{name}` and `{namespace}` placeholders.
   * @default - the deployment name
   */
  readonly inferencePoolNamePattern?: string;

  /**
   * Namespace of the provider's pool, with `{name}` and `{namespace}` placeholders.
   * @default - the deployment namespace
   */
  readonly inferencePoolNamespace?: string;

  /**
   * Endpoint picker image (ignored when the provider manages its pool).
   * @default - the default endpoint picker image
   */
  readonly endpointPickerImage?: string;

  /**
   * Raw EndpointPickerConfig YAML for the endpoint picker.
   * @default - the default plugin configuration
   */
  readonly endpointPickerConfig?: string;

  /**
   * The routed model name ignores `servedName`.
   * @default false
   */
  readonly ignoresServedName?: boolean;
}

/**
 * One engine a provider can run, and how (`capabilities.engines[]`).
 */
export interface EngineCapabilityOptions {
  /** The engine. */
  readonly engineType: EngineType;

  /**
   * Serving modes supported with this engine. An empty list supports nothing.
   * @default [ServingMode.AGGREGATED]
   */
  readonly servingModes?: ServingMode[];

  /**
   * API formats exposed with this engine.
   * @default [ApiFormat.OPENAI_CHAT]
   */
  readonly apiFormats?: ApiFormat[];

  /**
   * Runs on GPUs.
   * @default false
   */
  readonly gpuSupport?: boolean;

  /**
   * Runs on CPUs only.
   * @default false
   */
  readonly cpuSupport?: boolean;

  /**
   * The provider needs its upstream CRDs installed.
   * @default true
   */
  readonly requiresCrd?: boolean;

  /**
   * Gateway integration.
   * @default - the controller-managed InferencePool and endpoint picker
   */
  readonly gateway?: GatewayCapabilityOptions;
}

/**
 * A CEL rule that raises a provider's priority when it matches (`selectionRules[]`).
 */
export interface SelectionRule {
  /**
   * CEL expression over the variable `spec` (the ModelDeployment spec with zero values omitted).
   * A rule that fails to compile, errors or is not boolean does not match.
   */
  readonly condition: string;

  /**
   * Priority when the rule matches; the highest matching priority of a provider counts.
   * @default 0
   */
  readonly priority?: number;
}

/**
 * Props of an `InferenceProviderConfig`.
 */
export interface InferenceProviderConfigProps {
  /** Provider name, as used in `provider.name` (e.g. `vllm`). */
  readonly name: string;

  /**
   * Engines the provider can run.
   * @default - none: the provider can only be named explicitly and nothing is checked
   */
  readonly engines?: EngineCapabilityOptions[];

  /**
   * Selection rules.
   * @default - none: the provider is a priority-0 candidate wherever it is compatible
   */
  readonly selectionRules?: SelectionRule[];

  /**
   * Whether the provider counts as ready (installed and healthy) for auto-selection. At build time
   * this is declared, not observed: set it to false for providers the target cluster lacks.
   * @default true
   */
  readonly ready?: boolean;

  /**
   * Select the provider only when a deployment names it (`provider.name`): it is never
   * auto-selected, and its engines count for engine auto-selection only then. Not an AI Runway
   * field: in YAML, the annotation `inference.cdk8s.io/explicit-selection-only: "true"`.
   * @default false
   */
  readonly explicitSelectionOnly?: boolean;
}

/**
 * A provider's capabilities and selection rules (AI Runway `InferenceProviderConfig`,
 * `airunway.ai/v1alpha1`). Register it with a `ProviderRegistry` to add or replace a provider.
 */
export class InferenceProviderConfig {
  /**
   * An InferenceProviderConfig from its AI Runway manifest (a parsed YAML object).
   *
   * @param manifest the object, with `metadata.name` and `spec`
   * @param ready whether the provider counts as ready; default: the manifest's `status.ready`
   * when present, else true
   */
  public static fromManifest(manifest: any, ready?: boolean): InferenceProviderConfig {
    return InferenceProviderConfig._fromEntry(parseInferenceProviderConfigManifest(manifest, ready));
  }

  /** @internal */
  public static _fromEntry(entry: ProviderConfigEntry): InferenceProviderConfig {
    const config = new InferenceProviderConfig({ name: entry.name, ready: entry.ready, explicitSelectionOnly: entry.explicitSelectionOnly });
    config._spec = entry.spec;
    return config;
  }

  /**
   * Provider name.
   */
  public readonly name: string;

  /**
   * Whether the provider counts as ready for auto-selection.
   */
  public readonly ready: boolean;

  /**
   * Whether the provider is selected only when a deployment names it.
   */
  public readonly explicitSelectionOnly: boolean;

  /** @internal */
  public _spec: InferenceProviderConfigSpec;

  public constructor(props: InferenceProviderConfigProps) {
    this.name = props.name;
    this.ready = props.ready ?? true;
    this.explicitSelectionOnly = props.explicitSelectionOnly ?? false;
    this._spec = specFromProps(props);
  }

  /**
   * Returns a copy with a different readiness.
   */
  public withReady(ready: boolean): InferenceProviderConfig {
    return InferenceProviderConfig._fromEntry({ ...this._toEntry(), ready });
  }

  /** @internal */
  public _toEntry(): ProviderConfigEntry {
    return { name: this.name, ready: this.ready, spec: this._spec, ...(this.explicitSelectionOnly && { explicitSelectionOnly: true }) };
  }

  /**
   * The AI Runway manifest of this config (`airunway.ai/v1alpha1` `InferenceProviderConfig`).
   */
  public toManifest(): any {
    return {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'InferenceProviderConfig',
      metadata: {
        name: this.name,
        ...(this.explicitSelectionOnly && { annotations: { [EXPLICIT_SELECTION_ONLY_ANNOTATION]: 'true' } }),
      },
      spec: JSON.parse(JSON.stringify(this._spec)),
    };
  }
}

function specFromProps(props: InferenceProviderConfigProps): InferenceProviderConfigSpec {
  const spec: InferenceProviderConfigSpec = {};
  if (props.engines) {
    spec.capabilities = { engines: props.engines.map(engineCapability) };
  }
  if (props.selectionRules) {
    spec.selectionRules = props.selectionRules.map((r) => ({ condition: r.condition, priority: r.priority ?? 0 }));
  }
  return spec;
}

function engineCapability(e: EngineCapabilityOptions): EngineCapability {
  const cap: EngineCapability = {
    name: e.engineType,
    servingModes: e.servingModes ?? [ServingMode.AGGREGATED],
    gpuSupport: e.gpuSupport ?? false,
    cpuSupport: e.cpuSupport ?? false,
  };
  if (e.apiFormats) cap.apiFormats = e.apiFormats;
  if (e.requiresCrd !== undefined) cap.requiresCRD = e.requiresCrd;
  if (e.gateway) {
    const g = e.gateway;
    cap.gateway = {
      ...(g.managesInferencePool !== undefined && { managesInferencePool: g.managesInferencePool }),
      ...(g.inferencePoolNamePattern !== undefined && { inferencePoolNamePattern: g.inferencePoolNamePattern }),
      ...(g.inferencePoolNamespace !== undefined && { inferencePoolNamespace: g.inferencePoolNamespace }),
      ...((g.endpointPickerImage !== undefined || g.endpointPickerConfig !== undefined) && {
        endpointPicker: {
          ...(g.endpointPickerImage !== undefined && { image: g.endpointPickerImage }),
          ...(g.endpointPickerConfig !== undefined && { configData: g.endpointPickerConfig }),
        },
      }),
      ...(g.ignoresServedName !== undefined && { ignoresServedName: g.ignoresServedName }),
    };
  }
  return cap;
}
