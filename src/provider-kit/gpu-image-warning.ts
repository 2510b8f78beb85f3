import type { ResolvedModelDeployment } from '../api/resolved-model-deployment';
import { isAmdGpuType, servingGpuFields } from '../core/gpu-type';
import { imageOverride } from '../core/model-deployment-object';

/**
 * The warning for AMD GPUs on a provider's default vLLM image, or undefined. The default images
 * of Direct vLLM, llm-d and KubeRay are CUDA builds: on `amd.com/*` GPUs the pod schedules but
 * vLLM finds no device it can use. Only a warning, since the node might still be right for another
 * image; set `spec.engine.image` to a ROCm build of vLLM and it goes away.
 */
export function amdOnCudaImageWarning(displayName: string, defaultImage: string, md: ResolvedModelDeployment): string | undefined {
  if (imageOverride(md.spec) !== undefined) return undefined;
  const amd = servingGpuFields(md.spec, md.mode).filter((f) => f.count > 0 && isAmdGpuType(f.gpuType));
  if (amd.length === 0) return undefined;
  const fields = amd.map((f) => `${f.path}.type ${JSON.stringify(f.gpuType)}`).join(', ');
  return `${displayName} requests AMD GPUs (${fields}) but runs its default image ${defaultImage}, a CUDA build of vLLM; ` +
    'set spec.engine.image to a ROCm build of vLLM';
}
