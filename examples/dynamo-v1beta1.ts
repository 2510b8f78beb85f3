/**
 * Dynamo's current API, `nvidia.com/v1beta1` (Dynamo's storage version since 1.5, and our default
 * with the Dynamo 1.6.1 runtime), named explicitly on a DynamoProvider that replaces the shipped
 * one. AI Runway still emits the deprecated v1alpha1, which a cluster on Dynamo below 1.5 asks for
 * with `apiVersion: DynamoApiVersion.V1ALPHA1` (or a `dynamoVersion` below 1.5.0). A single
 * deployment can choose with the annotation `inference.cdk8s.io/dynamo-api-version`.
 */
import { App, Chart } from 'cdk8s';
import { DynamoApiVersion, DynamoProvider, EngineType, ModelDeployment, ProviderRegistry } from '../src';

export function build(app: App): void {
  new ProviderRegistry(app, 'Providers', { providers: [new DynamoProvider({ apiVersion: DynamoApiVersion.V1BETA1 })] });
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
