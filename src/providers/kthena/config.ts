import type { ProviderConfigEntry } from '../../api/provider/provider-config-entry';
import type { InferenceProviderConfigSpec } from '../../core/generated/inference-provider-config-spec';

/** InferenceProviderConfig name of Kthena. */
export const KTHENA_PROVIDER_NAME = 'kthena';

/** Kthena's default scheduler (the ModelServing CRD's default): Volcano, which gang-schedules each ServingGroup. */
export const KTHENA_DEFAULT_SCHEDULER = 'volcano';

/**
 * The InferenceProviderConfig spec of the Kthena provider (ours: AI Runway has no Kthena
 * provider). Kthena's router and ModelServer know two engines, vLLM and SGLang, each aggregated
 * or split into prefill and decode roles; both run on GPUs only, like the other vLLM providers.
 * No selection rules: the provider is explicit-selection only (see `kthenaProviderConfig`).
 *
 * SGLang lists only `openai-chat`: its own server has no Responses API, and the Anthropic
 * Messages API that Dynamo's SGLang capability lists comes from Dynamo's frontend, which Kthena
 * does not have.
 */
export function kthenaProviderConfigSpec(): InferenceProviderConfigSpec {
  return {
    capabilities: {
      engines: [
        {
          name: 'vllm',
          servingModes: ['aggregated', 'disaggregated'],
          apiFormats: ['openai-chat', 'openai-responses', 'anthropic-messages'],
          gpuSupport: true,
        },
        {
          name: 'sglang',
          servingModes: ['aggregated', 'disaggregated'],
          apiFormats: ['openai-chat'],
          gpuSupport: true,
        },
      ],
    },
  };
}

/**
 * The `kthena` provider config. Explicit-selection only: a cluster that has Kthena installed
 * usually has other providers too, and Kthena needs its own router and (by default) Volcano, so
 * a deployment lands on it only when it names it (`spec.provider.name: kthena`).
 */
export function kthenaProviderConfig(ready: boolean = true): ProviderConfigEntry {
  return { name: KTHENA_PROVIDER_NAME, ready, spec: kthenaProviderConfigSpec(), explicitSelectionOnly: true };
}
