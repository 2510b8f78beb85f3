/**
 * Four GPUs per replica: with every shipped provider ready, KubeRay's rule for more than one GPU
 * (priority 80) beats Dynamo's (50), so the model is served by Ray Serve in a RayService.
 */
import { App, Chart, Size } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-34';
import { ModelDeployment } from '../src';

export function build(app: App): void {
  const chart = new Chart(app, 'kuberay-multi-gpu', { namespace: 'ray' });
  new ModelDeployment(chart, 'qwen-32b', {
    model: { id: 'Qwen/Qwen3-32B', servedName: 'qwen-32b' },
    engine: { contextLength: 32768 },
    resources: { gpu: { count: 4 }, cpu: Cpu.units(16), memory: Size.gibibytes(128) },
    huggingFaceTokenSecret: 'hf-token',
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
