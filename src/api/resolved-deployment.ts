import { EngineType } from './engine';
import { ServingMode } from './serving';

/**
 * A ModelDeployment as admission sees it: after AI Runway's defaulting, before engine and provider
 * selection.
 */
export interface DeploymentDescription {
  /** `metadata.name`. */
  readonly name: string;

  /**
   * `metadata.namespace`.
   * @default - none (the chart's namespace, when there is one, has already been filled in)
   */
  readonly namespace?: string;

  /** `metadata.labels` (empty when none). */
  readonly labels: { [key: string]: string };

  /** `metadata.annotations` (empty when none). */
  readonly annotations: { [key: string]: string };

  /**
   * The spec in AI Runway's JSON shape (`airunway.ai/v1alpha1` ModelDeployment `spec`:
   * `model`, `engine`, `provider`, `serving`, `scaling`, `resources`, ...), defaulted.
   */
  readonly spec: any;
}

/**
 * A ModelDeployment after defaulting, validation and selection: what a provider validates,
 * translates and routes. `spec.engine.type` and `spec.provider.name` hold the resolved engine and
 * provider; `spec.gateway.enabled` holds the build-time routing decision when one was made.
 */
export interface ResolvedDeployment extends DeploymentDescription {
  /** The engine that runs the model (explicit or auto-selected). */
  readonly engineType: EngineType;

  /** The serving mode (`spec.serving.mode`, aggregated when unset). */
  readonly servingMode: ServingMode;

  /** The provider that deploys it (explicit or auto-selected). */
  readonly providerName: string;

  /** Why the engine was chosen, e.g. `explicit engine selection`. */
  readonly engineSelectedReason: string;

  /** Why the provider was chosen, e.g. `matched capabilities: engine=vllm, gpu=true, mode=aggregated`. */
  readonly providerSelectedReason: string;
}
