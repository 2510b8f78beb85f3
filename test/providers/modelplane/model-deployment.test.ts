/**
 * modelplane through the public construct: a registry with the provider, a ModelDeployment
 * naming it, and the device requests written either as typed props (`GpuOptions.devices`) or as
 * the `inference.cdk8s.io/devices` annotation an AI Runway YAML user writes — one definition, one
 * output.
 */
import { App, Chart, Size, Testing } from 'cdk8s';
import { xrOf } from './fixtures';
import { DeviceSelector, EngineType, ModelDeployment, ModelDeploymentProps, NodePool, ProviderRegistry, ServingMode } from '../../../src';
import { DEVICES_ANNOTATION } from '../../../src/provider-kit/device-annotation';
import { ModelplaneProvider } from '../../../src/providers/modelplane';
import { expectValidManifests } from '../../support/schema-validator';

function synth(props: ModelDeploymentProps, app: App = Testing.app(), nodePools: NodePool[] = []) {
  new ProviderRegistry(app, 'Providers', { providers: [new ModelplaneProvider({ clusterSelector: { fleet: 'gpu' } })], nodePools });
  const chart = new Chart(app, 'test', { namespace: 'ml' });
  const md = new ModelDeployment(chart, 'qwen', props);
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  return { md, errors, manifests: errors.length === 0 ? Testing.synth(chart) : [] };
}

const BASE = { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'modelplane' } } as const;

