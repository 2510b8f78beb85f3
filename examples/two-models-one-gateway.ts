/**
 * Two models behind one inference Gateway. The Gateway is part of the app, so its listener is
 * set to admit routes from both model namespaces; each model gets an InferencePool, an endpoint
 * picker and an HTTPRoute that matches the `X-Gateway-Model-Name` header (set from the request's
 * `model` field by a body-based router in front of the Gateway).
 */
import { App, Chart } from 'cdk8s';
import { EngineType, gateway, GatewayRef, ModelDeployment, ProviderRegistry } from '../src';

export function build(app: App): void {
  const infra = new Chart(app, 'gateway', { namespace: 'gateway-system' });
  const gw = new gateway.Gateway(infra, 'Gateway', {
    metadata: { name: 'inference-gateway' },
    spec: {
      gatewayClassName: 'istio',
      listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }],
    },
  });
  new ProviderRegistry(app, 'Providers', { gateway: GatewayRef.fromGateway(gw) });

  new ModelDeployment(new Chart(app, 'team-a', { namespace: 'team-a' }), 'qwen', {
    model: { id: 'Qwen/Qwen3-8B', servedName: 'qwen3-8b' },
    provider: { name: 'vllm' },
    engine: { engineType: EngineType.VLLM },
    resources: { gpu: { count: 1 } },
  });
  new ModelDeployment(new Chart(app, 'team-b', { namespace: 'team-b' }), 'llama', {
    model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
    provider: { name: 'llmd' },
    engine: { engineType: EngineType.VLLM },
    resources: { gpu: { count: 1 } },
    gateway: { modelName: 'llama-3.1-8b' },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
