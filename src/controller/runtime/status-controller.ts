import { Clock, jitter, sleep, Timer } from './clock';
import type { ControllerMetrics } from './controller-metrics';
import type { EventRecorder } from './event-recorder';
import type { InformerEvent } from './informer';
import type { KubeApi } from './kube-api';
import { errorText, Logger } from './logger';
import { ObjectCache, InformerTuning } from './object-cache';
import { kindKey, metaOf, ObjectRef, objectKey, recordKey, splitRecordKey } from './object-key';
import type { OwnerReferenceSetter } from './owner-reference-setter';
import { defaultControllerRateLimiter, RateLimiter } from './rate-limiter';
import { ComputeStatus, RecordReconciler } from './record-reconciler';
import { ReverseIndex } from './reverse-index';
import { RECORD_KIND, WatchedKind } from './watched-kinds';
import { WorkQueue } from './work-queue';

export interface StatusControllerOptions {
  /** The controller's name in logs and metrics. */
  readonly name: string;
  readonly api: KubeApi;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: ControllerMetrics;
  /** The status computation (the status module's `reconcileRecord`, catalog bound). */
  readonly computeStatus: ComputeStatus;
  /** Whether a record is ours (`isRenderedRecord`). */
  readonly isRendered: (record: any) => boolean;
  /** The kinds statuses are read from (cached from the start). */
  readonly dependencyKinds: readonly WatchedKind[];
  /** How to cache a kind a status names that is not cached yet; undefined when it cannot be. */
  readonly resolveKind?: (apiVersion: string, kind: string) => WatchedKind | undefined;
  /** Watch one namespace. @default - all */
  readonly namespace?: string;
  /** @default 1 */
  readonly maxConcurrentReconciles?: number;
  /** Every record is reconciled again this often (jittered by up to 10%). @default 10 h */
  readonly syncPeriodMs?: number;
  /** @default - client-go's default controller rate limiter */
  readonly rateLimiter?: RateLimiter;
  /** Whether this process may write status (it leads). */
  readonly canWrite: () => boolean;
  readonly informerTuning?: InformerTuning;
  /** @default Math.random */
  readonly random?: () => number;
  /** Records an Event on each phase change written. @default - no events */
  readonly events?: EventRecorder;
  /** Sets the ownerReferences of the objects each record lists. @default - off */
  readonly ownerReferences?: OwnerReferenceSetter;
}

/**
 * The ModelDeployment status controller: caches the records and what their status is read from,
 * maps every change to the records it concerns, and runs the reconciles from a work queue.
 *
 * Caches start with `startCaches()` (standby replicas keep them warm); workers only with
 * `startWorkers()`, on the leader, once the caches synced.
 */
export class StatusController {
  public readonly cache: ObjectCache;
  public readonly queue: WorkQueue;
  public readonly index = new ReverseIndex();
  private readonly reconciler: RecordReconciler;
  private readonly log: Logger;
  private readonly unresolvable = new Set<string>();
  private workers: Array<Promise<void>> = [];
  private resyncTimer?: Timer;
  private running = false;

  public constructor(private readonly options: StatusControllerOptions) {
    this.log = options.logger.with({ controller: options.name });
    this.queue = new WorkQueue({
      clock: options.clock,
      rateLimiter: options.rateLimiter ?? defaultControllerRateLimiter(options.clock),
      metrics: options.metrics.workQueueMetrics(),
    });
    options.metrics.observeQueue(this.queue);
    options.metrics.maxConcurrentReconciles.set({ controller: options.name }, this.concurrency);
    this.cache = new ObjectCache({
      api: options.api,
      clock: options.clock,
      logger: options.logger,
      namespace: options.namespace,
      tuning: options.informerTuning,
      onEvent: (kind, event) => this.onEvent(kind, event),
    });
    this.cache.add(RECORD_KIND);
    for (const kind of options.dependencyKinds) this.cache.add(kind);
    this.reconciler = new RecordReconciler({
      api: options.api,
      clock: options.clock,
      logger: this.log,
      record: (namespace, name) => this.cache.informer(RECORD_KIND)!.get(namespace, name),
      lookup: (ref) => this.cache.lookup(ref),
      onUncachedKind: (ref) => this.cacheKind(ref),
      computeStatus: options.computeStatus,
      isRendered: options.isRendered,
      index: this.index,
      canWrite: options.canWrite,
      onPatched: () => options.metrics.statusPatches.inc({ controller: options.name }),
      events: options.events,
      ownerReferences: options.ownerReferences,
      requeue: (key) => this.queue.add(key),
    });
  }

