import { MetricsRegistry } from '../../../src/controller/runtime/metrics';
import { registerProcessMetrics } from '../../../src/controller/runtime/process-metrics';

describe('process metrics', () => {
  test("memory and start time under Prometheus' Node.js client names, read at each scrape", () => {
    const r = new MetricsRegistry();
    registerProcessMetrics(r, Date.UTC(2026, 10, 26, 10, 0, 0));
    const sample = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(r.expose())?.[1]);
    expect(sample('process_start_time_seconds')).toBe(Date.UTC(2026, 10, 26, 10, 0, 0) / 1000);
    for (const name of ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_heap_size_total_bytes', 'nodejs_external_memory_bytes']) {
      expect({ name, positive: sample(name) > 0 }).toEqual({ name, positive: true });
    }
    const before = sample('nodejs_heap_size_used_bytes');
    const hold = new Array(1_000_000).fill(1); // ~8 MB more on the heap
    expect(sample('nodejs_heap_size_used_bytes')).toBeGreaterThan(before + 4_000_000);
    expect(hold.length).toBe(1_000_000);
  });
});
