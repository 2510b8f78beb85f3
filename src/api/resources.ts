import { Size } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-34';
import type { DeviceRequest } from './devices/devices';

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
   * Extended resource name the GPUs are requested under.
   *
   * `nvidia.com/gpu`, `amd.com/gpu`, `gpu.intel.com/i915`, or a MIG profile such as
   * `nvidia.com/mig-1g.10gb`: a domain-prefixed name outside the `kubernetes.io/` and `requests.`
   * namespaces. KAITO accepts only `nvidia.com/gpu` (its Workspace sizes GPUs by instance type).
   * @default 'nvidia.com/gpu'
   */
  readonly resourceName?: string;

  /**
   * Tolerate the GPU nodes' taint on every pod of the deployment that requests GPUs.
   *
   * The toleration is `{key, operator: Exists, effect: NoSchedule}`, with key `nvidia.com/gpu` for
   * any `nvidia.com/` resource (MIG profiles included), `amd.com/gpu` for any `amd.com/` resource,
   * else the resource name; it is added to the deployment's `tolerations` unless one of them
   * already covers it. It applies to the whole deployment: set on several `GpuOptions` (prefill
   * and decode), the values must agree. It is written to the ModelDeployment annotation
   * `inference.cdk8s.io/tolerate-gpu-taint` (`"true"`/`"false"`), which AI Runway YAML sets
   * directly. KAITO's pods tolerate `nvidia.com/gpu` whatever this says.
   *
   * On by default: GKE taints every GPU node `nvidia.com/gpu=present:NoSchedule` and relies on
   * the `ExtendedResourceToleration` admission plugin to add the toleration, which adds none to a
   * pod that claims its GPUs through DRA, and which many clusters (kubeadm, most self-managed
   * ones) do not enable; a toleration of a taint no node carries changes nothing. Set `false` to
   * leave tolerations to the cluster.
   * @default true
   */
  readonly tolerateTaint?: boolean;

  /**
   * DRA device requests: the pods claim these devices through a ResourceClaimTemplate
   * (`resource.k8s.io/v1`) instead of requesting `count` GPUs under `resourceName`.
   *
   * `count` still says how many GPUs the engine uses (tensor parallelism), and must not exceed
   * the devices claimed. Written to the ModelDeployment annotation `inference.cdk8s.io/devices`,
   * which AI Runway YAML sets directly. KAITO cannot carry claims (its Workspace has no pod
   * template); the other shipped providers wire them into their serving pods.
   * @default - no DRA claims: GPUs are requested as the `resourceName` extended resource
   */
  readonly devices?: DeviceRequest[];
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
