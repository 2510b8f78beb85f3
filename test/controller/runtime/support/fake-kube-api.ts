import {
  KubeApi,
  KubeApiError,
  ListOptions,
  ObjectList,
  ResourceKind,
  WatchEvent,
  WatchHandle,
  WatchHandlers,
  WatchOptions,
} from '../../../../src/controller/runtime/kube-api';

type Op = 'list' | 'watch' | 'get' | 'create' | 'replace' | 'patch' | 'patchStatus';

interface Watcher {
  readonly kindKey: string;
  readonly namespace?: string;
  readonly selector?: string;
  readonly fieldSelector?: string;
  readonly handlers: WatchHandlers;
  open: boolean;
}

interface HistoryEntry {
  readonly kindKey: string;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: any;
  readonly rv: number;
}

/** A request the fake answered, for assertions. */
export interface Call {
  readonly op: Op;
  readonly kind: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly options?: any;
  readonly body?: any;
}

const clone = <T>(x: T): T => (x === undefined ? x : JSON.parse(JSON.stringify(x)));
const keyOf = (k: { apiVersion: string; resource: string }) => `${k.apiVersion}/${k.resource}`;

/**
 * An in-memory API server: objects per resource with a global resourceVersion, list (with
 * pages), watch (replaying history after the requested version; 410 once compacted), get,
 * create, replace (optimistic concurrency), merge patches of objects (status ignored, as the API
 * server does for a kind with a status subresource) and of their status. Kinds must be `serve`d,
 * else every request for them is 404. `fail` injects errors.
 */
export class FakeKubeApi implements KubeApi {
  public readonly calls: Call[] = [];
  private rv = 100;
  private compactedRv = 0;
  private readonly served = new Set<string>();
  private readonly objects = new Map<string, Map<string, any>>();
  private readonly history: HistoryEntry[] = [];
  private watchers: Watcher[] = [];
  private readonly failures: Array<{ op: Op; kind?: string; error: () => Error; times: number }> = [];
  /** Delays every answer of `op` until the returned promise resolves (tests hold requests open). */
  public gate?: (call: Call) => Promise<void> | undefined;

  public serve(...kinds: ResourceKind[]): this {
    for (const k of kinds) {
      this.served.add(keyOf(k));
      if (!this.objects.has(keyOf(k))) this.objects.set(keyOf(k), new Map());
    }
    return this;
  }

  public unserve(kind: ResourceKind): void {
    this.served.delete(keyOf(kind));
    this.objects.delete(keyOf(kind));
    this.closeWatches(undefined, kind);
  }

  /** The next `times` requests of `op` (on `kind`, if given) fail with `error()`. */
  public fail(op: Op, error: () => Error, times = 1, kind?: ResourceKind): void {
    this.failures.push({ op, kind: kind && keyOf(kind), error, times });
  }

  /** Drops every injected failure not used yet. */
  public clearFailures(): void {
    this.failures.length = 0;
  }

  public get resourceVersion(): string {
    return String(this.rv);
  }

  /** Creates or replaces an object (bumping its version) and notifies watchers. */
  public put(kind: ResourceKind, obj: any): any {
    const store = this.store(kind);
    const stored = clone(obj);
    stored.apiVersion ??= kind.apiVersion;
    stored.kind ??= kind.kind;
    const id = `${stored.metadata.namespace}/${stored.metadata.name}`;
    const existed = store.has(id);
    stored.metadata.resourceVersion = String(++this.rv);
    if (!existed) stored.metadata.generation ??= 1;
    store.set(id, stored);
    this.notify(kind, existed ? 'MODIFIED' : 'ADDED', stored);
    return clone(stored);
  }

