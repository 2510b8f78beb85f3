/**
 * The endpoint picker generations (src/api/gateway/endpoint-picker-choice.ts): which shipped images
 * follow the choice, the annotation's values, and the RBAC groups of each generation.
 */
import {
  DEFAULT_ENDPOINT_PICKER,
  EndpointPicker,
  endpointPickerAnnotationErrors,
  endpointPickerImageFor,
  endpointPickerObjectiveGroups,
  endpointPickerOf,
  ENDPOINT_PICKER_ANNOTATION,
} from '../../../src/api/gateway/endpoint-picker-choice';
import { defaultImageRef } from '../../../src/core/version-matrix';

const ROUTER = defaultImageRef('gateway', 'endpoint-picker');
const GAIE = defaultImageRef('gateway', 'endpoint-picker-gaie-v1.5');
const LLMD_ROUTER_IMAGE = defaultImageRef('llmd', 'endpoint-picker');
const SCHEDULER = defaultImageRef('llmd', 'endpoint-picker-gaie-v1.5');

describe('endpoint picker generations', () => {
  test('the llm-d Router is the default, and its picker is the matrix\'s default for both roles', () => {
    expect(DEFAULT_ENDPOINT_PICKER).toBe(EndpointPicker.LLMD_ROUTER);
    expect(ROUTER).toBe('ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0');
    expect(LLMD_ROUTER_IMAGE).toBe(ROUTER);
  });

  test('the shipped default image becomes the chosen generation\'s, per role', () => {
    expect(endpointPickerImageFor(ROUTER, EndpointPicker.GAIE_V1_5, false)).toBe(GAIE);
    expect(endpointPickerImageFor(ROUTER, EndpointPicker.GAIE_V1_5, true)).toBe(SCHEDULER);
    expect(endpointPickerImageFor(ROUTER, EndpointPicker.LLMD_ROUTER, false)).toBe(ROUTER);
    expect(GAIE).toBe('registry.k8s.io/gateway-api-inference-extension/epp:v1.5.0');
    expect(SCHEDULER).toBe('ghcr.io/llm-d/llm-d-inference-scheduler:v0.6.0');
  });

  test('any other image is kept, an older shipped one a user names included', () => {
    for (const choice of [EndpointPicker.LLMD_ROUTER, EndpointPicker.GAIE_V1_5]) {
      for (const fromProvider of [false, true]) {
        expect(endpointPickerImageFor('example.com/epp:1.2.3', choice, fromProvider)).toBe('example.com/epp:1.2.3');
        expect(endpointPickerImageFor(GAIE, choice, fromProvider)).toBe(GAIE);
        expect(endpointPickerImageFor(SCHEDULER, choice, fromProvider)).toBe(SCHEDULER);
      }
    }
  });

  test('the annotation: either value, else a not-supported error naming it', () => {
    expect(endpointPickerOf({ [ENDPOINT_PICKER_ANNOTATION]: 'gaie-v1.5' })).toBe(EndpointPicker.GAIE_V1_5);
    expect(endpointPickerOf({ [ENDPOINT_PICKER_ANNOTATION]: 'llmd-router' })).toBe(EndpointPicker.LLMD_ROUTER);
    expect(endpointPickerOf({})).toBeUndefined();
    expect(endpointPickerOf({ [ENDPOINT_PICKER_ANNOTATION]: 'GAIE_V1_5' })).toBeUndefined();
    expect(endpointPickerAnnotationErrors({ [ENDPOINT_PICKER_ANNOTATION]: 'llmd-router' })).toEqual([]);
    expect(endpointPickerAnnotationErrors(undefined)).toEqual([]);
    const [error] = endpointPickerAnnotationErrors({ [ENDPOINT_PICKER_ANNOTATION]: 'GAIE_V1_5' });
    expect(error.path).toBe(`metadata.annotations["${ENDPOINT_PICKER_ANNOTATION}"]`);
    expect(error.value).toBe('GAIE_V1_5');
    expect(error.message).toContain('"llmd-router", "gaie-v1.5"');
  });

  test('RBAC groups: the llm-d Router reads its own and GAIE\'s objectives; GAIE v1.5 its own', () => {
    expect(endpointPickerObjectiveGroups(EndpointPicker.LLMD_ROUTER)).toEqual(['llm-d.ai', 'inference.networking.x-k8s.io']);
    expect(endpointPickerObjectiveGroups(EndpointPicker.GAIE_V1_5)).toEqual(['inference.networking.x-k8s.io']);
  });
});
