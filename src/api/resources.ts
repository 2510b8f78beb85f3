import { Size } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-34';

/**
 * GPUs for the model server (`spec.resources.gpu`, `spec.scaling.{prefill,decode}.gpu`).
 */
export interface GpuOptions {
  /**
   * Number of GPUs per replica (at most 64).
   * @default 0
   */
  readonly count?: number;

  /**
   * Extended resource name of the GPU.
   * @default 'nvidia.com/gpu'
   */
  readonly resourceName?: string;
}

/**
 * Compute resources per replica in aggregated mode (`spec.resources`).
 */
export interface ResourceOptions {
  /**
   * GPUs per replica. Not allowed in disaggregated mode (use `scaling.prefill/decode.gpu`).
   * @default - one `nvidia.com/gpu` when an engine other than llama.cpp is set explicitly,
   * no `resources` is given and the legacy `image` is unset; otherwise none
   */
  readonly gpu?: GpuOptions;

  /**
   * CPU request (at most 512 cores).
   * @default - no CPU request
   */
  readonly cpu?: Cpu;

  /**
   * Memory request and limit (at most 4Ti).
   * @default - no memory request
   */
  readonly memory?: Size;
}
