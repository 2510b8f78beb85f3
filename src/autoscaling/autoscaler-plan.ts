/**
 * Which autoscaler a deployment gets, decided once the provider is known: KEDA or an HPA on the
 * workload the provider names (`InferenceProvider.scaleTarget`), or the target's own autoscaler
 * when it names none. Free of cdk8s-plus-34 and the bindings: the controller's re-validation runs it.
 */
import { AUTOSCALING_ANNOTATION_PATH, AutoscalingSpec, autoscalingOf } from '../api/autoscaling/autoscaling-annotation';
import { ENGINE_METRIC_SERIES } from '../api/autoscaling/metric-types';
import type { InferencePoolTarget, InferenceProvider, ScaleTargetRef } from '../api/provider/inference-provider';
import { ResolvedModelDeployment, toResolvedDeployment } from '../api/resolved-model-deployment';
import { FieldError, invalid } from '../core/field-error';

/** KEDA or an HPA on a workload the provider names: what the pipeline synthesizes them from. */
export interface AutoscalerPlan {
  readonly md: ResolvedModelDeployment;
  readonly spec: AutoscalingSpec;
  readonly target: ScaleTargetRef;
  /** The model server pods and port to scrape; undefined when the provider names none. */
  readonly pods?: InferencePoolTarget;
}

/**
 * The plan of a deployment that asks for autoscaling on a provider that names a workload to
 * scale; undefined without autoscaling, or when the target scales itself.
 */
export function autoscalerPlanOf(md: ResolvedModelDeployment, provider: InferenceProvider): AutoscalerPlan | undefined {
  const spec = autoscalingOf(md.annotations);
  if (!spec) return undefined;
  const view = toResolvedDeployment(md);
  const target = provider.scaleTarget(view);
  return target && { md, spec, target, pods: provider.inferencePoolTarget(view) };
}

/** Whether any metric is one the model server exports (and so needs the pods scraped). */
export function readsModelServerMetrics(spec: AutoscalingSpec): boolean {
  return spec.metrics.some((m) => m.type !== 'prometheus');
}

/**
 * The autoscaling settings a provider cannot honour: an autoscaler chosen by name on a target that
 * scales itself; with KEDA or an HPA, scale to zero without a metric that outlives the pods, or
 * model server metrics to scrape from a provider that names no pods.
 */
export function autoscalerProviderErrors(md: ResolvedModelDeployment, provider: InferenceProvider): FieldError[] {
  const spec = autoscalingOf(md.annotations);
  if (!spec) return [];
  const plan = autoscalerPlanOf(md, provider);
  if (!plan) {
    return spec.autoscaler === undefined ? [] : [invalid(`${AUTOSCALING_ANNOTATION_PATH}.autoscaler`, spec.autoscaler,
      `provider ${provider.displayName} scales the deployment with its target's own autoscaler; remove autoscaler`)];
  }
  if (spec.minReplicas === 0 && !spec.metrics.some((m) => m.type === 'prometheus')) {
    return [invalid(`${AUTOSCALING_ANNOTATION_PATH}.minReplicas`, 0,
      'scaling to zero needs a demand signal that exists while no pod runs, and the model server metrics vanish with the last pod; ' +
        'add a metric of type prometheus whose query measures requests in front of the pods (e.g. the gateway\'s request rate for this model), or set minReplicas to 1')];
  }
  const readsPods = readsModelServerMetrics(spec);
  if (readsPods && ENGINE_METRIC_SERIES[md.engine] === undefined) {
    const i = spec.metrics.findIndex((m) => m.type !== 'prometheus');
    return [invalid(`${AUTOSCALING_ANNOTATION_PATH}.metrics[${i}].type`, spec.metrics[i].type,
      `engine ${md.engine} exports no metric series the autoscaler knows (${Object.keys(ENGINE_METRIC_SERIES).join(', ')} do); use a metric of type prometheus with your own query`)];
  }
  if (spec.podMonitor && readsPods && plan.pods === undefined) {
    return [invalid(`${AUTOSCALING_ANNOTATION_PATH}.podMonitor`, true,
      `provider ${provider.displayName} names no model server pods to scrape for this deployment; set podMonitor: false and scrape them yourself, ` +
        'with the label model_deployment on their series')];
  }
  return [];
}
