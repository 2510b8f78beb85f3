import type { InferenceProviderConfigSpec } from '../../core/generated/inference-provider-config-spec';

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
  /**
   * The cluster profile in effect, on every entry when there is one (`ProviderRegistry`
   * `installedProviders` or `fromProfile`, CLI `--profile`); absent when every registered
   * provider is assumed installed.
   */
  readonly profile?: ClusterProfileRef;
  /**
   * The profile in effect does not list this provider: it is not installed in the target cluster.
   * Such an entry is kept only so selection can say why it skipped it; it is never ready, declares
   * no capabilities (so no compatibility check counts it) and has no translation.
   */
  readonly notInProfile?: boolean;
}

/** Which providers the target cluster has, and where that was said. */
export interface ClusterProfileRef {
  /** Where the profile came from, as messages name it: a file, or a registry's `installedProviders`. */
  readonly source: string;
  /** The providers the profile lists (installed, ready or not), sorted. */
  readonly providers: readonly string[];
}

/** `provider "kaito" is not in the cluster profile FILE, which lists a, b`. */
export function notInProfileMessage(name: string, profile: ClusterProfileRef): string {
  const listed = profile.providers.length > 0 ? profile.providers.join(', ') : 'no provider';
  return `provider ${JSON.stringify(name)} is not in the cluster profile ${profile.source}, which lists ${listed}`;
}

/** InferenceProviderConfig annotation: `"true"` makes the provider explicit-selection only. */
export const EXPLICIT_SELECTION_ONLY_ANNOTATION = 'inference.cdk8s.io/explicit-selection-only';