const H100 = [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 2, selectors: [DeviceSelector.productName('NVIDIA H100 80GB HBM3'), DeviceSelector.memoryAtLeast(Size.gibibytes(80))] }];
const H100_YAML = [
  '- name: gpu',
  '  deviceClassName: gpu.nvidia.com',
  '  count: 2',
  '  selectors:',
  '    - productName: NVIDIA H100 80GB HBM3',
  '    - memoryAtLeast: 80Gi',
].join('\n');
const L40S = [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', selectors: [DeviceSelector.cel('device.attributes["gpu.nvidia.com"].productName == "NVIDIA L40S"')] }];
const L40S_YAML = '- name: gpu\n  deviceClassName: gpu.nvidia.com\n  selectors:\n    - cel: device.attributes["gpu.nvidia.com"].productName == "NVIDIA L40S"';

function indent(text: string): string {
  return text.split('\n').map((l) => `  ${l}`).join('\n');
}

describe('modelplane through ModelDeployment', () => {
  test('an aggregated GPU deployment synthesizes a valid modelplane ModelDeployment and the record', () => {
    const { md, errors, manifests } = synth({ ...BASE, resources: { gpu: { count: 1 } } });
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    expect(md.providerName).toBe('modelplane');
    expect(manifests.map((m) => `${m.apiVersion} ${m.kind}`)).toEqual(['modelplane.ai/v1alpha1 ModelDeployment', 'airunway.ai/v1alpha1 ModelDeployment']);
    const xr = xrOf(manifests);
    expect(xr.spec.template.spec.clusterSelector).toEqual({ matchLabels: { fleet: 'gpu' } });
    expect(xr.spec.template.spec.engines[0].members[0].nodeSelector.devices).toEqual([
      { name: 'gpu', count: 1, selectors: [{ cel: 'device.driver == "gpu.nvidia.com"' }] },
    ]);
  });

  test('device requests reach modelplane only: no ResourceClaimTemplate of ours, and this cluster\'s node pools are not checked', () => {
    const app = Testing.app();
    // A pool that could never hold the request: modelplane places the replicas on its own fleet.
    const { errors, manifests } = synth({ ...BASE, resources: { gpu: { count: 2, devices: H100 } } }, app, [{ name: 'cpu', nodes: 3 }]);
    expect(errors).toEqual([]);
    expect(manifests.map((m) => m.kind)).toEqual(['ModelDeployment', 'ModelDeployment']);
    expect(JSON.parse(manifests[1].metadata.annotations['inference.cdk8s.io/rendered-objects'])).toEqual([
      { apiVersion: 'modelplane.ai/v1alpha1', kind: 'ModelDeployment', name: 'qwen' },
    ]);
  });

  test('is never auto-selected: without provider.name another registered provider is used', () => {
    const { md, errors } = synth({ model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });
    expect(errors).toEqual([]);
    expect(md.providerName).not.toBe('modelplane');
  });

  test('typed device requests and the annotation give identical output (aggregated)', () => {
    const typed = synth({ ...BASE, resources: { gpu: { count: 2, devices: H100 } } });
    const annotated = synth({ ...BASE, metadata: { annotations: { [DEVICES_ANNOTATION]: `resources:\n${indent(H100_YAML)}\n` } }, resources: { gpu: { count: 2 } } });
    expect(typed.errors).toEqual([]);
    expect(annotated.errors).toEqual([]);
    expect(xrOf(typed.manifests)).toEqual(xrOf(annotated.manifests));
    expect(xrOf(typed.manifests).spec.template.spec.engines[0].members[0].nodeSelector.devices).toEqual([{
      name: 'gpu',
      count: 2,
      selectors: [
        { cel: 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"' },
        { cel: 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("80Gi")) >= 0' },
      ],
    }]);
    expectValidManifests(typed.manifests);
  });

  test('typed device requests and the annotation give identical output (PrefillDecode)', () => {
    const typed = synth({
      ...BASE,
      servingMode: ServingMode.DISAGGREGATED,
      scaling: { prefill: { replicas: 1, gpu: { count: 1, devices: L40S } }, decode: { replicas: 2, gpu: { count: 2, devices: H100 } } },
    });
    const annotated = synth({
      ...BASE,
      metadata: { annotations: { [DEVICES_ANNOTATION]: `prefill:\n${indent(L40S_YAML)}\ndecode:\n${indent(H100_YAML)}\n` } },
      servingMode: ServingMode.DISAGGREGATED,
      scaling: { prefill: { replicas: 1, gpu: { count: 1 } }, decode: { replicas: 2, gpu: { count: 2 } } },
    });
    expect(typed.errors).toEqual([]);
    expect(annotated.errors).toEqual([]);
    const xr = xrOf(typed.manifests);
    expect(xr).toEqual(xrOf(annotated.manifests));
    expect(xr.spec.template.spec.serving).toEqual({ mode: 'PrefillDecode' });
    expect(xr.spec.template.spec.engines.map((e: any) => [e.name, e.phase, e.copies, e.members[0].nodeSelector.devices[0].count])).toEqual([
      ['prefill', 'Prefill', 1, 1],
      ['decode', 'Decode', 2, 2],
    ]);
  });

  test('fails when the deployment names modelplane for an engine it does not run, naming the targets that do', () => {
    const { errors } = synth({ ...BASE, engine: { engineType: EngineType.TRTLLM }, resources: { gpu: { count: 1 } } });
    expect(errors).toEqual([expect.stringContaining('spec.engine.type: Invalid value: "trtllm": provider modelplane does not support engine trtllm; targets that support it: ')]);
  });

  test('fails for a CPU-only deployment, naming the target', () => {
    const { errors } = synth({ ...BASE, engine: { engineType: EngineType.VLLM }, resources: { gpu: { count: 0 } } });
    expect(errors).toEqual([expect.stringMatching(/^spec\.resources\.gpu\.count: Invalid value: 0: vllm engine on provider modelplane requires GPU/)]);
  });

  test('fails when a device request has no selector, at the request in the annotation', () => {
    const { errors } = synth({ ...BASE, resources: { gpu: { count: 1, devices: [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com' }] } } });
    expect(errors).toEqual([
      expect.stringMatching(/^metadata\.annotations\["inference\.cdk8s\.io\/devices"\]\.resources\[0\]\.selectors: Required value: modelplane needs at least one selector per device request/),
    ]);
  });
});
