/**
 * Autoscaling of a KubeRay deployment by Ray itself: Ray Serve scales the replicas of the vLLM
 * deployment on the requests each one has in flight (`autoscaling_config`, target
 * `target_ongoing_requests`), and the in-tree Ray autoscaler adds and removes the worker pods those
 * replicas need (`enableInTreeAutoscaling`, the worker group's `minReplicas`/`maxReplicas`). Ray
 * Serve measures only in-flight requests, so that is the one metric KubeRay takes; Serve's proxy
 * holds requests while a replica starts, so it can scale from zero without a demand query.
 */
import { AUTOSCALING_ANNOTATION_PATH, autoscalingOf, AutoscalingSpec } from '../../api/autoscaling/autoscaling-annotation';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { FieldError, invalid } from '../../core/field-error';

/** The metric Ray Serve scales on. */
const RAY_SERVE_METRIC = 'inFlightRequests';

/** The metrics Ray Serve cannot scale on. */
export function kuberayAutoscalingErrors(md: ResolvedModelDeployment): FieldError[] {
  const spec = autoscalingOf(md.annotations);
  if (!spec) return [];
  const errors: FieldError[] = [];
  spec.metrics.forEach((m, i) => {
    if (m.type !== RAY_SERVE_METRIC) {
      errors.push(invalid(`${AUTOSCALING_ANNOTATION_PATH}.metrics[${i}].type`, m.type,
        `Ray Serve scales on the requests each replica has in flight: use ${RAY_SERVE_METRIC}; ${m.type} needs KEDA (providers vllm, llmd)`));
    }
  });
  return errors;
}

/** The Serve deployment's `autoscaling_config` (snake case, as Ray Serve reads it). */
export function serveAutoscalingConfig(spec: AutoscalingSpec): Record<string, number> {
  const target = spec.metrics.find((m) => m.type === RAY_SERVE_METRIC)!.target;
  return {
    min_replicas: spec.minReplicas,
    max_replicas: spec.maxReplicas,
    target_ongoing_requests: target,
    ...(spec.cooldownSeconds !== undefined && { downscale_delay_s: spec.cooldownSeconds }),
  };
}

/** The Ray autoscaling of an aggregated deployment that asks for it; undefined otherwise. */
export function rayAutoscalingOf(md: ResolvedModelDeployment): AutoscalingSpec | undefined {
  return md.mode === 'aggregated' ? autoscalingOf(md.annotations) : undefined;
}
