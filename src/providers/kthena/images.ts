import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { imageOverride } from '../../core/model-deployment-object';
import { defaultImageRef } from '../../core/version-matrix';

/** vLLM image of the Kthena provider when neither the spec nor the provider's props name one. */
export const KTHENA_DEFAULT_VLLM_IMAGE = defaultImageRef('kthena', 'vllm');
/** SGLang image of the Kthena provider when neither the spec nor the provider's props name one. */
export const KTHENA_DEFAULT_SGLANG_IMAGE = defaultImageRef('kthena', 'sglang');

/** The provider's default images, one per engine. */
export interface KthenaEngineImages {
  readonly vllm: string;
  readonly sglang: string;
}

/** The image the provider falls back to for the deployment's engine. */
export function defaultEngineImage(md: ResolvedModelDeployment, images: KthenaEngineImages): string {
  return md.engine === 'sglang' ? images.sglang : images.vllm;
}

/** The engine container's image: the spec's override (`engine.image`, then `spec.image`), else the engine's default. */
export function engineImage(md: ResolvedModelDeployment, images: KthenaEngineImages): string {
  return imageOverride(md.spec) ?? defaultEngineImage(md, images);
}


