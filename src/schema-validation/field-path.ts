/**
 * How the validator names a place in a manifest (`spec.containers[0].ports[1].name`, odd keys
 * quoted: `labels["a.b/c"]`), and the callback its checks report violations through.
 */

/** Reports a violation at a path (`''` for the object itself). */
export type Report = (path: string, message: string) => void;

/** The path of a property (or, with `isIndex`, a list item) of the value at `base`. */
export function joinPath(base: string, key: string, isIndex: boolean): string {
  if (isIndex) {
    return `${base}[${key}]`;
  }
  if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key)) {
    return base ? `${base}.${key}` : key;
  }
  return `${base}[${JSON.stringify(key)}]`;
}
