import type { ProviderTranslator } from './provider-translator';
import { SHIPPED_PROVIDER_CONFIGS } from './shipped-configs';
import { SHIPPED_TRANSLATORS } from './shipped-translators';
import type { ProviderConfigEntry } from '../core/provider-config-entry';

/** Entries of the shipped providers: the registry where none is in scope. */
export function defaultProviderEntries(): ProviderConfigEntry[] {
  return [...SHIPPED_PROVIDER_CONFIGS];
}

/** The shipped translator of a provider, if it has one. */
export function defaultTranslator(name: string): ProviderTranslator | undefined {
  return SHIPPED_TRANSLATORS.find((t) => t.providerName === name);
}
