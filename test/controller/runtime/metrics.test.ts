import { FakeClock } from './support/fake-clock';
import { ControllerMetrics, WORKQUEUE_DURATION_BUCKETS } from '../../../src/controller/runtime/controller-metrics';
import { exponentialBuckets, formatNumber, MetricsRegistry } from '../../../src/controller/runtime/metrics';
import { ItemExponentialFailureRateLimiter } from '../../../src/controller/runtime/rate-limiter';
import { WorkQueue } from '../../../src/controller/runtime/work-queue';

describe('Prometheus text exposition', () => {
  test('counters, gauges and histograms with HELP, TYPE and labels, in name order', () => {
    const r = new MetricsRegistry();
    const c = r.counter('b_total', 'A counter.', ['controller', 'result']);
    const g = r.gauge('a_gauge', 'A gauge\nwith two lines \\ and a backslash.', ['name']);
    const h = r.histogram('c_seconds', 'A histogram.', ['controller'], [0.1, 1]);
    c.inc({ controller: 'x', result: 'success' });
    c.inc({ controller: 'x', result: 'success' }, 2);
    c.init({ controller: 'x', result: 'error' });
    g.set({ name: 'we"ird\\name\n' }, 1.5);
    h.observe({ controller: 'x' }, 0.05);
    h.observe({ controller: 'x' }, 0.5);
    h.observe({ controller: 'x' }, 7);
    expect(r.expose()).toBe(
      [
        '# HELP a_gauge A gauge\\nwith two lines \\\\ and a backslash.',
        '# TYPE a_gauge gauge',
        'a_gauge{name="we\\"ird\\\\name\\n"} 1.5',
        '# HELP b_total A counter.',
        '# TYPE b_total counter',
        'b_total{controller="x",result="success"} 3',
        'b_total{controller="x",result="error"} 0',
        '# HELP c_seconds A histogram.',
        '# TYPE c_seconds histogram',
        'c_seconds_bucket{controller="x",le="0.1"} 1',
        'c_seconds_bucket{controller="x",le="1"} 2',
        'c_seconds_bucket{controller="x",le="+Inf"} 3',
        'c_seconds_sum{controller="x"} 7.55',
        'c_seconds_count{controller="x"} 3',
        '',
      ].join('\n'),
    );
  });

  test('label order follows the declaration, whatever the call order', () => {
    const r = new MetricsRegistry();
    r.counter('x_total', 'x', ['a', 'b']).inc({ b: '2', a: '1' });
    expect(r.expose()).toContain('x_total{a="1",b="2"} 1');
  });

  test('fails when a label is missing, unknown, or a counter decreases', () => {
    const r = new MetricsRegistry();
    const c = r.counter('x_total', 'x', ['a']);
    expect(() => c.inc({})).toThrow(/needs label "a"/);
    expect(() => c.inc({ a: '1', b: '2' })).toThrow(/has no label "b"/);
    expect(() => c.inc({ a: '1' }, -1)).toThrow(/cannot decrease/);
    expect(() => r.counter('x_total', 'again')).toThrow(/already registered/);
    expect(() => r.gauge('bad-name', 'x')).toThrow(/invalid metric name/);
  });

  test('gauges can be computed at scrape time', () => {
    const r = new MetricsRegistry();
    let v = 1;
    r.gauge('g', 'g').setFunction({}, () => v);
    expect(r.expose()).toContain('\ng 1\n');
    v = 42;
    expect(r.expose()).toContain('\ng 42\n');
  });

  test('numbers print as Go prints them (strconv.FormatFloat g -1)', () => {
    expect(['0', '1', '0.5', '1e-08', '9.999999999999999e-06', '0.0001', '1e+21', '+Inf', 'NaN', '123456']).toEqual(
      [0, 1, 0.5, 1e-8, 9.999999999999999e-6, 0.0001, 1e21, Infinity, NaN, 123456].map(formatNumber),
    );
  });

  test("workqueue buckets are client_golang's ExponentialBuckets(10e-9, 10, 12), bounds as controller-runtime prints them", () => {
    expect(WORKQUEUE_DURATION_BUCKETS).toEqual(exponentialBuckets(10e-9, 10, 12));
    expect(WORKQUEUE_DURATION_BUCKETS.map(formatNumber)).toEqual([
      '1e-08', '1e-07', '1e-06', '9.999999999999999e-06', '9.999999999999999e-05', '0.001', '0.01', '0.1', '1', '10', '100', '1000',
    ]);
  });
});

describe('ControllerMetrics', () => {
  test("exposes controller-runtime's, the workqueue's and leader election's metric names", () => {
    const r = new MetricsRegistry();
    const m = new ControllerMetrics(r, 'modeldeployment-status');
    const clock = new FakeClock();
    const q = new WorkQueue({ clock, rateLimiter: new ItemExponentialFailureRateLimiter(5, 1000), metrics: m.workQueueMetrics() });
    m.observeQueue(q);
    m.leaderElectionMasterStatus.set({ name: 'cdk8s-inference-controller' }, 1);
    m.maxConcurrentReconciles.set({ controller: 'modeldeployment-status' }, 1);
    q.add('ns/a');
    m.reconciled('success', 0.02);
    m.reconciled('error', 0.3);
    m.statusPatches.inc({ controller: 'modeldeployment-status' });
    const text = r.expose();
    const names = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((x) => `${x[1]} ${x[2]}`);
    expect(names).toEqual([
      'cdk8s_inference_status_patches_total counter',
      'controller_runtime_active_workers gauge',
      'controller_runtime_max_concurrent_reconciles gauge',
      'controller_runtime_reconcile_errors_total counter',
      'controller_runtime_reconcile_time_seconds histogram',
      'controller_runtime_reconcile_total counter',
      'leader_election_master_status gauge',
      'workqueue_adds_total counter',
      'workqueue_depth gauge',
      'workqueue_longest_running_processor_seconds gauge',
      'workqueue_queue_duration_seconds histogram',
      'workqueue_retries_total counter',
      'workqueue_unfinished_work_seconds gauge',
      'workqueue_work_duration_seconds histogram',
    ]);
    const c = 'controller="modeldeployment-status"';
    for (const line of [
      `controller_runtime_reconcile_total{${c},result="success"} 1`,
      `controller_runtime_reconcile_total{${c},result="error"} 1`,
      `controller_runtime_reconcile_total{${c},result="requeue"} 0`,
      `controller_runtime_reconcile_total{${c},result="requeue_after"} 0`,
      `controller_runtime_reconcile_errors_total{${c}} 1`,
      `controller_runtime_reconcile_time_seconds_bucket{${c},le="0.025"} 1`,
      `controller_runtime_reconcile_time_seconds_count{${c}} 2`,
      `controller_runtime_active_workers{${c}} 0`,
      `controller_runtime_max_concurrent_reconciles{${c}} 1`,
      `workqueue_depth{name="modeldeployment-status",${c}} 1`,
      `workqueue_adds_total{name="modeldeployment-status",${c}} 1`,
      `workqueue_retries_total{name="modeldeployment-status",${c}} 0`,
      `workqueue_unfinished_work_seconds{name="modeldeployment-status",${c}} 0`,
      'leader_election_master_status{name="cdk8s-inference-controller"} 1',
      `cdk8s_inference_status_patches_total{${c}} 1`,
    ]) {
      expect(text.split('\n')).toContain(line);
    }
  });
});
