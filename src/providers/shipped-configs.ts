import type { ProviderConfigEntry } from '../core/provider-config-entry';
import { dynamoProviderConfig } from './dynamo/config';
import { kaitoProviderConfig } from './kaito/config';
import { kuberayProviderConfig } from './kuberay/config';
import { llmdProviderConfig } from './llmd/config';
import { vllmProviderConfig } from './vllm/config';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * The InferenceProviderConfigs AI Runway's five provider shims register, all ready, in name
 * order. Frozen: callers that need a variant build one with the per-provider functions
 * (`dynamoProviderConfig(false)`, ...).
 */
export const SHIPPED_PROVIDER_CONFIGS: readonly ProviderConfigEntry[] = deepFreeze([
  dynamoProviderConfig(),
  kaitoProviderConfig(),
  kuberayProviderConfig(),
  llmdProviderConfig(),
  vllmProviderConfig(),
]);
