/**
 * DRA claims and providers of one's own: a provider that declares `supportsDeviceClaims()` and
 * wires `DeviceClaims.forPods` gets the same ResourceClaimTemplate as the shipped ones; one that
 * does not (the default) fails the deployment instead of dropping the claim.
 */
import { ApiObject, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { SglangDeploymentProvider } from '../../examples/custom-provider/sglang-deployment-provider';
import {
  DeviceClaims,
  DevicePods,
  DeviceSelector,
  EngineType,
  InferenceProvider,
  InferenceProviderConfig,
  ModelDeployment,
  ProviderRegistry,
  ResolvedDeployment,
  ServingMode,
} from '../../src';
import { expectValidManifests } from '../support/schema-validator';

const DEVICES = [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', selectors: [DeviceSelector.productName('NVIDIA L4')] }];

function synth(provider: InferenceProvider, engine: EngineType) {
  const app = Testing.app();
  new ProviderRegistry(app, 'Providers', { providers: [provider] });
  const chart = new Chart(app, 'test', { namespace: 'ml' });
  new ModelDeployment(chart, 'qwen', {
    model: { id: 'Qwen/Qwen3-0.6B' },
    engine: { engineType: engine },
    provider: { name: provider.name },
    resources: { gpu: { count: 1, devices: DEVICES } },
  });
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  return { errors, manifests: errors.length === 0 ? Testing.synth(chart) : [] };
}

/** A provider that renders a pod but never heard of DRA. */
class PlainProvider extends InferenceProvider {
  public constructor() {
    super({
      config: new InferenceProviderConfig({
        name: 'plain',
        engines: [{ engineType: EngineType.VLLM, servingModes: [ServingMode.AGGREGATED], gpuSupport: true, requiresCrd: false }],
      }),
    });
  }

  public translate(scope: Construct, deployment: ResolvedDeployment): ApiObject[] {
    return [new ApiObject(scope, 'ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: deployment.name } })];
  }
}

describe('DRA device claims in providers of your own', () => {
  test('DeviceClaims.forPods names the claim and template the pipeline synthesizes, and nothing without requests', () => {
    const { errors, manifests } = synth(new SglangDeploymentProvider(), EngineType.SGLANG);
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    const template = manifests.find((m) => m.kind === 'ResourceClaimTemplate');
    expect(template.metadata.name).toBe('qwen-devices');
    expect(template.spec.spec.devices.requests[0].exactly.selectors).toEqual([
      { cel: { expression: 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA L4"' } },
    ]);
    const pod = manifests.find((m) => m.kind === 'Deployment').spec.template.spec;
    expect(pod.resourceClaims).toEqual([{ name: 'devices', resourceClaimTemplateName: 'qwen-devices' }]);
    expect(pod.containers[0].resources).toEqual({ claims: [{ name: 'devices' }] });

    const bare = { name: 'qwen', annotations: {}, spec: {} } as unknown as ResolvedDeployment;
    expect(DeviceClaims.forPods(bare, DevicePods.SERVING)).toBeUndefined();
  });

  test('a provider that does not declare support fails the deployment, naming itself and the providers that can', () => {
    const { errors } = synth(new PlainProvider(), EngineType.VLLM);
    expect(errors).toEqual([
      expect.stringMatching(/^metadata\.annotations\["inference\.cdk8s\.io\/devices"\]: Forbidden: provider plain \(explicit provider selection\) cannot carry DRA device claims in its pods; set spec\.provider\.name to one that can: dynamo, kthena, kuberay, llmd, modelplane, vllm/),
    ]);
  });
});
