import type { Clock } from './clock';
import type { EventRecorder } from './event-recorder';
import { isConflict, isNotFound, KubeApi } from './kube-api';
import type { Logger } from './logger';
import type { CacheLookup } from './object-cache';
import { kindKey, metaOf, ObjectRef, objectKey, splitRecordKey } from './object-key';
import { OwnWriteEchoes } from './own-write-echoes';
import type { OwnerReferenceSetter } from './owner-reference-setter';
import type { ReverseIndex } from './reverse-index';
import { RECORD_KIND } from './watched-kinds';

/**
 * The status computation, as the status module provides it (`reconcileRecord` with the catalog
 * bound): the record's status, the merge patch that makes it so (undefined when the stored status
 * is already right) and every object it read.
 */
export type ComputeStatus = (record: any, lookup: (ref: ObjectRef) => any | undefined, now: Date) => {
  readonly status: any;
  readonly patch?: any;
  readonly watched: readonly ObjectRef[];
};

/** What a reconcile asks of the queue: done, or again after the rate limiter's backoff. */
export type RecordOutcome = { readonly result: 'success' } | { readonly result: 'requeue'; readonly reason: string };

export interface RecordReconcilerOptions {
  readonly api: KubeApi;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The cached record. */
  readonly record: (namespace: string, name: string) => any | undefined;
  /** Cached dependencies. */
  readonly lookup: (ref: ObjectRef) => CacheLookup;
  /** Called for each kind a status read that is not cached yet (to start caching it). */
  readonly onUncachedKind?: (ref: ObjectRef) => void;
  readonly computeStatus: ComputeStatus;
  /** Whether a record is ours (`isRenderedRecord`). */
  readonly isRendered: (record: any) => boolean;
  readonly index: ReverseIndex;
  /** Whether this process may write (it leads); checked right before every write. */
  readonly canWrite: () => boolean;
  /** Called after each status patch the API server accepted. */
  readonly onPatched?: () => void;
  /** Re-reads and recomputes this many times on 409 Conflict before failing. @default 5 */
  readonly maxConflictRetries?: number;
  /** Records an Event on each phase change the controller writes. @default - no events */
  readonly events?: EventRecorder;
  /** Gives the objects each record lists an ownerReference to it. @default - none (off) */
  readonly ownerReferences?: OwnerReferenceSetter;
  /** Queues the record again (a change of it arrived while its status patch was in flight). */
  readonly requeue?: (key: string) => void;
}

/**
 * One reconcile of one record: read it from the cache, compute its status from the cached
 * objects, remember what it read (the reverse index), and patch `status` only when it changed.
 *
 * - a record that is gone or not ours is forgotten;
 * - the patch carries the record's resourceVersion, so a status computed from a record that
 *   changed meanwhile is refused (409): the record is read again from the API server and the
 *   status recomputed;
 * - 404 on the patch (deleted meanwhile) drops the record;
 * - when a status read an object whose kind is not cached yet, nothing is written (a missing
 *   object would be a guess) and the record is requeued;
 * - the record a status patch returned is used instead of the cached one until the cache holds
 *   that version or a newer one (client-go's mutation cache): a reconcile that follows its own
 *   write before the record's watch event (ms, or seconds while the records' watch reconnects)
 *   compares the new status with what it wrote, not with the status before its write — otherwise
 *   a status changing back to the cached one (A → B → A) would be skipped as "already so" and
 *   the record would keep B until its next event.
 *
 * The leader then, when configured, records an Event for a phase change it wrote and makes sure
 * the record's objects carry an ownerReference to it (objects not created yet requeue the record).
 */
export class RecordReconciler {
  /** Per record key: the record as the last accepted status patch returned it, while newer than the cache. */
  private readonly written = new Map<string, any>();
  private readonly echoes = new OwnWriteEchoes();

  public constructor(private readonly options: RecordReconcilerOptions) {}

