/**
 * The objects a record's status is computed from, and how the reconciler reads them.
 */

/** An object the record depends on. namespace is always set (the record's, unless a reference names another). */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

/** Reads an object from the caches; undefined when it does not exist (or its kind is not served). */
export type ObjectLookup = (ref: ObjectRef) => any | undefined;

/** `Kind namespace/name` for messages. */
export function describeRef(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace}/${ref.name}`;
}

/**
 * A lookup that remembers every reference it was asked for (found or not), once each, in the
 * order of the first request: what the runtime watches on the record's behalf.
 */
export class RecordingLookup {
  private readonly refs: ObjectRef[] = [];
  private readonly seen = new Set<string>();

  public constructor(private readonly lookup: ObjectLookup) {}

  /** Looks `ref` up and records it. */
  public get(ref: ObjectRef): any | undefined {
    const key = JSON.stringify([ref.apiVersion, ref.kind, ref.namespace, ref.name]);
    if (!this.seen.has(key)) {
      this.seen.add(key);
      this.refs.push({ apiVersion: ref.apiVersion, kind: ref.kind, namespace: ref.namespace, name: ref.name });
    }
    const found = this.lookup(ref);
    return found === null ? undefined : found;
  }

  /** Every reference looked up so far. */
  public get watched(): ObjectRef[] {
    return [...this.refs];
  }
}
