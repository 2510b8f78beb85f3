/**
 * Autoscaling of a Kthena deployment by Kthena's own autoscaler: an AutoscalingPolicy whose
 * homogeneous target is the ModelServing (its ServingGroups are the replicas), with each metric
 * scraped by Kthena from the serving pods. Kthena reads gauges from the pods, so the metrics it
 * takes are the queue and the KV cache, in the engine's own series; request rates and PromQL
 * need KEDA (the vllm and llmd providers).
 */
import { ApiObject, Duration } from 'cdk8s';
import type { Construct } from 'constructs';
import { KTHENA_ENGINE_PORT } from './args';
import { AUTOSCALING_ANNOTATION_PATH, AutoscalingSpec, autoscalingOf } from '../../autoscaling/autoscaling-annotation';
import { thresholdOf, VLLM_KV_CACHE_METRIC, VLLM_QUEUE_METRIC } from '../../autoscaling/metric-types';
import type { AutoscalingMetricType } from '../../autoscaling/metric-types';
import { FieldError, invalid } from '../../core/field-error';
import type { ResolvedModelDeployment } from '../../core/resolved-model-deployment';
import { KthenaAutoscalingPolicy } from '../../kthena/autoscaling-policy';
import { KthenaMetricSource } from '../../kthena/metric-source';
import type { IKthenaModelServing } from '../../kthena/model-serving';
import { KthenaScalingTarget } from '../../kthena/scaling-target';
import { commonLabels } from '../common/metadata';

/** The series each engine exports for the metrics Kthena can scrape. */
const SERIES: Record<string, Partial<Record<AutoscalingMetricType, string>>> = {
  vllm: { queueDepth: VLLM_QUEUE_METRIC, kvCacheUsage: VLLM_KV_CACHE_METRIC },
  // SGLang's waiting queue and its fraction of KV-cache tokens in use.
  sglang: { queueDepth: 'sglang:num_queue_reqs', kvCacheUsage: 'sglang:token_usage' },
};

/** The metrics of the annotation Kthena cannot scrape from the pods of this engine. */
export function kthenaAutoscalingErrors(md: ResolvedModelDeployment): FieldError[] {
  const spec = autoscalingOf(md.annotations);
  if (!spec) return [];
  const series = SERIES[md.engine] ?? {};
  const errors: FieldError[] = [];
  if (spec.minReplicas === 0) {
    errors.push(invalid(`${AUTOSCALING_ANNOTATION_PATH}.minReplicas`, 0,
      'Kthena\'s autoscaler reads its metrics from the serving pods, so with none left nothing would scale it up again; set minReplicas to 1 at least'));
  }
  spec.metrics.forEach((m, i) => {
    if (series[m.type] === undefined) {
      errors.push(invalid(`${AUTOSCALING_ANNOTATION_PATH}.metrics[${i}].type`, m.type,
        `Kthena's autoscaler scrapes gauges from the pods: queueDepth or kvCacheUsage; ${m.type} needs KEDA (providers vllm, llmd)`));
    }
  });
  return errors;
}

/** The AutoscalingPolicy `<md>` (id `AutoscalingPolicy`) scaling `serving`; none without autoscaling. */
export function addKthenaAutoscalingPolicy(scope: Construct, md: ResolvedModelDeployment, serving: IKthenaModelServing): ApiObject[] {
  const spec = autoscalingOf(md.annotations);
  if (!spec) return [];
  const policy = new KthenaAutoscalingPolicy(scope, 'AutoscalingPolicy', {
    metadata: { name: md.name, ...(md.namespace !== undefined && { namespace: md.namespace }), labels: commonLabels(md) },
    metrics: spec.metrics.map((m) => ({ name: m.type, targetValue: thresholdOf(m.type, m.target) })),
    target: KthenaScalingTarget.homogeneous({
      serving,
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas,
      metricSources: metricSources(md, spec),
    }),
    ...(spec.cooldownSeconds !== undefined && { behavior: { scaleDown: { stabilizationWindow: Duration.seconds(spec.cooldownSeconds) } } }),
  });
  return [policy.apiObject];
}

function metricSources(md: ResolvedModelDeployment, spec: AutoscalingSpec): { [metric: string]: KthenaMetricSource } {
  const series = SERIES[md.engine] ?? {};
  // The engine serves its metrics on its API port; Kthena's default is its runtime sidecar's.
  return Object.fromEntries(spec.metrics.map((m) => [m.type, KthenaMetricSource.pod({ seriesName: series[m.type], port: KTHENA_ENGINE_PORT })]));
}
