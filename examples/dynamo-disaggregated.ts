/**
 * Disaggregated serving on NVIDIA Dynamo: separate prefill and decode workers that exchange KV
 * cache over NIXL, behind Dynamo's frontend. Selection picks Dynamo on its own (its rule for
 * disaggregated mode has priority 90), and the engine is auto-selected (vllm).
 */
import { App, Chart, Size } from 'cdk8s';
import { ModelDeployment, ServingMode } from '../src';

export function build(app: App): void {
  const chart = new Chart(app, 'dynamo-disaggregated', { namespace: 'dynamo' });
  new ModelDeployment(chart, 'llama-pd', {
    model: { id: 'meta-llama/Llama-3.3-70B-Instruct' },
    servingMode: ServingMode.DISAGGREGATED,
    scaling: {
      prefill: { replicas: 2, gpu: { count: 2 }, memory: Size.gibibytes(160) },
      decode: { replicas: 1, gpu: { count: 4 }, memory: Size.gibibytes(320) },
    },
    engine: { contextLength: 65536 },
    huggingFaceTokenSecret: 'hf-token',
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
