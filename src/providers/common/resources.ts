import { k8s } from 'cdk8s-plus-34';
import type { SpecComponentScaling } from './spec-types';
import { DEFAULT_GPU_RESOURCE } from '../../core/defaults';
import type { ModelDeploymentSpec } from '../../core/generated/model-deployment-spec';

/**
 * The extended-resource key the Deployment-based providers (llm-d, Direct vLLM) request GPUs
 * under. AI Runway always uses this key there and ignores `gpu.type` (see `ignoredGpuTypeWarnings`).
 */
export const NVIDIA_GPU_RESOURCE = DEFAULT_GPU_RESOURCE;

/**
 * What one serving container asks for: the GPU count, memory and CPU of either the top-level
 * `spec.resources` (aggregated) or one disaggregated component (`spec.scaling.prefill|decode`).
 */
export interface ContainerSizing {
  readonly gpuCount: number;
  readonly memory?: string;
  readonly cpu?: string;
}

/** Sizing of the aggregated serving container: `spec.resources`. */
export function aggregatedSizing(spec: ModelDeploymentSpec): ContainerSizing {
  return {
    gpuCount: spec.resources?.gpu?.count ?? 0,
    memory: spec.resources?.memory || undefined,
    cpu: spec.resources?.cpu || undefined,
  };
}

/** Sizing of a disaggregated component: its GPU count and memory (components carry no CPU). */
export function componentSizing(component: SpecComponentScaling): ContainerSizing {
  return {
    gpuCount: component.gpu?.count ?? 0,
    memory: component.memory || undefined,
  };
}

/**
 * Container `resources`: GPUs (count > 0) in both limits and requests, memory in both, CPU in
 * requests only. Undefined when nothing is set, so the field is omitted.
 */
export function containerResources(sizing: ContainerSizing): k8s.ResourceRequirements | undefined {
  const limits: Record<string, k8s.Quantity> = {};
  const requests: Record<string, k8s.Quantity> = {};
  if (sizing.gpuCount > 0) {
    limits[NVIDIA_GPU_RESOURCE] = k8s.Quantity.fromString(String(sizing.gpuCount));
    requests[NVIDIA_GPU_RESOURCE] = k8s.Quantity.fromString(String(sizing.gpuCount));
  }
  if (sizing.memory) {
    limits.memory = k8s.Quantity.fromString(sizing.memory);
    requests.memory = k8s.Quantity.fromString(sizing.memory);
  }
  if (sizing.cpu) {
    requests.cpu = k8s.Quantity.fromString(sizing.cpu);
  }
  const hasLimits = Object.keys(limits).length > 0;
  const hasRequests = Object.keys(requests).length > 0;
  if (!hasLimits && !hasRequests) return undefined;
  return {
    ...(hasLimits ? { limits } : {}),
    ...(hasRequests ? { requests } : {}),
  };
}

/**
 * Warnings for the GPU types a Deployment-based provider (llm-d, Direct vLLM) drops: it always
 * requests GPUs as `nvidia.com/gpu`, so any other `gpu.type` of `spec.resources` or of a
 * disaggregated component is ignored. One warning per such field, in that order.
 */
export function ignoredGpuTypeWarnings(displayName: string, spec: ModelDeploymentSpec): string[] {
  const gpuTypes: Array<[string, string | undefined]> = [
    ['spec.resources.gpu.type', spec.resources?.gpu?.type],
    ['spec.scaling.prefill.gpu.type', spec.scaling?.prefill?.gpu?.type],
    ['spec.scaling.decode.gpu.type', spec.scaling?.decode?.gpu?.type],
  ];
  return gpuTypes
    .filter(([, type]) => type && type !== NVIDIA_GPU_RESOURCE)
    .map(([path, type]) => `${displayName} ignores ${path} ${JSON.stringify(type)}: it always requests GPUs as ${NVIDIA_GPU_RESOURCE}`);
}
