/**
 * A model that scales on its own load and costs no GPU when nobody calls it: Direct vLLM behind
 * the inference gateway, autoscaled by KEDA between zero and four replicas.
 *
 * - Each replica is kept at about 4 waiting requests and 85 % of its KV cache; KEDA reads both
 *   from Prometheus, which scrapes the vLLM pods through the synthesized PodMonitor.
 * - With no pod running there are no vLLM metrics, so the wake-up signal comes from in front of
 *   the pods: the Gateway's request rate for this model's route (Envoy Gateway's upstream request
 *   counter here; use your gateway's). Above 0.05 requests per second KEDA starts one replica.
 * - Ten quiet minutes before replicas are removed, and before the last one.
 *
 * The cluster needs KEDA, the Prometheus Operator (a Prometheus at the default address
 * `prometheus-operated.monitoring.svc:9090`) and a Gateway with the Inference Extension.
 */
import { App, Chart, Duration } from 'cdk8s';
import { AutoscalingMetric, gateway, GatewayRef, ModelDeployment, ProviderRegistry } from '../src';

export function build(app: App): void {
  const infra = new Chart(app, 'gateway', { namespace: 'gateway-system' });
  const gw = new gateway.Gateway(infra, 'Gateway', {
    metadata: { name: 'inference-gateway' },
    spec: { gatewayClassName: 'eg', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] },
  });
  new ProviderRegistry(app, 'Providers', { gateway: GatewayRef.fromGateway(gw) });

  const chart = new Chart(app, 'autoscaled', { namespace: 'ml' });
  new ModelDeployment(chart, 'qwen', {
    model: { id: 'Qwen/Qwen3-8B', servedName: 'qwen3-8b' },
    provider: { name: 'vllm' },
    resources: { gpu: { count: 1 } },
    scaling: {
      autoscaling: {
        minReplicas: 0,
        maxReplicas: 4,
        metrics: [
          AutoscalingMetric.queueDepth(4),
          AutoscalingMetric.kvCacheUsage(85),
          AutoscalingMetric.prometheus(
            'sum(rate(envoy_cluster_upstream_rq_total{envoy_cluster_name=~"httproute/ml/qwen/.*"}[2m]))',
            2,
            { activationTarget: 0.05 },
          ),
        ],
        cooldown: Duration.minutes(10),
      },
    },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
