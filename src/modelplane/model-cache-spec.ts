/**
 * The spec of a modelplane ModelCache in the XRD's shape, from parts already checked. The typed
 * `ModelplaneModelCache` and the AI Runway provider (a managed `modelCache` volume) both build
 * their ModelCache here; like ./deployment-spec it takes parts, not the construct's props, since
 * the provider holds a Hugging Face repository and a size, not a `ModelplaneCacheSource` and a `Size`.
 */
import * as modelplane from '../imports/modelplane.ai';

/** A Hugging Face repository to stage. */
export interface HuggingFaceCacheParts {
  readonly repo: string;
  readonly revision?: string;
  /** Secret holding the token; `authSecretKey` is written only with it. */
  readonly authSecretName?: string;
  readonly authSecretKey?: string;
}

/** The ModelCache spec: `sizeGiB` whole GiB of `source`, on the clusters of `clusterSelector` (written when given). */
export function modelCacheSpec(
  source: HuggingFaceCacheParts,
  sizeGiB: number,
  clusterSelector?: Readonly<Record<string, string>>,
): modelplane.ModelCacheSpec {
  const { repo, revision, authSecretName, authSecretKey } = source;
  return {
    source: modelplane.ModelCacheSpecSource.HUGGING_FACE,
    huggingFace: {
      repo,
      ...(revision !== undefined && { revision }),
      ...(authSecretName !== undefined && { authSecret: { name: authSecretName, ...(authSecretKey !== undefined && { key: authSecretKey }) } }),
      sizeGiB,
    },
    ...(clusterSelector !== undefined && { clusterSelector: { matchLabels: { ...clusterSelector } } }),
  };
}
