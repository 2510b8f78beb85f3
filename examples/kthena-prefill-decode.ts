/**
 * vLLM prefill/decode on Kthena (volcano-sh/kthena): one ModelServing whose ServingGroup gangs a
 * prefill role (two GPUs, tensor parallel) with a decode role (one GPU, two replicas), a
 * ModelServer that pairs prefill with decode pods by Kthena's role labels, and a ModelRoute that
 * sends the served model name to it through kthena-router. Kthena is selected only when a
 * deployment names it (`provider: { name: 'kthena' }`).
 *
 * Kthena routes prefill/decode itself, so the deployment turns Gateway API Inference Extension
 * routing off: the default endpoint picker would send a request to any pod of the pool.
 */
import { App, Chart } from 'cdk8s';
import { EngineType, ModelDeployment, ServingMode } from '../src';

export function build(app: App): void {
  const chart = new Chart(app, 'kthena-prefill-decode', { namespace: 'kthena' });
  new ModelDeployment(chart, 'qwen-pd', {
    model: { id: 'Qwen/Qwen3-14B', servedName: 'qwen3-14b' },
    provider: { name: 'kthena' },
    servingMode: ServingMode.DISAGGREGATED,
    scaling: {
      prefill: { replicas: 1, gpu: { count: 2 } },
      decode: { replicas: 2, gpu: { count: 1 } },
    },
    engine: { engineType: EngineType.VLLM, contextLength: 16384, extraArgs: ['--max-num-batched-tokens=8192'] },
    gateway: { enabled: false },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
