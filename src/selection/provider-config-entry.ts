import type { InferenceProviderConfigSpec } from '../core/generated/inference-provider-config-spec';

/**
 * One InferenceProviderConfig as selection sees it: its name, whether it counts as ready, and
 * its spec in the AI Runway JSON shape. At build time "ready" is declared, not observed: shipped
 * providers are ready unless the user says otherwise.
 */
export interface ProviderConfigEntry {
  readonly name: string;
  readonly ready: boolean;
  readonly spec: InferenceProviderConfigSpec;
  /**
   * Ours, not AI Runway's: the provider is never auto-selected, and its engines count for engine
   * auto-selection only when the deployment names it (`spec.provider.name`). Annotation
   * `inference.cdk8s.io/explicit-selection-only: "true"` on an InferenceProviderConfig document.
   */
  readonly explicitSelectionOnly?: boolean;
}

/** InferenceProviderConfig annotation: `"true"` makes the provider explicit-selection only. */
export const EXPLICIT_SELECTION_ONLY_ANNOTATION = 'inference.cdk8s.io/explicit-selection-only';
