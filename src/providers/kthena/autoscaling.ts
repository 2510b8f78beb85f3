/**
 * Autoscaling of a Kthena deployment by Kthena's own autoscaler: an AutoscalingPolicy whose
 * homogeneous target is the ModelServing (its ServingGroups are the replicas), with each metric
 * scraped by Kthena from the serving pods. Kthena reads gauges from the pods, so the metrics it
 * takes are the queue and the KV cache, in the engine's own series; request rates and PromQL
 * need KEDA (the vllm and llmd providers). The policy itself is `./autoscaling-policy.ts`; this
 * module stays free of the constructs, for the controller's re-validation.
 */
import { AUTOSCALING_ANNOTATION_PATH, autoscalingOf } from '../../api/autoscaling/autoscaling-annotation';
import { ENGINE_METRIC_SERIES } from '../../api/autoscaling/metric-types';
import type { AutoscalingMetricType } from '../../api/autoscaling/metric-types';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { FieldError, invalid } from '../../core/field-error';

/** The series of the engine for the metrics Kthena can scrape: its gauges. */
export function kthenaMetricSeries(engine: string): Partial<Record<AutoscalingMetricType, string>> {
  const series = ENGINE_METRIC_SERIES[engine];
  return series ? { queueDepth: series.queue, kvCacheUsage: series.kvCache } : {};
}

/**
 * Whether the engine needs a flag to export metrics at all: SGLang serves `/metrics` only with
 * `--enable-metrics`, which an autoscaled deployment gets (`renderKthenaArgs`).
 */
export function kthenaNeedsMetricsFlag(md: ResolvedModelDeployment): boolean {
  return md.engine === 'sglang' && autoscalingOf(md.annotations) !== undefined;
}

/** The metrics of the annotation Kthena cannot scrape from the pods of this engine. */
export function kthenaAutoscalingErrors(md: ResolvedModelDeployment): FieldError[] {
  const spec = autoscalingOf(md.annotations);
  if (!spec) return [];
  const series = kthenaMetricSeries(md.engine);
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

