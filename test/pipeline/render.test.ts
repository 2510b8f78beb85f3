import { ApiObject, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { EngineType, InferenceProvider, InferenceProviderConfig, ModelDeployment, ProviderRegistry, ResolvedDeployment } from '../../src';

/** A provider that wraps its Service in an L2-style construct, as the Kthena provider does. */
class WrappingProvider extends InferenceProvider {
  public constructor() {
    super({ config: new InferenceProviderConfig({ name: 'wrapping', engines: [{ engineType: EngineType.VLLM, gpuSupport: true }] }) });
  }
  public translate(scope: Construct, d: ResolvedDeployment): ApiObject[] {
    const wrapper = new Construct(scope, 'Server');
    return [
      new ApiObject(wrapper, 'Resource', { apiVersion: 'v1', kind: 'Service', metadata: { name: d.name } }),
      new ApiObject(scope, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: d.name } }),
    ];
  }
}

describe('renderModelDeployment: nothing half-written', () => {
  test('a derived-name error removes every object the provider made, also those inside a construct of its own', () => {
    const app = Testing.app();
    new ProviderRegistry(app, 'Providers', { providers: [new WrappingProvider()] });
    const chart = new Chart(app, 'c', { namespace: 'ml' });
    // A Service name must start with a letter (DNS-1035); the deployment name need not.
    const md = new ModelDeployment(chart, 'digit', {
      metadata: { name: '3-qwen' },
      model: { id: 'Qwen/Qwen3-0.6B' },
      resources: { gpu: { count: 1 } },
      provider: { name: 'wrapping' },
    });
    expect(md.node.validate().join('\n')).toMatch(/derived Service name "3-qwen" must be a DNS-1035 label/);
    expect(md.node.children.map((c) => c.node.id)).toEqual([]);
    expect(md.apiObjects).toEqual([]);
  });
});
