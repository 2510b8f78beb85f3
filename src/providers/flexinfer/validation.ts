import { FlexInferTargetOptions, planFlexInferModel } from './model-plan';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import type { FieldError } from '../../core/field-error';

/*
 * What the FlexInfer target refuses and warns about. Kept apart from the translator so that the
 * controller, which validates but never builds objects, loads neither cdk8s-plus-34 nor the
 * generated bindings; both read the one plan of `./model-plan`.
 */

/** Human name of the provider in messages. */
export const FLEXINFER_DISPLAY_NAME = 'FlexInfer';

/** Every reason the deployment cannot become a FlexInfer Model, each at its field. */
export function validateFlexInfer(md: ResolvedModelDeployment, options: FlexInferTargetOptions = {}): FieldError[] {
  return planFlexInferModel(md, options).errors;
}

/** What the user should know about a deployment FlexInfer accepts (settings it ignores, idle GPUs, ...). */
export function flexInferWarnings(md: ResolvedModelDeployment, options: FlexInferTargetOptions = {}): string[] {
  return planFlexInferModel(md, options).plan?.warnings ?? [];
}
