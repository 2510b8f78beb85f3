import type { MetricsRegistry } from './metrics';

/**
 * The process's own gauges under the names Prometheus' Node.js client uses (`process_*` as every
 * Prometheus client has them, `nodejs_*` for V8's heap), read at each scrape: what an operator
 * watches against the pod's memory limit, and what the controller benchmark reports.
 */
export function registerProcessMetrics(registry: MetricsRegistry, startTimeMs: number = Date.now() - process.uptime() * 1000): void {
  registry.gauge('process_resident_memory_bytes', 'Resident memory size in bytes').setFunction({}, () => process.memoryUsage.rss());
  registry.gauge('process_start_time_seconds', 'Start time of the process since unix epoch in seconds').setFunction({}, () => Math.round(startTimeMs / 1000));
  registry.gauge('nodejs_heap_size_used_bytes', 'Process heap size used from Node.js in bytes').setFunction({}, () => process.memoryUsage().heapUsed);
  registry.gauge('nodejs_heap_size_total_bytes', 'Process heap size from Node.js in bytes').setFunction({}, () => process.memoryUsage().heapTotal);
  registry.gauge('nodejs_external_memory_bytes', 'Node.js external memory size in bytes').setFunction({}, () => process.memoryUsage().external);
}