  public remove(kind: ResourceKind, namespace: string, name: string): void {
    const store = this.store(kind);
    const obj = store.get(`${namespace}/${name}`);
    if (!obj) return;
    store.delete(`${namespace}/${name}`);
    const last = { ...clone(obj), metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
    this.notify(kind, 'DELETED', last);
  }

  public object(kind: ResourceKind, namespace: string, name: string): any | undefined {
    return clone(this.objects.get(keyOf(kind))?.get(`${namespace}/${name}`));
  }

  /** Forgets history: watches from an older version get 410 Gone. */
  public compact(): void {
    this.compactedRv = this.rv;
  }

  /** Ends open watches (all, or of one kind) as a restarting API server would: with `error`, or normally. */
  public closeWatches(error?: Error, kind?: ResourceKind): void {
    for (const w of this.watchers) {
      if (!w.open || (kind && w.kindKey !== keyOf(kind))) continue;
      w.open = false;
      w.handlers.onClose(error);
    }
    this.watchers = this.watchers.filter((w) => w.open);
  }

  /** Sends an event to open watches of `kind` (e.g. a BOOKMARK or an ERROR). */
  public send(kind: ResourceKind, event: WatchEvent): void {
    for (const w of this.watchers) if (w.open && w.kindKey === keyOf(kind)) w.handlers.onEvent(event);
  }

  public openWatches(kind?: ResourceKind): number {
    return this.watchers.filter((w) => w.open && (!kind || w.kindKey === keyOf(kind))).length;
  }

  public callsOf(op: Op, kind?: ResourceKind): Call[] {
    return this.calls.filter((c) => c.op === op && (!kind || c.kind === keyOf(kind)));
  }

  // KubeApi

  public async list(kind: ResourceKind, options: ListOptions): Promise<ObjectList> {
    await this.enter({ op: 'list', kind: keyOf(kind), options });
    const all = [...this.store(kind).values()]
      .filter((o) => matches(o, options.namespace, options.labelSelector, options.fieldSelector))
      .sort((a, b) => (key(a) < key(b) ? -1 : 1));
    const start = options.continue ? Number(options.continue) : 0;
    const end = options.limit ? start + options.limit : all.length;
    const page = all.slice(start, end).map(clone);
    return { resourceVersion: String(this.rv), continue: end < all.length ? String(end) : undefined, items: page };
  }

  public watch(kind: ResourceKind, options: WatchOptions, handlers: WatchHandlers): WatchHandle {
    const call: Call = { op: 'watch', kind: keyOf(kind), options };
    this.calls.push(call);
    const watcher: Watcher = {
      kindKey: keyOf(kind), namespace: options.namespace, selector: options.labelSelector, fieldSelector: options.fieldSelector, handlers, open: true,
    };
    const from = Number(options.resourceVersion || 0);
    queueMicrotask(() => {
      if (!watcher.open) return;
      let error: Error | undefined;
      try {
        this.check(call);
      } catch (e) {
        error = e as Error;
      }
      if (!error && !this.served.has(keyOf(kind))) error = new KubeApiError(404, 'the server could not find the requested resource', 'NotFound');
      if (!error && from < this.compactedRv) error = new KubeApiError(410, `too old resource version: ${from} (${this.compactedRv})`, 'Expired');
      if (error) {
        watcher.open = false;
        handlers.onClose(error);
        return;
      }
      for (const h of this.history) {
        if (h.kindKey === watcher.kindKey && h.rv > from && matches(h.object, watcher.namespace, watcher.selector, watcher.fieldSelector)) {
          handlers.onEvent({ type: h.type, object: clone(h.object) });
        }
      }
      this.watchers.push(watcher);
    });
    return { stop: () => void (watcher.open = false) };
  }

  public async get(kind: ResourceKind, namespace: string, name: string): Promise<any> {
    await this.enter({ op: 'get', kind: keyOf(kind), namespace, name });
    const obj = this.store(kind).get(`${namespace}/${name}`);
    if (!obj) throw new KubeApiError(404, `${kind.resource} "${name}" not found`, 'NotFound');
    return clone(obj);
  }

  public async create(kind: ResourceKind, namespace: string, body: any): Promise<any> {
    await this.enter({ op: 'create', kind: keyOf(kind), namespace, body: clone(body) });
    if (this.store(kind).has(`${namespace}/${body.metadata.name}`)) throw new KubeApiError(409, `${kind.resource} "${body.metadata.name}" already exists`, 'AlreadyExists');
    const { resourceVersion: _, ...metadata } = body.metadata;
    return this.put(kind, { ...body, metadata: { ...metadata, namespace } });
  }

  public async replace(kind: ResourceKind, namespace: string, body: any): Promise<any> {
    await this.enter({ op: 'replace', kind: keyOf(kind), namespace, name: body.metadata.name, body: clone(body) });
    const current = this.store(kind).get(`${namespace}/${body.metadata.name}`);
    if (!current) throw new KubeApiError(404, `${kind.resource} "${body.metadata.name}" not found`, 'NotFound');
    if (body.metadata.resourceVersion !== current.metadata.resourceVersion) {
      throw new KubeApiError(409, 'the object has been modified; please apply your changes to the latest version and try again', 'Conflict');
    }
    return this.put(kind, { ...body, metadata: { ...body.metadata, namespace } });
  }

  public async patch(kind: ResourceKind, namespace: string, name: string, mergePatch: any): Promise<any> {
    await this.enter({ op: 'patch', kind: keyOf(kind), namespace, name, body: clone(mergePatch) });
    const current = this.patchTarget(kind, namespace, name, mergePatch);
    const { status: _, ...rest } = mergePatch ?? {};
    const patched = mergePatchOf(current, rest);
    patched.metadata.resourceVersion = current.metadata.resourceVersion;
    if (JSON.stringify(patched) === JSON.stringify(current)) return clone(current);
    return this.put(kind, patched);
  }

  public async patchStatus(kind: ResourceKind, namespace: string, name: string, mergePatch: any): Promise<any> {
    await this.enter({ op: 'patchStatus', kind: keyOf(kind), namespace, name, body: clone(mergePatch) });
    const current = this.patchTarget(kind, namespace, name, mergePatch);
    const status = mergePatchOf(current.status, mergePatch?.status);
    if (JSON.stringify(status) === JSON.stringify(current.status)) return clone(current);
    return this.put(kind, { ...current, status });
  }

  /** The stored object a merge patch applies to: 404 when absent, 409 when its resourceVersion precondition fails. */
  private patchTarget(kind: ResourceKind, namespace: string, name: string, mergePatch: any): any {
    const current = this.store(kind).get(`${namespace}/${name}`);
    if (!current) throw new KubeApiError(404, `${kind.resource} "${name}" not found`, 'NotFound');
    const precondition = mergePatch?.metadata?.resourceVersion;
    if (precondition !== undefined && precondition !== current.metadata.resourceVersion) {
      throw new KubeApiError(409, 'the object has been modified; please apply your changes to the latest version and try again', 'Conflict');
    }
    return current;
  }

  private async enter(call: Call): Promise<void> {
    this.calls.push(call);
    await Promise.resolve();
    const gate = this.gate?.(call);
    if (gate) await gate;
    this.check(call);
    if (!this.served.has(call.kind)) throw new KubeApiError(404, 'the server could not find the requested resource', 'NotFound');
  }

  private check(call: Call): void {
    const f = this.failures.find((x) => x.op === call.op && (!x.kind || x.kind === call.kind) && x.times > 0);
    if (f) {
      f.times--;
      throw f.error();
    }
  }

  private store(kind: ResourceKind): Map<string, any> {
    let s = this.objects.get(keyOf(kind));
    if (!s) this.objects.set(keyOf(kind), (s = new Map()));
    return s;
  }

  private notify(kind: ResourceKind, type: HistoryEntry['type'], object: any): void {
    this.history.push({ kindKey: keyOf(kind), type, object: clone(object), rv: this.rv });
    for (const w of this.watchers) {
      if (w.open && w.kindKey === keyOf(kind) && matches(object, w.namespace, w.selector, w.fieldSelector)) {
        const event = { type, object: clone(object) };
        queueMicrotask(() => w.open && w.handlers.onEvent(event));
      }
    }
  }
}

function key(o: any): string {
  return `${o.metadata.namespace}/${o.metadata.name}`;
}

function matches(obj: any, namespace?: string, selector?: string, fieldSelector?: string): boolean {
  if (namespace !== undefined && obj.metadata.namespace !== namespace) return false;
  // Only the field selector the controller sends: `metadata.name=<name>`.
  if (fieldSelector !== undefined) {
    const name = /^metadata\.name=(.*)$/.exec(fieldSelector)?.[1];
    if (name === undefined) throw new Error(`fake API: unsupported field selector ${fieldSelector}`);
    if (obj.metadata.name !== name) return false;
  }
  if (!selector) return true;
  const labels = obj.metadata.labels ?? {};
  return selector.split(',').every((term) => {
    const [k, v] = term.split('=');
    return labels[k] === v;
  });
}

/** RFC 7386 JSON merge patch. */
export function mergePatchOf(target: any, patch: any): any {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return clone(patch);
  const out: any = target !== null && typeof target === 'object' && !Array.isArray(target) ? clone(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatchOf(out[k], v);
  }
  return out;
}
