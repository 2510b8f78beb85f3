/**
 * Direct vLLM, chosen explicitly, with a pinned image, engine flags, two GPUs (tensor parallel
 * size 2 and a /dev/shm volume follow from the count) and a HuggingFace token.
 */
import { App, Chart, Size } from 'cdk8s';
import { ModelDeployment, EngineType } from '../src';

export function build(app: App): void {
  const chart = new Chart(app, 'vllm-custom-image', { namespace: 'inference' });
  new ModelDeployment(chart, 'llama', {
    metadata: { name: 'llama-8b', labels: { team: 'search' } },
    model: { id: 'meta-llama/Llama-3.1-8B-Instruct', servedName: 'llama-8b' },
    provider: { name: 'vllm' },
    engine: {
      engineType: EngineType.VLLM,
      image: 'vllm/vllm-openai:v0.11.0',
      contextLength: 16384,
      args: { 'gpu-memory-utilization': '0.92', 'disable-log-requests': '' },
      extraArgs: ['--max-num-seqs=128'],
    },
    resources: { gpu: { count: 2 }, memory: Size.gibibytes(64) },
    scaling: { replicas: 2 },
    huggingFaceTokenSecret: 'hf-token',
    nodeSelector: { 'nvidia.com/gpu.product': 'NVIDIA-L40S' },
    podAnnotations: { 'prometheus.io/scrape': 'true' },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
