import { Duration } from 'cdk8s';

/** How a stable policy combines its two limits (`selectPolicy`). */
export enum KthenaScalingSelectPolicy {
  /** Scale when either the percent or the instances limit allows it (Kthena's default). */
  OR = 'Or',
  /** Scale only when both allow it. */
  AND = 'And',
}

/** Rate limits of ordinary scaling, over a period. */
export interface KthenaStableScalingPolicy {
  /**
   * Most instances added or removed per period (at least 0).
   * @default 1
   */
  readonly instances?: number;

  /**
   * Most instances added or removed per period, as a percentage of the current ones (0 to 1000).
   * @default 100
   */
  readonly percent?: number;

  /**
   * Period the metrics are averaged over (at most 30 minutes).
   * @default Duration.seconds(15)
   */
  readonly period?: Duration;

  /**
   * How `instances` and `percent` combine.
   * @default KthenaScalingSelectPolicy.OR
   */
  readonly selectPolicy?: KthenaScalingSelectPolicy;

  /**
   * Window of recent recommendations the autoscaler smooths over, against flapping (at most 30
   * minutes).
   * @default - none
   */
  readonly stabilizationWindow?: Duration;
}

/** Fast scale-up when load surges (panic mode). */
export interface KthenaPanicScalingPolicy {
  /** Period the panic decision looks at (at most 30 minutes). */
  readonly period: Duration;

  /**
   * Most instances added per period in panic mode, as a percentage of the current ones (0 to 1000).
   * @default 1000
   */
  readonly percent?: number;

  /**
   * Metric level, as a percentage of the target value, that enters panic mode (110 to 1000).
   * @default 200
   */
  readonly panicThresholdPercent?: number;

  /**
   * How long panic mode lasts once entered (at most 30 minutes).
   * @default Duration.seconds(60)
   */
  readonly panicModeHold?: Duration;
}

/** Scale-up policies. */
export interface KthenaScaleUpBehavior {
  /**
   * Ordinary scale-up.
   * @default - Kthena's defaults
   */
  readonly stablePolicy?: KthenaStableScalingPolicy;

  /**
   * Panic-mode scale-up.
   * @default - no panic mode
   */
  readonly panicPolicy?: KthenaPanicScalingPolicy;
}

/** How fast an AutoscalingPolicy scales (`spec.behavior`). */
export interface KthenaScalingBehavior {
  /**
   * Scaling up.
   * @default - Kthena's defaults
   */
  readonly scaleUp?: KthenaScaleUpBehavior;

  /**
   * Scaling down.
   * @default - Kthena's defaults
   */
  readonly scaleDown?: KthenaStableScalingPolicy;
}
