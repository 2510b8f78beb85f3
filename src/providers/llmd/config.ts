import type { InferenceProviderConfigSpec } from '../../core/generated/inference-provider-config-spec';
import { defaultImageRef } from '../../core/version-matrix';
import type { ProviderConfigEntry } from '../../selection/provider-config-entry';

/** InferenceProviderConfig name of llm-d. */
export const LLMD_PROVIDER_NAME = 'llmd';

/** The llm-d inference scheduler, used as the endpoint picker of llm-d deployments. */
export const LLMD_ENDPOINT_PICKER_IMAGE = defaultImageRef('llmd', 'endpoint-picker');

/**
 * The EndpointPickerConfig llm-d registers for its endpoint picker: route to decode pods only,
 * score them by prefix-cache affinity (weight 2) and take the best score, in a single profile.
 */
export const LLMD_ENDPOINT_PICKER_CONFIG = `apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: prefix-cache-scorer
- type: decode-filter
- type: max-score-picker
- type: single-profile-handler
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: decode-filter
  - pluginRef: max-score-picker
  - pluginRef: prefix-cache-scorer
    weight: 2
`;

/**
 * The InferenceProviderConfig spec the llm-d provider registers (AI Runway at b0d3fb7), in its
 * serialised form. llm-d deploys plain Deployments, so `requiresCRD` is explicitly false.
 *
 * llm-d declares an empty rule list, which serialises to nothing. It is still a priority-0
 * candidate wherever its vLLM capability fits, so it can be auto-selected (for instance when
 * dynamo, kaito and kuberay are not ready), although AI Runway's docs call it explicit-only.
 */
export function llmdProviderConfigSpec(): InferenceProviderConfigSpec {
  return {
    capabilities: {
      engines: [
        {
          name: 'vllm',
          servingModes: ['aggregated', 'disaggregated'],
          apiFormats: ['openai-chat', 'openai-responses', 'anthropic-messages'],
          gpuSupport: true,
          requiresCRD: false,
          gateway: {
            endpointPicker: { image: LLMD_ENDPOINT_PICKER_IMAGE, configData: LLMD_ENDPOINT_PICKER_CONFIG },
          },
        },
      ],
    },
  };
}

/** The shipped `llmd` provider config. */
export function llmdProviderConfig(ready: boolean = true): ProviderConfigEntry {
  return { name: LLMD_PROVIDER_NAME, ready, spec: llmdProviderConfigSpec() };
}

/**
 * The EndpointPickerConfig for llm-d in prefill/decode mode (llm-d inference scheduler plugins).
 *
 * The P/D profile handler runs the `decode` profile for every request and the `prefill` profile
 * when the prompt is worth prefilling remotely; the prefill header handler then tells the decode
 * pod's sidecar which prefill pod to use. Each profile keeps only its role's pods (the filters
 * read the pod label `llm-d.ai/role`, `prefill` or `decode`, which the llm-d translator sets in
 * disaggregated mode), scores them by prefix-cache affinity (weight 2) and takes the best.
 */
export const LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG = `apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: prefill-header-handler
- type: prefix-cache-scorer
- type: prefill-filter
- type: decode-filter
- type: max-score-picker
- type: pd-profile-handler
schedulingProfiles:
- name: prefill
  plugins:
  - pluginRef: prefill-filter
  - pluginRef: max-score-picker
  - pluginRef: prefix-cache-scorer
    weight: 2
- name: decode
  plugins:
  - pluginRef: decode-filter
  - pluginRef: max-score-picker
  - pluginRef: prefix-cache-scorer
    weight: 2
`;
