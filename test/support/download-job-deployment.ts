import { App, Chart, Size } from 'cdk8s';
import { DynamoProvider, ModelDeployment, ProviderRegistry, VolumePurpose } from '../../src';

/**
 * A Dynamo deployment with a managed model cache, in a chart of its own (namespace `ml`): the
 * only kind of deployment that emits the model download Job.
 */
export function addDownloadJobDeployment(app: App): Chart {
  new ProviderRegistry(app, 'Providers', { providers: [new DynamoProvider()] });
  const chart = new Chart(app, 'jobs', { namespace: 'ml' });
  new ModelDeployment(chart, 'qwen', {
    model: { id: 'Qwen/Qwen3-0.6B' },
    storage: [{ name: 'model-cache', purpose: VolumePurpose.MODEL_CACHE, size: Size.gibibytes(100) }],
    resources: { gpu: { count: 1 } },
    engine: { type: 'vllm' },
    provider: { name: 'dynamo' },
  } as any);
  return chart;
}
