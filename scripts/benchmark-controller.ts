/**
 * Benchmark of the status controller on a real API server (not a timed test):
 *
 *   npx projen bench:controller            # compiles, then runs this script
 *   BENCH_DEPLOYMENTS=5000 BENCH_CHANGES=1000 npx ts-node --project test/tsconfig.json scripts/benchmark-controller.ts
 *   BENCH_CONTROLLER_NODE_OPTIONS='--max-old-space-size=256' ...   # Node flags of the controller process
 *                                            # (default: the NODE_OPTIONS the construct's pod sets)
 *
 * Starts the envtest control plane (test/envtest: etcd + kube-apiserver on 127.0.0.1), installs
 * the ModelDeployment CRD, creates N rendered vLLM deployments (the record and its Deployment, as
 * the library synthesizes them), then runs the controller as users do — the compiled
 * `bin/cdk8s-inference controller` in its own process — and prints:
 *
 * - initial sync: time until every record has a status, and reconciles per second;
 * - latency from an upstream status change (a Deployment's /status patched to Available) to the
 *   record's status showing it, seen on a watch of the records: p50, p99, max over M changes made
 *   a few at a time (BENCH_IN_FLIGHT, 4), then over M more made one at a time;
 * - status patches per change (must be 1) and per unchanged resync (must be 0), from the
 *   controller's own `cdk8s_inference_status_patches_total`, and reconciles per change;
 * - reconciles per second over a full resync of every record;
 * - the controller process's peak RSS (VmHWM), and its RSS (anonymous and file-backed) at each
 *   stage: after start-up (modules loaded, before the caches filled), after the initial sync, after
 *   the changes and after the resync, with the stage in which the peak was reached.
 *
 * BENCH_CONTROLLER_ARGS='--max-concurrent-reconciles=4' adds flags to the controller's command line.
 *
 * BENCH_CONTROLLER_ROOT=DIR runs `DIR/bin/cdk8s-inference` (a package root with its own compiled
 * lib/, e.g. another build to compare) instead of this checkout's.
 *
 * BENCH_HEAP_SNAPSHOT=DIR writes a V8 heap snapshot of the controller to DIR at the end (after
 * every figure was taken: writing one costs about the heap's size again), for Chrome DevTools.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { EngineType, ModelDeployment, ModelDeploymentController } from '../src';
import { modelDeploymentCrd } from '../src/controller-contract/crds';
import { ControlPlane, freePorts } from '../test/envtest/control-plane';
import { KubeClient, KubeObject } from '../test/envtest/kube-client';

const DEPLOYMENTS = Number(process.env.BENCH_DEPLOYMENTS ?? 5000);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 1000);
/**
 * Changes in flight at once in the first latency run. On a 2-core machine that also runs the API
 * server and etcd, 4 at a time already queue for CPU (measured 2026-11-26 on 1,000 deployments:
 * p50 53 ms with 4 in flight against 16 ms one at a time), so a second run makes them one at a time.
 */
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 4);
const SYNC_PERIOD_SECONDS = Number(process.env.BENCH_SYNC_PERIOD_SECONDS ?? 40);
const NAMESPACE = 'bench';
const ROOT = path.resolve(__dirname, '..');

interface Timed<T> {
  readonly value: T;
  readonly ms: number;
}

async function timed<T>(f: () => Promise<T>): Promise<Timed<T>> {
  const t0 = performance.now();
  const value = await f();
  return { value, ms: performance.now() - t0 };
}

/** NODE_OPTIONS of the controller container the construct synthesizes. */
function constructNodeOptions(): string {
  const app = new App();
  new ModelDeploymentController(new Chart(app, 'controller'), 'Controller');
  const deployment = app.charts[0].toJson().find((o: any) => o.kind === 'Deployment');
  return deployment.spec.template.spec.containers[0].env.find((e: any) => e.name === 'NODE_OPTIONS').value;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Runs `f` over `items` with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await f(items[next++]);
  }));
}

