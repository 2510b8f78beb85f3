import type { InferenceProvider } from '../api/provider/inference-provider';
import type { ProviderConfigEntry } from '../api/provider/provider-config-entry';

/**
 * The providers one deployment is resolved against: the InferenceProviderConfigs selection
 * considers, and the provider object behind each name (none for a config declared without a
 * translation).
 */
export interface ProviderCatalog {
  /** Every registered config, ready or not. */
  readonly entries: readonly ProviderConfigEntry[];
  /** The provider object registered under `name`, if any. */
  provider(name: string): InferenceProvider | undefined;
}

/** One registered name: its config and the provider object behind it, if any. */
export interface ProviderRegistration {
  readonly config: ProviderConfigEntry;
  readonly provider?: InferenceProvider;
}

/** The catalog of a set of registrations (names are unique). */
export function providerCatalog(registrations: Iterable<ProviderRegistration>): ProviderCatalog {
  const all = [...registrations];
  // Selection orders providers by name itself (byte order, as Go compares strings).
  const providers = new Map(all.map((r) => [r.config.name, r.provider]));
  return { entries: all.map((r) => r.config), provider: (name) => providers.get(name) };
}
