import type { ProviderConfigEntry } from '../../api/provider/provider-config-entry';
import type { InferenceProviderConfigSpec } from '../../core/generated/inference-provider-config-spec';

/** InferenceProviderConfig name of KubeRay (Ray Serve). */
export const KUBERAY_PROVIDER_NAME = 'kuberay';

/**
 * The InferenceProviderConfig spec the KubeRay provider registers (AI Runway at b0d3fb7), in its
 * serialised form. Ray Serve only passes the OpenAI chat API through, hence the single API
 * format; there are no gateway capabilities.
 */
export function kuberayProviderConfigSpec(): InferenceProviderConfigSpec {
  return {
    capabilities: {
      engines: [
        {
          name: 'vllm',
          servingModes: ['aggregated', 'disaggregated'],
          apiFormats: ['openai-chat'],
          gpuSupport: true,
        },
      ],
    },
    selectionRules: [
      { condition: "has(spec.resources.gpu) && spec.resources.gpu.count > 1 && spec.engine.type == 'vllm'", priority: 80 },
    ],
  };
}

/** The shipped `kuberay` provider config. */
export function kuberayProviderConfig(ready: boolean = true): ProviderConfigEntry {
  return { name: KUBERAY_PROVIDER_NAME, ready, spec: kuberayProviderConfigSpec() };
}
