/**
 * What the caches keep of an object: controller-runtime's cache `TransformFunc`, for the fields
 * the status logic declares it reads (status/status-read-fields.ts).
 */

/** A parsed field list: each path as its segments. */
export type FieldPaths = readonly (readonly string[])[];

/** Parses dotted paths (`status.conditions.*.type`) once, for `pruneToFields`. */
export function parseFieldPaths(fields: readonly string[]): FieldPaths {
  return fields.map((f) => f.split('.'));
}

/**
 * A new object holding only `apiVersion`, `kind` and the fields `paths` name, each as in `obj`
 * (the same values, not copies: `obj` is not modified, and whatever is not kept is left to the
 * garbage collector). `*` keeps every element of a list or every value of a map, each pruned to
 * the rest of the path; a path ending at an object keeps it whole. Along a path, a value that is
 * not what the path expects (a list where it names a field, a string where it descends) is kept
 * as it is, so that a mapping checking the shape sees the same malformed value; an absent field
 * stays absent, and an object on the way to one stays an (empty) object.
 */
export function pruneToFields(obj: any, paths: FieldPaths): any {
  if (!isPlainObject(obj)) return obj;
  const out: Record<string, unknown> = {};
  if (obj.apiVersion !== undefined) out.apiVersion = obj.apiVersion;
  if (obj.kind !== undefined) out.kind = obj.kind;
  for (const path of paths) keep(obj, out, path, 0);
  return out;
}

/** Copies `path[i..]` of `from` into `to` (both objects). */
function keep(from: Record<string, any>, to: Record<string, any>, path: readonly string[], i: number): void {
  const segment = path[i];
  if (segment === '*') {
    for (const key of Object.keys(from)) keepIn(from, to, key, path, i);
    return;
  }
  if (!Object.prototype.hasOwnProperty.call(from, segment)) return;
  keepIn(from, to, segment, path, i);
}

/** Copies `from[key]` pruned to `path[i+1..]` into `to[key]`. */
function keepIn(from: Record<string, any>, to: Record<string, any>, key: string, path: readonly string[], i: number): void {
  const value = from[key];
  if (i === path.length - 1) {
    to[key] = value;
    return;
  }
  // Already kept whole by a shorter path (and never to be written into: it is `obj`'s own).
  if (to[key] === value) return;
  if (Array.isArray(value) && path[i + 1] === '*') {
    // Lists stay lists of the same length, so positions (`rules[0]`) mean the same.
    const existing = Array.isArray(to[key]) ? (to[key] as unknown[]) : undefined;
    const list: unknown[] = existing ?? new Array(value.length);
    for (let j = 0; j < value.length; j++) {
      const element = value[j];
      if (i + 1 === path.length - 1 || !isPlainObject(element)) {
        list[j] = element;
      } else {
        const target = isPlainObject(list[j]) ? (list[j] as Record<string, any>) : {};
        keep(element, target, path, i + 2);
        list[j] = target;
      }
    }
    to[key] = list;
    return;
  }
  if (!isPlainObject(value)) {
    to[key] = value;
    return;
  }
  const existing = to[key];
  const target = isPlainObject(existing) ? existing : {};
  to[key] = target;
  keep(value, target, path, i + 1);
}

function isPlainObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Strings longer than this are not pooled (rarely repeated: JSON in annotations, long messages). */
const MAX_POOLED_LENGTH = 128;
/** The pool starts over once it holds this many strings, so values seen once cannot make it grow without bound. */
const MAX_POOLED_STRINGS = 4096;

/**
 * One shared copy of each short string value: JSON.parse gives every object its own copy of
 * every value, so 5,000 cached records hold 5,000 copies of `"True"`, `"vllm"`,
 * `"explicit engine selection"` and each condition message (measured: a third of a record's
 * memory). Values seen once (names, uids) would fill the pool for nothing, so it is emptied
 * whenever it reaches `MAX_POOLED_STRINGS`; a frequent value is back in it at its next sighting.
 */
export class StringPool {
  private readonly strings = new Map<string, string>();

  /** Strings pooled now. */
  public get size(): number {
    return this.strings.size;
  }

  /** The pooled copy of `value` (equal to it). */
  public intern(value: string): string {
    if (value.length > MAX_POOLED_LENGTH) return value;
    const pooled = this.strings.get(value);
    if (pooled !== undefined) return pooled;
    if (this.strings.size >= MAX_POOLED_STRINGS) this.strings.clear();
    this.strings.set(value, value);
    return value;
  }

  /** Replaces, in place, every string value in `obj` (objects and lists, recursively) with its pooled copy; returns `obj`. */
  public internValues<T>(obj: T): T {
    if (Array.isArray(obj)) {
      for (let i = 0; i < obj.length; i++) {
        const v = obj[i];
        if (typeof v === 'string') obj[i] = this.intern(v);
        else if (typeof v === 'object' && v !== null) this.internValues(v);
      }
    } else if (typeof obj === 'object' && obj !== null) {
      const o = obj as Record<string, unknown>;
      for (const key in o) {
        const v = o[key];
        if (typeof v === 'string') o[key] = this.intern(v);
        else if (typeof v === 'object' && v !== null) this.internValues(v);
      }
    }
    return obj;
  }
}
