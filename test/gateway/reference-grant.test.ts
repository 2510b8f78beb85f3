import { Testing } from 'cdk8s';
import { addPoolReferenceGrant, PoolReferenceGrantOptions } from '../../src/gateway/reference-grant';
import { expectValidManifests } from '../support/schema-validator';

const OPTIONS: PoolReferenceGrantOptions = {
  pool: { group: 'inference.networking.k8s.io', name: 'qwen-pool', namespace: 'ns-x' },
  routeNamespace: 'team-a',
  labels: { 'airunway.ai/managed-by': 'airunway', 'airunway.ai/deployment': 'qwen' },
};

function synth(options: PoolReferenceGrantOptions = OPTIONS) {
  const chart = Testing.chart();
  const returned = addPoolReferenceGrant(chart, options);
  const manifests = Testing.synth(chart);
  expectValidManifests(manifests);
  return { chart, returned, manifests };
}

describe('addPoolReferenceGrant', () => {
  test('renders the grant of §6.5.2', () => {
    expect(synth().manifests).toMatchSnapshot();
  });

  test('is <pool>-referencegrant in the pool namespace, in gateway.networking.k8s.io/v1beta1', () => {
    const { chart, returned, manifests } = synth();
    expect(chart.node.tryFindChild('ReferenceGrant')).toBe(returned);
    expect(manifests).toHaveLength(1);
    const [grant] = manifests;
    expect(grant.apiVersion).toBe('gateway.networking.k8s.io/v1beta1');
    expect(grant.kind).toBe('ReferenceGrant');
    expect(grant.metadata.name).toBe('qwen-pool-referencegrant');
    expect(grant.metadata.namespace).toBe('ns-x');
    expect(grant.metadata.labels).toEqual(OPTIONS.labels);
  });

  test('lets HTTPRoutes of the route namespace reference only that InferencePool', () => {
    const [grant] = synth().manifests;
    expect(grant.spec).toEqual({
      from: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', namespace: 'team-a' }],
      to: [{ group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'qwen-pool' }],
    });
  });

  test('names the pool\'s API group (v1alpha2 pools) and omits empty labels', () => {
    const [grant] = synth({
      ...OPTIONS,
      pool: { ...OPTIONS.pool, group: 'inference.networking.x-k8s.io' },
      labels: {},
    }).manifests;
    expect(grant.spec.to).toEqual([{ group: 'inference.networking.x-k8s.io', kind: 'InferencePool', name: 'qwen-pool' }]);
    expect(grant.metadata.labels).toBeUndefined();
  });
});
