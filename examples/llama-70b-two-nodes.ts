/**
 * Llama 3.1 70B on Direct vLLM, each replica spread over two nodes of eight GPUs: 16 GPUs per
 * replica (`resources.gpu.count`) on nodes of 8 (`multiNode.gpusPerNode`) make a LeaderWorkerSet
 * of two pods per replica — tensor parallel 8 inside each node, pipeline parallel 2 across them —
 * with vLLM on a Ray cluster that the leader pod starts and the worker pod joins. The Service
 * selects only the leaders, the pods that serve HTTP. The cluster needs the LeaderWorkerSet
 * controller (kubernetes-sigs/lws).
 *
 * Eight 24 GB GPUs hold the 140 GB of BF16 weights but leave little room for the KV cache; a second
 * node gives every replica the cache for long contexts. The model cache is ReadWriteMany (the
 * default): both pods of a replica mount it, on different nodes.
 */
import { App, Chart, Size } from 'cdk8s';
import { ModelDeployment, VolumePurpose } from '../src';

export function build(app: App): void {
  const chart = new Chart(app, 'llama-70b-two-nodes', { namespace: 'ml' });
  new ModelDeployment(chart, 'llama', {
    metadata: { name: 'llama-70b' },
    model: { id: 'meta-llama/Llama-3.1-70B-Instruct', servedName: 'llama-70b' },
    provider: { name: 'vllm' },
    engine: { contextLength: 32768 },
    resources: { gpu: { count: 16 }, memory: Size.gibibytes(300) },
    multiNode: { gpusPerNode: 8 },
    storage: [{ name: 'model-cache', purpose: VolumePurpose.MODEL_CACHE, size: Size.gibibytes(200) }],
    huggingFaceTokenSecret: 'hf-token',
    nodeSelector: { 'nvidia.com/gpu.product': 'NVIDIA-A10G' },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
