import { isAutoscaled } from '../api/autoscaling/autoscaling-annotation';
import type { ResolvedModelDeployment } from '../api/resolved-model-deployment';

/**
 * `spec.replicas` of an aggregated workload a KEDA ScaledObject or HPA can scale, on providers
 * that run zero (`DeploymentFeature.SCALE_TO_ZERO`):
 *
 * - undefined when an autoscaler owns the count (annotation `inference.cdk8s.io/autoscaling`):
 *   a count in the manifest would be reset by every apply of a GitOps tool, fighting the autoscaler;
 * - `scaling.replicas` as given, 0 included: scale to zero is honoured (AI Runway runs one);
 * - 1 when unset.
 */
export function scalableReplicas(md: ResolvedModelDeployment): number | undefined {
  if (isAutoscaled(md.annotations)) return undefined;
  return md.spec.scaling?.replicas ?? 1;
}
