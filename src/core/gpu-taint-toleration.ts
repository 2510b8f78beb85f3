/**
 * The GPU taint toleration of GPU pods: GPU node pools are commonly tainted
 * (`nvidia.com/gpu=present:NoSchedule` on every GKE GPU node, `amd.com/gpu:NoSchedule`) so that
 * only GPU workloads land there, and a pod that requests GPUs but does not tolerate the taint
 * stays Pending. GKE's `ExtendedResourceToleration` admission adds the toleration to pods that
 * request `nvidia.com/gpu`, but not to pods that claim GPUs through DRA, and many clusters do not
 * enable it; the real kube-scheduler proved both on a simulated GKE pool (test/simcluster). So
 * every pod that requests or claims GPUs tolerates the taint unless the deployment opts out.
 * AI Runway's ModelDeployment has no field for it, so it is an annotation of ours; the typed
 * construct sets it from `GpuOptions.tolerateTaint`.
 */
import { FieldError, notSupported } from './field-error';
import { isAmdGpuType, isNvidiaGpuType } from './gpu-type';

/** ModelDeployment annotation: `"false"` leaves GPU pods without the GPU taint toleration (the default is `"true"`). */
export const TOLERATE_GPU_TAINT_ANNOTATION = 'inference.cdk8s.io/tolerate-gpu-taint';

/** The values the annotation may have. */
export const TOLERATE_GPU_TAINT_VALUES: readonly string[] = ['true', 'false'];

/** Field path of the annotation, in messages. */
export const TOLERATE_GPU_TAINT_PATH = `metadata.annotations[${JSON.stringify(TOLERATE_GPU_TAINT_ANNOTATION)}]`;

/** The toleration, in the core/v1 JSON shape. */
export interface GpuTaintToleration {
  readonly key: string;
  readonly operator: 'Exists';
  readonly effect: 'NoSchedule';
}

/** Whether the deployment's GPU pods tolerate the GPU taint: unless the annotation says `"false"`. */
export function toleratesGpuTaint(annotations: Readonly<Record<string, string>> | undefined): boolean {
  return annotations?.[TOLERATE_GPU_TAINT_ANNOTATION] !== 'false';
}

/** The annotation, when set to anything but "true" or "false". */
export function gpuTaintAnnotationErrors(annotations: Readonly<Record<string, string>> | undefined): FieldError[] {
  const value = annotations?.[TOLERATE_GPU_TAINT_ANNOTATION];
  if (value === undefined || TOLERATE_GPU_TAINT_VALUES.includes(value)) return [];
  return [notSupported(TOLERATE_GPU_TAINT_PATH, value, TOLERATE_GPU_TAINT_VALUES)];
}

/**
 * The taint key GPU nodes of `gpuType` carry, as the vendors' device plugins and the managed
 * clouds taint them: `nvidia.com/gpu` for every NVIDIA resource (MIG profiles are partitions of
 * the same tainted nodes), `amd.com/gpu` for AMD's, and the resource name itself otherwise.
 */
export function gpuTaintKey(gpuType: string): string {
  if (isNvidiaGpuType(gpuType)) return 'nvidia.com/gpu';
  if (isAmdGpuType(gpuType)) return 'amd.com/gpu';
  return gpuType;
}

/** `{key: <taint key>, operator: Exists, effect: NoSchedule}`: any value of the taint is tolerated. */
export function gpuTaintToleration(gpuType: string): GpuTaintToleration {
  return { key: gpuTaintKey(gpuType), operator: 'Exists', effect: 'NoSchedule' };
}

/** The fields of a toleration that decide what it tolerates. */
interface TolerationLike {
  readonly key?: string;
  readonly operator?: string;
  readonly effect?: string;
}

/**
 * Whether `existing` already tolerates every `NoSchedule` taint that `wanted` does: an `Exists`
 * toleration of the same key (or of every key) with the same effect (or every effect). An `Equal`
 * toleration tolerates only one value of the taint, so it does not.
 */
export function coversToleration(existing: TolerationLike, wanted: GpuTaintToleration): boolean {
  if (existing.operator !== 'Exists') return false;
  const keyCovered = !existing.key || existing.key === wanted.key;
  const effectCovered = !existing.effect || existing.effect === wanted.effect;
  return keyCovered && effectCovered;
}
