/**
 * Writing your own provider: `SglangDeploymentProvider` (beside this file) is registered next to
 * the shipped ones. Selection picks it by its CEL rule for the single-GPU SGLang model, while the
 * four-GPU SGLang model still goes to Dynamo (its rule for SGLang, priority 100).
 */
import { App, Chart } from 'cdk8s';
import { SglangDeploymentProvider } from './sglang-deployment-provider';
import { EngineType, ModelDeployment, ProviderRegistry } from '../../src';

export function build(app: App): void {
  const registry = new ProviderRegistry(app, 'Providers');
  registry.addProvider(new SglangDeploymentProvider());
  const chart = new Chart(app, 'custom-provider', { namespace: 'ml' });
  new ModelDeployment(chart, 'qwen-small', {
    model: { id: 'Qwen/Qwen3-4B', servedName: 'qwen3-4b' },
    engine: { engineType: EngineType.SGLANG, contextLength: 32768 },
    resources: { gpu: { count: 1 } },
  });
  new ModelDeployment(chart, 'qwen-large', {
    model: { id: 'Qwen/Qwen3-32B' },
    engine: { engineType: EngineType.SGLANG },
    resources: { gpu: { count: 4 } },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
