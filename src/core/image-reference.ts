/**
 * What a container image reference pins, read as the kubelet reads it: `[registry[:port]/]path`,
 * then an optional `:tag`, then an optional `@digest`.
 */
export interface ImageReference {
  /** Registry and path, without tag or digest (`vllm/vllm-openai`, `localhost:5000/team/vllm`). */
  readonly repository: string;
  /** The tag as written; undefined when there is none (the runtime then pulls `latest`). */
  readonly tag?: string;
  /** True when the reference carries a digest (`@sha256:...`): the bytes are fixed whatever the tag. */
  readonly digest: boolean;
}

/**
 * Tags that name a stream of builds rather than one build. Matched as a whole `-`/`_`-separated
 * part of the tag, case-insensitively, so `cu130-nightly` and `latest-cuda` count as well.
 */
export const MOVING_TAG_WORDS: readonly string[] = ['latest', 'nightly', 'main', 'master', 'dev', 'develop', 'edge', 'stable', 'unstable', 'canary', 'head'];

/** Splits an image reference; never throws (an odd reference just yields an odd repository). */
export function parseImageReference(image: string): ImageReference {
  const at = image.indexOf('@');
  const digest = at >= 0;
  const named = digest ? image.slice(0, at) : image;
  // A colon before the last slash is a registry port, not a tag.
  const colon = named.indexOf(':', named.lastIndexOf('/') + 1);
  if (colon < 0) return { repository: named, digest };
  return { repository: named.slice(0, colon), tag: named.slice(colon + 1), digest };
}

/**
 * Why `image` may run different bytes from one pull to the next, or undefined when it is pinned.
 * Pinned: a digest; or a tag with none of `MOVING_TAG_WORDS` as a part; or a tag that also names
 * one build — a version (`v0.9.1-dev`), a date of at least four digits (`nightly-20260301`) or a
 * commit (`nightly-3f9c2a1`). Moving: no tag (the runtime pulls `latest`), or a moving word alone
 * or beside parts that name no build (`cu130-nightly`).
 */
export function movingTagReason(image: string): string | undefined {
  const ref = parseImageReference(image);
  if (ref.digest) return undefined;
  if (ref.tag === undefined || ref.tag === '') return 'no tag, so "latest" is pulled';
  const parts = ref.tag.toLowerCase().split(/[-_]/);
  const word = parts.find((p) => MOVING_TAG_WORDS.includes(p));
  if (word === undefined) return undefined;
  if (parts.some(namesOneBuild)) return undefined;
  return `tag ${JSON.stringify(ref.tag)} follows the ${word} builds`;
}

/** A tag part that identifies one build: a version, a date or build number, or a commit. */
function namesOneBuild(part: string): boolean {
  return /^v?\d+(\.\d+)+$/.test(part) || /^\d{4,}$/.test(part) || (/^[0-9a-f]{7,40}$/.test(part) && /\d/.test(part) && /[a-f]/.test(part));
}
