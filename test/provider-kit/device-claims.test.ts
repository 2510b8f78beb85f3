/**
 * DRA device claims end to end, through both faces of a ModelDeployment: the typed
 * `GpuOptions.devices` (with `DeviceSelector` factories) and the `inference.cdk8s.io/devices`
 * annotation of an AI Runway manifest (`ModelDeployment.fromManifest`). For every provider that
 * carries claims, each component that claims devices gets a ResourceClaimTemplate, its serving
 * pods reference it and their serving container consumes it, and no claiming container requests
 * GPUs as an extended resource. Also: KAITO's refusal, the typed/annotation conflict and the
 * DeviceClass construct.
 */
import { App, Chart, Size, Testing } from 'cdk8s';
import { parse } from 'yaml';
import {
  DeviceClass,
  DeviceRequest,
  DeviceSelector,
  DynamoApiVersion,
  DynamoProvider,
  ModelDeployment,
  ModelDeploymentProps,
  ProviderRegistry,
  ServingMode,
} from '../../src';
import { expectValidManifests } from '../support/schema-validator';

const MODEL = { id: 'Qwen/Qwen3-0.6B' };
const DEVICES = 'inference.cdk8s.io/devices';
const DEVICES_PATH = 'metadata.annotations["inference.cdk8s.io/devices"]';
const DYNAMO_API_VERSION = 'inference.cdk8s.io/dynamo-api-version';

const MEMORY_40GI = 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0';
const H100 = 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"';
const NVIDIA = 'device.driver == "gpu.nvidia.com"';
const HOPPER = 'device.attributes["gpu.nvidia.com"].architecture == "Hopper"';