/** The records and Deployments of N vLLM deployments, as `cdk8s synth` writes them. */
function synthesizeFleet(n: number): { records: KubeObject[]; deployments: KubeObject[] } {
  const app = new App();
  const chart = new Chart(app, 'bench', { namespace: NAMESPACE });
  for (let i = 0; i < n; i++) {
    new ModelDeployment(chart, `m${i}`, {
      model: { id: `Qwen/Qwen3-${i}` },
      provider: { name: 'vllm' },
      engine: { engineType: EngineType.VLLM },
      resources: { gpu: { count: 1 } },
    });
  }
  const objects = chart.toJson() as KubeObject[];
  return {
    records: objects.filter((o) => o.apiVersion === 'airunway.ai/v1alpha1' && o.kind === 'ModelDeployment'),
    deployments: objects.filter((o) => o.kind === 'Deployment'),
  };
}

/** Scrapes the controller's /metrics and sums the samples of one metric. */
async function metric(port: number, name: string): Promise<number> {
  const text = await new Promise<string>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/metrics' }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** Whether GET `path` on the controller's health port answers 200. */
async function probe(port: number, urlPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    http.get({ host: '127.0.0.1', port, path: urlPath }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    }).on('error', () => resolve(false));
  });
}

/** A watch on the records of the namespace: calls `onEvent` for each event, until `stop()`. */
function watchRecords(cp: ControlPlane, resourceVersion: string, onEvent: (obj: any) => void): { stop(): void } {
  const url = new URL(`${cp.baseUrl}/apis/airunway.ai/v1alpha1/namespaces/${NAMESPACE}/modeldeployments`);
  url.searchParams.set('watch', 'true');
  url.searchParams.set('resourceVersion', resourceVersion);
  url.searchParams.set('allowWatchBookmarks', 'true');
  const req = https.get(url, { ca: cp.caPem, headers: { Authorization: `Bearer ${cp.adminToken}` } }, (res) => {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.trim()) onEvent(JSON.parse(line).object);
      }
    });
  });
  req.on('error', () => undefined);
  return { stop: () => req.destroy() };
}

/** A field of /proc/PID/status in MiB (VmHWM: peak RSS; VmRSS = RssAnon + RssFile + RssShmem). */
function procStatusMiB(pid: number, field: 'VmHWM' | 'VmRSS' | 'RssAnon' | 'RssFile'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/**
 * Where the process's RSS is, from /proc/PID/smaps: file-backed (the node binary and libraries),
 * malloc's main arena (`[heap]`), malloc's other arenas (glibc aligns each to 64 MiB: an anonymous
 * mapping starting on such a boundary), and the other anonymous mappings (V8's heap pages, thread
 * stacks).
 */
function rssByMapping(pid: number): string {
  const sums = { file: 0, mallocMain: 0, mallocArenas: 0, otherAnon: 0 };
  let category: keyof typeof sums = 'otherAnon';
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const name = header[2];
      const arenaAligned = BigInt(`0x${header[1]}`) % BigInt(64 * 1048576) === BigInt(0);
      category = name.startsWith('/') ? 'file' : name === '[heap]' ? 'mallocMain' : name === '' && arenaAligned ? 'mallocArenas' : 'otherAnon';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) sums[category] += Number(rss[1]) / 1024;
  }
  return `file-backed ${sums.file.toFixed(0)} MiB, malloc main arena ${sums.mallocMain.toFixed(0)} MiB, ` +
    `other malloc arenas ${sums.mallocArenas.toFixed(0)} MiB, other anonymous (V8 heap pages, stacks) ${sums.otherAnon.toFixed(0)} MiB`;
}

/**
 * The controller's RSS at the end of each stage of the run, and the stage in which its peak
 * (VmHWM) grew: polled every 100 ms, since the peak is reached between two figures.
 */
class RssTimeline {
  private readonly stages: string[] = [];
  private stage = 'start-up';
  private peak = 0;
  private peakStage = '';
  private readonly timer: NodeJS.Timeout;

