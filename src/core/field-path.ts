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

/** A step of a path: a map key or a list index. */
export type PathSegment = string | number;

/** `spec.template.spec.containers[0].env[1].name`, `labels["a b"]` -> its segments. */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  for (const m of path.matchAll(/([^.[\]"]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)) {
    segments.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : JSON.parse(m[3])));
  }
  return segments;
}

/** The path of `segments` below `base`, written as `joinPath` writes each step. */
export function joinSegments(base: string, segments: readonly PathSegment[]): string {
  return segments.reduce<string>((at, s) => joinPath(at, String(s), typeof s === 'number'), base);
}

/**
 * A place a walk over a manifest reached: the step from the place above it. Walks visit thousands
 * of places and report at few, so a place is written out (`walkedPath`) only where one reports.
 */
export interface WalkedPlace {
  readonly above?: WalkedPlace;
  readonly segment: PathSegment;
}

/** The path of `place` below `base`, as `joinPath` writes it. */
export function walkedPath(base: string, place: WalkedPlace | undefined): string {
  const segments: PathSegment[] = [];
  for (let p = place; p; p = p.above) segments.push(p.segment);
  return joinSegments(base, segments.reverse());
}
