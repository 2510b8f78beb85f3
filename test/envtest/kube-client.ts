/**
 * A small Kubernetes API client for tests, on node:https alone (`@kubernetes/client-node` is
 * ESM-only and jest cannot load it without flags).
 *
 * JSON in, JSON out; every method resolves a kind's REST path through discovery
 * (`/api/v1`, `/apis/<group>/<version>`: plural, namespaced or cluster-scoped, subresources)
 * instead of guessing plurals, cached per group/version and re-read once when a kind is missing
 * (a CRD installed since). A namespaced object without `metadata.namespace` goes to `default`, as
 * kubectl does. Failures throw `KubeApiError`, which carries the HTTP status and the server's
 * `Status` reason and message.
 *
 *   const c = new KubeClient({ baseUrl, caPem, token });
 *   await c.create(obj, { fieldValidation: 'Strict', dryRun: 'All' });
 *   await c.patch(ref, { spec: { replicas: 2 } }, 'merge');
 *   await c.patchStatus(ref, { status: { phase: 'Running' } }, 'merge');
 *   await c.apply(obj, { fieldManager: 'test', force: true });   // server-side apply
 *   await c.waitFor(async () => (await c.get(ref)).status?.ready, 10_000, 'ref ready');
 */
import * as https from 'https';

/** A Kubernetes object as JSON. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string; namespace?: string; [key: string]: any };
  [key: string]: any;
}

/** What names one object (`name` set) or a collection (`name` absent; `namespace` absent = all namespaces). */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name?: string;
}

/** One resource of a group/version, from discovery. */
export interface ApiResource {
  readonly groupVersion: string;
  /** The plural, as it appears in paths. */
  readonly name: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: string[];
  /** Subresources served (`status`, `scale`, ...). */
  readonly subresources: string[];
}

/** Query parameters; arrays repeat the parameter; undefined values are left out. */
export type Query = Record<string, string | number | boolean | string[] | undefined>;

/** Patch content types: JSON merge patch, JSON patch, strategic merge patch (built-in kinds only), server-side apply. */
export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** A request the API server refused (or that never got an answer: status 0). */
export class KubeApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    /** HTTP status; 0 when the request failed before a response (connection refused, timeout). */
    readonly status: number,
    /** The Status `reason` (`NotFound`, `Invalid`, `Forbidden`, `AlreadyExists`, `BadRequest`...), or ''. */
    readonly reason: string,
    /** The server's Status `message` (or the body, or the connection error). */
    readonly serverMessage: string,
    /** The parsed Status (or raw body), for `details.causes`. */
    readonly body: any,
  ) {
    super(`${method} ${path}: ${status === 0 ? 'no response' : `HTTP ${status}${reason ? ` ${reason}` : ''}`}: ${serverMessage}`);
    this.name = 'KubeApiError';
  }
}

export interface KubeClientOptions {
  /** `https://host:port`. */
  readonly baseUrl: string;
  /** PEM the server's certificate must chain to. */
  readonly caPem: string;
  /** Bearer token; empty for an anonymous request. */
  readonly token: string;
  /** Per-request timeout in ms (default 30 s). */
  readonly timeoutMs?: number;
}

export interface RequestOptions {
  readonly body?: unknown;
  readonly query?: Query;
  /** Content type of the body (default `application/json`). */
  readonly contentType?: string;
  /** The `Accept` header (default `application/json`), e.g. a Table: `application/json;as=Table;v=v1;g=meta.k8s.io`. */
  readonly accept?: string;
}

