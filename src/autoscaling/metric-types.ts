/**
 * The LLM metrics an autoscaler can keep per replica, and where each comes from. The model server
 * metrics are vLLM's (every provider that names a workload for KEDA or an HPA runs vLLM); each is
 * read over the deployment's pods, which our PodMonitor labels `model_deployment: <name>`.
 */

/** The kinds of metric the annotation accepts. */
export type AutoscalingMetricType = 'queueDepth' | 'kvCacheUsage' | 'requestRate' | 'inFlightRequests' | 'prometheus';

export const AUTOSCALING_METRIC_TYPES: readonly AutoscalingMetricType[] = ['queueDepth', 'kvCacheUsage', 'requestRate', 'inFlightRequests', 'prometheus'];

/** vLLM's gauge of requests waiting to be scheduled. */
export const VLLM_QUEUE_METRIC = 'vllm:num_requests_waiting';
/** vLLM's gauge of requests being processed. */
export const VLLM_RUNNING_METRIC = 'vllm:num_requests_running';
/** vLLM's gauge of the KV cache in use, 0 to 1 (vLLM 0.10 renamed it from `vllm:gpu_cache_usage_perc`). */
export const VLLM_KV_CACHE_METRIC = 'vllm:kv_cache_usage_perc';
/** vLLM's counter of finished requests. */
export const VLLM_REQUESTS_METRIC = 'vllm:request_success_total';

/** The label our PodMonitor puts on every series it scrapes from a deployment's pods. */
export const MODEL_DEPLOYMENT_SERIES_LABEL = 'model_deployment';

/** What `target` means for each type, in messages and docs. */
export function metricTypeDescription(type: AutoscalingMetricType): string {
  switch (type) {
    case 'queueDepth': return `requests waiting per replica (${VLLM_QUEUE_METRIC})`;
    case 'kvCacheUsage': return `percent of the KV cache in use per replica, 1 to 100 (${VLLM_KV_CACHE_METRIC})`;
    case 'requestRate': return `finished requests per second per replica (rate of ${VLLM_REQUESTS_METRIC})`;
    case 'inFlightRequests': return `requests running or waiting per replica (${VLLM_RUNNING_METRIC} + ${VLLM_QUEUE_METRIC})`;
    case 'prometheus': return 'the value of the query per replica';
  }
}

/** The series of one deployment: its namespace (added by the Prometheus Operator) and our label. */
function seriesSelector(namespace: string | undefined, name: string): string {
  const labels = [`${MODEL_DEPLOYMENT_SERIES_LABEL}=${JSON.stringify(name)}`];
  if (namespace !== undefined) labels.unshift(`namespace=${JSON.stringify(namespace)}`);
  return `{${labels.join(',')}}`;
}

/**
 * The PromQL KEDA evaluates: the metric summed over the deployment's pods. KEDA's Prometheus
 * trigger compares the value with `threshold` × replicas (its `AverageValue` metric type), so a
 * sum and a per-replica target give ceil(sum / target) replicas.
 */
export function promQuery(type: AutoscalingMetricType, namespace: string | undefined, name: string, query?: string): string {
  const s = seriesSelector(namespace, name);
  switch (type) {
    case 'queueDepth': return `sum(${VLLM_QUEUE_METRIC}${s})`;
    case 'kvCacheUsage': return `sum(${VLLM_KV_CACHE_METRIC}${s})`;
    case 'requestRate': return `sum(rate(${VLLM_REQUESTS_METRIC}${s}[2m]))`;
    case 'inFlightRequests': return `sum(${VLLM_RUNNING_METRIC}${s}) + sum(${VLLM_QUEUE_METRIC}${s})`;
    case 'prometheus': return query!;
  }
}

/**
 * The per-replica value in the metric's own unit: the KV-cache percentage becomes vLLM's fraction.
 */
export function thresholdOf(type: AutoscalingMetricType, target: number): number {
  return type === 'kvCacheUsage' ? target / 100 : target;
}

/**
 * The pods metric an HPA reads from the custom metrics API (prometheus-adapter's default rules
 * serve gauges under their own names and counters as per-second rates without `_total`).
 * Undefined for the types an HPA cannot read.
 */
export function podsMetricName(type: AutoscalingMetricType): string | undefined {
  switch (type) {
    case 'queueDepth': return VLLM_QUEUE_METRIC;
    case 'kvCacheUsage': return VLLM_KV_CACHE_METRIC;
    case 'requestRate': return VLLM_REQUESTS_METRIC.replace(/_total$/, '');
    default: return undefined;
  }
}
