/**
 * `KubeApi` on a real API server, with @kubernetes/client-node: its kubeconfig loading and
 * authentication (client certificates, tokens and their rotation, exec plugins, in-cluster
 * service account) and its HTTP client. This is the only module that loads the library; it is
 * ESM-only, so it is required lazily (Node 24 loads ES modules with `require`), and the unit tests,
 * which run in jest, never load this file.
 */
import type * as k8s from '@kubernetes/client-node' with { 'resolution-mode': 'import' };
import { errorFromStatus, KubeApi, KubeApiError, ListOptions, ObjectList, ResourceKind, resourcePath, WatchEventType, WatchHandle, WatchHandlers, WatchOptions } from './kube-api';

type ClientNode = typeof k8s;

/** Loads @kubernetes/client-node. */
function clientNode(): ClientNode {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@kubernetes/client-node');
}

/**
 * The kubeconfig as controller-runtime finds it: the `--kubeconfig` file; else, in a pod
 * (KUBERNETES_SERVICE_HOST set), the service account; else $KUBECONFIG or ~/.kube/config.
 * @throws Error when the file cannot be read or names no cluster
 */
export function loadKubeConfig(kubeconfig?: string): k8s.KubeConfig {
  const lib = clientNode();
  const kc = new lib.KubeConfig();
  if (kubeconfig !== undefined) kc.loadFromFile(kubeconfig);
  else if (process.env.KUBERNETES_SERVICE_HOST) kc.loadFromCluster();
  else kc.loadFromDefault();
  const cluster = kc.getCurrentCluster();
  if (!cluster?.server) throw new Error(`no cluster in ${kubeconfig ?? 'the default kubeconfig'} (current context ${JSON.stringify(kc.getCurrentContext())})`);
  return kc;
}

export interface KubeClientOptions {
  /** Timeout of every request but watches. @default 30_000 */
  readonly requestTimeoutMs?: number;
  /** A watch with no data (events or bookmarks) for its timeout plus this long is dropped. @default 60_000 */
  readonly watchIdleMarginMs?: number;
  /** `User-Agent` header. */
  readonly userAgent?: string;
}

/** `KubeApi` with @kubernetes/client-node. */
export class KubeClient implements KubeApi {
  private readonly lib: ClientNode;
  private readonly http: k8s.IsomorphicFetchHttpLibrary;
  private dispatcher?: ReturnType<k8s.RequestContext['getDispatcher']>;

  public constructor(private readonly kc: k8s.KubeConfig, private readonly options: KubeClientOptions = {}) {
    this.lib = clientNode();
    this.http = new this.lib.IsomorphicFetchHttpLibrary();
  }

  /** Closes the connection pool. */
  public async close(): Promise<void> {
    const d: any = this.dispatcher;
    this.dispatcher = undefined;
    if (d && typeof d.close === 'function') await d.close().catch(() => undefined);
  }

  /** The API server's URL. */
  public get server(): string {
    return this.kc.getCurrentCluster()?.server ?? '';
  }

  public async list(kind: ResourceKind, options: ListOptions): Promise<ObjectList> {
    const body = await this.json('GET', resourcePath(kind, options.namespace), {
      labelSelector: options.labelSelector,
      limit: options.limit !== undefined ? String(options.limit) : undefined,
      continue: options.continue,
    });
    return { resourceVersion: body?.metadata?.resourceVersion ?? '', continue: body?.metadata?.continue || undefined, items: body?.items ?? [] };
  }

  public get(kind: ResourceKind, namespace: string, name: string): Promise<any> {
    return this.json('GET', resourcePath(kind, namespace, name));
  }

  public create(kind: ResourceKind, namespace: string, body: any): Promise<any> {
    return this.json('POST', resourcePath(kind, namespace), {}, body, 'application/json');
  }

  public replace(kind: ResourceKind, namespace: string, body: any): Promise<any> {
    return this.json('PUT', resourcePath(kind, namespace, body?.metadata?.name), {}, body, 'application/json');
  }

  public patch(kind: ResourceKind, namespace: string, name: string, mergePatch: any): Promise<any> {
    return this.json('PATCH', resourcePath(kind, namespace, name), {}, mergePatch, 'application/merge-patch+json');
  }

