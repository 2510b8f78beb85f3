/**
 * DRA on a real kube-apiserver (control-plane.ts), with dryRun=All and fieldValidation=Strict:
 *
 * 1. Our build-time CEL check of device selectors (src/cel/device-selector.ts) agrees with the
 *    API server's compiler: each selector of a corpus of valid and invalid ones is sent in a
 *    DeviceClass, and the server accepts exactly the ones we accept.
 * 2. The DRA output of every provider that carries claims — Direct vLLM, llm-d (aggregated and
 *    prefill/decode), KubeRay (aggregated and disaggregated worker groups), Dynamo v1alpha1 and
 *    v1beta1, Kthena (server role, prefill and decode roles) — is accepted whole: the ResourceClaimTemplates, and the pod templates that name
 *    them (the server checks that a container's claims are the pod's).
 *
 * Never skipped: without binaries the setup fails with the reason (binaries.ts).
 */
import * as path from 'path';
import { App, Chart, Testing } from 'cdk8s';
import { ControlPlane } from './control-plane';
import { installCrds, InstalledCrd, useStorageVersion } from './crds';
import { KubeApiError, KubeClient, KubeObject, splitApiVersion } from './kube-client';
import { ModelDeployment } from '../../src';
import { checkDeviceSelector } from '../../src/cel/device-selector';
import { upstreamDir } from '../../src/schema-validation/upstream-schemas';

const SETUP_TIMEOUT_MS = 45 * 60_000;
const NAMESPACE = 'dra';

/** Selectors the API server must judge as we do. Valid ones first, then invalid ones. */
const SELECTORS: readonly string[] = [
  'device.driver == "gpu.nvidia.com"',
  'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"',
  'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0',
  'device.attributes["gpu.nvidia.com"].driverVersion.compareTo(semver("550.0.0")) >= 0',
  'device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("1.2.3"))',
  '"gpu.nvidia.com" in device.attributes',
  'has(device.attributes["gpu.nvidia.com"].productName)',
  'device.attributes["gpu.nvidia.com"].index < 4',
  'device.attributes["dra.example.com"].model.startsWith("A") && device.driver != "x"',
  'device.attributes["dra.example.com"].model.lowerAscii() == "a100"',
  'device.attributes["dra.example.com"].model.matches("^A1")',
  'quantity("1Gi").isGreaterThan(quantity("1Mi"))',
  'isQuantity("1Gi") && isSemver("1.0.0")',
  'semver("1.2.3").major() == 1',
  'device.attributes["dra.example.com"].shared == true',
  'size(device.attributes) > 0',
  'device.attributes.exists(d, d == "gpu.nvidia.com")',
  // Invalid.
  'gpu == 1',
  'device.driver',
  'device.driver == 1',
  'device.model == "x"',
  'device.driver ==',
  'device.capacity["gpu.nvidia.com"].memory.compareTo("20Gi") >= 0',
  'quantity(5).isZero()',
  'semver("1.0.0") > semver("0.1.0")',
  'device.attributes["dra.example.com"].model.noSuchFunction()',
  'device.capacity["dra.example.com"].memory + 1 > 2',
  '"x" in device.driver',
  // Not declared for selectors by the API server, though its CRD rules have them.
  'device.capacity["dra.example.com"].cores.sign() >= 0',
  'device.allowMultipleAllocations == false',
];

/**
 * What the API server accepts and we refuse: functions of Kubernetes' libraries the checker does
 * not declare (src/cel/overloads.ts), documented in the README. Pinned so the list cannot
 * grow unnoticed; each fails our check with an unknown function.
 */
const STRICTER_THAN_SERVER: readonly string[] = [
  'device.attributes["dra.example.com"].model.find("A[0-9]+") == "A100"',
  'url("https://example.com").getHost() == "example.com"',
  'ip("10.0.0.1").family() == 4',
  'sets.contains(["a", "b"], ["a"])',
  '[1, 2].isSorted()',
  '[1, 2].sum() == 3',
];

let cp: ControlPlane | undefined;
let client: KubeClient;
let crds: InstalledCrd[] = [];

beforeAll(async () => {
  cp = await ControlPlane.start();
  client = cp.client();
  const upstream = upstreamDir();
  crds = await installCrds(client, [
    'airunway/airunway.ai_modeldeployments.yaml',
    'dynamo/nvidia.com_dynamographdeployments.yaml',
    'kuberay/ray.io_rayservices.yaml',
    'kthena/workload.serving.volcano.sh_modelservings.yaml',
    'kthena/networking.serving.volcano.sh_modelservers.yaml',
    'kthena/networking.serving.volcano.sh_modelroutes.yaml',
  ].map((f) => path.join(upstream, f)));
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await cp?.stop();
}, 60_000);

async function serverAccepts(obj: KubeObject): Promise<{ accepted: boolean; message?: string }> {
  try {
    await client.create(obj, { dryRun: 'All', fieldValidation: 'Strict' });
    return { accepted: true };
  } catch (e) {
    if (e instanceof KubeApiError) return { accepted: false, message: e.message };
    throw e;
  }
}

