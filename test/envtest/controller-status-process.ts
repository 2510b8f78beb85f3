/**
 * The status controller as a real, separate process for the envtest tests: `cdk8s-inference
 * controller` run from the sources (controller-status-launcher.ts, transpiled by test/support/register-ts-cached.js), with a
 * kubeconfig of the test control plane, /metrics and the health probes on free loopback ports,
 * and its JSON log lines (stderr) captured for assertions and failure messages.
 *
 *   const ctl = await ControllerProcess.start({ kubeconfig, args: ['--namespace', 'ml'] });
 *   await ctl.waitReady();
 *   await ctl.metric('cdk8s_inference_status_patches_total');   // from GET /metrics
 *   ctl.logsMatching(/record changed/);                          // parsed JSON log lines
 *   await ctl.stop();                                            // SIGTERM, then SIGKILL
 *
 * Every process started is killed (SIGKILL) when the test process exits, so a failed test never
 * leaves one behind; tests stop them in afterEach/afterAll by their own handle (pid).
 */
import { ChildProcess, spawn } from 'child_process';
import * as http from 'http';
import * as path from 'path';
import { Condition, waitFor } from './kube-client';

const REPO = path.resolve(__dirname, '..', '..');
const LAUNCHER = path.join(__dirname, 'controller-status-launcher.ts');
/** Runs the sources with their transpiled JavaScript cached between processes (see the file). */
const REGISTER_TS = path.join(REPO, 'test', 'support', 'register-ts-cached.js');

/** One JSON log line of the controller (`ts`, `level`, `msg`, fields), or the raw text of another line. */
export interface LogLine {
  readonly ts?: string;
  readonly level?: string;
  readonly msg?: string;
  readonly [field: string]: unknown;
}

export interface ControllerStartOptions {
  /** kubeconfig file for `--kubeconfig`. */
  readonly kubeconfig: string;
  /** Further flags (`--namespace`, `--sync-period`, `--leader-elect`, ...). */
  readonly args?: readonly string[];
  /** A name for failure messages. @default 'controller' */
  readonly name?: string;
}

/** How a process ended. */
export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Metric samples from /metrics: `name{labels}` (labels as exposed) → value. */
export type MetricSamples = Map<string, number>;

const live = new Set<ControllerProcess>();
process.on('exit', () => {
  for (const p of live) p.killNow();
});

