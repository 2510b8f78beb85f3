import { Size } from 'cdk8s';
import { AutoscalingOptions } from './autoscaling/autoscaling';
import { GpuOptions } from './resources';

/**
 * Replicas and resources of one disaggregated component (prefill or decode).
 */
export interface ComponentScaling {
  /**
   * Replicas of this component (at most 32).
   * @default 1
   */
  readonly replicas?: number;

  /**
   * GPUs per replica; `count` must be greater than 0.
   * @default - none, which fails validation in disaggregated mode
   */
  readonly gpu?: GpuOptions;

  /**
   * Memory per replica (at most 4Ti).
   * @default - no memory request
   */
  readonly memory?: Size;
}

/**
 * Replica counts (`spec.scaling`).
 */
export interface ScalingOptions {
  /**
   * Replicas in aggregated mode (0 to 32). 0 runs no pods on providers that can (Direct vLLM,
   * llm-d, ...); the others run one, as AI Runway does, and warn. Exclusive with `autoscaling`.
   * @default 1, unless `autoscaling` is set
   */
  readonly replicas?: number;

  /**
   * Replicas set by an autoscaler on LLM metrics, between its bounds (annotation
   * `inference.cdk8s.io/autoscaling`). Exclusive with `replicas`.
   * @default - a fixed replica count
   */
  readonly autoscaling?: AutoscalingOptions;

  /**
   * Prefill workers; required in disaggregated mode.
   * @default - none
   */
  readonly prefill?: ComponentScaling;

  /**
   * Decode workers; required in disaggregated mode.
   * @default - none
   */
  readonly decode?: ComponentScaling;
}
