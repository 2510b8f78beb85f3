/**
 * Which endpoint picker a controller-managed InferencePool gets: the llm-d Router's (the default)
 * or the Gateway API Inference Extension v1.5 generation's. GAIE v1.6.0 removed its endpoint
 * picker (and InferenceObjective, InferenceModelRewrite): they moved to the llm-d Router, whose
 * configuration group is `llm-d.ai`. The older generation stays available so that a team can
 * upgrade this library without changing the picker its pools run.
 *
 * The choice is made per registry (`ProviderRegistryProps.endpointPicker`) and per deployment (the
 * annotation `inference.cdk8s.io/endpoint-picker`, which a YAML author writes directly). It moves
 * the defaults and the picker's RBAC: the shipped default image and configurations follow it; an
 * image or configuration a user or provider names otherwise is kept as given.
 */
import { FieldError, notSupported } from '../../core/field-error';
import { defaultImageRef } from '../../core/version-matrix';

/**
 * The endpoint picker generation of controller-managed InferencePools.
 */
export enum EndpointPicker {
  /**
   * The llm-d Router's endpoint picker (`ghcr.io/llm-d/llm-d-router-endpoint-picker`), for every
   * controller-managed pool, llm-d's included; configurations in `llm-d.ai/v1alpha1`.
   */
  LLMD_ROUTER = 'llmd-router',
  /**
   * The Gateway API Inference Extension v1.5 generation: GAIE's own picker
   * (`registry.k8s.io/gateway-api-inference-extension/epp:v1.5.0`) for the pools of most
   * providers and llm-d's inference scheduler v0.6.0 (built on GAIE 1.x) for llm-d's, with
   * `inference.networking.x-k8s.io/v1alpha1` configurations. What this library emitted before the
   * llm-d Router became the default.
   */
  GAIE_V1_5 = 'gaie-v1.5',
}

/** The generation used when neither the deployment nor the registry chooses. */
export const DEFAULT_ENDPOINT_PICKER = EndpointPicker.LLMD_ROUTER;

/** ModelDeployment annotation choosing the generation: `llmd-router` or `gaie-v1.5`. */
export const ENDPOINT_PICKER_ANNOTATION = 'inference.cdk8s.io/endpoint-picker';

/** Field path of the annotation, in messages. */
export const ENDPOINT_PICKER_PATH = `metadata.annotations[${JSON.stringify(ENDPOINT_PICKER_ANNOTATION)}]`;

const CHOICES: readonly string[] = [EndpointPicker.LLMD_ROUTER, EndpointPicker.GAIE_V1_5];

/** The generation the annotation names; undefined when absent or invalid (`endpointPickerAnnotationErrors` reports that). */
export function endpointPickerOf(annotations: Readonly<Record<string, string>> | undefined): EndpointPicker | undefined {
  const value = annotations?.[ENDPOINT_PICKER_ANNOTATION];
  return value !== undefined && CHOICES.includes(value) ? (value as EndpointPicker) : undefined;
}

/** The annotation, when set to anything but a generation. */
export function endpointPickerAnnotationErrors(annotations: Readonly<Record<string, string>> | undefined): FieldError[] {
  const value = annotations?.[ENDPOINT_PICKER_ANNOTATION];
  if (value === undefined || CHOICES.includes(value)) return [];
  return [notSupported(ENDPOINT_PICKER_PATH, value, CHOICES)];
}

/** API group of a generation's EndpointPickerConfig. */
export function endpointPickerConfigGroup(choice: EndpointPicker): string {
  return choice === EndpointPicker.GAIE_V1_5 ? 'inference.networking.x-k8s.io' : 'llm-d.ai';
}

/**
 * The configuration written when the provider gives none: an EndpointPickerConfig with no plugins,
 * so the picker runs its built-in default scheduling (both generations load such a file).
 */
export function defaultEndpointPickerConfig(choice: EndpointPicker): string {
  return `apiVersion: ${endpointPickerConfigGroup(choice)}/v1alpha1\nkind: EndpointPickerConfig\n`;
}

/**
 * API groups whose InferenceObjectives and InferenceModelRewrites the picker reads. The llm-d
 * Router reads its own `llm-d.ai` kinds and, while the move from GAIE lasts, GAIE's
 * `inference.networking.x-k8s.io` ones too (its Helm chart grants both).
 */
export function endpointPickerObjectiveGroups(choice: EndpointPicker): string[] {
  return choice === EndpointPicker.GAIE_V1_5 ? ['inference.networking.x-k8s.io'] : ['llm-d.ai', 'inference.networking.x-k8s.io'];
}

/** Shipped picker images: the registry's default, and the one llm-d's provider config names. */
const SHIPPED = {
  registry: { [EndpointPicker.LLMD_ROUTER]: defaultImageRef('gateway', 'endpoint-picker'), [EndpointPicker.GAIE_V1_5]: defaultImageRef('gateway', 'endpoint-picker-gaie-v1.5') },
  provider: { [EndpointPicker.LLMD_ROUTER]: defaultImageRef('llmd', 'endpoint-picker'), [EndpointPicker.GAIE_V1_5]: defaultImageRef('llmd', 'endpoint-picker-gaie-v1.5') },
} as const;

/**
 * The image a pool's picker runs under `choice`: the shipped default image (`fromProvider`: the
 * one llm-d's provider config names, else the registry's) becomes that generation's image in the
 * same role; any other image, an older shipped one included, is kept as named.
 */
export function endpointPickerImageFor(image: string, choice: EndpointPicker, fromProvider: boolean): string {
  const shipped = fromProvider ? SHIPPED.provider : SHIPPED.registry;
  return image === shipped[DEFAULT_ENDPOINT_PICKER] ? shipped[choice] : image;
}