  public constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.poll(), 100);
  }

  /** Ends the current stage (its RSS is recorded) and starts `next`. */
  public mark(next: string): void {
    this.poll();
    const f = (field: 'VmRSS' | 'RssAnon' | 'RssFile') => procStatusMiB(this.pid, field).toFixed(0);
    this.stages.push(`${this.stage}: RSS ${f('VmRSS')} MiB (anon ${f('RssAnon')}, file ${f('RssFile')})`);
    this.stage = next;
  }

  public stop(): void {
    clearInterval(this.timer);
  }

  public report(): string {
    return `RSS at the end of each stage: ${this.stages.join('; ')}. Peak reached during: ${this.peakStage}`;
  }

  private poll(): void {
    try {
      const hwm = procStatusMiB(this.pid, 'VmHWM');
      if (hwm > this.peak) {
        this.peak = hwm;
        this.peakStage = this.stage;
      }
    } catch {
      // the process is gone
    }
  }
}

async function waitUntil(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function run(): Promise<void> {
  const controllerRoot = path.resolve(process.env.BENCH_CONTROLLER_ROOT ?? ROOT);
  const bin = path.join(controllerRoot, 'lib', 'cli', 'main.js');
  if (!fs.existsSync(bin)) throw new Error('lib/ is missing: run `npx projen compile` first (npx projen bench:controller does)');
  console.log(`node ${process.version}, ${DEPLOYMENTS} ModelDeployments, ${CHANGES} status changes (${IN_FLIGHT} in flight)`);
  const cp = await ControlPlane.start();
  let controller: ChildProcess | undefined;
  try {
    const client: KubeClient = cp.client();
    await client.create(modelDeploymentCrd() as KubeObject);
    await waitUntil('the ModelDeployment CRD', 60_000, async () => {
      const crd: any = await client.get({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'modeldeployments.airunway.ai' });
      return (crd.status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True');
    });
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });

    const fleet = synthesizeFleet(DEPLOYMENTS);
    const created = await timed(() => pool([...fleet.records, ...fleet.deployments], 16, async (o) => {
      await client.create(o);
    }));
    console.log(`created ${fleet.records.length} records and ${fleet.deployments.length} Deployments in ${(created.ms / 1000).toFixed(1)} s`);

    const [metricsPort, healthPort] = await freePorts(2);
    const kubeconfig = cp.writeKubeconfig();
    // The Node flags the ModelDeploymentController's pod runs with, unless BENCH_CONTROLLER_NODE_OPTIONS says otherwise.
    const heapSnapshotDir = process.env.BENCH_HEAP_SNAPSHOT;
    const controllerNodeOptions = (process.env.BENCH_CONTROLLER_NODE_OPTIONS ?? constructNodeOptions()) +
      (heapSnapshotDir ? ' --heapsnapshot-signal=SIGUSR2' : '');
    console.log(`controller NODE_OPTIONS: ${JSON.stringify(controllerNodeOptions)}`);
    const started = performance.now();
    controller = spawn(process.execPath, [
      path.join(controllerRoot, 'bin', 'cdk8s-inference'), 'controller',
      '--kubeconfig', kubeconfig,
      '--namespace', NAMESPACE,
      '--metrics-bind-address', `127.0.0.1:${metricsPort}`,
      '--health-probe-bind-address', `127.0.0.1:${healthPort}`,
      '--sync-period', `${SYNC_PERIOD_SECONDS}s`,
      ...(process.env.BENCH_CONTROLLER_ARGS ?? '').split(/\s+/).filter((a) => a !== ''),
    ], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: controllerNodeOptions },
      ...(heapSnapshotDir && { cwd: heapSnapshotDir }),
    });
    const rss = new RssTimeline(controller.pid!);
    // Start-up: the modules are loaded and the caches are listing once /readyz answers at all.
    await waitUntil('the controller\'s health endpoint', 60_000, async () => probe(healthPort, '/healthz'));
    rss.mark('initial sync');
    const logs: string[] = [];
    controller.stderr!.on('data', (c) => logs.push(String(c)));
    controller.once('exit', (code) => {
      if (code !== null && code !== 0) console.error(`controller exited ${code}:\n${logs.join('').slice(-4000)}`);
    });

    const recordsRef = { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', namespace: NAMESPACE };
    await waitUntil('every record to have a status', 600_000, async () => {
      const list = await client.list<any>(recordsRef);
      return list.items.every((r) => r.status?.phase);
    });
    const syncMs = performance.now() - started;
    rss.mark('status changes');
    const initialReconciles = await metric(metricsPort, 'controller_runtime_reconcile_total');
    console.log(`initial sync: every record has a status ${(syncMs / 1000).toFixed(1)} s after the controller started ` +
      `(${initialReconciles} reconciles, ${(initialReconciles / (syncMs / 1000)).toFixed(0)} reconciles/s including start-up)`);

    // Latency: patch a Deployment's status to Available, wait for its record to say Running.
    const list = await client.list<any>(recordsRef);
    const waiting = new Map<string, (t: number) => void>();
    const watch = watchRecords(cp, list.metadata.resourceVersion, (obj) => {
      if (obj?.status?.phase === 'Running') waiting.get(obj.metadata.name)?.(performance.now());
    });
    const patchesBefore = await metric(metricsPort, 'cdk8s_inference_status_patches_total');
    const reconcilesBeforeChanges = await metric(metricsPort, 'controller_runtime_reconcile_total');
    /** Patches each named Deployment's status to Available, `inFlight` at a time; the latencies, sorted. */
    const measure = async (names: string[], inFlight: number): Promise<number[]> => {
      const latencies: number[] = [];
      await pool(names, inFlight, async (name) => {
        const seen = new Promise<number>((resolve) => waiting.set(name, resolve));
        const t0 = performance.now();
        await client.patchStatus({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: NAMESPACE, name }, {
          status: { replicas: 1, readyReplicas: 1, availableReplicas: 1, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'ok' }] },
        }, 'merge');
        const t1 = await Promise.race([seen, new Promise<number>((_, reject) => setTimeout(() => reject(new Error(`no Running status for ${name} within 30 s`)), 30_000))]);
        waiting.delete(name);
        latencies.push(t1 - t0);
      });
      return latencies.sort((a, b) => a - b);
    };
    const summary = (latencies: number[]) => `p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms`;
    const names = fleet.deployments.map((d) => d.metadata!.name as string);
    const latencies = await measure(names.slice(0, CHANGES), IN_FLIGHT);
    console.log(`change -> status latency over ${latencies.length} changes, ${IN_FLIGHT} in flight: ${summary(latencies)}`);
    // The same one change at a time (on other Deployments, when there are enough): with several in
    // flight on a small machine running the API server, etcd and the controller, the figure above
    // includes the wait for CPU; this one is the latency of one change alone.
    let changes = CHANGES;
    if (IN_FLIGHT > 1 && DEPLOYMENTS >= 2 * CHANGES) {
      const alone = await measure(names.slice(CHANGES, 2 * CHANGES), 1);
      console.log(`change -> status latency over ${alone.length} changes, one at a time: ${summary(alone)}`);
      changes += CHANGES;
    }
    watch.stop();
    // Let the controller's own echo reconciles (its patch comes back as a watch event) settle.
    await new Promise((r) => setTimeout(r, 2000));
    const patchesAfterChanges = await metric(metricsPort, 'cdk8s_inference_status_patches_total');
    console.log(`status patches per change: ${((patchesAfterChanges - patchesBefore) / changes).toFixed(3)} (${patchesAfterChanges - patchesBefore} for ${changes})`);
    // Includes a periodic resync (every record once more) when one fell in this window.
    const reconcilesDuringChanges = (await metric(metricsPort, 'controller_runtime_reconcile_total')) - reconcilesBeforeChanges;
    const perChange = (n: number) => `${(n / changes).toFixed(2)} per change`;
    // Only a resync reconciles as many records as the fleet holds: past that, one may have fallen in.
    const maybeResync = reconcilesDuringChanges >= DEPLOYMENTS ? `, or ${perChange(reconcilesDuringChanges - DEPLOYMENTS)} if a periodic resync fell in` : '';
    console.log(`reconciles during the changes: ${reconcilesDuringChanges} for ${changes} changes (${perChange(reconcilesDuringChanges)}${maybeResync})`);

    rss.mark('unchanged resync');
    // An unchanged resync: every record is reconciled again and nothing is written.
    const reconcilesBefore = await metric(metricsPort, 'controller_runtime_reconcile_total');
    const resyncStart = performance.now();
    await waitUntil('a full resync', (SYNC_PERIOD_SECONDS + 120) * 1000, async () =>
      (await metric(metricsPort, 'controller_runtime_reconcile_total')) - reconcilesBefore >= DEPLOYMENTS);
    const resyncMs = performance.now() - resyncStart;
    await new Promise((r) => setTimeout(r, 2000));
    const reconcilesAfter = await metric(metricsPort, 'controller_runtime_reconcile_total');
    const patchesAfterResync = await metric(metricsPort, 'cdk8s_inference_status_patches_total');
    const reconcileSeconds = await metric(metricsPort, 'controller_runtime_reconcile_time_seconds_sum');
    const reconcileCount = await metric(metricsPort, 'controller_runtime_reconcile_time_seconds_count');
    console.log(`unchanged resync: ${reconcilesAfter - reconcilesBefore} reconciles, ${patchesAfterResync - patchesAfterChanges} status patches ` +
      `(resync reached after ${(resyncMs / 1000).toFixed(1)} s, sync period ${SYNC_PERIOD_SECONDS} s)`);
    console.log(`reconcile time: mean ${((reconcileSeconds / reconcileCount) * 1000).toFixed(2)} ms over ${reconcileCount} reconciles ` +
      `(${(reconcileCount / reconcileSeconds).toFixed(0)} reconciles/s of work per worker)`);
    rss.mark('end');
    rss.stop();
    const mib = async (name: string) => ((await metric(metricsPort, name)) / 1048576).toFixed(0);
    console.log(`controller peak RSS: ${procStatusMiB(controller.pid!, 'VmHWM').toFixed(0)} MiB ` +
      `(now: RSS ${await mib('process_resident_memory_bytes')} MiB, V8 heap used ${await mib('nodejs_heap_size_used_bytes')} MiB ` +
      `of ${await mib('nodejs_heap_size_total_bytes')} MiB, external ${await mib('nodejs_external_memory_bytes')} MiB)`);
    console.log(rss.report());
    console.log(`RSS by mapping now: ${rssByMapping(controller.pid!)}`);
    if (heapSnapshotDir) {
      const before = new Set(fs.readdirSync(heapSnapshotDir));
      controller.kill('SIGUSR2');
      await waitUntil('the heap snapshot', 300_000, async () => {
        const file = fs.readdirSync(heapSnapshotDir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
        // Written once the process closed it: its size stops growing.
        if (!file) return false;
        const size = fs.statSync(path.join(heapSnapshotDir, file)).size;
        await new Promise((r) => setTimeout(r, 2000));
        return size > 0 && fs.statSync(path.join(heapSnapshotDir, file)).size === size;
      });
      console.log(`heap snapshot written to ${heapSnapshotDir}`);
    }
  } finally {
    if (controller && controller.exitCode === null) {
      controller.kill('SIGTERM');
      await new Promise((r) => controller!.once('exit', r));
    }
    await cp.stop();
  }
}

run().then(
  () => process.exit(0),
  (e) => {
    console.error(`benchmark failed: ${(e as Error).message}`);
    process.exit(1);
  },
);
