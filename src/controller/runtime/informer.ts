import { Clock, jitter, sleep } from './clock';
import { errorFromStatus, isGone, isNotFound, KubeApi, ResourceKind, statusCodeOf, WatchHandle } from './kube-api';
import { errorText, Logger } from './logger';
import { kindKey, metaOf } from './object-key';

/** kubectl's client-side-apply annotation: a full copy of the object, needed by no status. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * What happened to a cached object: `add`, `update` and `delete` as the watch (or a relist's
 * difference) reports them; `resync` for an object a relist found unchanged, re-delivered so that
 * nothing depending on it is left stale after the watch was broken.
 */
export type InformerEventType = 'add' | 'update' | 'delete' | 'resync';

export interface InformerEvent {
  readonly type: InformerEventType;
  /** The object (for `delete`, its last known state). */
  readonly object: any;
}

/**
 * `pending` until the first list; `synced` once listed (and while watching or recovering);
 * `absent` while the kind is not served (its CRD is not installed: the list answered 404), with
 * an empty cache and a new list attempt every `absentRetryMs`.
 */
export type InformerState = 'pending' | 'synced' | 'absent';

export interface InformerOptions {
  readonly api: KubeApi;
  readonly kind: ResourceKind;
  /** Watch one namespace. @default - all */
  readonly namespace?: string;
  /** Only objects with these labels. @default - all */
  readonly labelSelector?: string;
  /** Only objects these fields select (`metadata.name=x`). @default - all */
  readonly fieldSelector?: string;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Called for every change of the cache, after the cache changed. */
  readonly onEvent: (event: InformerEvent) => void;
  /** Called when the state changes (`synced` after the first list, `absent`, ...). */
  readonly onStateChange?: (state: InformerState) => void;
  /**
   * A list refused with 403 Forbidden counts as the kind not served (an empty, synced cache, a new
   * attempt every `absentRetryMs`): for a read the controller can do without (the CRDs it judges
   * records against), so a controller not granted it still runs. @default false (403 is retried
   * with backoff, and the cache never syncs)
   */
  readonly forbiddenAsAbsent?: boolean;
  /** Wait between list attempts while the kind is not served. @default 60_000 */
  readonly absentRetryMs?: number;
  /** First reconnect delay after a failure, doubled up to `maxBackoffMs`. @default 800 */
  readonly initialBackoffMs?: number;
  /** @default 30_000 */
  readonly maxBackoffMs?: number;
  /** A watch that lasted this long resets the backoff. @default 60_000 */
  readonly backoffResetMs?: number;
  /** The server-side timeout of each watch; client-go's is random in [5 min, 10 min). */
  readonly watchTimeoutSeconds?: () => number;
  /** Page size of lists. @default 500 */
  readonly pageSize?: number;
  /**
   * What the cache keeps of each object (after `managedFields` and kubectl's last-applied
   * annotation are dropped): controller-runtime's cache `TransformFunc`, e.g. `pruneToFields`.
   * Applied to every listed object as its page arrives and to every watch event, so nothing
   * else of the object outlives its arrival. @default - the whole object
   */
  readonly transform?: (obj: any) => any;
  /** @default Math.random */
  readonly random?: () => number;
}

type WatchOutcome = { readonly kind: 'closed' } | { readonly kind: 'gone' } | { readonly kind: 'failed'; readonly error: unknown };

/**
 * A cache of one kind kept current by list + watch (client-go's reflector and store):
 *
 * - lists (in pages), then watches from the list's resourceVersion with bookmarks, keeping the
 *   last version seen (events and BOOKMARKs) so that a watch the server ends normally resumes
 *   where it stopped;
 * - 410 Gone (the version was compacted) relists at once;
 * - a failed or broken watch (API server restart, network) reconnects after an exponential
 *   backoff (0.8 s to 30 s, jittered) with a full relist, and reports the difference to the cache
 *   (`add`, `update`, `delete`) plus a `resync` of every unchanged object, so no change made while
 *   disconnected is lost;
 * - a kind that is not served (404 on list: CRD not installed) is logged once and tried again
 *   every minute; it counts as synced (an empty cache) so it does not hold the controller back.
 */
export class Informer {
  private readonly store = new Map<string, any>();
  private currentState: InformerState = 'pending';
  private resourceVersion = '';
  private stopped = false;
  private started = false;
  private readonly abort = new AbortController();
  private watchHandle?: WatchHandle;
  private failures = 0;
  private readonly syncWaiters: Array<() => void> = [];
  private readonly log: Logger;

  public constructor(private readonly options: InformerOptions) {
    this.log = options.logger.with({ kind: kindKey(options.kind) });
  }

  public get kind(): ResourceKind {
    return this.options.kind;
  }

  public get state(): InformerState {
    return this.currentState;
  }

