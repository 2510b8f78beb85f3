/**
 * A GGUF model on CPU with llama.cpp. With no GPU and no engine set, selection picks the
 * llama.cpp engine and KAITO, the only provider that runs it on CPU.
 */
import { App, Chart, Size } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-34';
import { ModelDeployment } from '../src';

export function build(app: App): void {
  const chart = new Chart(app, 'cpu-llamacpp', { namespace: 'ml' });
  new ModelDeployment(chart, 'gemma', {
    model: { id: 'google/gemma-3-1b-it-qat-q8_0-gguf' },
    resources: { cpu: Cpu.units(4), memory: Size.gibibytes(8) },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