/** Splits `group/version` (or `v1`) into its parts. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/** The discovery path of a group/version: `/api/v1` for the core group, `/apis/<group>/<version>` otherwise. */
export function groupVersionPath(apiVersion: string): string {
  const { group, version } = splitApiVersion(apiVersion);
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

/** What `waitFor` polls: a value other than undefined, null or false means done. */
export type Condition<T> = () => Promise<T | undefined | null | false> | T | undefined | null | false;

/**
 * Polls `condition` every `intervalMs` until it returns a value other than undefined, null or
 * false, and resolves with it. Errors thrown by `condition` count as "not yet"; the last one (or
 * the last value) is in the timeout error.
 */
export async function waitFor<T>(
  condition: Condition<T>,
  timeoutMs: number,
  description = 'condition',
  intervalMs = 100,
): Promise<T> {
  const start = Date.now();
  let last = 'not evaluated yet';
  for (;;) {
    try {
      const v = await condition();
      if (v !== undefined && v !== null && v !== false) return v as T;
      last = `returned ${String(v)}`;
    } catch (e) {
      last = `threw: ${(e as Error).message}`;
    }
    if (Date.now() - start >= timeoutMs) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${description} (last attempt ${last})`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export class KubeClient {
  readonly baseUrl: string;
  private readonly token: string;
  private readonly timeoutMs: number;
  private readonly agent: https.Agent;
  private readonly discovery = new Map<string, Promise<ApiResource[]>>();
  /** Called with the text of each `Warning` header the server sends (deprecations, dropped duplicate fields...). */
  onWarning?: (warning: string, method: string, path: string) => void;

  constructor(options: KubeClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/$/, '');
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.agent = new https.Agent({ ca: options.caPem, keepAlive: true, maxSockets: 8 });
  }

  /** One request; resolves with the parsed JSON body (or the text when it is not JSON). */
  request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(options.query ?? {})) {
      if (v === undefined) continue;
      for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(item));
    }
    const fullPath = url.pathname + url.search;
    const payload = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`; // none: the anonymous user
    if (payload !== undefined) {
      headers['Content-Type'] = options.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    return new Promise<T>((resolve, reject) => {
      const req = https.request(url, { method, headers, agent: this.agent, timeout: this.timeoutMs }, (res) => {
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i].toLowerCase() === 'warning') {
            // `299 - "text"`: the text alone.
            const m = /^\d{3} \S+ "(.*)"$/.exec(res.rawHeaders[i + 1]);
            this.onWarning?.(m ? m[1].replace(/\\"/g, '"') : res.rawHeaders[i + 1], method, fullPath);
          }
        }
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: any = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: keep the text
          }
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) {
            resolve(body as T);
          } else {
            const isStatus = body && typeof body === 'object' && body.kind === 'Status';
            reject(new KubeApiError(method, fullPath, status, isStatus ? body.reason ?? '' : '', isStatus ? body.message ?? '' : String(text).trim(), body));
          }
        });
        res.on('error', (e) => reject(new KubeApiError(method, fullPath, 0, '', e.message, undefined)));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      req.on('error', (e) => reject(new KubeApiError(method, fullPath, 0, '', e.message, undefined)));
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /** The resources of a group/version (cached; `refresh` re-reads). */
  async discover(apiVersion: string, refresh = false): Promise<ApiResource[]> {
    let p = refresh ? undefined : this.discovery.get(apiVersion);
    if (!p) {
      p = this.request<any>('GET', groupVersionPath(apiVersion)).then((list) => {
        const all: any[] = list.resources ?? [];
        return all
          .filter((r) => !r.name.includes('/'))
          .map((r) => ({
            groupVersion: apiVersion,
            name: r.name,
            kind: r.kind,
            namespaced: !!r.namespaced,
            verbs: r.verbs ?? [],
            subresources: all.filter((s) => s.name.startsWith(`${r.name}/`)).map((s) => s.name.slice(r.name.length + 1)),
          }));
      });
      this.discovery.set(apiVersion, p);
      p.catch(() => this.discovery.delete(apiVersion));
    }
    return p;
  }

  /** The resource serving `kind` in `apiVersion`; re-reads discovery once if it is not listed. */
  async resourceFor(apiVersion: string, kind: string): Promise<ApiResource> {
    let resources: ApiResource[];
    try {
      resources = await this.discover(apiVersion);
    } catch (e) {
      if (e instanceof KubeApiError && e.status === 404) resources = [];
      else throw e;
    }
    let r = resources.find((x) => x.kind === kind);
    if (!r) {
      try {
        resources = await this.discover(apiVersion, true);
      } catch (e) {
        if (e instanceof KubeApiError && e.status === 404) {
          throw new Error(`${apiVersion} is not served by ${this.baseUrl} (is its CRD installed?)`);
        }
        throw e;
      }
      r = resources.find((x) => x.kind === kind);
    }
    if (!r) {
      throw new Error(`${apiVersion} has no kind ${kind} (served: ${resources.map((x) => x.kind).sort().join(', ') || 'none'})`);
    }
    return r;
  }

  /**
   * The REST path of an object (`name` set) or of a collection. Namespaced kinds go under
   * `/namespaces/<ns>/`: `ref.namespace`, or `default` for a single object; a collection without
   * a namespace lists all namespaces.
   */
  async pathFor(ref: ObjectRef, subresource?: string): Promise<string> {
    const r = await this.resourceFor(ref.apiVersion, ref.kind);
    let p = groupVersionPath(ref.apiVersion);
    if (r.namespaced) {
      const ns = ref.namespace ?? (ref.name !== undefined ? 'default' : undefined);
      if (ns !== undefined) p += `/namespaces/${encodeURIComponent(ns)}`;
    }
    p += `/${r.name}`;
    if (ref.name !== undefined) p += `/${encodeURIComponent(ref.name)}`;
    if (subresource) {
      if (ref.name === undefined) throw new Error(`subresource ${subresource} needs an object name`);
      p += `/${subresource}`;
    }
    return p;
  }

  async get<T = KubeObject>(ref: ObjectRef, query?: Query): Promise<T> {
    return this.request<T>('GET', await this.pathFor(requireName(ref)), { query });
  }

  /** Lists a collection (`ref.name` ignored); `query` for `labelSelector`, `fieldSelector`, `limit`... */
  async list<T = KubeObject>(ref: ObjectRef, query?: Query): Promise<{ items: T[]; metadata: any }> {
    return this.request('GET', await this.pathFor({ ...ref, name: undefined }), { query });
  }

  /** POSTs `obj` to its collection; e.g. `{ fieldValidation: 'Strict', dryRun: 'All' }`. */
  async create<T = KubeObject>(obj: KubeObject, query?: Query): Promise<T> {
    const r = await this.resourceFor(obj.apiVersion, obj.kind);
    const namespace = r.namespaced ? obj.metadata?.namespace ?? 'default' : undefined;
    const path = await this.pathFor({ apiVersion: obj.apiVersion, kind: obj.kind, namespace });
    return this.request<T>('POST', path, { body: obj, query });
  }

  /** PUTs `obj` (which must carry `metadata.resourceVersion` unless the kind allows unconditional updates). */
  async replace<T = KubeObject>(obj: KubeObject, query?: Query): Promise<T> {
    return this.request<T>('PUT', await this.pathFor(refOf(obj)), { body: obj, query });
  }

  /** PATCHes an object; `apply` needs `fieldManager` in `query` (or use `apply()`). */
  async patch<T = KubeObject>(ref: ObjectRef, patch: unknown, type: PatchType, query?: Query): Promise<T> {
    return this.request<T>('PATCH', await this.pathFor(requireName(ref)), { body: patch, query, contentType: PATCH_CONTENT_TYPES[type] });
  }

  /** PATCHes the `/status` subresource. */
  async patchStatus<T = KubeObject>(ref: ObjectRef, patch: unknown, type: PatchType, query?: Query): Promise<T> {
    return this.request<T>('PATCH', await this.pathFor(requireName(ref), 'status'), { body: patch, query, contentType: PATCH_CONTENT_TYPES[type] });
  }

  /** Server-side apply of a whole object. */
  async apply<T = KubeObject>(obj: KubeObject, options: { fieldManager: string; force?: boolean; query?: Query; subresource?: string }): Promise<T> {
    const path = await this.pathFor(refOf(obj), options.subresource);
    return this.request<T>('PATCH', path, {
      body: obj,
      contentType: PATCH_CONTENT_TYPES.apply,
      query: { ...options.query, fieldManager: options.fieldManager, force: options.force || undefined },
    });
  }

  /** DELETEs an object; `query` for `propagationPolicy`, `gracePeriodSeconds`, `dryRun`. */
  async delete<T = any>(ref: ObjectRef, query?: Query): Promise<T> {
    return this.request<T>('DELETE', await this.pathFor(requireName(ref)), { query });
  }

  /** `waitFor` (this module's), for convenience. */
  waitFor<T>(condition: Condition<T>, timeoutMs: number, description?: string): Promise<T> {
    return waitFor(condition, timeoutMs, description);
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}

function requireName(ref: ObjectRef): ObjectRef {
  if (ref.name === undefined || ref.name === '') throw new Error(`${ref.kind}: an object name is needed`);
  return ref;
}

/** The ref of an object (its `metadata.namespace`; `pathFor` puts a namespaced one without it in `default`). */
export function refOf(obj: KubeObject): ObjectRef {
  const name = obj.metadata?.name;
  if (!name) throw new Error(`${obj.kind}: metadata.name is needed`);
  return { apiVersion: obj.apiVersion, kind: obj.kind, namespace: obj.metadata?.namespace, name };
}
