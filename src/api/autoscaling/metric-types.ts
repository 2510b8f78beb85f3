/**
 * The LLM metrics an autoscaler can keep per replica, and where each comes from: the engine's own
 * series (`ENGINE_METRIC_SERIES`), read over the deployment's pods, which our PodMonitor labels
 * `model_deployment: <name>`, or a PromQL query of the user's.
 */

/** The kinds of metric the annotation accepts. */
export type AutoscalingMetricType = 'queueDepth' | 'kvCacheUsage' | 'requestRate' | 'inFlightRequests' | 'prometheus';

export const AUTOSCALING_METRIC_TYPES: readonly AutoscalingMetricType[] = ['queueDepth', 'kvCacheUsage', 'requestRate', 'inFlightRequests', 'prometheus'];

/** The series one engine exports for the metrics the annotation names. */
export interface EngineMetricSeries {
  /** Gauge of requests waiting to be scheduled. */
  readonly queue: string;
  /** Gauge of requests being processed. */
  readonly running: string;
  /** Gauge of the KV cache in use, 0 to 1. */
  readonly kvCache: string;
  /** Counter of requests served. */
  readonly requests: string;
}

/**
 * The engines whose metrics the autoscaler knows. vLLM serves them on its API port; SGLang only
 * with `--enable-metrics`, on its API port too. (vLLM 0.10 renamed the KV-cache gauge from
 * `vllm:gpu_cache_usage_perc`.) Other engines scale on `prometheus` queries only.
 */
export const ENGINE_METRIC_SERIES: Readonly<Record<string, EngineMetricSeries>> = {
  vllm: {
    queue: 'vllm:num_requests_waiting',
    running: 'vllm:num_requests_running',
    kvCache: 'vllm:kv_cache_usage_perc',
    requests: 'vllm:request_success_total',
  },
  sglang: {
    queue: 'sglang:num_queue_reqs',
    running: 'sglang:num_running_reqs',
    kvCache: 'sglang:token_usage',
    requests: 'sglang:num_requests_total',
  },
};

/** The label our PodMonitor puts on every series it scrapes from a deployment's pods. */
export const MODEL_DEPLOYMENT_SERIES_LABEL = 'model_deployment';

/** What `target` means for each type, in messages and docs. */
export function metricTypeDescription(type: AutoscalingMetricType): string {
  const vllm = ENGINE_METRIC_SERIES.vllm;
  switch (type) {
    case 'queueDepth': return `requests waiting per replica (${vllm.queue})`;
    case 'kvCacheUsage': return `percent of the KV cache in use per replica, 1 to 100 (${vllm.kvCache})`;
    case 'requestRate': return `requests served per second per replica (rate of ${vllm.requests})`;
    case 'inFlightRequests': return `requests running or waiting per replica (${vllm.running} + ${vllm.queue})`;
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
export function promQuery(
  type: AutoscalingMetricType,
  series: EngineMetricSeries,
  namespace: string | undefined,
  name: string,
  query?: string,
): string {
  const s = seriesSelector(namespace, name);
  switch (type) {
    case 'queueDepth': return `sum(${series.queue}${s})`;
    case 'kvCacheUsage': return `sum(${series.kvCache}${s})`;
    case 'requestRate': return `sum(rate(${series.requests}${s}[2m]))`;
    case 'inFlightRequests': return `sum(${series.running}${s}) + sum(${series.queue}${s})`;
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
export function podsMetricName(type: AutoscalingMetricType, series: EngineMetricSeries): string | undefined {
  switch (type) {
    case 'queueDepth': return series.queue;
    case 'kvCacheUsage': return series.kvCache;
    case 'requestRate': return series.requests.replace(/_total$/, '');
    default: return undefined;
  }
}
