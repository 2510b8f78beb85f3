/**
 * DRA devices of one kind on each node of a `NodePool`, described as a ResourceSlice lists them.
 */
export interface InventoryDevice {
  /**
   * The DRA driver that publishes the devices (`gpu.nvidia.com`); bare attribute and capacity
   * names belong to its domain.
   */
  readonly driver: string;

  /**
   * The DeviceClass the devices are claimed under; a device request of another class never gets them.
   * @default - any class
   */
  readonly deviceClassName?: string;

  /**
   * Devices of this kind per node.
   * @default 1
   */
  readonly count?: number;

  /**
   * Attributes by qualified (`gpu.nvidia.com/productName`) or bare name: strings, integers,
   * booleans, or `{ version: '1.2.3' }` for versions.
   * @default - none
   */
  readonly attributes?: { [name: string]: any };

  /**
   * Capacities by qualified or bare name, as quantities (`memory: '80Gi'`).
   * @default - none
   */
  readonly capacity?: { [name: string]: string };
}

/**
 * One node pool of the target cluster, for the build-time capacity check: with pools declared
 * (`ProviderRegistry.addNodePool`), every deployment's GPU and device requests must fit one of
 * them, else the synth fails with `InsufficientCapacity` and each pool's reasons.
 */
export interface NodePool {
  /** Name of the pool, in messages and `explain`. */
  readonly name: string;

  /** Nodes in the pool (its maximum when it autoscales). */
  readonly nodes: number;

  /**
   * Labels every node of the pool carries; a deployment's `nodeSelector` must match them.
   * @default - none
   */
  readonly labels?: { [key: string]: string };

  /**
   * Extended resources of one node (`{ 'nvidia.com/gpu': 8 }`).
   * @default - none
   */
  readonly extendedResources?: { [name: string]: number };

  /**
   * DRA devices of one node.
   * @default - none
   */
  readonly devices?: InventoryDevice[];
}
