/**
 * Dynamo's current API: the registry emits `nvidia.com/v1beta1` DynamoGraphDeployments (Dynamo's
 * storage version) for every deployment instead of AI Runway's deprecated v1alpha1. A single
 * deployment can choose with the annotation `inference.cdk8s.io/dynamo-api-version`.
 */
import { App, Chart } from 'cdk8s';
import { DynamoApiVersion, EngineType, ModelDeployment, ProviderRegistry } from '../src';

export function build(app: App): void {
  new ProviderRegistry(app, 'Providers', { dynamoApiVersion: DynamoApiVersion.V1BETA1 });
  const chart = new Chart(app, 'dynamo-v1beta1', { namespace: 'dynamo' });
  new ModelDeployment(chart, 'qwen', {
    model: { id: 'Qwen/Qwen3-8B' },
    engine: { engineType: EngineType.SGLANG, contextLength: 32768 },
    resources: { gpu: { count: 1 } },
    scaling: { replicas: 2 },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
