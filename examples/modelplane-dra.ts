/**
 * modelplane (`modelplane.ai/v1alpha1`, a Crossplane composite API) with typed DRA device
 * requests: the serving engine asks for two NVIDIA GPUs of at least 80 GiB each from a Hopper
 * part, written with `DeviceSelector` (checked at synth, as for every target) and rendered into
 * the engine member's `nodeSelector.devices` as CEL. modelplane matches them against the devices
 * its InferenceClasses declare and composes the ResourceClaims on the workload cluster it picks,
 * so no ResourceClaimTemplate is synthesized here.
 *
 * The managed `modelCache` volume becomes a modelplane ModelCache (the Hugging Face repository,
 * 200 GiB, the token Secret for a gated model): modelplane stages the weights once per workload
 * cluster and mounts them in every engine pod at /mnt/models. modelplane is selected only when a
 * deployment names it, and routes through a gateway of its own, so ours is turned off.
 */
import { App, Chart, Size } from 'cdk8s';
import { DeviceSelector, EngineType, ModelDeployment, VolumePurpose } from '../src';

export function build(app: App): void {
  const chart = new Chart(app, 'modelplane-dra', { namespace: 'ml' });
  new ModelDeployment(chart, 'llama-70b', {
    model: { id: 'meta-llama/Llama-3.3-70B-Instruct', servedName: 'llama-70b' },
    provider: { name: 'modelplane' },
    engine: { engineType: EngineType.VLLM, contextLength: 32768 },
    scaling: { replicas: 2 },
    resources: {
      gpu: {
        // The engine uses both GPUs (tensor parallelism 2); the device request supplies them.
        count: 2,
        devices: [{
          name: 'gpu',
          deviceClassName: 'gpu.nvidia.com',
          count: 2,
          selectors: [
            DeviceSelector.driver('gpu.nvidia.com'),
            // 79 GiB, not 80: NVIDIA's DRA driver publishes an H100 80GB's NVML total, 81,559 MiB
            // (79.6 GiB), so an 80 GiB floor would match no real 80 GB GPU.
            DeviceSelector.memoryAtLeast(Size.gibibytes(79)),
            DeviceSelector.attributeEquals('gpu.nvidia.com/architecture', 'Hopper'),
          ],
        }],
      },
    },
    storage: [{ name: 'weights', purpose: VolumePurpose.MODEL_CACHE, size: Size.gibibytes(200) }],
    huggingFaceTokenSecret: 'hf-token',
    gateway: { enabled: false },
  });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
