/**
 * Autoscaling as the pipeline runs it (src/pipeline/deployment-extensions.ts): the annotation's own
 * problems at admission, and what the selected provider cannot honour.
 */
import { autoscalerProviderErrors } from './autoscaler-plan';
import { AUTOSCALING_ANNOTATION, AUTOSCALING_ANNOTATION_PATH, readAutoscaling } from '../api/autoscaling/autoscaling-annotation';
import { DeploymentFeature } from '../api/provider/deployment-feature';
import { FieldError, invalid } from '../core/field-error';
import type { ModelDeploymentObject } from '../core/model-deployment-object';
import type { DeploymentExtension } from '../provider-kit/deployment-extension';

/** The annotation's problems, alone and against the deployment's spec. */
function autoscalingErrors(md: ModelDeploymentObject): FieldError[] {
  const read = readAutoscaling(md.annotations);
  if (read.errors.length > 0) return read.errors;
  const replicas = md.spec.scaling?.replicas;
  if (replicas !== undefined && replicas !== null) {
    return [invalid('spec.scaling.replicas', replicas,
      `a fixed replica count and autoscaling (${AUTOSCALING_ANNOTATION_PATH}) are mutually exclusive: the autoscaler sets the replicas ` +
        'between minReplicas and maxReplicas; remove spec.scaling.replicas, or the annotation')];
  }
  return [];
}

/** The extension as the pipeline runs it (src/pipeline/deployment-extensions.ts). */
export const AUTOSCALING_EXTENSION: DeploymentExtension = {
  feature: DeploymentFeature.AUTOSCALING,
  annotation: AUTOSCALING_ANNOTATION,
  path: AUTOSCALING_ANNOTATION_PATH,
  errors: autoscalingErrors,
  providerErrors: autoscalerProviderErrors,
};

