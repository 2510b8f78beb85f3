/**
 * A managed model cache: a 100Gi PersistentVolumeClaim `<deployment>-model-cache` is synthesized
 * and mounted at /model-cache, and the server's HuggingFace cache points at it, so restarts and
 * new replicas do not download the weights again.
 */
import { App, Chart, Size } from 'cdk8s';
import { PersistentVolumeAccessMode } from 'cdk8s-plus-34';
import { ModelDeployment, VolumePurpose } from '../src';

export function build(app: App): void {
  const chart = new Chart(app, 'model-cache-pvc', { namespace: 'ml' });
  new ModelDeployment(chart, 'qwen-cached', {
    model: { id: 'Qwen/Qwen3-8B' },
    provider: { name: 'vllm' },
    engine: { contextLength: 32768 },
    resources: { gpu: { count: 1 } },
    storage: [
      {
        name: 'model-cache',
        purpose: VolumePurpose.MODEL_CACHE,
        size: Size.gibibytes(100),
        storageClassName: 'fast-rwx',
        accessMode: PersistentVolumeAccessMode.READ_WRITE_MANY,
      },
    ],
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
