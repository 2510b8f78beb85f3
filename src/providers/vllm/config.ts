import type { ProviderConfigEntry } from '../../api/provider/provider-config-entry';
import type { InferenceProviderConfigSpec } from '../../core/generated/inference-provider-config-spec';

/** InferenceProviderConfig name of Direct vLLM (a plain Deployment and Service). */
export const VLLM_PROVIDER_NAME = 'vllm';

/**
 * The InferenceProviderConfig spec the Direct vLLM provider registers (AI Runway at b0d3fb7), in
 * its serialised form: aggregated serving only, no gateway capabilities, `requiresCRD` unset.
 *
 * It has no selection rules, yet it is a priority-0 candidate wherever its capability fits; it
 * loses every tie to the alphabetically smaller providers, so it is auto-selected only when no
 * other compatible provider is ready.
 */
export function vllmProviderConfigSpec(): InferenceProviderConfigSpec {
  return {
    capabilities: {
      engines: [
        {
          name: 'vllm',
          servingModes: ['aggregated'],
          apiFormats: ['openai-chat', 'openai-responses', 'anthropic-messages'],
          gpuSupport: true,
        },
      ],
    },
  };
}

/** The shipped `vllm` provider config. */
export function vllmProviderConfig(ready: boolean = true): ProviderConfigEntry {
  return { name: VLLM_PROVIDER_NAME, ready, spec: vllmProviderConfigSpec() };
}
