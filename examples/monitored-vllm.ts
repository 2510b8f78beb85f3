/**
 * A model with the monitoring a platform team expects: a Prometheus Operator PodMonitor on the
 * vLLM metrics endpoint and a PrometheusRule with the serving alerts (requests queueing, KV cache
 * nearly full, error rate, no ready replica). The `release` label is what kube-prometheus-stack's
 * Prometheus selects monitors and rules by.
 */
import { App, Chart, Duration } from 'cdk8s';
import { ModelDeployment, ModelDeploymentMonitoring } from '../src';

export function build(app: App): void {
  const chart = new Chart(app, 'monitored-vllm', { namespace: 'ml' });
  const qwen = new ModelDeployment(chart, 'qwen', {
    model: { id: 'Qwen/Qwen3-0.6B' },
    provider: { name: 'vllm' },
    resources: { gpu: { count: 1 } },
  });
  new ModelDeploymentMonitoring(chart, 'qwen-monitoring', {
    deployment: qwen,
    labels: { release: 'kube-prometheus-stack' },
    scrapeInterval: Duration.seconds(15),
    kvCacheUsagePercent: 95,
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
