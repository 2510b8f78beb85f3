import { Size } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-34';

/**
 * Compute resources of the endpoint pickers the registry synthesizes for controller-managed
 * routing (one per routed deployment). Each field not given keeps its default.
 */
export interface EndpointPickerResources {
  /**
   * CPU request.
   * @default Cpu.millis(250)
   */
  readonly cpuRequest?: Cpu;

  /**
   * CPU limit: the picker scores every request of the pool on the latency path, so it may burst.
   * @default Cpu.units(2)
   */
  readonly cpuLimit?: Cpu;

  /**
   * Memory request (its metrics cache of the pool's pods).
   * @default Size.mebibytes(512)
   */
  readonly memoryRequest?: Size;

  /**
   * Memory limit.
   * @default Size.gibibytes(2)
   */
  readonly memoryLimit?: Size;
}
