import type { ProviderConfigEntry } from '../../api/provider/provider-config-entry';
import type { InferenceProviderConfigSpec } from '../../core/generated/inference-provider-config-spec';

/** InferenceProviderConfig name of modelplane (a `modelplane.ai/v1alpha1` ModelDeployment). */
export const MODELPLANE_PROVIDER_NAME = 'modelplane';

/**
 * The InferenceProviderConfig spec of the modelplane provider. Ours: AI Runway has no modelplane
 * provider, so the capabilities say what this translation renders.
 *
 * - engines: modelplane runs any image in its `engine` container; the translation knows the
 *   command lines of vLLM (the `vllm/vllm-openai` image) and SGLang (`lmsysorg/sglang`), so those
 *   are the two AI Runway engine names it takes. TensorRT-LLM and llama.cpp are not offered: AI
 *   Runway only knows them as Dynamo workers and KAITO's llama.cpp runtime, whose command lines are
 *   those systems' own, not a server a plain container starts.
 * - serving modes: aggregated (one Standalone engine, modelplane's Unified serving) for both;
 *   disaggregated (modelplane's PrefillDecode) for vLLM only, because modelplane's PrefillDecode
 *   routing is llm-d's vLLM sidecar with NIXL KV transfer.
 * - GPUs only: every modelplane engine is placed by device requests, so no CPU serving.
 * - `requiresCRD`: modelplane's XRDs (and Crossplane) must be installed on the control plane.
 * - no gateway capability: modelplane routes through its own gateway, not an InferencePool of ours.
 */
export function modelplaneProviderConfigSpec(): InferenceProviderConfigSpec {
  return {
    capabilities: {
      engines: [
        {
          name: 'vllm',
          servingModes: ['aggregated', 'disaggregated'],
          apiFormats: ['openai-chat', 'openai-responses', 'anthropic-messages'],
          gpuSupport: true,
          requiresCRD: true,
        },
        {
          name: 'sglang',
          servingModes: ['aggregated'],
          apiFormats: ['openai-chat'],
          gpuSupport: true,
          requiresCRD: true,
        },
      ],
    },
  };
}

/**
 * The `modelplane` provider config: explicit selection only, since a deployment should land on
 * a fleet control plane only when its author names it (it is never picked over an in-cluster
 * provider by capability alone).
 */
export function modelplaneProviderConfig(ready: boolean = true): ProviderConfigEntry {
  return { name: MODELPLANE_PROVIDER_NAME, ready, spec: modelplaneProviderConfigSpec(), explicitSelectionOnly: true };
}
