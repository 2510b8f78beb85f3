import { dynamoTranslator } from './dynamo/translator';
import { kaitoTranslator } from './kaito/translator';
import { kuberayTranslator } from './kuberay/translator';
import { llmdTranslator } from './llmd/translator';
import type { ProviderTranslator } from './provider-translator';
import { vllmTranslator } from './vllm/translator';

/**
 * Providers whose translation into upstream objects is implemented. A selected provider that is
 * not here fails the synth with a message naming it.
 */
export const SHIPPED_TRANSLATORS: readonly ProviderTranslator[] = [
  dynamoTranslator,
  kaitoTranslator,
  kuberayTranslator,
  llmdTranslator,
  vllmTranslator,
];
