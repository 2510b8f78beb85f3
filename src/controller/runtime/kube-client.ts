/**
 * `KubeApi` on a real API server: JSON over Node's own HTTPS, one keep-alive connection pool,
 * authenticated by `ClusterCredentials` (cluster-credentials.ts: the service account or the
 * kubeconfig, with @kubernetes/client-node for the plugins it implements).
 */
import * as http from 'http';
import * as https from 'https';
import type { ClusterCredentials, RequestTls } from './cluster-credentials';
import { errorFromStatus, KubeApi, KubeApiError, ListOptions, ObjectList, ResourceKind, resourcePath, WatchEventType, WatchHandle, WatchHandlers, WatchOptions } from './kube-api';

export interface KubeClientOptions {
  /** Timeout of every request but watches. @default 30_000 */
  readonly requestTimeoutMs?: number;
  /** A watch with no data (events or bookmarks) for its timeout plus this long is dropped. @default 60_000 */
  readonly watchIdleMarginMs?: number;
  /** `User-Agent` header. */
  readonly userAgent?: string;
}

/** A response whose body has not been read yet. */
interface Response {
  readonly status: number;
  readonly body: http.IncomingMessage;
}

/** `KubeApi` over HTTPS. */
export class KubeClient implements KubeApi {
  private readonly agent: http.Agent;

  public constructor(private readonly credentials: ClusterCredentials, private readonly options: KubeClientOptions = {}) {
    const secure = new URL(credentials.server).protocol === 'https:';
    this.agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  }

  /** Closes the connection pool. */
  public async close(): Promise<void> {
    this.agent.destroy();
  }

  /** The API server's URL. */
  public get server(): string {
    return this.credentials.server;
  }

  /** Where the credentials came from (`in-cluster`, a kubeconfig file, `client-node ...`). */
  public get credentialsSource(): string {
    return this.credentials.source;
  }

  public async list(kind: ResourceKind, options: ListOptions): Promise<ObjectList> {
    const body = await this.json('GET', resourcePath(kind, options.namespace), {
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector,
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
      fieldSelector: options.fieldSelector,
      resourceVersion: options.resourceVersion || undefined,
      allowWatchBookmarks: options.allowWatchBookmarks ? 'true' : undefined,
      timeoutSeconds: String(options.timeoutSeconds),
    };
    const run = async () => {
      touch();
      const response = await this.send('GET', resourcePath(kind, options.namespace), query, undefined, undefined, abort.signal, undefined);
      if (response.status !== 200) throw await this.errorOf(response);
      response.body.setEncoding('utf8');
      let buffered = '';
      for await (const chunk of response.body) {
        if (finished) return;
        touch();
        buffered += chunk;
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
    const timeoutMs = this.options.requestTimeoutMs ?? 30_000;
    const response = await this.send(method, path, query, body, contentType, undefined, timeoutMs);
    if (response.status >= 400) throw await this.errorOf(response);
    const text = await readBody(response.body);
    return text ? JSON.parse(text) : undefined;
  }

  /**
   * Sends one request; resolves with the response once its headers arrived. `timeoutMs` bounds
   * the whole exchange (the body too); watches have none and end by `signal`.
   */
  private async send(
    method: string,
    path: string,
    query: Record<string, string | undefined>,
    body: any,
    contentType: string | undefined,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
  ): Promise<Response> {
    const url = new URL(this.credentials.server.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') url.searchParams.set(k, v);
    const options: RequestTls & https.RequestOptions = { method, agent: this.agent, headers: { Accept: 'application/json' } };
    if (this.options.userAgent) options.headers['User-Agent'] = this.options.userAgent;
    const payload = body !== undefined ? JSON.stringify(body) : undefined;
    if (payload !== undefined) {
      options.headers['Content-Type'] = contentType ?? 'application/json';
      options.headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    await this.credentials.apply(options);
    if (signal) options.signal = signal;
    return new Promise<Response>((resolve, reject) => {
      const request = (url.protocol === 'https:' ? https : http).request(url, options, (res) => resolve({ status: res.statusCode ?? 0, body: res }));
      request.on('error', reject);
      if (timeoutMs !== undefined) {
        const timer = setTimeout(() => request.destroy(new Error(`${method} ${url.pathname} timed out after ${timeoutMs} ms`)), timeoutMs);
        request.on('close', () => clearTimeout(timer));
      }
      request.end(payload);
    });
  }

  private async errorOf(response: Response): Promise<KubeApiError> {
    let text = '';
    try {
      text = await readBody(response.body);
    } catch {
      // no body
    }
    try {
      const status = JSON.parse(text);
      if (status?.kind === 'Status') return errorFromStatus(status, response.status);
    } catch {
      // not JSON
    }
    return new KubeApiError(response.status, text.trim() || `HTTP ${response.status}`);
  }
}

async function readBody(body: http.IncomingMessage): Promise<string> {
  body.setEncoding('utf8');
  let text = '';
  for await (const chunk of body) text += chunk;
  return text;
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
