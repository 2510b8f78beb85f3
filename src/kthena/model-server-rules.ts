/**
 * Rules of the ModelServer that the Kthena provider's ModelServer can break too, as functions of
 * the value and the field path to report (the construct's `spec.model`, the provider's
 * `spec.model.servedName`). Internal: not exported from the package.
 */
import { FieldError, invalid } from '../core/field-error';

/** Longest `spec.model` the CRD accepts. */
export const MAX_SERVED_MODEL_LENGTH = 256;

/**
 * The served model (`spec.model`) at `path`: at most 256 characters. `advice` (`; set a shorter
 * spec.model.servedName`) is added to the message when the reader has another field to set.
 */
export function servedModelErrors(path: string, model: string | undefined, advice = ''): FieldError[] {
  if (model === undefined || model.length <= MAX_SERVED_MODEL_LENGTH) return [];
  return [invalid(
    path,
    model,
    `is ${model.length} characters long; Kthena's ModelServer names the served model in spec.model, at most ${MAX_SERVED_MODEL_LENGTH} characters${advice}`,
  )];
}
