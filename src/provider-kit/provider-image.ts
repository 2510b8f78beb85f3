import type { ResolvedModelDeployment } from '../api/resolved-model-deployment';
import { imageOverride } from '../core/model-deployment-object';

/**
 * `md` as the provider sees it when the provider is configured with its own image (a team that
 * keeps an engine release while upgrading the library, README "Pinning images"): a deployment
 * that names no image (`spec.engine.image`, `spec.image`) is treated as if it named the
 * provider's. So everything that follows a user-chosen image follows this one too: the image
 * written, the moving-tag warning, and the removed-flag check, which knows only the default
 * image's engine release and is skipped.
 */
export function withProviderImage(md: ResolvedModelDeployment, image: string | undefined): ResolvedModelDeployment {
  if (image === undefined || imageOverride(md.spec) !== undefined) return md;
  return { ...md, spec: { ...md.spec, image } };
}