export class ControllerProcess {
  /** Spawns the controller; resolves once the process is running (not yet ready: see `waitReady`). */
  static async start(options: ControllerStartOptions): Promise<ControllerProcess> {
    // Port 0: the controller binds free ports itself and logs them (`serving metrics`, `serving
    // health probes`). Ports picked here and handed over could be taken by a parallel test first.
    const args = [
      '-r', REGISTER_TS,
      LAUNCHER,
      'controller',
      '--kubeconfig', options.kubeconfig,
      '--metrics-bind-address', '127.0.0.1:0',
      '--health-probe-bind-address', '127.0.0.1:0',
      ...(options.args ?? []),
    ];
    const child = spawn(process.execPath, args, {
      cwd: REPO,
      env: { ...process.env, POD_NAMESPACE: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const p = new ControllerProcess(options.name ?? 'controller', child, args);
    live.add(p);
    return p;
  }

  /** Every line written to stderr and stdout, parsed when JSON. */
  readonly lines: LogLine[] = [];
  /** When the process was spawned (ms). */
  readonly startedAt = Date.now();
  private exitInfo?: ProcessExit;
  private readonly exited: Promise<ProcessExit>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly args: readonly string[],
  ) {
    for (const stream of [child.stdout!, child.stderr!]) {
      let buffered = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        buffered += chunk;
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          this.addLine(buffered.slice(0, nl));
          buffered = buffered.slice(nl + 1);
        }
      });
      stream.on('end', () => {
        if (buffered) this.addLine(buffered);
        buffered = '';
      });
    }
    this.exited = new Promise((resolve) => {
      child.on('error', (e) => {
        this.lines.push({ msg: `(spawn failed: ${e.message})` });
        this.exitInfo ??= { code: -1, signal: null };
        live.delete(this);
        resolve(this.exitInfo);
      });
      child.on('exit', (code, signal) => {
        this.exitInfo ??= { code, signal };
        live.delete(this);
        resolve(this.exitInfo);
      });
    });
  }

  private addLine(text: string): void {
    if (!text.trim()) return;
    try {
      const parsed = JSON.parse(text);
      this.lines.push(parsed && typeof parsed === 'object' ? parsed : { msg: text, raw: true });
    } catch {
      this.lines.push({ msg: text, raw: true });
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** How the process ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  /** The leader election identity it logged at start (`starting controller`, with --leader-elect). */
  get identity(): string | undefined {
    const line = this.lines.find((l) => l.msg === 'starting controller');
    return typeof line?.identity === 'string' ? line.identity : undefined;
  }

  /** Log lines whose `msg` matches. */
  logsMatching(msg: RegExp | string): LogLine[] {
    return this.lines.filter((l) => typeof l.msg === 'string' && (typeof msg === 'string' ? l.msg === msg : msg.test(l.msg)));
  }

  /** The last `n` log lines as text, for failure messages. */
  logTail(n = 60): string {
    const lines = this.lines.slice(-n).map((l) => (l.raw ? String(l.msg) : JSON.stringify(l)));
    return `--- ${this.name} (pid ${this.pid}${this.exitInfo ? `, exited ${JSON.stringify(this.exitInfo)}` : ''}), last ${lines.length} of ${this.lines.length} log lines:\n${lines.join('\n')}`;
  }

  /** The port of the metrics server, as the controller logged it; throws until it has. */
  get metricsPort(): number {
    return this.loggedPort('serving metrics');
  }

  /** The port of the health probe server, as the controller logged it; throws until it has. */
  get probePort(): number {
    return this.loggedPort('serving health probes');
  }

  private loggedPort(msg: string): number {
    const line = this.lines.find((l) => l.msg === msg);
    const port = Number(/:(\d+)$/.exec(String(line?.bindAddress ?? ''))?.[1]);
    if (!port) throw new Error(`${this.name} has not logged "${msg}" with its address yet`);
    return port;
  }

  /** GET on the metrics or probe server: status and body. */
  async get(server: 'metrics' | 'probes', urlPath: string): Promise<{ status: number; body: string }> {
    return httpGet(`http://127.0.0.1:${server === 'metrics' ? this.metricsPort : this.probePort}${urlPath}`);
  }

  /** Every sample of /metrics. */
  async metrics(): Promise<MetricSamples> {
    const r = await this.get('metrics', '/metrics');
    if (r.status !== 200) throw new Error(`${this.name}: /metrics answered ${r.status}: ${r.body}`);
    return parseMetrics(r.body);
  }

  /**
   * The value of a metric: the sum of its samples whose labels include `labels` (so a counter with
   * one label set reads as its value). 0 when there is no such sample.
   */
  async metric(name: string, labels: Record<string, string> = {}): Promise<number> {
    return sumOf(await this.metrics(), name, labels);
  }

  /** Waits until /readyz answers 200 (caches synced, or a standby started). */
  async waitReady(timeoutMs = 60_000): Promise<void> {
    await this.waitUntil(async () => {
      if (this.exitInfo) return true; // reported below, at once rather than at the timeout
      const r = await this.get('probes', '/readyz');
      return r.status === 200;
    }, timeoutMs, '/readyz to answer 200');
    if (this.exitInfo) throw new Error(`${this.name} exited before it was ready: ${JSON.stringify(this.exitInfo)}\n${this.logTail()}`);
  }

  /** `waitFor`, with this process's log tail in the timeout error. */
  async waitUntil<T>(condition: Condition<T>, timeoutMs: number, what: string, intervalMs = 100): Promise<T> {
    try {
      return await waitFor(condition, timeoutMs, what, intervalMs);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${this.logTail()}`);
    }
  }

  /** Sends a signal. */
  signal(signal: NodeJS.Signals): void {
    if (!this.exitInfo) this.child.kill(signal);
  }

  /** Resolves when the process exited (rejects after `timeoutMs`). */
  async waitExit(timeoutMs = 30_000): Promise<ProcessExit> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        this.exited,
        new Promise<ProcessExit>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`${this.name} did not exit within ${timeoutMs} ms\n${this.logTail()}`)), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves with how it ended. Idempotent. */
  async stop(graceMs = 10_000): Promise<ProcessExit> {
    if (this.exitInfo) return this.exitInfo;
    this.child.kill('SIGTERM');
    try {
      return await this.waitExit(graceMs);
    } catch {
      this.child.kill('SIGKILL');
      return this.exited;
    }
  }

  /** SIGKILL now (process exit handler). */
  killNow(): void {
    if (!this.exitInfo) this.child.kill('SIGKILL');
  }
}

/** Parses the Prometheus text exposition format (comments skipped). */
export function parseMetrics(text: string): MetricSamples {
  const out: MetricSamples = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{.*\})?)\s+(\S+)/.exec(line);
    if (m) out.set(m[1], Number(m[2]));
  }
  return out;
}

/** The sum of the samples of `name` whose labels include `labels`. */
export function sumOf(samples: MetricSamples, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const [key, value] of samples) {
    const brace = key.indexOf('{');
    const sampleName = brace < 0 ? key : key.slice(0, brace);
    if (sampleName !== name) continue;
    const sampleLabels = brace < 0 ? '' : key.slice(brace);
    if (Object.entries(labels).every(([k, v]) => sampleLabels.includes(`${k}="${v}"`))) total += value;
  }
  return total;
}

function httpGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: 5000, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url}: no answer within 5000 ms`)));
    req.on('error', reject);
  });
}
