import { shippedProviders } from '../../src/providers/shipped-providers';
import type { ProviderConfigEntry } from '../../src/selection/provider-config-entry';

/** The InferenceProviderConfigs of the shipped providers, all ready, in name order. */
export const SHIPPED_PROVIDER_CONFIGS: readonly ProviderConfigEntry[] = shippedProviders().map((p) => p.config._toEntry());