test('the API server compiles exactly the device selectors we accept', async () => {
  const disagreements: string[] = [];
  let valid = 0;
  for (const [i, expression] of SELECTORS.entries()) {
    const ours = checkDeviceSelector(expression);
    const server = await serverAccepts({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceClass',
      metadata: { name: `selector-${i}` },
      spec: { selectors: [{ cel: { expression } }] },
    });
    if (ours.length === 0) valid++;
    if (server.accepted !== (ours.length === 0)) {
      disagreements.push(`${expression}: server ${server.accepted ? 'accepts' : `rejects (${server.message})`}, we ${ours.length === 0 ? 'accept' : `reject (${ours[0].message})`}`);
    }
  }
  expect(disagreements).toEqual([]);
  // The corpus exercises both answers.
  expect(valid).toBeGreaterThan(10);
  expect(SELECTORS.length - valid).toBeGreaterThan(8);
});

test('the only selectors we refuse and the API server accepts call functions of the libraries we do not declare', async () => {
  for (const [i, expression] of STRICTER_THAN_SERVER.entries()) {
    const server = await serverAccepts({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceClass',
      metadata: { name: `stricter-${i}` },
      spec: { selectors: [{ cel: { expression } }] },
    });
    expect([expression, server]).toEqual([expression, { accepted: true }]);
    const ours = checkDeviceSelector(expression).map((e) => e.message);
    expect(ours.length).toBeGreaterThan(0);
    for (const message of ours) expect(message).toMatch(/^(unknown (method|function)|undeclared reference) /);
  }
});

const DEVICES = `resources:
  - name: gpu
    deviceClassName: gpu.nvidia.com
    count: 2
    selectors:
      - memoryAtLeast: 40Gi
      - productName: NVIDIA H100 80GB HBM3
      - attribute: gpu.nvidia.com/architecture
        equals: Hopper
      - capacity: gpu.nvidia.com/memory
        atLeast: 40Gi
      - cel: device.attributes["gpu.nvidia.com"].driverVersion.compareTo(semver("550.0.0")) >= 0
`;
const DISAGGREGATED_DEVICES = `prefill:
  - name: gpu
    deviceClassName: gpu.nvidia.com
    selectors: [{ driver: gpu.nvidia.com }]
decode:
  - name: gpu
    deviceClassName: gpu.nvidia.com
    count: 2
  - name: nic
    deviceClassName: rdma.example.com
`;

const AGGREGATED = { resources: { gpu: { count: 2 } } };
const DISAGGREGATED = {
  serving: { mode: 'disaggregated' },
  scaling: { prefill: { replicas: 1, gpu: { count: 1 } }, decode: { replicas: 2, gpu: { count: 2 } } },
};

const CASES: Array<[string, string, Record<string, unknown>, Record<string, string>]> = [
  ['vllm', 'vllm', AGGREGATED, { 'inference.cdk8s.io/devices': DEVICES }],
  ['llmd aggregated', 'llmd', AGGREGATED, { 'inference.cdk8s.io/devices': DEVICES }],
  ['llmd prefill/decode', 'llmd', DISAGGREGATED, { 'inference.cdk8s.io/devices': DISAGGREGATED_DEVICES }],
  ['kuberay aggregated', 'kuberay', AGGREGATED, { 'inference.cdk8s.io/devices': DEVICES }],
  ['kuberay disaggregated', 'kuberay', DISAGGREGATED, { 'inference.cdk8s.io/devices': DISAGGREGATED_DEVICES }],
  ['dynamo v1alpha1', 'dynamo', { ...AGGREGATED, engine: { type: 'vllm', args: { 'tensor-parallel-size': '2' } } }, { 'inference.cdk8s.io/devices': DEVICES }],
  ['kthena aggregated', 'kthena', AGGREGATED, { 'inference.cdk8s.io/devices': DEVICES }],
  ['kthena prefill/decode', 'kthena', DISAGGREGATED, { 'inference.cdk8s.io/devices': DISAGGREGATED_DEVICES }],
  ['dynamo v1beta1 prefill/decode', 'dynamo', { ...DISAGGREGATED, engine: { type: 'vllm' } }, {
    'inference.cdk8s.io/devices': DISAGGREGATED_DEVICES,
    'inference.cdk8s.io/dynamo-api-version': 'nvidia.com/v1beta1',
  }],
];

test.each(CASES)('%s: the claim templates and the pods that name them are accepted as sent', async (_name, provider, spec, annotations) => {
  const app: App = Testing.app();
  const chart = new Chart(app, 'dra', { namespace: NAMESPACE });
  ModelDeployment.fromManifest(chart, 'qwen', {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'qwen', annotations },
    spec: { model: { id: 'Qwen/Qwen3-8B' }, provider: { name: provider }, ...spec },
  });
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  expect(errors).toEqual([]);
  const objects: KubeObject[] = Testing.synth(chart);
  expect(objects.filter((o) => o.kind === 'ResourceClaimTemplate').length).toBeGreaterThan(0);
  const rejected: string[] = [];
  for (const obj of objects) {
    const { group, version } = splitApiVersion(obj.apiVersion);
    const crd = crds.find((c) => c.group === group && c.kind === obj.kind);
    if (crd?.conversionReplaced) await useStorageVersion(client, crd, version);
    const answer = await serverAccepts(obj);
    if (!answer.accepted) rejected.push(`${obj.kind} ${obj.metadata?.name}: ${answer.message}`);
  }
  expect(rejected).toEqual([]);
}, 5 * 60_000);
