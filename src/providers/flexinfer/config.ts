import type { ProviderConfigEntry } from '../../api/provider/provider-config-entry';
import type { InferenceProviderConfigSpec } from '../../core/generated/inference-provider-config-spec';

/** InferenceProviderConfig name of FlexInfer (one `ai.flexinfer/v1alpha2` Model per deployment). */
export const FLEXINFER_PROVIDER_NAME = 'flexinfer';

/**
 * The capabilities of the FlexInfer target, in AI Runway's terms: of its backends, the two that
 * are AI Runway engines — vllm (NVIDIA or AMD GPUs) and llamacpp (GPUs or CPU only) — in
 * aggregated serving only (a Model is one pod template; FlexInfer has no prefill/decode split).
 * API formats are what each server speaks: vLLM's OpenAI chat and responses and Anthropic
 * messages endpoints; llama-server's OpenAI chat.
 *
 * No selection rules: FlexInfer is selected only when a deployment names it
 * (`explicitSelectionOnly`), because its defaults (scale-to-zero, GPU time-sharing) change what a
 * deployment means and should be chosen on purpose.
 */
export function flexInferProviderConfigSpec(): InferenceProviderConfigSpec {
  return {
    capabilities: {
      engines: [
        {
          name: 'vllm',
          servingModes: ['aggregated'],
          apiFormats: ['openai-chat', 'openai-responses', 'anthropic-messages'],
          gpuSupport: true,
        },
        {
          name: 'llamacpp',
          servingModes: ['aggregated'],
          apiFormats: ['openai-chat'],
          gpuSupport: true,
          cpuSupport: true,
        },
      ],
    },
  };
}

/** The `flexinfer` provider config: explicit selection only. */
export function flexInferProviderConfig(ready: boolean = true): ProviderConfigEntry {
  return { name: FLEXINFER_PROVIDER_NAME, ready, spec: flexInferProviderConfigSpec(), explicitSelectionOnly: true };
}
