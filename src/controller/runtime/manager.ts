import { Clock, sleep } from './clock';
import { ControllerMetrics } from './controller-metrics';
import { EventRecorder } from './event-recorder';
import { RunningServer, serveMetrics, serveProbes } from './http-endpoints';
import type { KubeApi, ResourceKind } from './kube-api';
import { LeaderElector } from './leader-election';
import { errorText, Logger } from './logger';
import { MetricsRegistry } from './metrics';
import type { InformerTuning } from './object-cache';
import type { ControllerOptions } from './options';
import { OwnerReferenceSetter } from './owner-reference-setter';
import { registerProcessMetrics } from './process-metrics';
import type { RateLimiter } from './rate-limiter';
import type { ComputeStatus } from './record-reconciler';
import { StatusController } from './status-controller';
import type { WatchedKind } from './watched-kinds';

/** The controller's name in logs and metrics (controller-runtime names controllers after their kind). */
export const CONTROLLER_NAME = 'modeldeployment-status';

/** `source.component` of the Events the controller records. */
export const EVENT_SOURCE = 'cdk8s-inference-controller';

export interface ManagerOptions {
  readonly options: ControllerOptions;
  readonly api: KubeApi;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly computeStatus: ComputeStatus;
  readonly isRendered: (record: any) => boolean;
  readonly dependencyKinds: readonly WatchedKind[];
  readonly resolveKind?: (apiVersion: string, kind: string) => WatchedKind | undefined;
  /** How to address a kind a record lists as rendered (for `--set-owner-references`). */
  readonly resolveRenderedKind?: (apiVersion: string, kind: string) => ResourceKind | undefined;
  /** This process's leader election identity. */
  readonly identity: string;
  /** Namespace of the Lease (the flag, or where the pod runs). */
  readonly leaderElectionNamespace: string;
  /** How long the leader may take to sync its caches before it gives up (exit 1). @default 120_000 */
  readonly cacheSyncTimeoutMs?: number;
  readonly registry?: MetricsRegistry;
  readonly rateLimiter?: RateLimiter;
  readonly informerTuning?: InformerTuning;
  readonly random?: () => number;
}

/**
 * The controller process, like controller-runtime's manager: serves metrics and health probes,
 * keeps the caches warm, campaigns for the Lease when leader election is on, and runs the workers
 * only while leading.
 *
 * `run()` resolves with the exit code: 0 after `shutdown()` (SIGTERM/SIGINT) — informers stopped,
 * running reconciles finished (bounded by the graceful shutdown timeout), the Lease released, the
 * servers closed — and 1 when the Lease was lost (writes stop at once; the Deployment restarts the
 * pod, which campaigns again) or the caches could not sync.
 */
export class Manager {
  public readonly registry: MetricsRegistry;
  public readonly metrics: ControllerMetrics;
  public readonly controller: StatusController;
  public readonly elector?: LeaderElector;
  public readonly events: EventRecorder;
  private readonly servers: RunningServer[] = [];
  private started = false;
  private readonly stopSignal = new AbortController();
  private exit?: (code: number, reason: string) => void;
  private exitCode?: Promise<number>;
  private readonly log: Logger;

  public constructor(private readonly m: ManagerOptions) {
    this.log = m.logger;
    this.registry = m.registry ?? new MetricsRegistry();
    registerProcessMetrics(this.registry);
    this.metrics = new ControllerMetrics(this.registry, CONTROLLER_NAME);
    const o = m.options;
    const leaseName = o.leaderElectionId;
    if (o.leaderElect) {
      this.elector = new LeaderElector({
        api: m.api,
        clock: m.clock,
        logger: m.logger.with({ component: 'leader-election' }),
        namespace: m.leaderElectionNamespace,
        name: leaseName,
        identity: m.identity,
        leaseDurationMs: o.leaseDurationMs,
        renewDeadlineMs: o.renewDeadlineMs,
        retryPeriodMs: o.retryPeriodMs,
        random: m.random,
        onStartedLeading: () => void this.startWorkers(),
        onStoppedLeading: () => this.exit?.(1, 'leader election lost'),
        onLeadingChanged: (leading) => this.metrics.leaderElectionMasterStatus.set({ name: leaseName }, leading ? 1 : 0),
      });
      this.metrics.leaderElectionMasterStatus.set({ name: leaseName }, 0);
    } else {
      // Without leader election this process acts as the only leader.
      this.metrics.leaderElectionMasterStatus.set({ name: leaseName }, 1);
    }
    this.events = new EventRecorder({ api: m.api, clock: m.clock, logger: m.logger, component: EVENT_SOURCE, instance: m.identity });
    const ownerReferences = o.setOwnerReferences
      ? new OwnerReferenceSetter({ api: m.api, logger: m.logger, resolveKind: m.resolveRenderedKind ?? (() => undefined) })
      : undefined;
    this.controller = new StatusController({
      name: CONTROLLER_NAME,
      api: m.api,
      clock: m.clock,
      logger: m.logger,
      metrics: this.metrics,
      computeStatus: m.computeStatus,
      isRendered: m.isRendered,
      dependencyKinds: m.dependencyKinds,
      resolveKind: m.resolveKind,
      namespace: o.namespace,
      maxConcurrentReconciles: o.maxConcurrentReconciles,
      syncPeriodMs: o.syncPeriodMs,
      rateLimiter: m.rateLimiter,
      canWrite: () => this.isLeader && !this.stopSignal.signal.aborted,
      informerTuning: m.informerTuning,
      random: m.random,
      events: this.events,
      ownerReferences,
    });
  }

