import { Size } from 'cdk8s';
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
   * Replicas in aggregated mode (0 to 32). Providers run at least one replica: 0 is rendered
   * as 1, as AI Runway does, and draws a warning.
   * @default 1
   */
  readonly replicas?: number;

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
