/**
 * The smallest useful deployment: a model on one GPU, with engine and provider auto-selected.
 *
 * The registry describes the target cluster: only the Direct vLLM provider is installed, so the
 * other shipped providers are marked not ready and selection picks vLLM on its capabilities.
 */
import { App, Chart } from 'cdk8s';
import { ModelDeployment, ProviderRegistry } from '../src';

export function build(app: App): void {
  const registry = new ProviderRegistry(app, 'Providers');
  for (const absent of ['dynamo', 'kaito', 'kuberay', 'llmd']) registry.setReady(absent, false);

  const chart = new Chart(app, 'minimal-gpu', { namespace: 'ml' });
  new ModelDeployment(chart, 'qwen', {
    model: { id: 'Qwen/Qwen3-0.6B' },
    resources: { gpu: { count: 1 } },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
