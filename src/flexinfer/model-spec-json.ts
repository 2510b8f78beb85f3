/**
 * The JSON shape of a FlexInfer `Model` spec (`ai.flexinfer/v1alpha2`, pinned CRD) in the CRD's
 * own field names, for the parts this library writes. The L2 construct and the provider both
 * build this shape, the CRD's rules (`./model-rules`) check it, and `./model-binding` hands it to
 * the generated L1. Kept free of cdk8s so the controller can read it.
 */

/** API version and kind of the Model. */
export const FLEXINFER_MODEL_API_VERSION = 'ai.flexinfer/v1alpha2';
export const FLEXINFER_MODEL_KIND = 'Model';

/** `spec.gpu.vendor` values. */
export const GPU_VENDORS: readonly string[] = ['auto', 'nvidia', 'amd', 'cpu'];
/** `spec.cache.strategy` values. */
export const CACHE_STRATEGIES: readonly string[] = ['Memory', 'SharedPVC', 'Local', 'None'];
/** `spec.kvCache.pressurePolicy` values. */
export const KV_PRESSURE_POLICIES: readonly string[] = ['Observe', 'Reconfigure', 'Evict'];
/** `spec.kvCache.reconfigureStrategy` values. */
export const KV_RECONFIGURE_STRATEGIES: readonly string[] = ['ReduceSeqs', 'ReduceMaxLen', 'Both'];

/** The CRD's bounds. */
export const MAX_GPU_COUNT = 8;
export const MAX_GPU_PRIORITY = 1000;
export const MAX_MIN_REPLICAS = 10;
export const MAX_SERVICE_LABELS = 10;

/**
 * Node label FlexInfer's node agent sets to the node's GPU vendor; when a Model selects on it,
 * the CRD requires the value to agree with `gpu.vendor`.
 */
export const GPU_VENDOR_NODE_LABEL = 'node.flexstack.io/gpu-vendor';

/** Extended resources the CRD forbids in `spec.resources` (GPUs go through `spec.gpu`). */
export const FORBIDDEN_RESOURCE_KEYS: readonly string[] = ['nvidia.com/gpu', 'amd.com/gpu', 'gpu.intel.com/i915'];

/** The extended resource FlexInfer requests `gpu.count` of, per vendor. */
export const VENDOR_GPU_RESOURCE: Readonly<Record<string, string>> = { nvidia: 'nvidia.com/gpu', amd: 'amd.com/gpu' };

/** Pod label FlexInfer puts on a Model's serving pods (valued with the Model name). */
export const FLEXINFER_MODEL_POD_LABEL = 'flexinfer.ai/model';

export interface ModelGpuJson {
  readonly vendor?: string;
  readonly count?: number;
  readonly shared?: string;
  readonly priority?: number;
  readonly vramEstimateMB?: number;
  readonly swapCooldown?: string;
}

export interface ModelServerlessJson {
  readonly enabled?: boolean;
  readonly minReplicas?: number;
  readonly idleTimeout?: string;
  readonly coldStartTimeout?: string;
}

export interface ModelCacheJson {
  readonly strategy?: string;
  readonly pvcName?: string;
  readonly storageClass?: string;
  readonly size?: string;
  readonly hostPath?: string;
}

export interface ModelLiteLlmJson {
  readonly enabled?: boolean;
  readonly servedModelName?: string;
  readonly aliases?: string[];
  readonly copilotAlias?: string;
}

export interface ModelCapabilitiesJson {
  readonly toolCalling?: boolean;
  readonly vision?: boolean;
  readonly imageGeneration?: boolean;
}

export interface ModelKvCacheJson {
  readonly pressurePolicy?: string;
  readonly highWatermark?: string;
  readonly lowWatermark?: string;
  readonly maxBlockSize?: number;
  readonly swapSpace?: string;
  readonly reconfigureCooldown?: string;
  readonly reconfigureStrategy?: string;
}

export interface ModelResourcesJson {
  readonly limits?: Record<string, string>;
  readonly requests?: Record<string, string>;
}

export interface ModelTolerationJson {
  readonly key?: string;
  readonly operator?: string;
  readonly value?: string;
  readonly effect?: string;
  readonly tolerationSeconds?: number;
}

export interface ModelSpecJson {
  readonly backend: string;
  readonly source: string;
  readonly image?: string;
  readonly gpu?: ModelGpuJson;
  readonly serverless?: ModelServerlessJson;
  readonly cache?: ModelCacheJson;
  readonly config?: Record<string, unknown>;
  readonly resources?: ModelResourcesJson;
  readonly nodeSelector?: Record<string, string>;
  readonly tolerations?: ModelTolerationJson[];
  readonly litellm?: ModelLiteLlmJson;
  readonly serviceLabels?: string[];
  readonly capabilities?: ModelCapabilitiesJson;
  readonly kvCache?: ModelKvCacheJson;
}

/** The GPU vendor whose extended resource `resource` is (`nvidia.com/gpu` → nvidia), or undefined. */
export function vendorOfGpuResource(resource: string): string | undefined {
  return Object.keys(VENDOR_GPU_RESOURCE).find((vendor) => VENDOR_GPU_RESOURCE[vendor] === resource);
}
