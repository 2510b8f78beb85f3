/**
 * "Did you mean" for a value that is not one of a known set: provider names, enum values, field
 * names, CLI commands and flags. A candidate is close when it is at most two edits away (and
 * fewer edits than the value has characters), or when one of the two begins with the other and
 * the shorter has at least three characters (`kube` for `kuberay`). Case is ignored.
 */

/** Levenshtein distance: insertions, deletions and substitutions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The closest candidate to `value`, or undefined when none is close. Fewest edits wins; on a tie a
 * candidate that begins with the value (or the value with it) wins, then the earlier candidate.
 */
export function closestMatch(value: string, candidates: readonly string[]): string | undefined {
  const v = value.toLowerCase();
  let best: { candidate: string; rank: number } | undefined;
  for (const candidate of candidates) {
    const c = candidate.toLowerCase();
    if (c === v) continue;
    const distance = editDistance(v, c);
    const [shorter, longer] = v.length <= c.length ? [v, c] : [c, v];
    const prefix = shorter.length >= 3 && longer.startsWith(shorter);
    const close = (distance <= 2 && distance < v.length) || prefix;
    const rank = distance * 2 + (prefix ? 0 : 1);
    if (close && (best === undefined || rank < best.rank)) best = { candidate, rank };
  }
  return best?.candidate;
}

/** `; did you mean "vllm"?`, or an empty string when no candidate is close. */
export function didYouMean(value: unknown, candidates: readonly string[]): string {
  if (typeof value !== 'string') return '';
  const match = closestMatch(value, candidates);
  return match === undefined ? '' : `; did you mean ${JSON.stringify(match)}?`;
}
