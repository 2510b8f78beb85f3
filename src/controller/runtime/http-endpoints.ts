import * as http from 'http';
import type { AddressInfo } from 'net';
import type { BindAddress } from './bind-address';
import type { Logger } from './logger';
import { EXPOSITION_CONTENT_TYPE, MetricsRegistry } from './metrics';

/** A check for `/healthz` or `/readyz`: undefined when it passes, else why it fails. */
export type Check = () => string | undefined;

/** A running HTTP server. */
export interface RunningServer {
  /** The port it listens on (useful with port 0). */
  readonly port: number;
  /** Stops accepting connections and closes the open ones. */
  close(): Promise<void>;
}

type Handler = () => { status: number; contentType: string; body: string };

/** Serves Prometheus metrics on `GET /metrics`. */
export function serveMetrics(address: BindAddress, registry: MetricsRegistry, logger: Logger): Promise<RunningServer> {
  return serve('metrics', address, { '/metrics': () => ({ status: 200, contentType: EXPOSITION_CONTENT_TYPE, body: registry.expose() }) }, logger);
}

/**
 * Serves `GET /healthz` and `GET /readyz` as controller-runtime's health probes do: 200 `ok`
 * when every check passes, else 500 listing the failed checks.
 */
export function serveProbes(
  address: BindAddress,
  checks: { healthz: Record<string, Check>; readyz: Record<string, Check> },
  logger: Logger,
): Promise<RunningServer> {
  return serve('health probes', address, { '/healthz': probe(checks.healthz), '/readyz': probe(checks.readyz) }, logger);
}

function probe(checks: Record<string, Check>): Handler {
  return () => {
    const failed = Object.entries(checks)
      .map(([name, check]) => ({ name, reason: safe(check) }))
      .filter((c) => c.reason !== undefined);
    if (failed.length === 0) return { status: 200, contentType: 'text/plain; charset=utf-8', body: 'ok' };
    return {
      status: 500,
      contentType: 'text/plain; charset=utf-8',
      body: `${failed.map((f) => `[-]${f.name} failed: ${f.reason}`).join('\n')}\ncheck failed\n`,
    };
  };
}

function safe(check: Check): string | undefined {
  try {
    return check();
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

function serve(what: string, address: BindAddress, routes: Record<string, Handler>, logger: Logger): Promise<RunningServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = routes[path];
    if (!route) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'Content-Type': 'text/plain; charset=utf-8', 'Allow': 'GET, HEAD' }).end('method not allowed\n');
      return;
    }
    let answer;
    try {
      answer = route();
    } catch (e) {
      answer = { status: 500, contentType: 'text/plain; charset=utf-8', body: `${e instanceof Error ? e.message : String(e)}\n` };
    }
    res.writeHead(answer.status, { 'Content-Type': answer.contentType, 'Content-Length': Buffer.byteLength(answer.body) });
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      logger.info(`serving ${what}`, { bindAddress: `${address.host ?? ''}:${port}`, paths: Object.keys(routes) });
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
