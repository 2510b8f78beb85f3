import type { PodDeviceClaims } from './pod-claims';
import type { SpecComponentScaling } from './spec-types';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import { gpuTypeOf } from '../core/gpu-type';
import { k8s } from '../core/kube-api';

/**
 * What one serving container asks for: the GPU count and type, memory and CPU of either the
 * top-level `spec.resources` (aggregated) or one disaggregated component (`spec.scaling.prefill|decode`).
 */
export interface ContainerSizing {
  readonly gpuCount: number;
  /** The extended resource the GPUs are requested under (`gpu.type`, default `nvidia.com/gpu`). */
  readonly gpuType: string;
  readonly memory?: string;
  readonly cpu?: string;
}

/** Sizing of the aggregated serving container: `spec.resources`. */
export function aggregatedSizing(spec: ModelDeploymentSpec): ContainerSizing {
  return {
    gpuCount: spec.resources?.gpu?.count ?? 0,
    gpuType: gpuTypeOf(spec.resources?.gpu),
    memory: spec.resources?.memory || undefined,
    cpu: spec.resources?.cpu || undefined,
  };
}

/** Sizing of a disaggregated component: its GPU count, type and memory (components carry no CPU). */
export function componentSizing(component: SpecComponentScaling): ContainerSizing {
  return {
    gpuCount: component.gpu?.count ?? 0,
    gpuType: gpuTypeOf(component.gpu),
    memory: component.memory || undefined,
  };
}

/**
 * Container `resources`: GPUs (count > 0) under their type in both limits and requests (the API
 * server requires the two to be equal for an extended resource), memory in both, CPU in requests
 * only. With DRA device claims the GPUs come from the claim instead: the container consumes it
 * (`claims`) and requests no extended resource. Undefined when nothing is set, so the field is omitted.
 */
export function containerResources(sizing: ContainerSizing, deviceClaims?: PodDeviceClaims): k8s.ResourceRequirements | undefined {
  const limits: Record<string, k8s.Quantity> = {};
  const requests: Record<string, k8s.Quantity> = {};
  if (sizing.gpuCount > 0 && !deviceClaims) {
    limits[sizing.gpuType] = k8s.Quantity.fromString(String(sizing.gpuCount));
    requests[sizing.gpuType] = k8s.Quantity.fromString(String(sizing.gpuCount));
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
  if (!hasLimits && !hasRequests && !deviceClaims) return undefined;
  return {
    ...(deviceClaims ? { claims: deviceClaims.containerClaims } : {}),
    ...(hasLimits ? { limits } : {}),
    ...(hasRequests ? { requests } : {}),
  };
}
