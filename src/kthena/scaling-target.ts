import type { KthenaMetricSource } from './metric-source';
import type { IKthenaModelServing } from './model-serving-props';

/** A metric the autoscaler keeps each replica at. */
export interface KthenaScalingMetric {
  /** The metric's name, the key of its `metricSources` entry. */
  readonly name: string;

  /** The value per replica to keep it at (above 0), e.g. 10 waiting requests or 0.8 cache usage. */
  readonly targetValue: number;
}

/** Scaling one ModelServing by its ServingGroups (`homogeneousTarget`). */
export interface KthenaHomogeneousTargetOptions {
  /** The ModelServing whose `replicas` the autoscaler sets. */
  readonly serving: IKthenaModelServing;

  /** Fewest ServingGroups (0 to 1000000). */
  readonly minReplicas: number;

  /** Most ServingGroups (1 to 1000000). */
  readonly maxReplicas: number;

  /**
   * Where each metric of the policy is read, by metric name.
   * @default - none: Kthena treats the metrics as missing
   */
  readonly metricSources?: { [metric: string]: KthenaMetricSource };
}

/** One ModelServing of a heterogeneous target, e.g. the H100 copy of a model. */
export interface KthenaHeterogeneousMember {
  /** The ModelServing. */
  readonly serving: IKthenaModelServing;

  /** Fewest ServingGroups (0 to 1000000). */
  readonly minReplicas: number;

  /** Most ServingGroups (1 to 1000000). */
  readonly maxReplicas: number;

  /**
   * Relative cost of one of its replicas (at least 0), e.g. 100 for H100 and 60 for A100.
   * @default - no cost
   */
  readonly cost?: number;

  /**
   * Where each metric of the policy is read for this ModelServing, by metric name.
   * @default - none
   */
  readonly metricSources?: { [metric: string]: KthenaMetricSource };
}

/** Several ModelServings of one model on different hardware, scaled by cost (`heterogeneousTarget`). */
export interface KthenaHeterogeneousTargetOptions {
  /** The ModelServings (at least one). */
  readonly members: KthenaHeterogeneousMember[];

  /**
   * How far (in percent of the cheapest allocation) the optimizer may spend to meet the targets.
   * @default 200
   */
  readonly costExpansionRatePercent?: number;
}

/** The scaling of one role of a disaggregated ModelServing. */
export interface KthenaRoleScaling {
  /** Name of the ModelServing role. */
  readonly role: string;

  /** Fewest instances of the role (0 to 1000000). */
  readonly minReplicas: number;

  /** Most instances of the role (1 to 1000000). Equal to `minReplicas`, the role stays fixed. */
  readonly maxReplicas: number;

  /**
   * Metrics of this role, replacing the policy's.
   * @default - the policy's metrics
   */
  readonly metrics?: KthenaScalingMetric[];

  /**
   * Where each of the role's metrics is read, by metric name; required unless the role is fixed.
   * @default - none
   */
  readonly metricSources?: { [metric: string]: KthenaMetricSource };
}

/** Bounds on the ratio of two roles' replicas, e.g. prefill to decode. */
export interface KthenaRatioConstraint {
  /** The role counted above the line. */
  readonly numeratorRole: string;

  /** The role counted below the line. */
  readonly denominatorRole: string;

  /** Smallest ratio (at least 0). */
  readonly minRatio: number;

  /** Largest ratio (above 0, at least `minRatio`). */
  readonly maxRatio: number;
}

/** Scaling the roles of one disaggregated ModelServing together (`disaggregatedTarget`). */
export interface KthenaDisaggregatedTargetOptions {
  /** The ModelServing whose roles are scaled. */
  readonly serving: IKthenaModelServing;

  /** One or two roles. */
  readonly roles: KthenaRoleScaling[];

  /**
   * Bounds on the ratio of the two roles.
   * @default - the roles scale independently
   */
  readonly ratioConstraint?: KthenaRatioConstraint;
}

/**
 * What an AutoscalingPolicy scales: exactly one of a ModelServing's ServingGroups, several
 * ModelServings by cost, or a disaggregated ModelServing's roles. The factories make it one.
 */
export class KthenaScalingTarget {
  /** Scale one ModelServing's ServingGroups by the policy's metrics. */
  public static homogeneous(options: KthenaHomogeneousTargetOptions): KthenaScalingTarget {
    return new KthenaScalingTarget('homogeneousTarget', options, undefined, undefined);
  }

  /** Scale several ModelServings of one model (different hardware) by cost. */
  public static heterogeneous(options: KthenaHeterogeneousTargetOptions): KthenaScalingTarget {
    return new KthenaScalingTarget('heterogeneousTarget', undefined, options, undefined);
  }

  /** Scale the roles (e.g. prefill and decode) of one ModelServing. */
  public static disaggregated(options: KthenaDisaggregatedTargetOptions): KthenaScalingTarget {
    return new KthenaScalingTarget('disaggregatedTarget', undefined, undefined, options);
  }

  /** The spec field the target fills: `homogeneousTarget`, `heterogeneousTarget` or `disaggregatedTarget`. @internal */
  public readonly _kind: string;
  /** @internal */
  public readonly _homogeneous?: KthenaHomogeneousTargetOptions;
  /** @internal */
  public readonly _heterogeneous?: KthenaHeterogeneousTargetOptions;
  /** @internal */
  public readonly _disaggregated?: KthenaDisaggregatedTargetOptions;

  private constructor(
    kind: string,
    homogeneous: KthenaHomogeneousTargetOptions | undefined,
    heterogeneous: KthenaHeterogeneousTargetOptions | undefined,
    disaggregated: KthenaDisaggregatedTargetOptions | undefined,
  ) {
    this._kind = kind;
    this._homogeneous = homogeneous;
    this._heterogeneous = heterogeneous;
    this._disaggregated = disaggregated;
  }
}
