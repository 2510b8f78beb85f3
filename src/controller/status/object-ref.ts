/**
 * The objects a record's status is computed from, and how the reconciler reads them.
 */

/**
 * An object the record depends on. namespace is always set (the record's, unless a reference
 * names another), and empty for a cluster-scoped object (a CustomResourceDefinition).
 */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

/** Reads an object from the caches; undefined when it does not exist (or its kind is not served). */
export type ObjectLookup = (ref: ObjectRef) => any | undefined;

/** `Kind namespace/name` (`Kind name` when cluster-scoped) for messages. */
export function describeRef(ref: ObjectRef): string {
  return ref.namespace === '' ? `${ref.kind} ${ref.name}` : `${ref.kind} ${ref.namespace}/${ref.name}`;
}

/**
 * `status.provider.requestRef` / `workloadRef` / `inferencePoolRef`: an object that exists, as
 * the API server names it (its uid tells a re-created object from the one before).
 */
export interface LiveObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
}

/** The reference to `ref`'s object `found`; undefined when it was not found or has no uid (a ref never has an empty uid). */
export function liveRef(ref: ObjectRef, found: unknown): LiveObjectRef | undefined {
  const uid = (found as { metadata?: { uid?: unknown } } | undefined)?.metadata?.uid;
  if (typeof uid !== 'string' || uid === '') return undefined;
  return { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, namespace: ref.namespace, uid };
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
