import type { ModelDeploymentSpec } from './generated/model-deployment-spec';
import { movingTagReason, parseImageReference } from './image-reference';
import { isJsonObject } from './json-object';
import { pinnedDefaultFor } from './pinned-images';

/**
 * Annotation with which a deployment says that moving image tags are intended (a development
 * deployment that should follow `nightly`): with `"true"` no moving-tag warning is given for it.
 * Every other deployment is treated as production, where a moving tag surprises: a new node or a
 * rescheduled pod pulls another build than the one that was tested.
 */
export const ALLOW_MOVING_IMAGE_TAG_ANNOTATION = 'inference.cdk8s.io/allow-moving-image-tag';

/**
 * The warning for `image`, set at `path` by the user, or undefined when it is pinned. It names the
 * field, the image, why the tag moves, and the pinned alternative: `pinnedAlternative`, else the
 * image of the same repository cdk8s-inference uses by default, else a version tag or a digest.
 */
export function movingImageTagWarning(path: string, image: string, pinnedAlternative?: string): string | undefined {
  const reason = movingTagReason(image);
  if (reason === undefined) return undefined;
  const repository = parseImageReference(image).repository;
  const pinned = pinnedAlternative ?? pinnedDefaultFor(image);
  const suggestion = pinned !== undefined
    ? `pin it, e.g. ${pinned} (the version cdk8s-inference uses by default), or a digest (${repository}@sha256:...)`
    : `pin a version tag or a digest (${repository}:<version> or ${repository}@sha256:...)`;
  return `${path} ${JSON.stringify(image)} is a moving image (${reason}): a new node or a rescheduled pod may pull another build than the one you tested; ${suggestion}`;
}

/**
 * Moving-tag warnings for the images a ModelDeployment's author chose: `spec.engine.image`,
 * `spec.image`, and every string under `spec.provider.overrides` whose key is `image` or ends in
 * `Image` (`extraPodSpec.mainContainer.image`, a container's `image`, `eppImage`, ...). None when
 * the deployment is annotated `inference.cdk8s.io/allow-moving-image-tag: "true"`. The providers'
 * own default images are not the author's choice and are not checked here.
 */
export function movingImageTagWarnings(spec: ModelDeploymentSpec, annotations: Readonly<Record<string, string>> | undefined): string[] {
  if (annotations?.[ALLOW_MOVING_IMAGE_TAG_ANNOTATION] === 'true') return [];
  const chosen: Array<[string, string]> = [];
  if (spec.engine?.image) chosen.push(['spec.engine.image', spec.engine.image]);
  if (spec.image) chosen.push(['spec.image', spec.image]);
  collectOverrideImages(spec.provider?.overrides, 'spec.provider.overrides', chosen);
  const warnings: string[] = [];
  for (const [path, image] of chosen) {
    const warning = movingImageTagWarning(path, image);
    if (warning) warnings.push(`${warning}; or annotate the deployment ${ALLOW_MOVING_IMAGE_TAG_ANNOTATION}: "true" if that is intended`);
  }
  return warnings;
}

function collectOverrideImages(value: unknown, path: string, out: Array<[string, string]>): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => collectOverrideImages(item, `${path}[${i}]`, out));
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const childPath = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
    if ((key === 'image' || key.endsWith('Image')) && typeof child === 'string' && child !== '') out.push([childPath, child]);
    else collectOverrideImages(child, childPath, out);
  }
}