// The same requests in both faces: typed, and as a user writes the annotation.
const TYPED_AGGREGATED: DeviceRequest[] = [{
  name: 'gpu',
  deviceClassName: 'gpu.nvidia.com',
  count: 2,
  selectors: [DeviceSelector.memoryAtLeast(Size.gibibytes(40)), DeviceSelector.productName('NVIDIA H100 80GB HBM3')],
}];
const YAML_AGGREGATED = `resources:
  - name: gpu
    deviceClassName: gpu.nvidia.com
    count: 2
    selectors:
      - memoryAtLeast: 40Gi
      - productName: NVIDIA H100 80GB HBM3
`;
const TYPED_PREFILL: DeviceRequest[] = [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', selectors: [DeviceSelector.driver('gpu.nvidia.com')] }];
const TYPED_DECODE: DeviceRequest[] = [
  { name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 2, selectors: [DeviceSelector.attributeEquals('gpu.nvidia.com/architecture', 'Hopper')] },
  { name: 'nic', deviceClassName: 'rdma.example.com' },
];
const YAML_DISAGGREGATED = `prefill:
  - name: gpu
    deviceClassName: gpu.nvidia.com
    selectors: [{driver: gpu.nvidia.com}]
decode:
  - name: gpu
    deviceClassName: gpu.nvidia.com
    count: 2
    selectors:
      - attribute: gpu.nvidia.com/architecture
        equals: Hopper
  - {name: nic, deviceClassName: rdma.example.com}
`;

/** `spec.spec.devices.requests` of the templates, by template name. */
const AGGREGATED_TEMPLATES = {
  'qwen-devices': [
    { name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', count: 2, selectors: [{ cel: { expression: MEMORY_40GI } }, { cel: { expression: H100 } }] } },
  ],
};
const DISAGGREGATED_TEMPLATES = {
  'qwen-prefill-devices': [
    { name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', count: 1, selectors: [{ cel: { expression: NVIDIA } }] } },
  ],
  'qwen-decode-devices': [
    { name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', count: 2, selectors: [{ cel: { expression: HOPPER } }] } },
    { name: 'nic', exactly: { deviceClassName: 'rdma.example.com', count: 1 } },
  ],
};

interface Built {
  readonly md: ModelDeployment;
  readonly manifests: any[];
  readonly errors: string[];
}

/** Synthesizes a chart in namespace `ml`; the manifests must be schema-valid. */
function synthesize(add: (chart: Chart) => ModelDeployment, setup?: (app: App) => void): Built {
  const app = Testing.app();
  setup?.(app);
  const chart = new Chart(app, 'test', { namespace: 'ml' });
  const md = add(chart);
  const errors = chart.node.findAll().flatMap((c) => c.node.validate());
  const manifests = errors.length === 0 ? Testing.synth(chart) : [];
  if (errors.length === 0) expectValidManifests(manifests);
  return { md, manifests, errors };
}

function build(props: ModelDeploymentProps, setup?: (app: App) => void): Built {
  return synthesize((chart) => new ModelDeployment(chart, 'qwen', props), setup);
}

function fromYaml(spec: any, annotations: Record<string, string>): Built {
  return synthesize((chart) => ModelDeployment.fromManifest(chart, 'qwen', {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'qwen', annotations },
    spec,
  }));
}

const recordOf = (manifests: any[]) => manifests.find((m) => m.kind === 'ModelDeployment');
const upstreamOf = (manifests: any[]) => manifests.filter((m) => m.kind !== 'ModelDeployment');

function templatesOf(manifests: any[]): Record<string, unknown> {
  return Object.fromEntries(manifests.filter((m) => m.kind === 'ResourceClaimTemplate').map((t) => [t.metadata.name, t.spec.spec.devices.requests]));
}

/** A serving pod as the provider writes it: where its claims are, whatever the object's shape. */
interface ServingPod {
  readonly resourceClaims?: unknown;
  readonly containerClaims?: unknown;
  /** Every `resources` that applies to the serving container (Dynamo v1alpha1 has two). */
  readonly resources: any[];
}

type PodReader = (manifests: any[]) => Record<string, ServingPod>;

/** A core/v1 pod spec whose first container is the serving one. */
function podOf(pod: any): ServingPod {
  const container = pod.containers[0];
  return { resourceClaims: pod.resourceClaims, containerClaims: container.resources?.claims, resources: [container.resources] };
}

/** Direct vLLM and llm-d: one Deployment per component, the engine container first. */
const deploymentPods: PodReader = (manifests) =>
  Object.fromEntries(manifests.filter((m) => m.kind === 'Deployment').map((d) => [d.metadata.name, podOf(d.spec.template.spec)]));

/** KubeRay: the worker groups (the head runs no engine). */
const rayPods: PodReader = (manifests) => {
  const cluster = manifests.find((m) => m.kind === 'RayService').spec.rayClusterConfig;
  return {
    head: podOf(cluster.headGroupSpec.template.spec),
    ...Object.fromEntries(cluster.workerGroupSpecs.map((g: any) => [g.groupName, podOf(g.template.spec)])),
  };
};

/** Dynamo v1alpha1: `extraPodSpec.resourceClaims`, `extraPodSpec.mainContainer.resources.claims`. */
const dynamoAlphaPods: PodReader = (manifests) => {
  const dgd = manifests.find((m) => m.kind === 'DynamoGraphDeployment');
  expect(dgd.apiVersion).toBe('nvidia.com/v1alpha1');
  return Object.fromEntries(Object.entries<any>(dgd.spec.services).map(([name, s]) => [name, {
    resourceClaims: s.extraPodSpec?.resourceClaims,
    containerClaims: s.extraPodSpec?.mainContainer?.resources?.claims,
    resources: [s.resources, s.extraPodSpec?.mainContainer?.resources],
  }]));
};

/** Dynamo v1beta1: each component's pod template. */
const dynamoBetaPods: PodReader = (manifests) => {
  const dgd = manifests.find((m) => m.kind === 'DynamoGraphDeployment');
  expect(dgd.apiVersion).toBe('nvidia.com/v1beta1');
  return Object.fromEntries(dgd.spec.components.map((c: any) => [c.name, podOf(c.podTemplate.spec)]));
};

/** The GPU extended resources a container's `resources` asks for (`nvidia.com/gpu`, Dynamo's `gpu`). */
function gpuResources(resources: any[]): string[] {
  return resources.flatMap((r) => ['limits', 'requests'].flatMap((k) => Object.keys(r?.[k] ?? {}).filter((name) => /gpu/.test(name)).map((name) => `${k}.${name}`)));
}

interface Case {
  readonly title: string;
  readonly provider: string;
  readonly disaggregated: boolean;
  readonly pods: PodReader;
  /** Serving pod -> the template it claims; pods not listed claim nothing. */
  readonly claims: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

const BETA = { [DYNAMO_API_VERSION]: 'nvidia.com/v1beta1' };
/** v1alpha1 is on request since Dynamo 1.6.1 became the default runtime. */
const ALPHA = { [DYNAMO_API_VERSION]: 'nvidia.com/v1alpha1' };

const CASES: Case[] = [
  { title: 'Direct vLLM', provider: 'vllm', disaggregated: false, pods: deploymentPods, claims: { qwen: 'qwen-devices' } },
  { title: 'llm-d aggregated', provider: 'llmd', disaggregated: false, pods: deploymentPods, claims: { qwen: 'qwen-devices' } },
  {
    title: 'llm-d disaggregated',
    provider: 'llmd',
    disaggregated: true,
    pods: deploymentPods,
    claims: { 'qwen-prefill': 'qwen-prefill-devices', 'qwen-decode': 'qwen-decode-devices' },
  },
  { title: 'KubeRay', provider: 'kuberay', disaggregated: false, pods: rayPods, claims: { 'gpu-workers': 'qwen-devices' } },
  {
    title: 'KubeRay disaggregated',
    provider: 'kuberay',
    disaggregated: true,
    pods: rayPods,
    claims: { 'prefill-workers': 'qwen-prefill-devices', 'decode-workers': 'qwen-decode-devices' },
  },
  { title: 'Dynamo v1alpha1', provider: 'dynamo', disaggregated: false, pods: dynamoAlphaPods, claims: { VllmWorker: 'qwen-devices' }, annotations: ALPHA },
  {
    title: 'Dynamo v1alpha1 disaggregated',
    provider: 'dynamo',
    disaggregated: true,
    pods: dynamoAlphaPods,
    claims: { VllmPrefillWorker: 'qwen-prefill-devices', VllmDecodeWorker: 'qwen-decode-devices' },
    annotations: ALPHA,
  },
  { title: 'Dynamo v1beta1', provider: 'dynamo', disaggregated: false, pods: dynamoBetaPods, claims: { VllmWorker: 'qwen-devices' }, annotations: BETA },
  {
    title: 'Dynamo v1beta1 disaggregated',
    provider: 'dynamo',
    disaggregated: true,
    pods: dynamoBetaPods,
    claims: { VllmPrefillWorker: 'qwen-prefill-devices', VllmDecodeWorker: 'qwen-decode-devices' },
    annotations: BETA,
  },
];

function typedProps(c: Case, devices: boolean): ModelDeploymentProps {
  const common = { model: MODEL, provider: { name: c.provider }, ...(c.annotations && { metadata: { annotations: c.annotations } }) };
  if (!c.disaggregated) return { ...common, resources: { gpu: { count: 2, ...(devices && { devices: TYPED_AGGREGATED }) } } };
  return {
    ...common,
    servingMode: ServingMode.DISAGGREGATED,
    scaling: {
      prefill: { gpu: { count: 1, ...(devices && { devices: TYPED_PREFILL }) } },
      decode: { gpu: { count: 2, ...(devices && { devices: TYPED_DECODE }) } },
    },
  };
}

function yamlSpec(c: Case): any {
  const common = { model: MODEL, provider: { name: c.provider } };
  if (!c.disaggregated) return { ...common, resources: { gpu: { count: 2 } } };
  return {
    ...common,
    serving: { mode: 'disaggregated' },
    scaling: { prefill: { replicas: 1, gpu: { count: 1 } }, decode: { replicas: 1, gpu: { count: 2 } } },
  };
}

describe.each(CASES)('$title claims its devices', (c) => {
  const expectedTemplates = c.disaggregated ? DISAGGREGATED_TEMPLATES : AGGREGATED_TEMPLATES;
  let typed: Built;
  let yaml: Built;
  beforeAll(() => {
    typed = build(typedProps(c, true));
    yaml = fromYaml(yamlSpec(c), { ...c.annotations, [DEVICES]: c.disaggregated ? YAML_DISAGGREGATED : YAML_AGGREGATED });
  });

  test('both faces synthesize, to the same upstream objects', () => {
    expect(typed.errors).toEqual([]);
    expect(yaml.errors).toEqual([]);
    expect(upstreamOf(yaml.manifests)).toEqual(upstreamOf(typed.manifests));
  });

  test('a ResourceClaimTemplate per claiming component, with the requests, in the deployment namespace', () => {
    expect(templatesOf(typed.manifests)).toEqual(expectedTemplates);
    for (const t of typed.manifests.filter((m) => m.kind === 'ResourceClaimTemplate')) {
      expect(t.apiVersion).toBe('resource.k8s.io/v1');
      expect(t.metadata.namespace).toBe('ml');
      expect(t.metadata.labels['airunway.ai/deployment']).toBe('qwen');
    }
  });

  test('the serving pods reference their template; their container consumes the claim; nothing else claims', () => {
    const pods = c.pods(typed.manifests);
    for (const [name, pod] of Object.entries(pods)) {
      const template = c.claims[name];
      if (template === undefined) {
        expect([name, pod.resourceClaims, pod.containerClaims]).toEqual([name, undefined, undefined]);
      } else {
        expect([name, pod.resourceClaims, pod.containerClaims]).toEqual([name, [{ name: 'devices', resourceClaimTemplateName: template }], [{ name: 'devices' }]]);
      }
    }
    expect(Object.keys(pods)).toEqual(expect.arrayContaining(Object.keys(c.claims)));
    // Every template is claimed by some pod.
    expect(Object.values(c.claims).sort()).toEqual(Object.keys(expectedTemplates).sort());
  });

  test('claiming containers request no GPU extended resource (they do without devices)', () => {
    const pods = c.pods(typed.manifests);
    for (const name of Object.keys(c.claims)) expect([name, gpuResources(pods[name].resources)]).toEqual([name, []]);
    // Nowhere as a resource (the GPU taint toleration names the key, which is not a request).
    expect(JSON.stringify(upstreamOf(typed.manifests), (key, value) => (key === 'tolerations' ? undefined : value))).not.toContain('nvidia.com/gpu');

    const plain = build(typedProps(c, false));
    expect(plain.errors).toEqual([]);
    const plainPods = c.pods(plain.manifests);
    for (const name of Object.keys(c.claims)) expect(gpuResources(plainPods[name].resources)).not.toEqual([]);
    expect(templatesOf(plain.manifests)).toEqual({});
  });

  test('the record carries the annotation and lists the templates among the rendered objects', () => {
    const record = recordOf(typed.manifests);
    const rendered = JSON.parse(record.metadata.annotations['inference.cdk8s.io/rendered-objects']);
    for (const name of Object.keys(expectedTemplates)) {
      expect(rendered).toContainEqual({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', name });
    }
    // The typed face wrote the same requests as the hand-written annotation.
    expect(parse(record.metadata.annotations[DEVICES])).toEqual(parse(c.disaggregated ? YAML_DISAGGREGATED : YAML_AGGREGATED));
    expect(recordOf(yaml.manifests).metadata.annotations[DEVICES]).toBe(c.disaggregated ? YAML_DISAGGREGATED : YAML_AGGREGATED);
    expect(JSON.parse(recordOf(yaml.manifests).metadata.annotations['inference.cdk8s.io/rendered-objects'])).toEqual(rendered);
  });
});

describe('provider specifics', () => {
  test('KubeRay passes num-gpus explicitly when the workers claim their GPUs (Ray cannot infer it)', () => {
    const claimed = build({ model: MODEL, provider: { name: 'kuberay' }, resources: { gpu: { count: 2, devices: TYPED_AGGREGATED } } });
    expect(claimed.errors).toEqual([]);
    const groups = claimed.manifests.find((m) => m.kind === 'RayService').spec.rayClusterConfig.workerGroupSpecs;
    expect(groups.map((g: any) => g.rayStartParams)).toEqual([{ 'num-gpus': '2' }]);

    const disaggregated = build(typedProps(CASES.find((c) => c.title === 'KubeRay disaggregated')!, true));
    const byGroup = disaggregated.manifests.find((m) => m.kind === 'RayService').spec.rayClusterConfig.workerGroupSpecs;
    expect(Object.fromEntries(byGroup.map((g: any) => [g.groupName, g.rayStartParams['num-gpus']]))).toEqual({ 'prefill-workers': '1', 'decode-workers': '2' });

    // Without claims KubeRay infers it from the nvidia.com/gpu limit.
    const plain = build({ model: MODEL, provider: { name: 'kuberay' }, resources: { gpu: { count: 2 } } });
    expect(plain.manifests.find((m) => m.kind === 'RayService').spec.rayClusterConfig.workerGroupSpecs[0].rayStartParams).toEqual({});
  });

  test('the engine still runs gpu.count-way tensor parallel on the claimed devices', () => {
    const { manifests, errors } = build({ model: MODEL, provider: { name: 'vllm' }, resources: { gpu: { count: 2, devices: TYPED_AGGREGATED } } });
    expect(errors).toEqual([]);
    const args: string[] = manifests.find((m) => m.kind === 'Deployment').spec.template.spec.containers[0].args;
    expect(args.slice(args.indexOf('--tensor-parallel-size'), args.indexOf('--tensor-parallel-size') + 2)).toEqual(['--tensor-parallel-size', '2']);
  });

  test('Dynamo v1beta1 chosen by the provider setting (ProviderRegistry)', () => {
    const { manifests, errors } = build(
      { model: MODEL, provider: { name: 'dynamo' }, resources: { gpu: { count: 2, devices: TYPED_AGGREGATED } } },
      (app) => new ProviderRegistry(app, 'Providers', { providers: [new DynamoProvider({ apiVersion: DynamoApiVersion.V1BETA1 })] }),
    );
    expect(errors).toEqual([]);
    const pods = dynamoBetaPods(manifests);
    expect(pods.VllmWorker.resourceClaims).toEqual([{ name: 'devices', resourceClaimTemplateName: 'qwen-devices' }]);
    expect(pods.VllmWorker.containerClaims).toEqual([{ name: 'devices' }]);
    expect(gpuResources(pods.VllmWorker.resources)).toEqual([]);
    expect(pods.Frontend.resourceClaims).toBeUndefined();
    expect(templatesOf(manifests)).toEqual(AGGREGATED_TEMPLATES);
  });

  test('only the component that claims devices changes; the other requests GPUs as before', () => {
    const { manifests, errors } = build({
      model: MODEL,
      provider: { name: 'llmd' },
      servingMode: ServingMode.DISAGGREGATED,
      scaling: { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 2, devices: TYPED_DECODE } } },
    });
    expect(errors).toEqual([]);
    expect(Object.keys(templatesOf(manifests))).toEqual(['qwen-decode-devices']);
    const pods = deploymentPods(manifests);
    expect(pods['qwen-prefill'].resourceClaims).toBeUndefined();
    expect(gpuResources(pods['qwen-prefill'].resources)).toEqual(['limits.nvidia.com/gpu', 'requests.nvidia.com/gpu']);
    expect(pods['qwen-decode'].resourceClaims).toEqual([{ name: 'devices', resourceClaimTemplateName: 'qwen-decode-devices' }]);
    expect(gpuResources(pods['qwen-decode'].resources)).toEqual([]);
  });
});

describe('device claims that cannot be synthesized', () => {
  const KAITO_ERROR = `${DEVICES_PATH}: Forbidden: provider KAITO (explicit provider selection) cannot carry DRA device claims in its pods; ` +
    'set spec.provider.name to one that can: dynamo, kthena, kuberay, llmd, modelplane, vllm, or request GPUs through spec.resources.gpu instead';

  test("Dynamo's mocker backend has no GPUs to claim: Forbidden, and no template is left without pods", () => {
    const { manifests, errors } = fromYaml(
      { model: MODEL, engine: { type: 'vllm' }, provider: { name: 'dynamo' }, resources: { gpu: { count: 2 } } },
      { [DEVICES]: YAML_AGGREGATED, 'airunway.ai/dynamo-test-backend': 'mocker' },
    );
    expect(errors).toEqual([expect.stringMatching(/^metadata\.annotations\["inference\.cdk8s\.io\/devices"\]: Forbidden: provider Dynamo \(explicit provider selection\) cannot carry DRA device claims/)]);
    expect(manifests).toEqual([]);
  });

  test('KAITO (typed): Forbidden, naming KAITO and the providers that can; nothing synthesized', () => {
    const { md, errors } = build({ model: MODEL, provider: { name: 'kaito' }, resources: { gpu: { count: 2, devices: TYPED_AGGREGATED } } });
    expect(errors).toEqual([KAITO_ERROR]);
    expect(md.apiObjects).toEqual([]);
    expect(md.record).toBeUndefined();
  });

  test('KAITO (annotation): the same error', () => {
    const { md, errors } = fromYaml({ model: MODEL, provider: { name: 'kaito' }, resources: { gpu: { count: 2 } } }, { [DEVICES]: YAML_AGGREGATED });
    expect(errors).toEqual([KAITO_ERROR]);
    expect(md.apiObjects).toEqual([]);
  });

  test('KAITO without device requests is unaffected', () => {
    expect(build({ model: MODEL, provider: { name: 'kaito' }, resources: { gpu: { count: 1 } } }).errors).toEqual([]);
  });

  test('typed devices and a hand-written annotation together', () => {
    const { md, errors } = build({
      metadata: { annotations: { [DEVICES]: YAML_AGGREGATED } },
      model: MODEL,
      provider: { name: 'vllm' },
      resources: { gpu: { count: 2, devices: TYPED_AGGREGATED } },
    });
    expect(errors).toEqual([`${DEVICES_PATH}: Forbidden: is set in metadata.annotations and by GpuOptions.devices; set only one of them`]);
    expect(md.apiObjects).toEqual([]);
  });

  test('the hand-written annotation alone works through the construct too', () => {
    const { manifests, errors } = build({ metadata: { annotations: { [DEVICES]: YAML_AGGREGATED } }, model: MODEL, provider: { name: 'vllm' }, resources: { gpu: { count: 2 } } });
    expect(errors).toEqual([]);
    expect(templatesOf(manifests)).toEqual(AGGREGATED_TEMPLATES);
  });

  test('a typed selector with invalid CEL: the annotation path, the position and the caret', () => {
    const { md, errors } = build({
      model: MODEL,
      provider: { name: 'vllm' },
      resources: { gpu: { count: 1, devices: [{ name: 'bad-cel', deviceClassName: 'gpu.nvidia.com', selectors: [DeviceSelector.cel('device.capacity["gpu.nvidia.com"].memory > 40')] }] } },
    });
    expect(errors).toEqual([
      `${DEVICES_PATH}.resources[0].selectors[0].cel: Invalid value: "device.capacity[\\"gpu.nvidia.com\\"].memory > 40": invalid CEL device selector:\n` +
        "<input>:1:42: found no matching overload for '_>_' applied to '(kubernetes.Quantity, int)'\n" +
        ' | device.capacity["gpu.nvidia.com"].memory > 40\n' +
        ` | ${'.'.repeat(41)}^`,
    ]);
    expect(md.apiObjects).toEqual([]);
  });

  test('a typed predicate with a bad operand', () => {
    const { errors } = build({
      model: MODEL,
      provider: { name: 'vllm' },
      resources: { gpu: { count: 1, devices: [{ name: 'bad-attr', deviceClassName: 'gpu.nvidia.com', selectors: [DeviceSelector.attributeEqualsNumber('gpu.nvidia.com/index', 0.5)] }] } },
    });
    expect(errors).toEqual([
      `${DEVICES_PATH}.resources[0].selectors[0].equals: Invalid value: 0.5: must be a string, an integer or a boolean: the value types of DRA attributes (write a version comparison as cel)`,
    ]);
  });

  test('gpu.count more than the devices claimed', () => {
    const { errors } = build({
      model: MODEL,
      provider: { name: 'vllm' },
      resources: { gpu: { count: 4, devices: [{ name: 'too-few', deviceClassName: 'gpu.nvidia.com', count: 3 }] } },
    });
    expect(errors).toEqual([expect.stringMatching(/^spec\.resources\.gpu\.count: Invalid value: 4: is more than the 3 device\(s\) claimed under metadata\.annotations\["inference\.cdk8s\.io\/devices"\]\.resources: /)]);
  });

  test('prefill requests on an aggregated deployment (annotation)', () => {
    const { errors } = fromYaml({ model: MODEL, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } }, { [DEVICES]: 'prefill:\n  - {name: wrong-component, deviceClassName: gpu.nvidia.com}\n' });
    expect(errors).toEqual([expect.stringMatching(/^metadata\.annotations\["inference\.cdk8s\.io\/devices"\]\.prefill: Invalid value: "1 request\(s\)": .*runs no prefill pods; put the requests under resources$/)]);
  });
});

describe('DeviceClass', () => {
  function chartOf(namespace?: string): { app: App; chart: Chart } {
    const app = Testing.app();
    return { app, chart: new Chart(app, 'test', namespace !== undefined ? { namespace } : {}) };
  }

  test('a cluster-scoped resource.k8s.io/v1 DeviceClass: no namespace even in a namespaced chart', () => {
    const { chart } = chartOf('ml');
    const dc = new DeviceClass(chart, 'H100', {
      metadata: { name: 'h100.example.com', labels: { team: 'ml' } },
      selectors: [DeviceSelector.driver('gpu.nvidia.com'), DeviceSelector.productName('NVIDIA H100 80GB HBM3'), DeviceSelector.memoryAtLeast(Size.gibibytes(40))],
      extendedResourceName: 'example.com/h100',
    });
    expect(chart.node.findAll().flatMap((c) => c.node.validate())).toEqual([]);
    const manifests = Testing.synth(chart);
    expectValidManifests(manifests);
    expect(manifests).toEqual([{
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceClass',
      metadata: { name: 'h100.example.com', labels: { team: 'ml' } },
      spec: {
        selectors: [{ cel: { expression: NVIDIA } }, { cel: { expression: H100 } }, { cel: { expression: MEMORY_40GI } }],
        extendedResourceName: 'example.com/h100',
      },
    }]);
    expect(dc.name).toBe('h100.example.com');
  });

  test('without props: a generated name, every device', () => {
    const { chart } = chartOf();
    const dc = new DeviceClass(chart, 'Any');
    const [manifest] = Testing.synth(chart);
    expectValidManifests(manifest);
    expect(manifest.metadata).toEqual({ name: dc.name });
    expect(manifest.spec).toEqual({});
  });

  test('requests name the class by DeviceClass.name', () => {
    const { chart } = chartOf('ml');
    const dc = new DeviceClass(chart, 'Gpus', { metadata: { name: 'gpus.example.com' }, selectors: [DeviceSelector.driver('gpu.nvidia.com')] });
    new ModelDeployment(chart, 'qwen', { model: MODEL, provider: { name: 'vllm' }, resources: { gpu: { count: 1, devices: [{ name: 'via-class', deviceClassName: dc.name }] } } });
    const manifests = Testing.synth(chart);
    expectValidManifests(manifests);
    expect(templatesOf(manifests)).toEqual({ 'qwen-devices': [{ name: 'via-class', exactly: { deviceClassName: 'gpus.example.com', count: 1 } }] });
  });

  test('a bad selector fails the synth with its path, the position and the caret', () => {
    const { app, chart } = chartOf('ml');
    new DeviceClass(chart, 'Bad', {
      metadata: { name: 'bad' },
      selectors: [DeviceSelector.driver('gpu.nvidia.com'), DeviceSelector.cel('device.driver == 1'), DeviceSelector.attributeEquals('architecture', 'Hopper')],
    });
    const errors = chart.node.findAll().flatMap((c) => c.node.validate());
    expect(errors).toEqual([
      'spec.selectors[1].cel: Invalid value: "device.driver == 1": invalid CEL device selector:\n' +
        "<input>:1:15: found no matching overload for '_==_' applied to '(string, int)'\n" +
        ' | device.driver == 1\n' +
        ` | ${'.'.repeat(14)}^`,
      'spec.selectors[2].attribute: Invalid value: "architecture": must be a qualified name such as "gpu.nvidia.com/architecture": needs the domain of the driver that publishes it, then "/"',
    ]);
    expect(() => app.synth()).toThrow(/spec\.selectors\[1\]\.cel: Invalid value: .*\n<input>:1:15: /);
  });

  test('a namespace, a bad name and a bad extended resource name', () => {
    const { chart } = chartOf();
    new DeviceClass(chart, 'Bad', { metadata: { name: 'Bad_Name', namespace: 'ml' }, extendedResourceName: 'gpu' });
    const errors = chart.node.findAll().flatMap((c) => c.node.validate());
    expect(errors).toEqual([
      expect.stringMatching(/^spec\.extendedResourceName: Invalid value: "gpu": .*no domain prefix/),
      expect.stringMatching(/^metadata\.name: Invalid value: "Bad_Name": /),
      'metadata.namespace: Invalid value: "ml": a DeviceClass is cluster-scoped; remove the namespace',
    ]);
  });

  // BUG (src/constructs/device-class.ts): Kubernetes refuses a DeviceClass with more than 32 selectors
  // (DeviceSelectorsMaxSize applies to DeviceClassSpec.selectors too), and the OpenAPI schema
  // has no maxItems to catch it; the construct checks each selector but not their number, so
  // such a class synthesizes and fails only at apply. Remove `.failing` once fixed.
  test('more than 32 selectors fail the synth', () => {
    const { chart } = chartOf();
    new DeviceClass(chart, 'Many', { metadata: { name: 'many' }, selectors: Array.from({ length: 33 }, () => DeviceSelector.driver('gpu.nvidia.com')) });
    expect(chart.node.findAll().flatMap((c) => c.node.validate())).toEqual([expect.stringMatching(/^spec\.selectors: .*32/)]);
  });
});
