/**
 * llm-d's endpoint picker configuration by generation (`llmdEndpointPickerConfig`): a shipped
 * aggregated configuration of either generation becomes the chosen generation's, aggregated or
 * prefill/decode; a configuration of the user's own is never rewritten.
 */
import * as YAML from 'yaml';
import { EndpointPicker } from '../../../src/api/gateway/endpoint-picker-choice';
import {
  LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG,
  LLMD_ENDPOINT_PICKER_CONFIG,
  LLMD_GAIE_V1_5_DISAGGREGATED_ENDPOINT_PICKER_CONFIG,
  LLMD_GAIE_V1_5_ENDPOINT_PICKER_CONFIG,
  llmdEndpointPickerConfig,
  llmdProviderConfigSpec,
} from '../../../src/providers/llmd/config';

const { LLMD_ROUTER, GAIE_V1_5 } = EndpointPicker;
const SHIPPED = [LLMD_ENDPOINT_PICKER_CONFIG, LLMD_GAIE_V1_5_ENDPOINT_PICKER_CONFIG];

describe('llmdEndpointPickerConfig', () => {
  test.each(SHIPPED.map((c) => [YAML.parse(c).apiVersion, c] as const))('a shipped aggregated configuration (%s) follows the generation', (_, shipped) => {
    expect(llmdEndpointPickerConfig(shipped, false, LLMD_ROUTER)).toBe(LLMD_ENDPOINT_PICKER_CONFIG);
    expect(llmdEndpointPickerConfig(shipped, false, GAIE_V1_5)).toBe(LLMD_GAIE_V1_5_ENDPOINT_PICKER_CONFIG);
    expect(llmdEndpointPickerConfig(shipped, true, LLMD_ROUTER)).toBe(LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG);
    expect(llmdEndpointPickerConfig(shipped, true, GAIE_V1_5)).toBe(LLMD_GAIE_V1_5_DISAGGREGATED_ENDPOINT_PICKER_CONFIG);
  });

  test('none configured: the default for aggregated, the prefill/decode one of the generation for disaggregated', () => {
    expect(llmdEndpointPickerConfig(undefined, false, LLMD_ROUTER)).toBeUndefined();
    expect(llmdEndpointPickerConfig(undefined, true, LLMD_ROUTER)).toBe(LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG);
    expect(llmdEndpointPickerConfig(undefined, true, GAIE_V1_5)).toBe(LLMD_GAIE_V1_5_DISAGGREGATED_ENDPOINT_PICKER_CONFIG);
  });

  test('a configuration of the user\'s own is kept in every mode and generation', () => {
    const own = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: queue-scorer\n';
    for (const disaggregated of [false, true]) {
      for (const choice of [LLMD_ROUTER, GAIE_V1_5]) expect(llmdEndpointPickerConfig(own, disaggregated, choice)).toBe(own);
    }
  });

  test('each generation\'s configurations are in its group', () => {
    for (const c of [LLMD_ENDPOINT_PICKER_CONFIG, LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG]) expect(YAML.parse(c).apiVersion).toBe('llm-d.ai/v1alpha1');
    for (const c of [LLMD_GAIE_V1_5_ENDPOINT_PICKER_CONFIG, LLMD_GAIE_V1_5_DISAGGREGATED_ENDPOINT_PICKER_CONFIG]) {
      expect(YAML.parse(c).apiVersion).toBe('inference.networking.x-k8s.io/v1alpha1');
    }
    // The deprecated inference-scheduler handlers stay out of the llm-d Router's configuration.
    expect(LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG).not.toMatch(/pd-profile-handler|prefill-header-handler/);
  });

  test('the provider config registers the llm-d Router picker with the llm-d.ai configuration', () => {
    const picker = llmdProviderConfigSpec().capabilities!.engines![0].gateway!.endpointPicker!;
    expect(picker).toEqual({ image: 'ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0', configData: LLMD_ENDPOINT_PICKER_CONFIG });
  });
});
