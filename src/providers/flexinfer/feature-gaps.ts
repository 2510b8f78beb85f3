import { FLEXINFER_PROVIDER_NAME } from './config';
import { FieldError, forbidden, invalid } from '../../core/field-error';

/*
 * What a ModelDeployment can ask for that a FlexInfer Model cannot express, and the wording of
 * the refusal: the feature, the target `flexinfer`, why, and the targets that have it.
 *
 * Engines, serving modes and CPU serving are refused by the shared capability check from the
 * provider config, which names the other registered targets itself. The gaps here are the ones a
 * capability list cannot state, so their alternatives are named from what the shipped targets
 * render (a provider's validate() does not see the registry): every AI Runway target passes env,
 * the Hugging Face token, raw flags, extra volumes and any GPU extended resource to its pods.
 */

/** The shipped targets whose pods take what FlexInfer's Model has no field for. */
export const POD_LEVEL_TARGETS: readonly string[] = ['dynamo', 'kuberay', 'llmd', 'vllm'];

/** `<feature> is not supported by target flexinfer: <why>; targets that support it: <targets>`. */
export function unsupportedMessage(feature: string, why: string, targets: readonly string[] = POD_LEVEL_TARGETS): string {
  const alternatives = targets.length > 0 ? `; targets that support it: ${[...targets].sort().join(', ')}` : '';
  return `${feature} is not supported by target ${FLEXINFER_PROVIDER_NAME}: ${why}${alternatives}`;
}

/** A Forbidden field error for a feature FlexInfer lacks, at the field that asks for it. */
export function unsupportedField(path: string, feature: string, why: string, targets?: readonly string[]): FieldError {
  return forbidden(path, unsupportedMessage(feature, why, targets));
}

/** An Invalid field error for a value FlexInfer cannot express. */
export function unsupportedValue(path: string, value: unknown, feature: string, why: string, targets?: readonly string[]): FieldError {
  return invalid(path, value, unsupportedMessage(feature, why, targets));
}