  public patchStatus(kind: ResourceKind, namespace: string, name: string, mergePatch: any): Promise<any> {
    return this.json('PATCH', `${resourcePath(kind, namespace, name)}/status`, {}, mergePatch, 'application/merge-patch+json');
  }

  public watch(kind: ResourceKind, options: WatchOptions, handlers: WatchHandlers): WatchHandle {
    const abort = new AbortController();
    let finished = false;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const finish = (error?: Error) => {
      if (idle) clearTimeout(idle);
      if (finished) return;
      finished = true;
      abort.abort();
      handlers.onClose(error);
    };
    const idleMs = options.timeoutSeconds * 1000 + (this.options.watchIdleMarginMs ?? 60_000);
    const touch = () => {
      if (idle) clearTimeout(idle);
      idle = setTimeout(() => finish(new Error(`watch of ${kind.resource} received nothing for ${idleMs / 1000}s`)), idleMs);
    };
    const query = {
      watch: 'true',
      labelSelector: options.labelSelector,
      resourceVersion: options.resourceVersion || undefined,
      allowWatchBookmarks: options.allowWatchBookmarks ? 'true' : undefined,
      timeoutSeconds: String(options.timeoutSeconds),
    };
    const run = async () => {
      touch();
      const response = await this.send('GET', resourcePath(kind, options.namespace), query, undefined, undefined, abort.signal);
      if (response.httpStatusCode !== 200) throw await this.errorOf(response);
      const stream = response.body.stream();
      if (!stream) throw new Error('watch response has no body');
      const reader = stream.getReader();
      const decoder = new TextDecoder();
      let buffered = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (finished) {
          void reader.cancel().catch(() => undefined);
          return;
        }
        if (done) break;
        touch();
        buffered += decoder.decode(value, { stream: true });
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline).trim();
          buffered = buffered.slice(newline + 1);
          if (!line) continue;
          let event: any;
          try {
            event = JSON.parse(line);
          } catch {
            throw new Error(`watch of ${kind.resource} sent a line that is not JSON: ${line.slice(0, 200)}`);
          }
          if (finished) return;
          handlers.onEvent({ type: event.type as WatchEventType, object: event.object });
        }
      }
      finish();
    };
    run().catch((e) => finish(asError(e)));
    return {
      stop: () => {
        finished = true;
        if (idle) clearTimeout(idle);
        abort.abort();
      },
    };
  }

  private async json(method: string, path: string, query: Record<string, string | undefined> = {}, body?: any, contentType?: string): Promise<any> {
    const signal = AbortSignal.timeout(this.options.requestTimeoutMs ?? 30_000);
    const response = await this.send(method, path, query, body, contentType, signal);
    if (response.httpStatusCode >= 400) throw await this.errorOf(response);
    const text = await response.body.text();
    return text ? JSON.parse(text) : undefined;
  }

  private async send(
    method: string,
    path: string,
    query: Record<string, string | undefined>,
    body: any,
    contentType: string | undefined,
    signal: AbortSignal,
  ): Promise<k8s.ResponseContext> {
    const url = new URL(this.server.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') url.searchParams.set(k, v);
    const ctx = new this.lib.RequestContext(url.toString(), method as k8s.HttpMethod);
    ctx.setHeaderParam('Accept', 'application/json');
    if (this.options.userAgent) ctx.setHeaderParam('User-Agent', this.options.userAgent);
    if (body !== undefined) {
      ctx.setHeaderParam('Content-Type', contentType ?? 'application/json');
      ctx.setBody(JSON.stringify(body));
    }
    ctx.setSignal(signal);
    await this.kc.applySecurityAuthentication(ctx);
    // One connection pool for every request (the library builds a new one per call).
    if (this.dispatcher) ctx.setDispatcher(this.dispatcher);
    else this.dispatcher = ctx.getDispatcher();
    return this.http.send(ctx).toPromise();
  }

  private async errorOf(response: k8s.ResponseContext): Promise<KubeApiError> {
    let text = '';
    try {
      text = await response.body.text();
    } catch {
      // no body
    }
    try {
      const status = JSON.parse(text);
      if (status?.kind === 'Status') return errorFromStatus(status, response.httpStatusCode);
    } catch {
      // not JSON
    }
    return new KubeApiError(response.httpStatusCode, text.trim() || `HTTP ${response.httpStatusCode}`);
  }
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
