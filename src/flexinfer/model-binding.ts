import type { ModelSpecJson } from './model-spec-json';
import {
  ModelSpec,
  ModelSpecCacheStrategy,
  ModelSpecGpuVendor,
  ModelSpecKvCacheHighWatermark,
  ModelSpecKvCacheLowWatermark,
  ModelSpecKvCachePressurePolicy,
  ModelSpecKvCacheReconfigureStrategy,
  ModelSpecKvCacheSwapSpace,
} from '../imports/ai.flexinfer';

/**
 * The generated L1's props for a Model spec in the CRD's JSON shape. The binding renames one
 * field (`vramEstimateMB` is `vramEstimateMb`) and wraps the int-or-string watermarks; its enums
 * are the CRD's strings, which the rules have already checked.
 */
export function toModelSpecProps(spec: ModelSpecJson): ModelSpec {
  const { gpu, cache, kvCache, ...rest } = spec;
  return {
    ...rest,
    ...(gpu && {
      gpu: {
        count: gpu.count,
        priority: gpu.priority,
        shared: gpu.shared,
        swapCooldown: gpu.swapCooldown,
        vendor: gpu.vendor as ModelSpecGpuVendor | undefined,
        vramEstimateMb: gpu.vramEstimateMB,
      },
    }),
    ...(cache && { cache: { ...cache, strategy: cache.strategy as ModelSpecCacheStrategy | undefined } }),
    ...(kvCache && {
      kvCache: {
        maxBlockSize: kvCache.maxBlockSize,
        reconfigureCooldown: kvCache.reconfigureCooldown,
        pressurePolicy: kvCache.pressurePolicy as ModelSpecKvCachePressurePolicy | undefined,
        reconfigureStrategy: kvCache.reconfigureStrategy as ModelSpecKvCacheReconfigureStrategy | undefined,
        highWatermark: kvCache.highWatermark === undefined ? undefined : ModelSpecKvCacheHighWatermark.fromString(kvCache.highWatermark),
        lowWatermark: kvCache.lowWatermark === undefined ? undefined : ModelSpecKvCacheLowWatermark.fromString(kvCache.lowWatermark),
        swapSpace: kvCache.swapSpace === undefined ? undefined : ModelSpecKvCacheSwapSpace.fromString(kvCache.swapSpace),
      },
    }),
  };
}
