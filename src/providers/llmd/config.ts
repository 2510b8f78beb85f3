import { EndpointPicker, endpointPickerConfigGroup } from '../../api/gateway/endpoint-picker-choice';
import type { ProviderConfigEntry } from '../../api/provider/provider-config-entry';
import type { InferenceProviderConfigSpec } from '../../core/generated/inference-provider-config-spec';
import { defaultImageRef } from '../../core/version-matrix';

/** InferenceProviderConfig name of llm-d. */
export const LLMD_PROVIDER_NAME = 'llmd';

/** The llm-d Router's endpoint picker, used as the endpoint picker of llm-d deployments. */
export const LLMD_ENDPOINT_PICKER_IMAGE = defaultImageRef('llmd', 'endpoint-picker');

/**
 * The EndpointPickerConfig llm-d registers for its endpoint picker, in the API group of a picker
 * generation: route to decode pods only, score them by prefix-cache affinity (weight 2) and take
 * the best score, in a single profile. The llm-d Router kept these four plugins under their names;
 * only the group moved to `llm-d.ai`.
 */
function decodeOnlyPickerConfig(group: string): string {
  return `apiVersion: ${group}/v1alpha1
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
}

/** llm-d's EndpointPickerConfig for the llm-d Router (`EndpointPicker.LLMD_ROUTER`). */
export const LLMD_ENDPOINT_PICKER_CONFIG = decodeOnlyPickerConfig(endpointPickerConfigGroup(EndpointPicker.LLMD_ROUTER));

/** `LLMD_ENDPOINT_PICKER_CONFIG` as the GAIE v1.5 generation reads it (`EndpointPicker.GAIE_V1_5`). */
export const LLMD_GAIE_V1_5_ENDPOINT_PICKER_CONFIG = decodeOnlyPickerConfig(endpointPickerConfigGroup(EndpointPicker.GAIE_V1_5));

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
 * Uncached prompt tokens (on the chosen decode pod) from which a request is prefilled on a prefill
 * pod. The llm-d Router's `prefix-based-pd-decider` defaults to 0, which turns disaggregation off,
 * so a value must be written; 16 is the one llm-d's published P/D configurations use.
 */
export const LLMD_PD_NON_CACHED_TOKENS = 16;

/**
 * The EndpointPickerConfig for llm-d in prefill/decode mode (llm-d Router plugins).
 *
 * The disaggregation profile handler runs the `decode` profile for every request and the
 * `prefill` profile when its decider says the prompt is worth prefilling remotely (at least
 * `LLMD_PD_NON_CACHED_TOKENS` tokens not cached on the decode pod); it then tells the decode pod's
 * sidecar which prefill pod to use. Each profile keeps only its role's pods (the filters read the
 * pod label `llm-d.ai/role`, `prefill` or `decode`, which the llm-d translator sets in
 * disaggregated mode), scores them by prefix-cache affinity (weight 2) and takes the best.
 *
 * The llm-d inference scheduler's `pd-profile-handler` and `prefill-header-handler`, which the
 * GAIE v1.5 generation's configuration uses, are deprecated in the llm-d Router 0.10 (removal
 * planned for 0.11): `disagg-profile-handler` replaces both.
 */
export const LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG = `apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: prefix-cache-scorer
- type: prefill-filter
- type: decode-filter
- type: max-score-picker
- type: prefix-based-pd-decider
  parameters:
    nonCachedTokens: ${LLMD_PD_NON_CACHED_TOKENS}
- type: disagg-profile-handler
  parameters:
    deciders:
      prefill: prefix-based-pd-decider
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

/**
 * `LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG` for the GAIE v1.5 generation (llm-d inference
 * scheduler 0.6.0 plugins): the P/D profile handler with the prefill header handler.
 */
export const LLMD_GAIE_V1_5_DISAGGREGATED_ENDPOINT_PICKER_CONFIG = `apiVersion: inference.networking.x-k8s.io/v1alpha1
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

/**
 * llm-d's endpoint picker configuration of a deployment under `choice`. A shipped aggregated
 * configuration (of either generation) becomes that generation's aggregated one, or its
 * prefill/decode one for a disaggregated deployment; a disaggregated deployment whose provider
 * config names none gets the prefill/decode one too (the default schedules every pod alike). Any
 * other configuration, or none for an aggregated deployment, is returned as configured.
 */
export function llmdEndpointPickerConfig(configured: string | undefined, disaggregated: boolean, choice: EndpointPicker): string | undefined {
  const gaie = choice === EndpointPicker.GAIE_V1_5;
  const shipped = configured === LLMD_ENDPOINT_PICKER_CONFIG || configured === LLMD_GAIE_V1_5_ENDPOINT_PICKER_CONFIG;
  if (disaggregated && (shipped || configured === undefined)) {
    return gaie ? LLMD_GAIE_V1_5_DISAGGREGATED_ENDPOINT_PICKER_CONFIG : LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG;
  }
  if (shipped) return gaie ? LLMD_GAIE_V1_5_ENDPOINT_PICKER_CONFIG : LLMD_ENDPOINT_PICKER_CONFIG;
  return configured;
}