  /** Listed at least once, or known not to be served. */
  public get hasSynced(): boolean {
    return this.currentState !== 'pending';
  }

  /** The version the next watch starts from. */
  public get lastResourceVersion(): string {
    return this.resourceVersion;
  }

  /** Starts listing and watching (once). */
  public start(): void {
    if (this.started) return;
    this.started = true;
    void this.run();
  }

  /** Stops watching; the cache stays readable, no event is delivered afterwards. */
  public stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.abort.abort();
    this.watchHandle?.stop();
    for (const w of this.syncWaiters.splice(0)) w();
  }

  /** Resolves once `hasSynced` (or the informer was stopped). */
  public whenSynced(): Promise<void> {
    if (this.hasSynced || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** The cached object, if any. */
  public get(namespace: string, name: string): any | undefined {
    return this.store.get(`${namespace}/${name}`);
  }

  /** Every cached object. */
  public list(): any[] {
    return [...this.store.values()];
  }

  private async run(): Promise<void> {
    let first = true;
    while (!this.stopped) {
      try {
        await this.relist(!first);
      } catch (e) {
        if (this.stopped) return;
        const forbidden = this.options.forbiddenAsAbsent === true && statusCodeOf(e) === 403;
        if (isNotFound(e) || forbidden) {
          if (this.currentState !== 'absent') {
            const why = forbidden ? 'not allowed to read it (RBAC)' : 'kind is not served (CRD not installed?)';
            this.log.info(`${why}; skipping it and retrying periodically`, { retrySeconds: this.absentRetryMs / 1000, ...(forbidden && { error: errorText(e) }) });
          } else {
            this.log.debug('kind is still not served');
          }
          this.clearAsAbsent();
          await sleep(this.options.clock, this.absentRetryMs, this.abort.signal);
        } else {
          this.log.error('list failed; retrying', { error: e });
          await this.backoff();
        }
        continue;
      }
      first = false;
      // Watch from the last version until the watch fails or the version expires.
      for (;;) {
        const startedAt = this.options.clock.now();
        const outcome = await this.watchOnce();
        if (this.stopped) return;
        if (this.options.clock.now() - startedAt >= (this.options.backoffResetMs ?? 60_000)) this.failures = 0;
        if (outcome.kind === 'closed') {
          this.log.debug('watch closed by the server; resuming', { resourceVersion: this.resourceVersion });
          continue;
        }
        if (outcome.kind === 'gone') {
          this.log.info('watch resourceVersion expired (410 Gone); relisting', { resourceVersion: this.resourceVersion });
        } else {
          this.log.error('watch failed; reconnecting with a relist', { error: outcome.error });
          await this.backoff();
        }
        break;
      }
    }
  }

  /** Lists every page, replaces the cache and reports the difference (`items`: objects as the cache keeps them). */
  private async relist(afterFailure: boolean): Promise<void> {
    let items: any[] = [];
    let rv = '';
    let cont: string | undefined;
    for (let restarts = 0; ;) {
      try {
        const page = await this.options.api.list(this.options.kind, {
          namespace: this.options.namespace,
          labelSelector: this.options.labelSelector,
          fieldSelector: this.options.fieldSelector,
          limit: this.options.pageSize ?? 500,
          continue: cont,
        });
        if (this.stopped) return;
        // Each page is reduced to what the cache keeps as it arrives: the raw page is garbage
        // before the next one is read, instead of every raw object being held until the end.
        for (const item of page.items) items.push(this.complete(item));
        rv = page.resourceVersion;
        cont = page.continue || undefined;
        if (!cont) break;
      } catch (e) {
        // An expired continue token: start the list again.
        if (cont !== undefined && isGone(e) && restarts++ < 3) {
          items = [];
          cont = undefined;
          continue;
        }
        throw e;
      }
    }
    this.replace(items, afterFailure);
    this.resourceVersion = rv;
    this.setState('synced');
    this.log.debug('listed', { count: this.store.size, resourceVersion: rv });
  }

  private replace(items: any[], resyncUnchanged: boolean): void {
    const next = new Map<string, any>();
    for (const obj of items) {
      const m = metaOf(obj);
      next.set(`${m.namespace}/${m.name}`, obj);
    }
    const previous = new Map(this.store);
    this.store.clear();
    for (const [k, v] of next) this.store.set(k, v);
    for (const [k, old] of previous) {
      if (!next.has(k)) this.emit({ type: 'delete', object: old });
    }
    for (const [k, obj] of next) {
      const old = previous.get(k);
      if (!old) this.emit({ type: 'add', object: obj });
      else if (metaOf(old).resourceVersion !== metaOf(obj).resourceVersion) this.emit({ type: 'update', object: obj });
      else if (resyncUnchanged) this.emit({ type: 'resync', object: obj });
    }
  }

  private watchOnce(): Promise<WatchOutcome> {
    return new Promise((resolve) => {
      let settled = false;
      const onAbort = () => settle({ kind: 'closed' });
      const settle = (outcome: WatchOutcome) => {
        if (settled) return;
        settled = true;
        this.abort.signal.removeEventListener('abort', onAbort);
        handle?.stop();
        resolve(outcome);
      };
      const timeoutSeconds = this.options.watchTimeoutSeconds?.() ?? Math.floor(300 + (this.options.random ?? Math.random)() * 300);
      let handle: WatchHandle | undefined;
      handle = this.options.api.watch(
        this.options.kind,
        {
          namespace: this.options.namespace,
          labelSelector: this.options.labelSelector,
          fieldSelector: this.options.fieldSelector,
          resourceVersion: this.resourceVersion,
          allowWatchBookmarks: true,
          timeoutSeconds,
        },
        {
          onEvent: (event) => {
            if (settled || this.stopped) return;
            if (event.type === 'ERROR') {
              const error = errorFromStatus(event.object, 500);
              settle(isGone(error) ? { kind: 'gone' } : { kind: 'failed', error });
              return;
            }
            this.apply(event.type, event.object);
          },
          onClose: (error) => {
            if (error === undefined) settle({ kind: 'closed' });
            else settle(isGone(error) ? { kind: 'gone' } : { kind: 'failed', error });
          },
        },
      );
      this.watchHandle = handle;
      if (settled || this.stopped) {
        handle.stop();
        settle({ kind: 'closed' });
        return;
      }
      // stop() while watching ends this promise too.
      this.abort.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private apply(type: string, raw: any): void {
    const rv = metaOf(raw).resourceVersion;
    if (type === 'BOOKMARK') {
      if (rv) this.resourceVersion = rv;
      return;
    }
    const obj = this.complete(raw);
    const m = metaOf(obj);
    const key = `${m.namespace}/${m.name}`;
    if (type === 'ADDED' || type === 'MODIFIED') {
      const existed = this.store.has(key);
      this.store.set(key, obj);
      if (rv) this.resourceVersion = rv;
      this.emit({ type: existed ? 'update' : 'add', object: obj });
    } else if (type === 'DELETED') {
      this.store.delete(key);
      if (rv) this.resourceVersion = rv;
      this.emit({ type: 'delete', object: obj });
    } else {
      this.log.debug('ignoring watch event of unknown type', { type });
    }
  }

  /**
   * What the cache keeps of an object: list items of built-in kinds carry no apiVersion/kind, so
   * they are filled in; `metadata.managedFields` and kubectl's last-applied annotation, which no
   * status reads and which are often most of an object's size, are dropped (controller-runtime's
   * cache does the same); then the `transform`, if any.
   */
  private complete(obj: any): any {
    if (!obj || typeof obj !== 'object') return obj;
    let out = obj.apiVersion === undefined || obj.kind === undefined
      ? { apiVersion: this.options.kind.apiVersion, kind: this.options.kind.kind, ...obj }
      : obj;
    const meta = out.metadata;
    if (meta && typeof meta === 'object') {
      const annotations = meta.annotations;
      const lastApplied = annotations && typeof annotations === 'object' && LAST_APPLIED in annotations;
      if (meta.managedFields !== undefined || lastApplied) {
        // Copies without the fields rather than `delete`: an object a property was deleted from
        // turns into a dictionary, which V8 stores in several times the memory.
        const { managedFields: _managedFields, ...metadata } = meta;
        if (lastApplied) {
          const { [LAST_APPLIED]: _lastApplied, ...rest } = annotations;
          metadata.annotations = rest;
        }
        out = { ...out, metadata };
      }
    }
    return this.options.transform ? this.options.transform(out) : out;
  }

  private clearAsAbsent(): void {
    const gone = [...this.store.values()];
    this.store.clear();
    this.resourceVersion = '';
    for (const obj of gone) this.emit({ type: 'delete', object: obj });
    this.setState('absent');
  }

  private setState(state: InformerState): void {
    if (this.currentState === state) return;
    this.currentState = state;
    if (state !== 'pending') for (const w of this.syncWaiters.splice(0)) w();
    this.options.onStateChange?.(state);
  }

  private emit(event: InformerEvent): void {
    if (this.stopped) return;
    try {
      this.options.onEvent(event);
    } catch (e) {
      this.log.error('event handler failed', { error: errorText(e) });
    }
  }

  private get absentRetryMs(): number {
    return this.options.absentRetryMs ?? 60_000;
  }

  private async backoff(): Promise<void> {
    const initial = this.options.initialBackoffMs ?? 800;
    const max = this.options.maxBackoffMs ?? 30_000;
    const delay = Math.min(max, initial * Math.pow(2, this.failures));
    this.failures++;
    await sleep(this.options.clock, jitter(delay, 0.1, this.options.random), this.abort.signal);
  }
}
