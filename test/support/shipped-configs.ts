import type { ProviderConfigEntry } from '../../src/core/provider-config-entry';
import { shippedProviders } from '../../src/providers/shipped-providers';

/** The InferenceProviderConfigs of the shipped providers, all ready, in name order. */
export const SHIPPED_PROVIDER_CONFIGS: readonly ProviderConfigEntry[] = shippedProviders().map((p) => p.config._toEntry());
