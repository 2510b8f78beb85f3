/**
 * A routed model with the body-based router its HTTPRoute relies on. The route matches the
 * `X-Gateway-Model-Name` header; the `BodyBasedRouter` (the Gateway API Inference Extension's BBR,
 * in the Gateway's namespace) fills it from the `model` field of each request body. What this
 * app does not synthesize: the Gateway implementation's hook that calls the router (for Istio an
 * EnvoyFilter, for GKE a GCPRoutingExtension); see `BodyBasedRouter`.
 */
import { App, Chart } from 'cdk8s';
import { BodyBasedRouter, EngineType, gateway, GatewayRef, ModelDeployment, ProviderRegistry } from '../src';

export function build(app: App): void {
  const infra = new Chart(app, 'gateway', { namespace: 'gateway-system' });
  const gw = new gateway.Gateway(infra, 'Gateway', {
    metadata: { name: 'inference-gateway' },
    spec: {
      gatewayClassName: 'istio',
      listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }],
    },
  });
  new BodyBasedRouter(infra, 'BodyBasedRouter', { replicas: 2 });
  new ProviderRegistry(app, 'Providers', { gateway: GatewayRef.fromGateway(gw) });

  new ModelDeployment(new Chart(app, 'team-a', { namespace: 'team-a' }), 'qwen', {
    model: { id: 'Qwen/Qwen3-8B', servedName: 'qwen3-8b' },
    provider: { name: 'vllm' },
    engine: { engineType: EngineType.VLLM },
    resources: { gpu: { count: 1 } },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
