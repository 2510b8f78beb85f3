import type { ProviderConfigEntry } from '../../src/api/provider/provider-config-entry';
import { shippedProviders } from '../../src/pipeline/shipped-providers';

/** The InferenceProviderConfigs of the shipped providers, all ready, in name order. */
export const SHIPPED_PROVIDER_CONFIGS: readonly ProviderConfigEntry[] = shippedProviders().map((p) => p.config._toEntry());

/** The providers AI Runway itself ships (spec §2.6); the others are our explicit-selection-only targets. */
export const AIRUNWAY_PROVIDER_NAMES: readonly string[] = ['dynamo', 'kaito', 'kuberay', 'llmd', 'vllm'];

/** The InferenceProviderConfigs of AI Runway's five, as AI Runway registers them. */
export const AIRUNWAY_PROVIDER_CONFIGS: readonly ProviderConfigEntry[] = SHIPPED_PROVIDER_CONFIGS
  .filter((c) => AIRUNWAY_PROVIDER_NAMES.includes(c.name));
