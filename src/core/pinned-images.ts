import { movingTagReason, parseImageReference } from './image-reference';
import { DEFAULT_IMAGES } from './version-matrix';

/**
 * A pinned image of the same repository as `image` that cdk8s-inference uses by default, or
 * undefined when it uses none: the first of the version matrix's rows of that repository (the
 * matrix lists a repository's newest version first). Defaults that are themselves moving are
 * never suggested.
 */
export function pinnedDefaultFor(image: string): string | undefined {
  const repository = parseImageReference(image).repository;
  const found = DEFAULT_IMAGES.find((d) => d.repository === repository && movingTagReason(`${d.repository}:${d.tag}`) === undefined);
  return found && `${found.repository}:${found.tag}`;
}
