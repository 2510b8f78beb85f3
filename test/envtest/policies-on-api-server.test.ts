/**
 * The optional policies of a deployment (src/policy) on a real kube-apiserver (control-plane.ts):
 * every NetworkPolicy and PodDisruptionBudget we synthesize, over the providers and the options
 * that shape them, is created with `dryRun=All` (admission and Kubernetes' own validation of
 * these kinds, stricter than their OpenAPI schemas) and `fieldValidation=Strict`, and comes back
 * with every field as sent (object-diff.ts). The Kubernetes OpenAPI documents in ../shared/upstream
 * have no networking.k8s.io/v1, so for NetworkPolicy this server is the only schema check there is.
 *
 * The binaries come from KUBEBUILDER_ASSETS or scripts/envtest/build-binaries.sh (binaries.ts);
 * without them the setup fails with the reason: this test is never skipped.
 */
import { Chart, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-34';
import { ControlPlane } from './control-plane';
import { KubeApiError, KubeClient } from './kube-client';
import { fieldDifferences, formatDifferences } from './object-diff';
import {
  ModelDeployment,
  ModelDeploymentDisruptionBudget,
  ModelDeploymentDisruptionBudgetProps,
  ModelDeploymentNetworkPolicy,
  ModelDeploymentNetworkPolicyProps,
  ProviderRegistry,
  UnhealthyPodEvictionPolicy,
} from '../../src';

const SETUP_TIMEOUT_MS = 45 * 60_000;
const NAMESPACE = 'team-a';

let cp: ControlPlane | undefined;
let client: KubeClient;

beforeAll(async () => {
  cp = await ControlPlane.start();
  client = cp.client();
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await cp?.stop();
}, 60_000);

type NetworkOptions = Omit<ModelDeploymentNetworkPolicyProps, 'deployment'>;
type BudgetOptions = Omit<ModelDeploymentDisruptionBudgetProps, 'deployment'>;

/** The policies synthesized for one deployment of `provider`, with a Gateway registry when asked. */
function policies(provider: string, network: NetworkOptions, budget: BudgetOptions, gateway = false): any[] {
  const app = Testing.app();
  const chart = new Chart(app, 'models', { namespace: NAMESPACE });
  if (gateway) new ProviderRegistry(chart, 'Providers', { gateway: { name: 'inference-gateway', namespace: 'gateway-system' } });
  const deployment = new ModelDeployment(chart, 'qwen', {
    model: { id: 'Qwen/Qwen3-0.6B' },
    provider: { name: provider },
    resources: { gpu: { count: 1 } },
    scaling: { replicas: 2 },
  });
  new ModelDeploymentNetworkPolicy(chart, 'Isolation', { deployment, ...network });
  new ModelDeploymentDisruptionBudget(chart, 'Budget', { deployment, ...budget });
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  if (errors.length > 0) throw new Error(`${provider}: ${errors.join('; ')}`);
  const out = Testing.synth(chart).filter((m) => m.kind === 'NetworkPolicy' || m.kind === 'PodDisruptionBudget');
  expect(out.map((m) => m.kind).sort()).toEqual(['NetworkPolicy', 'PodDisruptionBudget']);
  return out;
}

/** What the server refused or did not return as sent, for each object. */
async function problems(objects: any[]): Promise<string[]> {
  const out: string[] = [];
  for (const obj of objects) {
    const id = `${obj.kind} ${obj.metadata.name}`;
    try {
      const returned = await client.create(obj, { dryRun: 'All', fieldValidation: 'Strict' });
      const lost = fieldDifferences(obj, returned).filter((d) => d.kind !== 'normalized');
      out.push(...formatDifferences(lost).map((d) => `${id}: ${d}`));
    } catch (e) {
      if (!(e instanceof KubeApiError)) throw e;
      out.push(`${id}: refused: ${e.message}`);
    }
  }
  return out;
}

const PROVIDERS = ['vllm', 'llmd', 'kaito', 'kuberay', 'dynamo', 'kthena'];

const VARIANTS: Array<[string, NetworkOptions, BudgetOptions, boolean]> = [
  ['the defaults', {}, {}, false],
  [
    'a Gateway, more namespaces, another port, minAvailable',
    { ingressNamespaces: ['monitoring', 'kuberay-system'], port: 8080 },
    { minAvailable: 1, unhealthyPodEvictionPolicy: UnhealthyPodEvictionPolicy.IF_HEALTHY_BUDGET },
    true,
  ],
  [
    'everything off but extra rules (CIDRs, namespace and pod selectors, port ranges)',
    {
      allowSameNamespace: false,
      allowDns: false,
      allowHttpsEgress: false,
      extraIngress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ protocol: 'TCP', port: k8s.IntOrString.fromNumber(9090) }] }],
      extraEgress: [
        { to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'dynamo-system' } }, podSelector: { matchLabels: { app: 'etcd' } } }], ports: [{ protocol: 'TCP', port: k8s.IntOrString.fromNumber(2379) }] },
        { to: [{ ipBlock: { cidr: '192.168.0.0/16' } }], ports: [{ protocol: 'TCP', port: k8s.IntOrString.fromNumber(30000), endPort: 32767 }] },
      ],
    },
    { maxUnavailable: 2 },
    false,
  ],
];

describe.each(VARIANTS)('the policies with %s', (_what, network, budget, gateway) => {
  test.each(PROVIDERS)('for a %s deployment: accepted with fieldValidation=Strict, nothing pruned', async (provider) => {
    expect(await problems(policies(provider, network, budget, gateway))).toEqual([]);
  });
});

test('the check has teeth: a port out of range and an unknown field are refused or reported', async () => {
  const [policy] = policies('vllm', {}, {}).filter((m) => m.kind === 'NetworkPolicy');
  const badPort = structuredClone(policy);
  badPort.metadata.name = 'bad-port';
  badPort.spec.ingress[1].ports[0].port = 70000;
  const unknownField = structuredClone(policy);
  unknownField.metadata.name = 'unknown-field';
  unknownField.spec.ingress[1].surprise = true;
  const found = await problems([badPort, unknownField]);
  expect(found).toEqual([
    expect.stringMatching(/^NetworkPolicy bad-port: refused: .*70000/),
    expect.stringMatching(/^NetworkPolicy unknown-field: refused: .*surprise/),
  ]);
});
