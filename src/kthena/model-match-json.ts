import type { KthenaModelMatch } from './model-match';

/**
 * A model match in the CRDs' JSON shape (ModelRoute rules and ModelBooster share it), or
 * undefined when it matches everything. Kept out of the package's exports.
 */
export function modelMatchJson(match: KthenaModelMatch | undefined): any {
  if (!match) return undefined;
  const headers = Object.entries(match.headers ?? {});
  const out = {
    ...(match.model !== undefined && { body: { model: match.model } }),
    ...(headers.length > 0 && { headers: Object.fromEntries(headers.map(([name, m]) => [name, m._toJson()])) }),
    ...(match.uri && { uri: match.uri._toJson() }),
  };
  return Object.keys(out).length > 0 ? out : undefined;
}
