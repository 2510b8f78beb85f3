/**
 * The size of one stored object: etcd, and so the API server, refuses a request larger than
 * 1.5 MiB, so an object whose JSON is larger can never be created. A model id of megabytes ends up
 * in several fields of the objects derived from it and would be written out without this check.
 */

/** Largest JSON encoding of one object the API server stores (etcd's request limit). */
export const MAX_OBJECT_BYTES = 1.5 * 1024 * 1024;

/** Why the object is too large to store, or undefined. `json` is its JSON text when already known. */
export function objectSizeProblem(obj: unknown, json?: string): string | undefined {
  const text = json ?? JSON.stringify(obj);
  // A quick bound first: UTF-8 takes at most 3 bytes per UTF-16 unit.
  if (text === undefined || text.length * 3 <= MAX_OBJECT_BYTES) return undefined;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= MAX_OBJECT_BYTES) return undefined;
  return `is ${formatBytes(bytes)} as JSON, more than the ${formatBytes(MAX_OBJECT_BYTES)} (${MAX_OBJECT_BYTES} bytes) the API server stores in one object`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}
