/**
 * llm-d with prefill/decode disaggregation: two vLLM Deployments (and Services) exchanging KV
 * cache through the PyNccl connector, tensor parallelism from each component's GPU count. llm-d
 * has no selection rules, so it is named explicitly.
 */
import { App, Chart } from 'cdk8s';
import { ModelDeployment, ServingMode } from '../src';

export function build(app: App): void {
  const chart = new Chart(app, 'llmd-prefill-decode', { namespace: 'llm-d' });
  new ModelDeployment(chart, 'qwen-pd', {
    model: { id: 'Qwen/Qwen3-14B' },
    provider: { name: 'llmd' },
    servingMode: ServingMode.DISAGGREGATED,
    scaling: {
      prefill: { replicas: 1, gpu: { count: 2 } },
      decode: { replicas: 2, gpu: { count: 1 } },
    },
    engine: { extraArgs: ['--max-num-batched-tokens=8192'] },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