  /** Whether this process reconciles (it holds the Lease, or leader election is off). */
  public get isLeader(): boolean {
    return this.elector ? this.elector.isLeader : true;
  }

  /** `/readyz`: a leader once its caches synced; a standby once started. */
  public readyProblem(): string | undefined {
    if (!this.started) return 'not started';
    if (this.elector && !this.elector.isLeader) return undefined;
    return this.controller.hasSynced ? undefined : `caches not synced: ${this.controller.cache.unsyncedKinds.join(', ')}`;
  }

  /** Ports the servers listen on, in order metrics, probes (for tests using port 0). */
  public get serverPorts(): number[] {
    return this.servers.map((s) => s.port);
  }

  /** Runs until `shutdown()` or a fatal error; resolves with the exit code. */
  public run(): Promise<number> {
    this.exitCode ??= this.lifecycle();
    return this.exitCode;
  }

  /** Starts the graceful shutdown (idempotent). */
  public shutdown(reason = 'shutdown requested'): void {
    if (this.exit) this.exit(0, reason);
    else this.stopSignal.abort();
  }

  private async lifecycle(): Promise<number> {
    const exitRequested = new Promise<{ code: number; reason: string }>((resolve) => {
      let done = false;
      this.exit = (code, reason) => {
        if (done) return;
        done = true;
        resolve({ code, reason });
      };
    });
    if (this.stopSignal.signal.aborted) this.exit!(0, 'shutdown requested before start');
    const o = this.m.options;
    try {
      if (o.metricsBindAddress) this.servers.push(await serveMetrics(o.metricsBindAddress, this.registry, this.log));
      if (o.healthProbeBindAddress) {
        const checks = { healthz: { ping: () => undefined }, readyz: { controller: () => this.readyProblem() } };
        this.servers.push(await serveProbes(o.healthProbeBindAddress, checks, this.log));
      }
    } catch (e) {
      this.log.error('cannot serve metrics or health probes', { error: errorText(e) });
      await this.closeServers();
      return 1;
    }

    this.controller.startCaches();
    this.started = true;
    if (this.elector) void this.elector.run();
    else void this.startWorkers();

    const { code, reason } = await exitRequested;
    this.stopSignal.abort();
    if (code === 0) {
      this.log.info('stopping', { reason });
      const finished = await this.controller.stop(o.gracefulShutdownTimeoutMs);
      if (!finished) this.log.error('graceful shutdown timed out; exiting with reconciles still running');
      else await this.events.flush();
      await this.elector?.stop();
    } else {
      this.log.error('stopping', { reason });
      // Nothing more is written: canWrite is false from here on; do not wait for reconciles.
      await this.controller.stop(0);
      await this.elector?.stop();
    }
    await this.closeServers();
    this.log.info('stopped', { exitCode: code });
    return code;
  }

  private async startWorkers(): Promise<void> {
    const timeout = new AbortController();
    const timedOut = sleep(this.m.clock, this.m.cacheSyncTimeoutMs ?? 120_000, timeout.signal).then(() => !timeout.signal.aborted);
    const started = this.controller.startWorkers(this.stopSignal.signal).then(() => false);
    const failed = await Promise.race([started, timedOut]);
    timeout.abort();
    if (failed) {
      this.log.error('timed out waiting for caches to sync', { kinds: this.controller.cache.unsyncedKinds });
      this.exit?.(1, 'caches did not sync');
    }
  }

  private async closeServers(): Promise<void> {
    await Promise.all(this.servers.splice(0).map((s) => s.close()));
  }
}
