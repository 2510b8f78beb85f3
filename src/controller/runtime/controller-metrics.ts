import { Counter, exponentialBuckets, Gauge, Histogram, MetricsRegistry } from './metrics';
import type { WorkQueue, WorkQueueMetrics } from './work-queue';

/** controller-runtime's `controller_runtime_reconcile_time_seconds` buckets. */
export const RECONCILE_TIME_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
  1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

/** controller-runtime's workqueue latency buckets: `ExponentialBuckets(10e-9, 10, 12)`. */
export const WORKQUEUE_DURATION_BUCKETS = exponentialBuckets(10e-9, 10, 12);

/** The outcome of one reconcile, as `controller_runtime_reconcile_total{result}` counts it. */
export type ReconcileResult = 'success' | 'error' | 'requeue' | 'requeue_after';

/**
 * The metrics of the controller under the names controller-runtime, client-go's workqueue and
 * leader election use (so existing dashboards and alerts work), plus our status-patch counter.
 */
export class ControllerMetrics {
  public readonly reconcileTotal: Counter;
  public readonly reconcileErrors: Counter;
  public readonly reconcileTime: Histogram;
  public readonly activeWorkers: Gauge;
  public readonly maxConcurrentReconciles: Gauge;
  public readonly workqueueDepth: Gauge;
  public readonly workqueueAdds: Counter;
  public readonly workqueueQueueDuration: Histogram;
  public readonly workqueueWorkDuration: Histogram;
  public readonly workqueueRetries: Counter;
  public readonly workqueueUnfinishedWork: Gauge;
  public readonly workqueueLongestRunningProcessor: Gauge;
  public readonly leaderElectionMasterStatus: Gauge;
  public readonly statusPatches: Counter;

  public constructor(public readonly registry: MetricsRegistry, public readonly controller: string) {
    const r = registry;
    this.reconcileTotal = r.counter('controller_runtime_reconcile_total', 'Total number of reconciliations per controller', ['controller', 'result']);
    this.reconcileErrors = r.counter('controller_runtime_reconcile_errors_total', 'Total number of reconciliation errors per controller', ['controller']);
    this.reconcileTime = r.histogram('controller_runtime_reconcile_time_seconds', 'Length of time per reconciliation per controller', ['controller'], RECONCILE_TIME_BUCKETS);
    this.activeWorkers = r.gauge('controller_runtime_active_workers', 'Number of currently used workers per controller', ['controller']);
    this.maxConcurrentReconciles = r.gauge('controller_runtime_max_concurrent_reconciles', 'Maximum number of concurrent reconciles per controller', ['controller']);
    const wq = ['name', 'controller'];
    this.workqueueDepth = r.gauge('workqueue_depth', 'Current depth of workqueue', wq);
    this.workqueueAdds = r.counter('workqueue_adds_total', 'Total number of adds handled by workqueue', wq);
    this.workqueueQueueDuration = r.histogram('workqueue_queue_duration_seconds', 'How long in seconds an item stays in workqueue before being requested', wq, WORKQUEUE_DURATION_BUCKETS);
    this.workqueueWorkDuration = r.histogram('workqueue_work_duration_seconds', 'How long in seconds processing an item from workqueue takes.', wq, WORKQUEUE_DURATION_BUCKETS);
    this.workqueueRetries = r.counter('workqueue_retries_total', 'Total number of retries handled by workqueue', wq);
    this.workqueueUnfinishedWork = r.gauge(
      'workqueue_unfinished_work_seconds',
      "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
      wq,
    );
    this.workqueueLongestRunningProcessor = r.gauge('workqueue_longest_running_processor_seconds', 'How many seconds has the longest running processor for workqueue been running.', wq);
    this.leaderElectionMasterStatus = r.gauge(
      'leader_election_master_status',
      'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. \'name\' is the string used to identify the lease. Please make sure to group by name.',
      ['name'],
    );
    this.statusPatches = r.counter('cdk8s_inference_status_patches_total', 'Total number of ModelDeployment status patches written, per controller', ['controller']);

    const c = { controller };
    for (const result of ['success', 'error', 'requeue', 'requeue_after'] as const) this.reconcileTotal.init({ ...c, result });
    this.reconcileErrors.init(c);
    this.reconcileTime.init(c);
    this.activeWorkers.set(c, 0);
    this.statusPatches.init(c);
  }

  private get queueLabels() {
    return { name: this.controller, controller: this.controller };
  }

  /** Hooks for the controller's work queue, and its depth and in-flight gauges read at scrape time. */
  public workQueueMetrics(): WorkQueueMetrics {
    const l = this.queueLabels;
    this.workqueueAdds.init(l);
    this.workqueueRetries.init(l);
    this.workqueueQueueDuration.init(l);
    this.workqueueWorkDuration.init(l);
    return {
      added: () => this.workqueueAdds.inc(l),
      queueLatency: (s) => this.workqueueQueueDuration.observe(l, s),
      workDuration: (s) => this.workqueueWorkDuration.observe(l, s),
      retried: () => this.workqueueRetries.inc(l),
    };
  }

  /** Reads the queue's depth and in-flight times at every scrape. */
  public observeQueue(queue: WorkQueue): void {
    const l = this.queueLabels;
    this.workqueueDepth.setFunction(l, () => queue.depth);
    this.workqueueUnfinishedWork.setFunction(l, () => queue.unfinishedWorkSeconds());
    this.workqueueLongestRunningProcessor.setFunction(l, () => queue.longestRunningProcessorSeconds());
  }

  /** Records one reconcile. */
  public reconciled(result: ReconcileResult, seconds: number): void {
    const c = { controller: this.controller };
    this.reconcileTotal.inc({ ...c, result });
    if (result === 'error') this.reconcileErrors.inc(c);
    this.reconcileTime.observe(c, seconds);
  }
}
