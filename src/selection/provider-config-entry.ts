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
}
