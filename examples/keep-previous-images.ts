/**
 * Upgrading the library without upgrading the engines (README, "Pinning images"): a platform team
 * keeps the images its clusters run today while taking a library release that moves the defaults.
 *
 * - Per registry: the providers registered with their own images replace the shipped ones of the
 *   same name, so every deployment on them that names no image runs the pinned one — here Direct
 *   vLLM on vLLM 0.11.0 (`vllm serve <model>` is what we run on every vLLM from 0.9.1 on), and the
 *   Gateway API Inference Extension v1.5 endpoint picker the Gateway already runs
 *   (`EndpointPicker.GAIE_V1_5`).
 * - Per deployment: `engine.image` pins one deployment (the llm-d one, to vLLM 0.9.1).
 *
 * Also Dynamo, which manages its own InferencePool and endpoint picker (the graph's `Epp` service,
 * on the Dynamo frontend image), behind the same Gateway; and Dynamo's GPU-less mocker, a smoke
 * test of a graph without GPUs (never routed).
 */
import { App, Chart } from 'cdk8s';
import { DirectVllmProvider, EndpointPicker, EngineType, gateway, GatewayRef, ModelDeployment, ProviderRegistry } from '../src';

export function build(app: App): void {
  const infra = new Chart(app, 'gateway', { namespace: 'gateway-system' });
  const gw = new gateway.Gateway(infra, 'Gateway', {
    metadata: { name: 'inference-gateway' },
    spec: {
      gatewayClassName: 'istio',
      listeners: [{ name: 'http', port: 80, protocol: 'HTTP', allowedRoutes: { namespaces: { from: gateway.GatewaySpecListenersAllowedRoutesNamespacesFrom.ALL } } }],
    },
  });
  const registry = new ProviderRegistry(app, 'Providers', { gateway: GatewayRef.fromGateway(gw), endpointPicker: EndpointPicker.GAIE_V1_5 });
  registry.addProvider(new DirectVllmProvider({ image: 'vllm/vllm-openai:v0.11.0' }));

  const models = new Chart(app, 'models', { namespace: 'models' });
  new ModelDeployment(models, 'phi', {
    model: { id: 'microsoft/Phi-4-mini-instruct' },
    provider: { name: 'vllm' },
    engine: { engineType: EngineType.VLLM, contextLength: 8192 },
    resources: { gpu: { count: 1 } },
  });
  new ModelDeployment(models, 'qwen', {
    model: { id: 'Qwen/Qwen3-8B' },
    provider: { name: 'llmd' },
    engine: { engineType: EngineType.VLLM, image: 'vllm/vllm-openai:v0.9.1' },
    resources: { gpu: { count: 1 } },
  });
  new ModelDeployment(models, 'llama', {
    model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
    provider: { name: 'dynamo' },
    engine: { engineType: EngineType.VLLM },
    resources: { gpu: { count: 1 } },
  });
  new ModelDeployment(models, 'mocked', {
    metadata: { annotations: { 'airunway.ai/dynamo-test-backend': 'mocker' } },
    model: { id: 'Qwen/Qwen3-0.6B' },
    provider: { name: 'dynamo' },
    engine: { engineType: EngineType.VLLM },
    resources: { gpu: { count: 1 } },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
