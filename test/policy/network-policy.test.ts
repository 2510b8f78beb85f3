import { Chart, Testing } from 'cdk8s';
import {
  EngineType,
  ModelDeployment,
  ModelDeploymentNetworkPolicy,
  ModelDeploymentNetworkPolicyProps,
  ProviderRegistry,
} from '../../src';
import { expectValidManifests, formatViolation, validateManifests } from '../support/schema-validator';

/**
 * The Kubernetes OpenAPI in ../shared/upstream has no networking.k8s.io/v1 document, so the
 * validator reports only that it has no schema for a NetworkPolicy; every other check it makes
 * (names, labels, sizes) still applies and must pass, as must every other object.
 */
function expectValidExceptMissingNetworkingSchema(manifests: any[]): void {
  const missing = /^no upstream schema for networking\.k8s\.io\/v1 NetworkPolicy$/;
  const violations = validateManifests(manifests).filter((v) => !(v.kind === 'NetworkPolicy' && missing.test(v.message)));
  expect(violations.map(formatViolation)).toEqual([]);
  expectValidManifests(manifests.filter((m) => m.kind !== 'NetworkPolicy'));
}

type PolicyOptions = Omit<ModelDeploymentNetworkPolicyProps, 'deployment'>;

function build(options: PolicyOptions = {}, setup: { provider?: string; gateway?: boolean } = {}) {
  const app = Testing.app();
  const chart = new Chart(app, 'models', { namespace: 'team-a' });
  if (setup.gateway) new ProviderRegistry(chart, 'Providers', { gateway: { name: 'inference-gateway', namespace: 'gateway-system' } });
  const deployment = new ModelDeployment(chart, 'qwen', {
    model: { id: 'Qwen/Qwen3-0.6B' },
    provider: { name: setup.provider ?? 'vllm' },
    engine: { engineType: EngineType.VLLM },
    resources: { gpu: { count: 1 } },
  });
  new ModelDeploymentNetworkPolicy(chart, 'Isolation', { deployment, ...options });
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  const manifests = errors.length > 0 ? [] : Testing.synth(chart);
  return { errors, manifests, policy: manifests.find((m) => m.kind === 'NetworkPolicy') };
}

const PEERS = [
  { podSelector: { matchLabels: { 'airunway.ai/model-deployment': 'qwen' } } },
  { podSelector: { matchLabels: { 'airunway.ai/deployment': 'qwen' } } },
];
const DNS = { ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }] };
const HTTPS = { ports: [{ protocol: 'TCP', port: 443 }] };

describe('ModelDeploymentNetworkPolicy', () => {
  test('defaults: the serving port from the namespace, the deployment\'s own pods, DNS and HTTPS out; schema-valid', () => {
    const { errors, manifests, policy } = build();
    expect(errors).toEqual([]);
    expectValidExceptMissingNetworkingSchema(manifests);
    expect(policy).toEqual({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'qwen', namespace: 'team-a', labels: { 'airunway.ai/managed-by': 'airunway', 'airunway.ai/model-deployment': 'qwen' } },
      spec: {
        podSelector: { matchLabels: { 'airunway.ai/model-deployment': 'qwen' } },
        policyTypes: ['Ingress', 'Egress'],
        ingress: [{ from: PEERS }, { from: [{ podSelector: {} }], ports: [{ protocol: 'TCP', port: 8000 }] }],
        egress: [{ to: PEERS }, DNS, HTTPS],
      },
    });
  });

  test('the registry\'s Gateway namespace may call the serving port', () => {
    const { policy, manifests } = build({}, { gateway: true });
    expectValidExceptMissingNetworkingSchema(manifests);
    expect(policy.spec.ingress[1].from).toEqual([
      { podSelector: {} },
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'gateway-system' } } },
    ]);
  });

  test('the provider names the port: KubeRay serves on Ray Serve\'s', () => {
    const { policy } = build({}, { provider: 'kuberay' });
    expect(policy.spec.ingress[1].ports).toEqual([{ protocol: 'TCP', port: 8000 }]);
    expect(build({ port: 9000 }, { provider: 'kuberay' }).policy.spec.ingress[1].ports).toEqual([{ protocol: 'TCP', port: 9000 }]);
  });

  test('everything configurable: no same-namespace callers, named namespaces, no DNS or HTTPS, extra rules', () => {
    const { policy, manifests } = build({
      allowSameNamespace: false,
      ingressNamespaces: ['monitoring', 'gateway-system', 'monitoring'],
      allowDns: false,
      allowHttpsEgress: false,
      extraEgress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }], ports: [{ protocol: 'TCP', port: { value: 9000 } as any }] }],
    });
    expectValidExceptMissingNetworkingSchema(manifests);
    expect(policy.spec.ingress).toEqual([
      { from: PEERS },
      {
        from: [
          { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
          { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'gateway-system' } } },
        ],
        ports: [{ protocol: 'TCP', port: 8000 }],
      },
    ]);
    expect(policy.spec.egress).toEqual([{ to: PEERS }, { to: [{ ipBlock: { cidr: '10.0.0.0/8' } }], ports: [{ protocol: 'TCP', port: 9000 }] }]);
  });

  test('no callers at all leaves only the deployment\'s own pods', () => {
    const { policy } = build({ allowSameNamespace: false });
    expect(policy.spec.ingress).toEqual([{ from: PEERS }]);
  });

  test('a bad port or namespace name is an error naming the prop and value', () => {
    expect(build({ port: 70000 }).errors).toEqual(['port: Invalid value: 70000: must be a port number from 1 to 65535']);
    expect(build({ ingressNamespaces: ['Gateway_System'] }).errors).toEqual([
      'ingressNamespaces[0]: Invalid value: "Gateway_System": must be a namespace name (a DNS label: lowercase letters, digits and "-", at most 63 characters)',
    ]);
  });
});
