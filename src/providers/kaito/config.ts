import type { ProviderConfigEntry } from '../../api/provider/provider-config-entry';
import type { InferenceProviderConfigSpec } from '../../core/generated/inference-provider-config-spec';

/** InferenceProviderConfig name of KAITO. */
export const KAITO_PROVIDER_NAME = 'kaito';

/**
 * The InferenceProviderConfig spec the KAITO provider registers (AI Runway at b0d3fb7), in its
 * serialised form (`false` booleans omitted; `requiresCRD` unset, read as true).
 *
 * KAITO is the only shipped provider with a CPU-capable engine (llama.cpp); its first rule claims
 * deployments without GPUs, but only when `resources` is present: `has()` on a missing
 * `spec.resources` is a CEL error, so a spec without `resources` reaches KAITO through the
 * llama.cpp rule (or as the only CPU candidate) instead.
 */
export function kaitoProviderConfigSpec(): InferenceProviderConfigSpec {
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
          // llama.cpp workspaces do not serve under spec.model.servedName.
          gateway: { ignoresServedName: true },
        },
      ],
    },
    selectionRules: [
      { condition: '!has(spec.resources.gpu) || spec.resources.gpu.count == 0', priority: 100 },
      { condition: "spec.engine.type == 'llamacpp'", priority: 100 },
    ],
  };
}

/** The shipped `kaito` provider config. */
export function kaitoProviderConfig(ready: boolean = true): ProviderConfigEntry {
  return { name: KAITO_PROVIDER_NAME, ready, spec: kaitoProviderConfigSpec() };
}