  private get concurrency(): number {
    return Math.max(1, this.options.maxConcurrentReconciles ?? 1);
  }

  /** Starts listing and watching every kind. */
  public startCaches(): void {
    this.log.info('starting caches', { kinds: this.cache.kinds.map(kindKey), namespace: this.options.namespace ?? '' });
    this.cache.start();
  }

  /** Whether every cache listed once. */
  public get hasSynced(): boolean {
    return this.cache.hasSynced;
  }

  /**
   * Waits for the caches, queues every record and starts the workers and the periodic resync.
   * Resolves once the workers run.
   */
  public async startWorkers(signal?: AbortSignal): Promise<void> {
    if (this.running) return;
    this.log.info('waiting for caches to sync');
    await Promise.race([this.cache.whenSynced(), new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }))]);
    if (signal?.aborted || this.queue.isShuttingDown) return;
    this.running = true;
    this.enqueueAll();
    this.log.info('starting workers', { workerCount: this.concurrency });
    for (let i = 0; i < this.concurrency; i++) this.workers.push(this.worker());
    this.scheduleResync();
  }

  /**
   * Stops: informers first (no new events), then the queue (nothing new is handed out); waits up
   * to `graceMs` for the reconciles in progress. Resolves true when they all finished.
   */
  public async stop(graceMs: number): Promise<boolean> {
    this.cache.stop();
    this.resyncTimer?.cancel();
    this.queue.shutDown();
    const deadline = new AbortController();
    const finished = await Promise.race([
      Promise.all(this.workers).then(() => true),
      sleep(this.options.clock, graceMs, deadline.signal).then(() => false),
    ]);
    deadline.abort();
    if (!finished) this.log.error('reconciles still running after the graceful shutdown timeout', { inFlight: this.queue.processingCount });
    this.running = false;
    return finished;
  }

  /** Queues every cached record. */
  public enqueueAll(): void {
    for (const record of this.cache.informer(RECORD_KIND)!.list()) {
      const m = metaOf(record);
      this.queue.add(recordKey(m.namespace, m.name));
    }
  }

  private onEvent(kind: WatchedKind, event: InformerEvent): void {
    const m = metaOf(event.object);
    if (kindKey(kind) === kindKey(RECORD_KIND)) {
      const key = recordKey(m.namespace, m.name);
      if (event.type === 'update' && this.reconciler.holdsEvent(key, event.object)) return;
      this.queue.add(key);
      return;
    }
    const key = objectKey({ apiVersion: kind.apiVersion, kind: kind.kind, namespace: m.namespace, name: m.name });
    for (const record of this.index.recordsWatching(key)) this.queue.add(record);
  }

  private cacheKind(ref: ObjectRef): void {
    const key = kindKey(ref);
    if (this.cache.informer(ref)) return;
    const kind = this.options.resolveKind?.(ref.apiVersion, ref.kind);
    if (!kind) {
      if (!this.unresolvable.has(key)) {
        this.unresolvable.add(key);
        this.log.error('a status reads a kind the controller does not know how to watch; its objects count as missing', { kind: key });
      }
      return;
    }
    this.log.info('caching a kind a status reads', { kind: key });
    this.cache.add(kind);
  }

  private async worker(): Promise<void> {
    const { metrics, clock } = this.options;
    const c = { controller: this.options.name };
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      const { namespace, name } = splitRecordKey(key);
      metrics.activeWorkers.inc(c);
      const started = clock.now();
      let result: 'success' | 'error' | 'requeue' = 'success';
      try {
        const outcome = await this.reconciler.reconcile(key);
        if (outcome.result === 'requeue') {
          result = 'requeue';
          this.log.debug('requeue', { namespace, name, reason: outcome.reason });
          this.queue.addRateLimited(key);
        } else {
          this.queue.forget(key);
        }
      } catch (e) {
        result = 'error';
        this.log.error('Reconciler error', { namespace, name, error: errorText(e) });
        this.queue.addRateLimited(key);
      } finally {
        metrics.reconciled(result, (clock.now() - started) / 1000);
        metrics.activeWorkers.dec(c);
        this.queue.done(key);
      }
    }
  }

  /**
   * A full resync every sync period (controller-runtime's SyncPeriod): every record is
   * reconciled again, which writes nothing when nothing changed.
   */
  private scheduleResync(): void {
    const period = this.options.syncPeriodMs ?? 10 * 60 * 60 * 1000;
    this.resyncTimer = this.options.clock.setTimer(jitter(period, 0.1, this.options.random), () => {
      if (this.queue.isShuttingDown) return;
      this.log.debug('periodic resync');
      this.enqueueAll();
      this.scheduleResync();
    });
  }
}
