/**
 * PLACEHOLDER being written in this session: the autoscaling annotation.
 */
import { DeploymentFeature } from '../api/deployment-feature';
import type { DeploymentExtension } from '../core/deployment-extensions';
import type { FieldError } from '../core/field-error';

/** ModelDeployment annotation asking for autoscaling. */
export const AUTOSCALING_ANNOTATION = 'inference.cdk8s.io/autoscaling';

/** Whether an autoscaler sets the deployment's replicas. */
export function isAutoscaled(annotations: Readonly<Record<string, string>> | undefined): boolean {
  return annotations?.[AUTOSCALING_ANNOTATION] !== undefined;
}

export const AUTOSCALING_EXTENSION: DeploymentExtension = {
  feature: DeploymentFeature.AUTOSCALING,
  annotation: AUTOSCALING_ANNOTATION,
  path: `metadata.annotations[${JSON.stringify(AUTOSCALING_ANNOTATION)}]`,
  errors: (): FieldError[] => [],
};
