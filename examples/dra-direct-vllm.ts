/**
 * GPUs claimed through Dynamic Resource Allocation instead of the `nvidia.com/gpu` extended
 * resource: each vLLM pod claims two NVIDIA GPUs with at least 40 GiB of memory from a Hopper
 * part, through a ResourceClaimTemplate the synth writes beside the Deployment.
 *
 * The cluster runs NVIDIA's DRA driver, which installs the `gpu.nvidia.com` DeviceClass; the
 * example also declares a narrower class of its own (`h100.gpu.example.com`) that a second
 * deployment uses, for clusters whose platform team publishes classes per GPU model. Every
 * selector is type-checked at synth; a typo fails the synth with its position.
 */
import { App, Chart, Size } from 'cdk8s';
import { DeviceClass, DeviceSelector, ModelDeployment, ProviderRegistry } from '../src';

export function build(app: App): void {
  const registry = new ProviderRegistry(app, 'Providers');
  for (const absent of ['dynamo', 'kaito', 'kuberay', 'llmd']) registry.setReady(absent, false);

  const cluster = new Chart(app, 'dra-device-classes');
  const h100 = new DeviceClass(cluster, 'h100', {
    metadata: { name: 'h100.gpu.example.com' },
    selectors: [
      DeviceSelector.driver('gpu.nvidia.com'),
      DeviceSelector.productName('NVIDIA H100 80GB HBM3'),
    ],
  });

  const chart = new Chart(app, 'dra-direct-vllm', { namespace: 'ml' });
  new ModelDeployment(chart, 'qwen', {
    model: { id: 'Qwen/Qwen3-8B' },
    resources: {
      gpu: {
        // The engine uses both GPUs (tensor parallelism 2); the claim supplies them.
        count: 2,
        tolerateTaint: true,
        devices: [{
          name: 'gpu',
          deviceClassName: 'gpu.nvidia.com',
          count: 2,
          selectors: [
            DeviceSelector.memoryAtLeast(Size.gibibytes(40)),
            DeviceSelector.attributeEquals('gpu.nvidia.com/architecture', 'Hopper'),
          ],
        }],
      },
    },
  });
  new ModelDeployment(chart, 'llama', {
    model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
    resources: { gpu: { count: 1, devices: [{ name: 'gpu', deviceClassName: h100.name }] } },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
