/**
 * Numbers in an object must be finite: YAML's `.inf` and `.nan` parse to Infinity and NaN, which
 * JSON cannot carry (the API server's decoder refuses them, and JSON.stringify turns them into
 * `null`). A quantity, a replica count or a flag value of Infinity is never meant.
 */
import { joinPath, Report } from '../core/field-path';

type Json = any;

/** Reports every non-finite number in `value` (iteratively: objects may be deep). */
export function checkFiniteNumbers(value: Json, at: string, report: Report): void {
  // Paths cost more than the walk: build them only for an object that has such a number.
  if (!hasNonFinite(value)) return;
  const stack: Array<[Json, string]> = [[value, at]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) report(path, `must be a finite number, got ${String(node)}`);
    } else if (Array.isArray(node)) {
      node.forEach((item, i) => stack.push([item, joinPath(path, String(i), true)]));
    } else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) stack.push([v, joinPath(path, k, false)]);
    }
  }
}

function hasNonFinite(value: Json): boolean {
  const stack: Json[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return true;
    } else if (node && typeof node === 'object') {
      for (const v of Array.isArray(node) ? node : Object.values(node)) stack.push(v);
    }
  }
  return false;
}