  public async reconcile(key: string): Promise<RecordOutcome> {
    const { namespace, name } = splitRecordKey(key);
    const o = this.options;
    let record = this.current(key, o.record(namespace, name));
    const maxRetries = o.maxConflictRetries ?? 5;
    for (let attempt = 0; ; attempt++) {
      if (!record || !o.isRendered(record)) {
        this.forget(key, namespace, name);
        return { result: 'success' };
      }
      const uncached = new Map<string, ObjectRef>();
      const computed = o.computeStatus(
        record,
        (ref) => {
          const found = o.lookup(ref);
          if (!found.ready) uncached.set(kindKey(ref), ref);
          return found.object;
        },
        new Date(o.clock.now()),
      );
      o.index.set(key, computed.watched.map(objectKey));
      if (uncached.size > 0) {
        for (const ref of uncached.values()) o.onUncachedKind?.(ref);
        return { result: 'requeue', reason: `waiting for the cache of ${[...uncached.keys()].join(', ')}` };
      }
      if (!o.canWrite()) {
        if (computed.patch !== undefined) o.logger.debug('not the leader: status not written', { namespace, name });
        return { result: 'success' };
      }
      if (computed.patch === undefined) return this.ensureOwnership(record);
      let written = false;
      try {
        this.echoes.patching(key);
        const patched = await o.api.patchStatus(RECORD_KIND, namespace, name, withPrecondition(computed.patch, record));
        this.patchAnswered(key, metaOf(patched).resourceVersion);
        this.remember(key, patched, o.record(namespace, name));
        o.onPatched?.();
        o.logger.debug('status updated', { namespace, name, phase: computed.status?.phase });
        this.recordPhaseChange(patched ?? record, record?.status?.phase, computed.status);
        written = true;
      } catch (e) {
        this.patchAnswered(key, undefined);
        if (isNotFound(e)) {
          this.forget(key, namespace, name);
          return { result: 'success' };
        }
        if (!isConflict(e) || attempt >= maxRetries) throw e;
        o.logger.debug('record changed while its status was computed; reading it again', { namespace, name });
        try {
          record = await o.api.get(RECORD_KIND, namespace, name);
        } catch (err) {
          if (!isNotFound(err)) throw err;
          record = undefined;
        }
      }
      // Outside the try: a conflict while setting ownerReferences is not the record's.
      if (written) return this.ensureOwnership(record);
    }
  }

  /**
   * Whether a watch event of the record `key` needs no reconcile: the echo of this reconciler's
   * own status patch, or an event held while that patch is in flight (see `OwnWriteEchoes`).
   */
  public holdsEvent(key: string, record: any): boolean {
    return this.echoes.holds(key, metaOf(record).resourceVersion);
  }

  /** A status patch answered (version undefined: it failed); events held meanwhile that were not its echo queue the record again. */
  private patchAnswered(key: string, version: string | undefined): void {
    if (this.echoes.patched(key, version)) this.options.requeue?.(key);
  }

  /** Drops what is kept of a record that is gone or not ours. */
  private forget(key: string, namespace: string, name: string): void {
    this.options.index.remove(key);
    this.written.delete(key);
    this.echoes.forget(key);
    this.options.ownerReferences?.forget(namespace, name);
  }

  /** An Event when the phase changed: Warning for `Failed`, with the status message. */
  private recordPhaseChange(record: any, before: unknown, status: any): void {
    const phase = status?.phase;
    if (!this.options.events || typeof phase !== 'string' || phase === before) return;
    const message = typeof status.message === 'string' && status.message !== '' ? status.message : `phase ${phase}`;
    this.options.events.record(record, phase === 'Failed' ? 'Warning' : 'Normal', phase, message);
  }

  /** Sets the ownerReferences of a record's objects when configured (not while it is being deleted). */
  private async ensureOwnership(record: any): Promise<RecordOutcome> {
    const setter = this.options.ownerReferences;
    if (!setter || record?.metadata?.deletionTimestamp) return { result: 'success' };
    const outcome = await setter.ensure(record);
    return outcome.result === 'done' ? { result: 'success' } : { result: 'requeue', reason: outcome.reason };
  }

  /**
   * The record to reconcile: the cached one, unless this reconciler's last status patch returned
   * a newer version than the cache holds (the cache has not seen the write yet).
   */
  private current(key: string, cached: any): any {
    const written = this.written.get(key);
    if (written === undefined) return cached;
    const order = cached ? compareResourceVersions(metaOf(written).resourceVersion, metaOf(cached).resourceVersion) : undefined;
    if (order !== undefined && order > 0) return written;
    this.written.delete(key);
    return cached;
  }

  /** Keeps what a status patch returned (without managedFields, as the cache) while the cache is older. */
  private remember(key: string, patched: any, cached: any): void {
    const order = patched && cached ? compareResourceVersions(metaOf(patched).resourceVersion, metaOf(cached).resourceVersion) : undefined;
    if (order === undefined || order <= 0) {
      this.written.delete(key);
      return;
    }
    const { managedFields: _, ...metadata } = patched.metadata;
    this.written.set(key, { ...patched, metadata });
  }
}

/**
 * Orders two resourceVersions: negative when `a` is older than `b`, 0 when equal, positive when
 * newer; undefined when either is not a decimal integer. The API server's are etcd revisions,
 * which order writes (client-go's mutation cache compares them the same way); anything else is
 * treated as unordered, and the cache is trusted.
 */
export function compareResourceVersions(a: string, b: string): number | undefined {
  if (!/^\d+$/.test(a) || !/^\d+$/.test(b)) return undefined;
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The patch, made conditional on the record's resourceVersion (unless it already is). */
function withPrecondition(patch: any, record: any): any {
  const rv = metaOf(record).resourceVersion;
  if (!rv || patch?.metadata?.resourceVersion !== undefined) return patch;
  return { ...patch, metadata: { ...patch?.metadata, resourceVersion: rv } };
}
