/**
 * GPU types: the extended resource a deployment's GPUs are requested under
 * (`spec.resources.gpu.type`, `spec.scaling.{prefill,decode}.gpu.type`), which value Kubernetes
 * accepts there, and which GPU fields a serving mode actually uses.
 */
import { DEFAULT_GPU_RESOURCE } from './defaults';
import { FieldError, invalid } from './field-error';
import type { GpuSpec, ModelDeploymentSpec } from './generated/model-deployment-spec';
import { extendedResourceNameErrors } from './kubernetes-names';
import type { ServingModeName } from './model-deployment-object';

/** Examples named in messages: one per vendor, and a MIG profile. */
export const GPU_TYPE_EXAMPLES: readonly string[] = ['nvidia.com/gpu', 'amd.com/gpu', 'gpu.intel.com/i915', 'nvidia.com/mig-1g.10gb'];

/** One `gpu` block of a spec: where it is, its type (defaulted) and its count. */
export interface GpuField {
  /** `spec.resources.gpu`, `spec.scaling.prefill.gpu` or `spec.scaling.decode.gpu`. */
  readonly path: string;
  /** The extended resource name; `nvidia.com/gpu` when unset or empty. */
  readonly gpuType: string;
  readonly count: number;
}

/** The GPU type of a `gpu` block: its `type`, or `nvidia.com/gpu` (the CRD default) when unset or empty. */
export function gpuTypeOf(gpu: GpuSpec | undefined): string {
  return gpu?.type || DEFAULT_GPU_RESOURCE;
}

function field(path: string, gpu: GpuSpec | undefined): GpuField[] {
  return gpu ? [{ path, gpuType: gpuTypeOf(gpu), count: gpu.count ?? 0 }] : [];
}

/** Every `gpu` block the spec has, in spec order (resources, prefill, decode). */
export function allGpuFields(spec: ModelDeploymentSpec): GpuField[] {
  return [
    ...field('spec.resources.gpu', spec.resources?.gpu),
    ...field('spec.scaling.prefill.gpu', spec.scaling?.prefill?.gpu),
    ...field('spec.scaling.decode.gpu', spec.scaling?.decode?.gpu),
  ];
}

/**
 * The `gpu` blocks a serving mode reads: `spec.resources.gpu` when aggregated, the prefill and
 * decode components' when disaggregated (the others are ignored there).
 */
export function servingGpuFields(spec: ModelDeploymentSpec, mode: ServingModeName): GpuField[] {
  return allGpuFields(spec).filter((f) => (mode === 'disaggregated') !== (f.path === 'spec.resources.gpu'));
}

/** Whether GPUs of `gpuType` are NVIDIA's (`nvidia.com/gpu` and the MIG profiles `nvidia.com/mig-*`). */
export function isNvidiaGpuType(gpuType: string): boolean {
  return gpuType.startsWith('nvidia.com/');
}

/** Whether `gpuType` is an NVIDIA MIG profile (`nvidia.com/mig-1g.10gb`): a slice of a GPU, not a whole one. */
export function isMigGpuType(gpuType: string): boolean {
  return gpuType.startsWith('nvidia.com/mig-');
}

/** Whether GPUs of `gpuType` are AMD's (`amd.com/gpu`, and AMD's partition resources). */
export function isAmdGpuType(gpuType: string): boolean {
  return gpuType.startsWith('amd.com/');
}

/**
 * Every `gpu.type` that is not an extended resource name the API server accepts in a container's
 * resources, at `<gpu path>.type`. Not an AI Runway rule (its webhook accepts any string): every
 * provider requests GPUs under this name, so a bad one would fail in the cluster instead.
 */
export function gpuTypeErrors(spec: ModelDeploymentSpec): FieldError[] {
  const errors: FieldError[] = [];
  for (const f of allGpuFields(spec)) {
    const problems = extendedResourceNameErrors(f.gpuType);
    if (problems.length === 0) continue;
    errors.push(invalid(
      `${f.path}.type`,
      f.gpuType,
      "must be an extended resource name: a DNS subdomain prefix, '/', and a name of at most 63 alphanumeric characters, '-', '_' or '.', " +
        `outside the kubernetes.io/ and requests. namespaces (${GPU_TYPE_EXAMPLES.map((e) => JSON.stringify(e)).join(', ')}); ${problems.join('; ')}`,
    ));
  }
  return errors;
}
