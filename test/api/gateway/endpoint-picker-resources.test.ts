import { App, Chart, Size, Testing } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-34';
import { EndpointPickerResources, ModelDeployment, ProviderRegistry } from '../../../src';
import { expectValidManifests } from '../../support/schema-validator';

function routed(resources?: EndpointPickerResources): { app: App; chart: Chart } {
  const app = Testing.app();
  new ProviderRegistry(app, 'Providers', { gateway: { name: 'gw', namespace: 'gateways' }, endpointPickerResources: resources });
  const chart = new Chart(app, 'models', { namespace: 'ml' });
  new ModelDeployment(chart, 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } });
  return { app, chart };
}

const pickerResources = (manifests: any[]) =>
  manifests.find((m) => m.kind === 'Deployment' && m.metadata.name === 'qwen-epp').spec.template.spec.containers[0].resources;

describe('ProviderRegistryProps.endpointPickerResources', () => {
  test('defaults: requests 250m and 512Mi, limits 2 CPUs and 2Gi', () => {
    expect(pickerResources(Testing.synth(routed().chart))).toEqual({ requests: { cpu: '250m', memory: '512Mi' }, limits: { cpu: '2', memory: '2Gi' } });
  });

  test('each field given replaces its default, and the objects stay schema-valid', () => {
    const manifests = Testing.synth(routed({ cpuRequest: Cpu.millis(500), memoryLimit: Size.gibibytes(4) }).chart);
    expect(pickerResources(manifests)).toEqual({ requests: { cpu: '500m', memory: '512Mi' }, limits: { cpu: '2', memory: '4Gi' } });
    expectValidManifests(manifests);
  });

  test('a request above its limit fails the synth, naming the field, the value and the limit', () => {
    const { app } = routed({ memoryRequest: Size.gibibytes(3), cpuRequest: Cpu.units(4) });
    expect(() => app.synth()).toThrow(/endpointPickerResources\.cpuRequest: Invalid value: "4": must be at most the cpu limit \(2\)[^]*endpointPickerResources\.memoryRequest: Invalid value: "3Gi": must be at most the memory limit \(2Gi\)/);
  });
});
