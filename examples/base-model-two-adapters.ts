/**
 * One base model and two LoRA adapters, each callable by its own model name: `sql` from a Hugging
 * Face repository pinned to a revision (downloaded by an init container before vLLM starts) and
 * `support` from a directory of a PersistentVolumeClaim (mounted read-only). Clients send
 * `"model": "qwen3-8b"`, `"sql"` or `"support"`; the HTTPRoute matches all three names and sends
 * them to the same InferencePool, every pod of which serves the base model and both adapters.
 */
import { App, Chart } from 'cdk8s';
import { gateway, GatewayRef, LoraSource, ModelDeployment, ProviderRegistry } from '../src';

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

  new ModelDeployment(new Chart(app, 'base-model-two-adapters', { namespace: 'ml' }), 'qwen', {
    model: { id: 'Qwen/Qwen3-8B', servedName: 'qwen3-8b' },
    provider: { name: 'vllm' },
    resources: { gpu: { count: 1 } },
    huggingFaceTokenSecret: 'hf-token',
    lora: {
      adapters: [
        { name: 'sql', source: LoraSource.huggingFace('acme-ml/qwen3-8b-sql-lora', 'v1.2') },
        { name: 'support', source: LoraSource.persistentVolumeClaim('lora-adapters', 'support/2025-06') },
      ],
      // Both adapters were trained with rank 32; vLLM's default (16) would refuse them.
      maxRank: 32,
    },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
