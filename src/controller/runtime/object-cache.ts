import { parseFieldPaths, pruneToFields, StringPool } from './cache-transform';
import type { Clock } from './clock';
import { Informer, InformerEvent, InformerOptions, InformerState } from './informer';
import type { KubeApi } from './kube-api';
import type { Logger } from './logger';
import { kindKey, ObjectRef } from './object-key';
import type { WatchedKind } from './watched-kinds';

/** Informer settings shared by every kind (timings; tests shorten them). */
export type InformerTuning = Pick<
  InformerOptions,
  'absentRetryMs' | 'initialBackoffMs' | 'maxBackoffMs' | 'backoffResetMs' | 'watchTimeoutSeconds' | 'pageSize' | 'random'
>;

export interface ObjectCacheOptions {
  readonly api: KubeApi;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Cache one namespace only. @default - all */
  readonly namespace?: string;
  /** Every change of any cached kind. */
  readonly onEvent: (kind: WatchedKind, event: InformerEvent) => void;
  /** An informer's state changed. */
  readonly onStateChange?: (kind: WatchedKind, state: InformerState) => void;
  readonly tuning?: InformerTuning;
}

/**
 * What a lookup found: `ready` is false when the object's kind is not cached yet (or has not been
 * listed), so "not found" would be a guess; otherwise `object` is the cached object or undefined
 * when there is none (including a kind that is not served).
 */
export interface CacheLookup {
  readonly ready: boolean;
  readonly object?: any;
}

/**
 * The informers of every kind the controller reads, one per `apiVersion kind`, and lookups by
 * object reference. Kinds can be added while running (a status names a kind not cached yet).
 */
export class ObjectCache {
  private readonly informers = new Map<string, { kind: WatchedKind; informer: Informer }>();
  /** Shared by every kind: the same values (`True`, `Ready`, a namespace) recur across kinds. */
  private readonly strings = new StringPool();
  private started = false;
  private stopped = false;

  public constructor(private readonly options: ObjectCacheOptions) {}

  /**
   * Caches `kind` (once; once per `objectName` when it names one); starts its informer at once if
   * the cache is running. Of each object the cache keeps `kind.cachedFields` only, when given,
   * then `kind.transform` of it, with its string values pooled.
   */
  public add(kind: WatchedKind): Informer {
    const key = cacheKey(kind, kind.objectName);
    const existing = this.informers.get(key);
    if (existing) return existing.informer;
    const paths = kind.cachedFields && parseFieldPaths(kind.cachedFields);
    const transform = kind.transform ?? ((obj: any) => obj);
    const informer = new Informer({
      ...this.options.tuning,
      api: this.options.api,
      kind,
      namespace: kind.clusterScoped ? undefined : this.options.namespace,
      labelSelector: kind.labelSelector,
      ...(kind.objectName !== undefined && { fieldSelector: `metadata.name=${kind.objectName}` }),
      ...(kind.optional && { forbiddenAsAbsent: true }),
      transform: (obj) => this.strings.internValues(transform(paths ? pruneToFields(obj, paths) : obj)),
      clock: this.options.clock,
      logger: this.options.logger,
      onEvent: (event) => this.options.onEvent(kind, event),
      onStateChange: (state) => this.options.onStateChange?.(kind, state),
    });
    this.informers.set(key, { kind, informer });
    if (this.started && !this.stopped) informer.start();
    return informer;
  }

  /** The informer of `apiVersion kind`, if cached. */
  public informer(kind: { readonly apiVersion: string; readonly kind: string }): Informer | undefined {
    return this.informers.get(kindKey(kind))?.informer;
  }

  /** Every cached kind. */
  public get kinds(): WatchedKind[] {
    return [...this.informers.values()].map((e) => e.kind);
  }

  /** Starts every informer. */
  public start(): void {
    if (this.started) return;
    this.started = true;
    for (const { informer } of this.informers.values()) informer.start();
  }

  /** Stops every informer; the cached objects stay readable. */
  public stop(): void {
    this.stopped = true;
    for (const { informer } of this.informers.values()) informer.stop();
  }

  /** Every informer has listed (or found its kind not served). */
  public get hasSynced(): boolean {
    return [...this.informers.values()].every((e) => e.informer.hasSynced);
  }

  /** Kinds still waiting for their first list. */
  public get unsyncedKinds(): string[] {
    return [...this.informers.entries()].filter(([, e]) => !e.informer.hasSynced).map(([k]) => k);
  }

  /** Resolves once every informer present now has synced (or the cache was stopped). */
  public async whenSynced(): Promise<void> {
    await Promise.all([...this.informers.values()].map((e) => e.informer.whenSynced()));
  }

  /** Reads the object `ref` names from the caches (the cache of its name, if there is one, else of its kind). */
  public lookup(ref: ObjectRef): CacheLookup {
    const entry = this.informers.get(cacheKey(ref, ref.name)) ?? this.informers.get(kindKey(ref));
    if (!entry || !entry.informer.hasSynced) return { ready: false };
    if (!entry.kind.clusterScoped && this.options.namespace !== undefined && ref.namespace !== this.options.namespace) return { ready: true };
    return { ready: true, object: entry.informer.get(ref.namespace, ref.name) };
  }
}

/** `apiVersion kind`, or `apiVersion kind name` for the cache of one object. */
function cacheKey(kind: { readonly apiVersion: string; readonly kind: string }, name: string | undefined): string {
  return name === undefined ? kindKey(kind) : `${kindKey(kind)} ${name}`;
}
