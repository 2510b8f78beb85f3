/**
 * A quantized model on CPU with llama.cpp. With no GPU and no engine set, selection picks the
 * llama.cpp engine and KAITO, the only provider that runs it on CPU. KAITO's llama.cpp path needs
 * a server image: here a pre-made AIKit image that bakes the GGUF weights in (`source: custom`,
 * so no HuggingFace download); see AIKit's catalogue for current images and tags.
 */
import { App, Chart, Size } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-34';
import { ModelDeployment, ModelSource } from '../src';

export function build(app: App): void {
  const chart = new Chart(app, 'cpu-llamacpp', { namespace: 'ml' });
  new ModelDeployment(chart, 'gemma', {
    model: { source: ModelSource.CUSTOM },
    engine: { image: 'ghcr.io/kaito-project/aikit/llama3.2:1b' },
    resources: { cpu: Cpu.units(4), memory: Size.gibibytes(8) },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
