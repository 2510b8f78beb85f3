import { Duration } from 'cdk8s';
import type { AutoscalingMetricSpec } from './autoscaling-annotation';

/**
 * What sets the replicas of a workload the provider names for scaling.
 */
export enum Autoscaler {
  /**
   * A KEDA `ScaledObject` with one Prometheus trigger per metric. Scales to zero. Needs KEDA in
   * the cluster and a Prometheus it can query.
   */
  KEDA = 'keda',

  /**
   * An `autoscaling/v2` HorizontalPodAutoscaler on pods metrics. Needs a custom metrics adapter
   * (e.g. prometheus-adapter) serving vLLM's metrics under their own names; runs at least one replica.
   */
  HPA = 'hpa',
}

/**
 * Options of a metric that can wake a deployment scaled to zero.
 */
export interface AutoscalingMetricOptions {
  /**
   * KEDA only: the value above which a workload at zero replicas is woken, in the metric's unit.
   * @default - KEDA's default: any value above 0
   */
  readonly activationTarget?: number;
}

/**
 * A metric the autoscaler keeps each replica at. The model server metrics are vLLM's, read from
 * the deployment's pods; `prometheus` is any PromQL query (e.g. requests at the gateway, the
 * demand signal that wakes a deployment scaled to zero).
 */
export class AutoscalingMetric {
  /** Requests waiting to be scheduled, per replica (`vllm:num_requests_waiting`). */
  public static queueDepth(target: number, options: AutoscalingMetricOptions = {}): AutoscalingMetric {
    return new AutoscalingMetric({ type: 'queueDepth', target, ...activation(options) });
  }

  /** Percent (1 to 100) of the KV cache in use, per replica (`vllm:kv_cache_usage_perc`). */
  public static kvCacheUsage(percent: number, options: AutoscalingMetricOptions = {}): AutoscalingMetric {
    return new AutoscalingMetric({ type: 'kvCacheUsage', target: percent, ...activation(options) });
  }

  /** Finished requests per second, per replica (rate of `vllm:request_success_total`). */
  public static requestRate(perSecond: number, options: AutoscalingMetricOptions = {}): AutoscalingMetric {
    return new AutoscalingMetric({ type: 'requestRate', target: perSecond, ...activation(options) });
  }

  /** Requests running or waiting, per replica (KEDA only). */
  public static inFlightRequests(target: number, options: AutoscalingMetricOptions = {}): AutoscalingMetric {
    return new AutoscalingMetric({ type: 'inFlightRequests', target, ...activation(options) });
  }

  /**
   * A PromQL query whose value, summed over replicas, is kept at `target` per replica (KEDA only).
   */
  public static prometheus(query: string, target: number, options: AutoscalingMetricOptions = {}): AutoscalingMetric {
    return new AutoscalingMetric({ type: 'prometheus', target, query, ...activation(options) });
  }

  /** @internal the metric as the annotation spells it */
  public readonly _spec: AutoscalingMetricSpec;

  private constructor(spec: AutoscalingMetricSpec) {
    this._spec = spec;
  }
}

/**
 * Autoscaling on LLM metrics (annotation `inference.cdk8s.io/autoscaling`). Exclusive with
 * `ScalingOptions.replicas`.
 */
export interface AutoscalingOptions {
  /** Most replicas (1 to 32). */
  readonly maxReplicas: number;

  /**
   * Fewest replicas; 0 scales to zero (KEDA, with a `prometheus` metric that measures demand while
   * no pod runs).
   * @default 1
   */
  readonly minReplicas?: number;

  /** The metrics to keep per replica (1 to 4); the autoscaler follows the one asking for most replicas. */
  readonly metrics: AutoscalingMetric[];

  /**
   * KEDA or an HPA, where the provider names a workload to scale (Direct vLLM, llm-d). Providers
   * with their own autoscaler (Kthena, KubeRay) take no choice.
   * @default Autoscaler.KEDA
   */
  readonly autoscaler?: Autoscaler;

  /**
   * The Prometheus API KEDA queries.
   * @default "http://prometheus-operated.monitoring.svc:9090"
   */
  readonly prometheusAddress?: string;

  /**
   * Synthesize a Prometheus Operator `PodMonitor` that scrapes the model server pods and labels
   * their series `model_deployment: <name>`, which the queries select on.
   * @default true
   */
  readonly podMonitor?: boolean;

  /**
   * How long load must stay low before replicas are removed (and, with KEDA, before the last one).
   * @default - the autoscaler's defaults (HPA: 5 minutes to scale in; KEDA: 5 minutes to zero)
   */
  readonly cooldown?: Duration;
}

/** The annotation's value for typed options: the same YAML a user would write. */
/** @internal */
export function autoscalingAnnotationValue(options: AutoscalingOptions): Record<string, unknown> {
  return {
    ...(options.minReplicas !== undefined && { minReplicas: options.minReplicas }),
    maxReplicas: options.maxReplicas,
    ...(options.autoscaler !== undefined && { autoscaler: options.autoscaler }),
    metrics: options.metrics.map((m) => ({ ...m._spec })),
    ...(options.prometheusAddress !== undefined && { prometheusAddress: options.prometheusAddress }),
    ...(options.podMonitor !== undefined && { podMonitor: options.podMonitor }),
    ...(options.cooldown !== undefined && { cooldownSeconds: options.cooldown.toSeconds() }),
  };
}

function activation(options: AutoscalingMetricOptions): { activationTarget?: number } {
  return options.activationTarget !== undefined ? { activationTarget: options.activationTarget } : {};
}
