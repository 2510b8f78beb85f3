import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { celRuleCoverage, celRuleStats, expectValidManifests, formatViolation, validateManifest } from './schema-validator';
import {
  findUpstreamSchema,
  listUpstreamSchemas,
  resetUpstreamSchemas,
  scanDefinitionHeader,
  SCHEMA_CACHE_ENV,
  schemaLoadStats,
  UPSTREAM_DIR_ENV,
  upstreamDir,
  upstreamValidator,
} from './upstream-schemas';

/** The violations of one object, as `<path>: <message>` lines. */
function problems(obj: any): string[] {
  return validateManifest(obj).map((v) => `${v.path}: ${v.message}`);
}

function clone<T>(obj: T): T {
  return JSON.parse(JSON.stringify(obj));
}

// --- Fixtures, written from the schemas: small and minimal --------------------------------------

const deployment = () => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'chat', namespace: 'serving', labels: { 'app.kubernetes.io/name': 'chat' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { 'app.kubernetes.io/name': 'chat' } },
    template: {
      metadata: { labels: { 'app.kubernetes.io/name': 'chat' } },
      spec: {
        containers: [{
          name: 'server',
          image: 'vllm/vllm-openai:v0.10.0',
          args: ['--model', 'Qwen/Qwen3-0.6B'],
          ports: [{ name: 'http', containerPort: 8000 }],
          resources: { limits: { 'nvidia.com/gpu': 1, 'memory': '16Gi' } },
        }],
      },
    },
  },
});

const service = () => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'chat' },
  spec: {
    selector: { 'app.kubernetes.io/name': 'chat' },
    ports: [{ name: 'http', port: 80, targetPort: 'http' }],
  },
});

const pvc = () => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'model-cache' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '50Gi' } } },
});

const job = () => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'download-weights' },
  spec: {
    backoffLimit: 3,
    template: {
      spec: {
        restartPolicy: 'Never',
        containers: [{ name: 'fetch', image: 'python:3.12', command: ['hf', 'download', 'Qwen/Qwen3-0.6B'] }],
      },
    },
  },
});

const modelDeployment = () => ({
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  metadata: { name: 'qwen' },
  spec: {
    model: { id: 'Qwen/Qwen3-0.6B' },
    engine: { type: 'vllm' },
    resources: { gpu: { count: 1 } },
  },
});

const dynamoV1alpha1 = () => ({
  apiVersion: 'nvidia.com/v1alpha1',
  kind: 'DynamoGraphDeployment',
  metadata: { name: 'qwen-disagg' },
  spec: {
    backendFramework: 'vllm',
    services: {
      Frontend: { componentType: 'frontend', replicas: 1 },
      VllmWorker: {
        componentType: 'worker',
        replicas: 1,
        resources: { limits: { gpu: '1' } },
        extraPodSpec: { mainContainer: { image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.4.0', args: ['--model', 'Qwen/Qwen3-0.6B'] } },
      },
    },
  },
});

const dynamoV1beta1 = () => ({
  apiVersion: 'nvidia.com/v1beta1',
  kind: 'DynamoGraphDeployment',
  metadata: { name: 'qwen-agg' },
  spec: {
    backendFramework: 'vllm',
    components: [
      { name: 'frontend', type: 'frontend', replicas: 1 },
      {
        name: 'decode',
        type: 'worker',
        replicas: 1,
        podTemplate: { spec: { containers: [{ name: 'main', image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.0.0' }] } },
      },
    ],
  },
});

const rayService = () => ({
  apiVersion: 'ray.io/v1',
  kind: 'RayService',
  metadata: { name: 'llm' },
  spec: {
    serveConfigV2: 'applications: []\n',
    rayClusterConfig: {
      headGroupSpec: {
        rayStartParams: { 'dashboard-host': '0.0.0.0' },
        template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray-llm:2.46.0', resources: { limits: { cpu: '2' } } }] } },
      },
      workerGroupSpecs: [{
        groupName: 'gpu',
        replicas: 1,
        template: { spec: { containers: [{ name: 'ray-worker', image: 'rayproject/ray-llm:2.46.0' }] } },
      }],
    },
  },
});

const workspace = () => ({
  apiVersion: 'kaito.sh/v1beta1',
  kind: 'Workspace',
  metadata: { name: 'phi-4' },
  resource: { instanceType: 'Standard_NC24ads_A100_v4', labelSelector: { matchLabels: { apps: 'phi-4' } } },
  inference: { preset: { name: 'phi-4-mini-instruct' } },
});

const inferencePool = () => ({
  apiVersion: 'inference.networking.k8s.io/v1',
  kind: 'InferencePool',
  metadata: { name: 'qwen-pool' },
  spec: {
    selector: { matchLabels: { 'app.kubernetes.io/name': 'qwen' } },
    targetPorts: [{ number: 8000 }],
    endpointPickerRef: { name: 'qwen-epp', port: { number: 9002 } },
  },
});

const httpRoute = () => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name: 'qwen' },
  spec: {
    parentRefs: [{ name: 'inference-gateway' }],
    rules: [{
      matches: [{ path: { type: 'PathPrefix', value: '/v1' } }],
      backendRefs: [{ group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'qwen-pool' }],
    }],
  },
});

const gateway = () => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: { name: 'inference-gateway' },
  spec: {
    gatewayClassName: 'istio',
    listeners: [{ name: 'http', port: 80, protocol: 'HTTP', allowedRoutes: { namespaces: { from: 'Same' } } }],
  },
});

const resourceClaimTemplate = () => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaimTemplate',
  metadata: { name: 'one-gpu' },
  spec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', count: 1 } }] } } },
});

// --- Built-in kinds -------------------------------------------------------------------------------

describe('built-in kinds (Kubernetes OpenAPI)', () => {
  test('valid Deployment, Service, PersistentVolumeClaim and Job pass', () => {
    for (const obj of [deployment(), service(), pvc(), job()]) {
      expect(problems(obj)).toEqual([]);
    }
  });

  test('fails when a container has an unknown field', () => {
    const obj: any = deployment();
    obj.spec.template.spec.containers[0].imagePullPolice = 'Always';
    expect(problems(obj)).toEqual([
      'spec.template.spec.containers[0].imagePullPolice: unknown field (not in the upstream schema; the API server would drop it)',
    ]);
  });

  test('fails on unknown fields at the root, in metadata and in spec', () => {
    const obj: any = deployment();
    obj.status2 = {};
    obj.metadata.label = { a: 'b' };
    obj.spec.replica = 3;
    expect(problems(obj)).toEqual([
      'metadata.label: unknown field (not in the upstream schema; the API server would drop it)',
      'spec.replica: unknown field (not in the upstream schema; the API server would drop it)',
      'status2: unknown field (not in the upstream schema; the API server would drop it)',
    ]);
  });

  test('fails on a wrong type', () => {
    const obj: any = deployment();
    obj.spec.replicas = '2';
    obj.spec.template.spec.containers[0].args = '--model x';
    expect(problems(obj)).toEqual([
      'spec.replicas: must be integer, got string "2"',
      'spec.template.spec.containers[0].args: must be array, got string "--model x"',
    ]);
  });

  test('fails when a required field is missing', () => {
    const obj: any = deployment();
    delete obj.spec.template.spec.containers[0].name;
    delete obj.spec.selector;
    expect(problems(obj)).toEqual([
      'spec.selector: required field is missing',
      'spec.template.spec.containers[0].name: required field is missing',
    ]);
  });

  test('fails when a workload has no spec at all', () => {
    const obj: any = deployment();
    delete obj.spec;
    expect(problems(obj)).toEqual(['spec: required field is missing']);
  });

  test('int32 fields are range-checked', () => {
    const obj: any = deployment();
    obj.spec.replicas = 2 ** 31;
    expect(problems(obj)).toEqual(['spec.replicas: must be <= 2147483647, got number 2147483648']);
  });

  test('IntOrString targetPort accepts a number and a name, nothing else', () => {
    const obj: any = service();
    obj.spec.ports[0].targetPort = 8000;
    expect(problems(obj)).toEqual([]);
    obj.spec.ports[0].targetPort = 'http';
    expect(problems(obj)).toEqual([]);
    obj.spec.ports[0].targetPort = true;
    expect(problems(obj)).toEqual(['spec.ports[0].targetPort: must be integer or string, got boolean true']);
    obj.spec.ports[0].targetPort = 80.5;
    expect(problems(obj)).toEqual(['spec.ports[0].targetPort: must be integer or string, got number 80.5']);
  });

  test('Quantity accepts a string in quantity syntax or a number', () => {
    const obj: any = deployment();
    const limits = obj.spec.template.spec.containers[0].resources.limits;
    for (const good of ['16Gi', '500m', '1.5', '1e3', 2, 0.5]) {
      limits.memory = good;
      expect(problems(obj)).toEqual([]);
    }
    limits.memory = 'lots';
    expect(problems(obj)).toEqual([
      'spec.template.spec.containers[0].resources.limits.memory: must match one of the allowed shapes, got string "lots" (must match pattern "^[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[KMGTPE]i|[numkMGTPE]|[eE][+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))?$")',
    ]);
    limits.memory = true;
    expect(problems(obj)).toEqual([
      'spec.template.spec.containers[0].resources.limits.memory: must be string or number, got boolean true',
    ]);
  });

  test('creationTimestamp may be null; other nulls are errors', () => {
    const obj: any = deployment();
    obj.metadata.creationTimestamp = null;
    obj.spec.template.metadata.creationTimestamp = null;
    expect(problems(obj)).toEqual([]);
    obj.spec.template.spec.containers[0].image = null;
    expect(problems(obj)).toEqual(['spec.template.spec.containers[0].image: must be string, got null']);
  });

  test('fails when an apps/v1 selector does not match the template labels', () => {
    const obj: any = deployment();
    obj.spec.template.metadata.labels = { app: 'other' };
    expect(problems(obj)).toEqual(['spec.template.metadata.labels: `selector` does not match template `labels`']);
  });

  test('fails on invalid container names and container port names', () => {
    const obj: any = deployment();
    const containers = obj.spec.template.spec.containers;
    containers.push({ ...clone(containers[0]), name: 'Server_2' });
    containers[0].ports[0].name = 'http-port-too-long';
    expect(problems(obj)).toEqual([
      'spec.template.spec.containers[0].ports[0].name: "http-port-too-long" is not an IANA service name: must be no more than 15 characters',
      'spec.template.spec.containers[1].name: "Server_2" is not a DNS-1123 label: must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character',
    ]);
  });

  test('fails on values outside the closed sets the API server enforces', () => {
    const obj: any = deployment();
    obj.spec.template.spec.containers[0].imagePullPolicy = 'Sometimes';
    obj.spec.template.spec.restartPolicy = 'Never';
    obj.spec.strategy = { type: 'BlueGreen' };
    expect(problems(obj)).toEqual([
      'spec.strategy.type: must be one of "Recreate", "RollingUpdate"; got string "BlueGreen"',
      'spec.template.spec.containers[0].imagePullPolicy: must be one of "Always", "Never", "IfNotPresent"; got string "Sometimes"',
      'spec.template.spec.restartPolicy: a Deployment pod template must set "Always", got "Never"',
    ]);
    const claim: any = pvc();
    claim.spec.accessModes = ['ReadWriteSometimes'];
    expect(problems(claim)).toEqual([
      'spec.accessModes[0]: must be one of "ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"; got string "ReadWriteSometimes"',
    ]);
  });

  test('fails when a Job pod template does not set restartPolicy OnFailure or Never', () => {
    const obj: any = job();
    delete obj.spec.template.spec.restartPolicy;
    expect(problems(obj)).toEqual([
      'spec.template.spec.restartPolicy: a Job pod template must set "OnFailure" or "Never", got nothing (defaults to "Always")',
    ]);
  });

  test('fails on a bad Service name (DNS-1035 label) and unnamed ports of a multi-port Service', () => {
    const obj: any = service();
    obj.metadata.name = '8-ball';
    obj.spec.ports.push({ port: 9090 });
    expect(problems(obj)).toEqual([
      '"8-ball" is not a DNS-1035 label: must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character',
      'required when a Service has more than one port',
    ].map((m, i) => `${['metadata.name', 'spec.ports[1].name'][i]}: ${m}`));
    const long: any = service();
    long.metadata.name = 'a'.repeat(64);
    expect(problems(long)).toEqual(['metadata.name: "' + 'a'.repeat(64) + '" is not a DNS-1035 label: must be no more than 63 characters']);
  });
});

// --- Metadata -------------------------------------------------------------------------------------

describe('metadata', () => {
  test('fails when metadata.name is missing', () => {
    const obj: any = pvc();
    delete obj.metadata.name;
    expect(validateManifest(obj).map(formatViolation)).toEqual(['PersistentVolumeClaim/<unnamed>: metadata.name: required field is missing']);
  });

  test('fails when metadata.name is not a DNS subdomain', () => {
    const obj: any = pvc();
    obj.metadata.name = 'Model_Cache';
    expect(problems(obj)).toEqual([
      'metadata.name: "Model_Cache" is not a DNS-1123 subdomain: must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character',
    ]);
    obj.metadata.name = `${'a'.repeat(250)}.bcd`;
    expect(problems(obj)).toEqual([`metadata.name: "${obj.metadata.name}" is not a DNS-1123 subdomain: must be no more than 253 characters`]);
    obj.metadata.name = 'model.cache-1';
    expect(problems(obj)).toEqual([]);
  });

  test('fails when a label value is too long or malformed', () => {
    const obj: any = deployment();
    obj.metadata.labels['airunway.ai/model'] = 'x'.repeat(64);
    obj.spec.template.metadata.labels.tier = '-gpu';
    expect(problems(obj)).toEqual([
      `metadata.labels["airunway.ai/model"]: label value "${'x'.repeat(64)}" is invalid: must be no more than 63 characters`,
      'spec.template.metadata.labels.tier: label value "-gpu" is invalid: a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character',
    ]);
  });

  test('fails when a label or annotation key is malformed', () => {
    const obj: any = deployment();
    obj.metadata.labels['Example.COM/tier'] = 'gpu';
    obj.metadata.labels['a/b/c'] = 'x';
    obj.metadata.annotations = { ['n'.repeat(64)]: 'x' };
    expect(problems(obj)).toEqual([
      `metadata.annotations.${'n'.repeat(64)}: annotation key "${'n'.repeat(64)}" is invalid: name part must be no more than 63 characters`,
      'metadata.labels["Example.COM/tier"]: label key "Example.COM/tier" is invalid: prefix part must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character',
      'metadata.labels["a/b/c"]: label key "a/b/c" is invalid: a qualified name must consist of alphanumeric characters, \'-\', \'_\' or \'.\', with an optional DNS subdomain prefix and \'/\'',
    ]);
  });

  test('fails when apiVersion or kind is missing, or the kind is unknown', () => {
    expect(problems({ metadata: { name: 'x' } })).toEqual(['(root): apiVersion and kind are required (got apiVersion nothing, kind nothing)']);
    expect(problems({ apiVersion: 'apps/v1', kind: 'Deploymnet', metadata: { name: 'x' } })).toEqual(['(root): no upstream schema for apps/v1 Deploymnet']);
    expect(problems({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'x' } })).toEqual(['(root): no upstream schema for example.com/v1 Widget']);
    expect(problems('not an object')).toEqual(['(root): must be an object, got string "not an object"']);
  });
});

// --- Custom resources -------------------------------------------------------------------------------

describe('custom resources (CRD structural schemas)', () => {
  test('valid fixtures pass', () => {
    const fixtures: any[] = [
      modelDeployment(), dynamoV1alpha1(), dynamoV1beta1(), rayService(),
      workspace(), inferencePool(), httpRoute(), resourceClaimTemplate(),
    ];
    // One string per object, so a failure names the kind.
    expect(fixtures.map((o) => `${o.apiVersion} ${o.kind}: ${problems(o).join('; ')}`))
      .toEqual(fixtures.map((o) => `${o.apiVersion} ${o.kind}: `));
  });

  test('airunway.ai/v1alpha1 ModelDeployment: unknown spec field and bad engine type', () => {
    const obj: any = modelDeployment();
    obj.spec.replicas = 2;
    obj.spec.engine.type = 'tgi';
    expect(problems(obj)).toEqual([
      'spec.engine.type: must be one of "vllm", "sglang", "trtllm", "llamacpp"; got string "tgi"',
      'spec.replicas: unknown field (not in the upstream schema; the API server would drop it)',
    ]);
  });

  test('airunway.ai/v1alpha1 ModelDeployment: fails when spec.model is missing', () => {
    const obj: any = modelDeployment();
    delete obj.spec.model;
    expect(problems(obj)).toEqual(['spec.model: required field is missing']);
  });

  test('nvidia.com/v1alpha1 DynamoGraphDeployment: v1beta1 field names are unknown in v1alpha1', () => {
    const obj: any = dynamoV1alpha1();
    obj.spec.services.VllmWorker.podTemplate = { spec: {} };
    obj.spec.services.VllmWorker.replicas = -1;
    expect(problems(obj)).toEqual([
      'spec.services.VllmWorker.podTemplate: unknown field (not in the upstream schema; the API server would drop it)',
      'spec.services.VllmWorker.replicas: must be >= 0, got number -1',
    ]);
  });

  test('nvidia.com/v1beta1 DynamoGraphDeployment: bad component type, duplicate component name', () => {
    const obj: any = dynamoV1beta1();
    obj.spec.components[0].type = 'router';
    obj.spec.components.push({ name: 'decode' });
    expect(problems(obj)).toEqual([
      // The CRD's CEL rule on spec.components catches the duplicate as well.
      'spec.components: component names must be unique case-insensitively',
      'spec.components[0].type: must be one of "frontend", "worker", "prefill", "decode", "planner", "epp"; got string "router"',
      'spec.components[2]: duplicate entry for list-map key {"name":"decode"}',
    ]);
  });

  test('ray.io/v1 RayService: unknown field in the embedded pod spec, missing template', () => {
    const obj: any = rayService();
    obj.spec.rayClusterConfig.headGroupSpec.template.spec.containers[0].gpus = 1;
    delete obj.spec.rayClusterConfig.workerGroupSpecs[0].template;
    expect(problems(obj)).toEqual([
      'spec.rayClusterConfig.headGroupSpec.template.spec.containers[0].gpus: unknown field (not in the upstream schema; the API server would drop it)',
      'spec.rayClusterConfig.workerGroupSpecs[0].template: required field is missing',
    ]);
  });

  test('ray.io/v1 RayService: int-or-string quantities accept numbers and strings, not floats', () => {
    const obj: any = rayService();
    const limits = obj.spec.rayClusterConfig.headGroupSpec.template.spec.containers[0].resources.limits;
    limits.cpu = 2;
    expect(problems(obj)).toEqual([]);
    limits.cpu = '2.5Gx';
    expect(problems(obj)).toHaveLength(1);
    expect(problems(obj)[0]).toMatch(/^spec\.rayClusterConfig\.headGroupSpec\.template\.spec\.containers\[0\]\.resources\.limits\.cpu: must match pattern/);
    limits.cpu = 2.5;
    expect(problems(obj)).toEqual(['spec.rayClusterConfig.headGroupSpec.template.spec.containers[0].resources.limits.cpu: must be integer or string, got number 2.5']);
  });

  test('kaito.sh/v1beta1 Workspace: fields live at the root; unknown root field; preserve-unknown template', () => {
    const obj: any = workspace();
    obj.inference.template = { spec: { anything: ['goes'] } };
    expect(problems(obj)).toEqual([]);
    obj.spec = { resource: {} };
    delete obj.resource.labelSelector;
    expect(problems(obj)).toEqual([
      'resource.labelSelector: required field is missing',
      'spec: unknown field (not in the upstream schema; the API server would drop it)',
    ]);
  });

  test('inference.networking.k8s.io/v1 InferencePool: too many target ports, port out of range', () => {
    const obj: any = inferencePool();
    obj.spec.targetPorts = [{ number: 70000 }];
    delete obj.spec.selector.matchLabels;
    expect(problems(obj)).toEqual([
      'spec.selector.matchLabels: required field is missing',
      'spec.targetPorts[0].number: must be <= 65535, got number 70000',
    ]);
  });

  test('gateway.networking.k8s.io/v1 HTTPRoute: bad path match type, unknown backendRef field', () => {
    const obj: any = httpRoute();
    obj.spec.rules[0].matches[0].path.type = 'Prefix';
    obj.spec.rules[0].backendRefs[0].namespaceName = 'x';
    expect(problems(obj)).toEqual([
      'spec.rules[0].backendRefs[0].namespaceName: unknown field (not in the upstream schema; the API server would drop it)',
      // The CRD also carries a CEL rule for the path type; the API server reports both.
      "spec.rules[0].matches[0].path: type must be one of ['Exact', 'PathPrefix', 'RegularExpression']",
      'spec.rules[0].matches[0].path.type: must be one of "Exact", "PathPrefix", "RegularExpression"; got string "Prefix"',
    ]);
  });

  test('resource.k8s.io/v1 ResourceClaimTemplate: missing deviceClassName, unknown request field', () => {
    const obj: any = resourceClaimTemplate();
    delete obj.spec.spec.devices.requests[0].exactly.deviceClassName;
    obj.spec.spec.devices.requests[0].deviceClassName = 'gpu.nvidia.com';
    expect(problems(obj)).toEqual([
      'spec.spec.devices.requests[0].deviceClassName: unknown field (not in the upstream schema; the API server would drop it)',
      'spec.spec.devices.requests[0].exactly.deviceClassName: required field is missing',
    ]);
  });

  test('served deprecated versions are known and flagged', () => {
    expect(findUpstreamSchema('nvidia.com/v1alpha1', 'DynamoGraphDeployment')).toMatchObject({ deprecated: true, source: 'crd' });
    expect(findUpstreamSchema('nvidia.com/v1beta1', 'DynamoGraphDeployment')).toMatchObject({ deprecated: false });
    expect(findUpstreamSchema('apps/v1', 'Deployment')).toMatchObject({ source: 'kubernetes', file: 'kubernetes/apis__apps__v1_openapi.json' });
    expect(findUpstreamSchema('modelplane.ai/v1alpha1', 'ModelDeployment')).toMatchObject({ source: 'xrd' });
  });
});

// --- CEL validation rules of real CRDs -------------------------------------------------------------

describe('CEL validation rules (x-kubernetes-validations) of upstream CRDs', () => {
  test('valid HTTPRoute, Gateway and InferencePool pass, and their rules were evaluated', () => {
    const before = celRuleStats().evaluations;
    for (const obj of [httpRoute(), gateway(), inferencePool()]) {
      expect(problems(obj)).toEqual([]);
    }
    expect(celRuleStats().evaluations).toBeGreaterThan(before + 20);
  });

  test('HTTPRoute: Exact and PathPrefix path values must be absolute, clean paths', () => {
    const obj: any = httpRoute();
    obj.spec.rules[0].matches[0].path.value = 'v1//chat';
    expect(problems(obj)).toEqual([
      "spec.rules[0].matches[0].path: value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']",
      "spec.rules[0].matches[0].path: must not contain '//' when type one of ['Exact', 'PathPrefix']",
    ]);
    obj.spec.rules[0].matches[0].path.value = '/v1/chat#x';
    expect(problems(obj)).toEqual([
      "spec.rules[0].matches[0].path: must not contain '#' when type one of ['Exact', 'PathPrefix']",
      "spec.rules[0].matches[0].path: must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) for types ['Exact', 'PathPrefix']",
    ]);
    // The rules apply to Exact and PathPrefix only.
    obj.spec.rules[0].matches[0].path = { type: 'RegularExpression', value: 'v1//chat' };
    expect(problems(obj)).toEqual([]);
  });

  test('HTTPRoute: the backend request timeout may not exceed the request timeout (compared as durations)', () => {
    const obj: any = httpRoute();
    obj.spec.rules[0].timeouts = { request: '10s', backendRequest: '1m' };
    expect(problems(obj)).toEqual(['spec.rules[0].timeouts: backendRequest timeout cannot be longer than request timeout']);
    // As strings '30s' > '1m'; as durations 30s < 1m.
    obj.spec.rules[0].timeouts = { request: '1m', backendRequest: '30s' };
    expect(problems(obj)).toEqual([]);
    // A zero request timeout disables it.
    obj.spec.rules[0].timeouts = { request: '0s', backendRequest: '1h' };
    expect(problems(obj)).toEqual([]);
  });

  test('HTTPRoute: defaults are applied before the rules run (no matches means one PathPrefix "/" match)', () => {
    const obj: any = httpRoute();
    delete obj.spec.rules[0].matches;
    obj.spec.rules[0].filters = [{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/' } } }];
    expect(problems(obj)).toEqual([]);
    obj.spec.rules[0].matches = [{ path: { type: 'Exact', value: '/v1' } }];
    expect(problems(obj)).toEqual([
      'spec.rules[0]: When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified',
    ]);
  });

  test('HTTPRoute: reserved words are escaped as Kubernetes does (namespace is __namespace__)', () => {
    const obj: any = httpRoute();
    obj.spec.parentRefs = [{ name: 'gw', namespace: 'a' }, { name: 'gw', namespace: 'b', sectionName: 'http' }];
    expect(problems(obj)).toEqual([]);
    obj.spec.parentRefs[1].namespace = 'a';
    expect(problems(obj)).toEqual(['spec.parentRefs: sectionName must be specified when parentRefs includes 2 or more references to the same parent']);
  });

  test('Gateway: listener names are unique and HTTP listeners take no TLS', () => {
    const obj: any = gateway();
    obj.spec.listeners[0].tls = { mode: 'Terminate', certificateRefs: [{ name: 'cert' }] };
    obj.spec.listeners.push({ name: 'http', port: 8080, protocol: 'HTTP' });
    expect(problems(obj)).toEqual([
      "spec.listeners: tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']",
      'spec.listeners: Listener name must be unique within the Gateway',
      'spec.listeners[1]: duplicate entry for list-map key {"name":"http"}',
    ]);
  });

  test('InferencePool: the endpoint picker needs a port when its kind is Service, the default; target ports are unique', () => {
    const obj: any = inferencePool();
    delete obj.spec.endpointPickerRef.port;
    obj.spec.targetPorts = [{ number: 8000 }, { number: 8000 }];
    expect(problems(obj)).toEqual([
      "spec.endpointPickerRef: port is required when kind is 'Service' or unspecified (defaults to 'Service')",
      'spec.targetPorts: port number must be unique',
    ]);
  });

  test('transition rules (oldSelf) are skipped at create; optionalOldSelf rules run with no old object', () => {
    expect(problems({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'GatewayClass', metadata: { name: 'istio' }, spec: { controllerName: 'istio.io/gateway-controller' } })).toEqual([]);
    expect(celRuleCoverage('gateway.networking.k8s.io/v1', 'GatewayClass')?.rules).toEqual([{
      apiVersion: 'gateway.networking.k8s.io/v1', kind: 'GatewayClass', path: 'spec.controllerName', rule: 'self == oldSelf', status: 'transition',
    }]);
    // Dynamo: `oldSelf.hasValue() || !has(self.restart)` with optionalOldSelf rejects a restart on create.
    const obj: any = dynamoV1beta1();
    expect(problems(obj)).toEqual([]);
    obj.spec.restart = { id: 'r1' };
    expect(problems(obj)).toEqual(['spec: spec.restart must be unset on create; set spec.restart.id after creation to request a restart']);
  });

  test('rules calling Kubernetes library functions @bufbuild/cel lacks are counted as unsupported, never failed', () => {
    // Dynamo v1alpha1: (has(self.disabled) && self.disabled) || (has(self.size) && quantity(self.size).isGreaterThan(quantity('0'))).
    // The API server rejects size 0; this check cannot evaluate quantity() and must not guess.
    const obj: any = dynamoV1alpha1();
    obj.spec.services.VllmWorker.sharedMemory = { disabled: false, size: '0' };
    expect(problems(obj)).toEqual([]);
    expect(celRuleStats().unsupported).toContainEqual(expect.objectContaining({
      apiVersion: 'nvidia.com/v1alpha1',
      kind: 'DynamoGraphDeployment',
      path: 'spec.services[*].sharedMemory',
      status: 'unsupported',
      reason: '.isGreaterThan(), quantity()',
    }));
  });

  test('each rule is compiled once', () => {
    problems(httpRoute());
    const compiled = celRuleStats().compiled;
    problems(httpRoute());
    problems(gateway());
    expect(celRuleStats().compiled).toBe(compiled);
  });

  test('coverage, per CRD version: every rule is found, and is evaluated, a transition rule, or unsupported for a stated reason', () => {
    // Counted per file and kind, so a new upstream file changes no expectation here: its rules
    // are held to the same invariants, and only the kinds we emit have pinned figures.
    const customKinds = listUpstreamSchemas().filter((x) => x.source !== 'kubernetes');
    const declared = declaredRuleCounts(customKinds.map((e) => e.file));
    const pinned: Record<string, unknown> = {};
    for (const e of customKinds) {
      const key = `${e.apiVersion} ${e.kind}`;
      const c = celRuleCoverage(e.apiVersion, e.kind);
      // The rule extraction finds every x-kubernetes-validations entry of the version's schema.
      expect([key, c?.coverage.rules ?? 0]).toEqual([key, declared.get(key) ?? 0]);
      if (!c) {
        continue;
      }
      const { rules, evaluated, transition, unsupported } = c.coverage;
      expect([key, evaluated + transition + unsupported]).toEqual([key, rules]);
      for (const r of c.rules.filter((x) => x.status === 'unsupported')) {
        expect(r.reason).toMatch(/\S/);
      }
      if (EMITTED_KINDS.includes(key)) {
        pinned[key] = { rules, evaluated, transition, unsupported: c.rules.filter((r) => r.status === 'unsupported').map((r) => `${r.path}: ${r.reason}`) };
      }
    }
    expect(pinned).toEqual({
      'gateway.networking.k8s.io/v1 Gateway': { rules: 16, evaluated: 16, transition: 0, unsupported: [] },
      'gateway.networking.k8s.io/v1 HTTPRoute': { rules: 89, evaluated: 89, transition: 0, unsupported: [] },
      'inference.networking.k8s.io/v1 InferencePool': { rules: 2, evaluated: 2, transition: 0, unsupported: [] },
      'nvidia.com/v1alpha1 DynamoGraphDeployment': {
        rules: 13, evaluated: 11, transition: 1, unsupported: ['spec.services[*].sharedMemory: .isGreaterThan(), quantity()'],
      },
      'nvidia.com/v1beta1 DynamoGraphDeployment': { rules: 18, evaluated: 17, transition: 1, unsupported: [] },
      'ray.io/v1 RayService': { rules: 5, evaluated: 2, transition: 3, unsupported: [] },
    });
    // No evaluation of an upstream rule in this file ended undecided.
    expect(celRuleStats().undecided.filter((u) => !u.apiVersion.startsWith('test.example/'))).toEqual([]);
  });
});

/** The custom resource kinds the library synthesizes (or passes through, as Gateways). */
const EMITTED_KINDS = [
  'airunway.ai/v1alpha1 ModelDeployment',
  'airunway.ai/v1alpha1 InferenceProviderConfig',
  'nvidia.com/v1alpha1 DynamoGraphDeployment',
  'nvidia.com/v1beta1 DynamoGraphDeployment',
  'ray.io/v1 RayService',
  'kaito.sh/v1beta1 Workspace',
  'inference.networking.k8s.io/v1 InferencePool',
  'inference.networking.x-k8s.io/v1alpha2 InferencePool',
  'gateway.networking.k8s.io/v1 Gateway',
  'gateway.networking.k8s.io/v1 HTTPRoute',
  'gateway.networking.k8s.io/v1beta1 ReferenceGrant',
];

/**
 * How many `x-kubernetes-validations` entries each served CRD/XRD version declares, counted on the
 * raw files independently of the validator's extraction.
 */
function declaredRuleCounts(files: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  const countRules = (node: unknown): number => {
    if (Array.isArray(node)) {
      return node.reduce((n: number, x) => n + countRules(x), 0);
    }
    if (!node || typeof node !== 'object') {
      return 0;
    }
    return Object.entries(node).reduce((n, [k, v]) => n + (k === 'x-kubernetes-validations' && Array.isArray(v) ? v.length : countRules(v)), 0);
  };
  for (const file of new Set(files)) {
    for (const doc of YAML.parseAllDocuments(fs.readFileSync(path.join(upstreamDir(), file), 'utf8'))) {
      const crd: any = doc.toJS({ maxAliasCount: -1 });
      const group = crd?.spec?.group;
      for (const v of crd?.spec?.versions ?? []) {
        if (v.served) {
          counts.set(`${group ? `${group}/` : ''}${v.name} ${crd.spec.names.kind}`, countRules(v.schema?.openAPIV3Schema));
        }
      }
    }
  }
  return counts;
}

// --- The jest helper -------------------------------------------------------------------------------

describe('expectValidManifests', () => {
  test('passes for valid manifests', () => {
    expect(() => expectValidManifests([deployment(), service(), inferencePool()])).not.toThrow();
  });

  test('throws one error listing every violation as <kind>/<name>: <path>: <message>', () => {
    const bad: any = deployment();
    bad.spec.template.spec.containers[0].gpu = 1;
    const badService: any = service();
    badService.metadata.name = 'Chat';
    let message = '';
    try {
      expectValidManifests([bad, badService, modelDeployment(), { apiVersion: 'v1', kind: 'Nope', metadata: { name: 'n' } }]);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe([
      '3 schema violation(s) in 4 manifest(s):',
      '  Deployment/chat: spec.template.spec.containers[0].gpu: unknown field (not in the upstream schema; the API server would drop it)',
      '  Service/Chat: metadata.name: "Chat" is not a DNS-1035 label: must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character',
      '  Nope/n: (root): no upstream schema for v1 Nope',
    ].join('\n'));
  });

  test('fails when given nothing', () => {
    expect(() => expectValidManifests([])).toThrow(/no manifests given/);
  });
});

// --- The registry ------------------------------------------------------------------------------------

describe('upstream schema registry', () => {
  test('resolves ../shared/upstream from the repository', () => {
    expect(fs.existsSync(path.join(upstreamDir(), 'SOURCES.md'))).toBe(true);
  });

  test('compiles each validator once', () => {
    const first = upstreamValidator('apps/v1', 'Deployment');
    const compiled = schemaLoadStats().compiled;
    expect(upstreamValidator('apps/v1', 'Deployment')).toBe(first);
    expect(schemaLoadStats().compiled).toBe(compiled);
  });

  test('every served version of every upstream schema compiles', () => {
    const all = listUpstreamSchemas();
    const kinds = all.map((e) => `${e.apiVersion} ${e.kind}`);
    for (const expected of [
      'apps/v1 Deployment', 'v1 Service', 'batch/v1 Job', 'resource.k8s.io/v1 ResourceClaimTemplate',
      'airunway.ai/v1alpha1 ModelDeployment', 'nvidia.com/v1alpha1 DynamoGraphDeployment', 'nvidia.com/v1beta1 DynamoGraphDeployment',
      'ray.io/v1 RayService', 'kaito.sh/v1beta1 Workspace', 'inference.networking.k8s.io/v1 InferencePool',
      'gateway.networking.k8s.io/v1 HTTPRoute', 'gateway.networking.k8s.io/v1beta1 ReferenceGrant',
      'leaderworkerset.x-k8s.io/v1 LeaderWorkerSet', 'modelplane.ai/v1alpha1 ModelDeployment', 'ai.flexinfer/v1alpha2 Model',
    ]) {
      expect(kinds).toContain(expected);
    }
    for (const e of all.filter((x) => x.source !== 'kubernetes')) {
      expect(upstreamValidator(e.apiVersion, e.kind)).toBeInstanceOf(Function);
    }
    // A pattern JavaScript cannot express is skipped with its reason, never silently; none of
    // the kinds we emit loses one.
    const dropped = schemaLoadStats().droppedPatterns;
    for (const d of dropped) {
      expect(d.reason).toMatch(/\S/);
    }
    const emittedFiles = new Set(all.filter((e) => EMITTED_KINDS.includes(`${e.apiVersion} ${e.kind}`) || e.source === 'kubernetes').map((e) => e.file));
    expect(dropped.filter((d) => emittedFiles.has(d.file))).toEqual([]);
  });

  test("Go-only regular-expression syntax is translated, not dropped: PrometheusRule's (?i) pattern", () => {
    const rule = (strategy: string) => ({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PrometheusRule',
      metadata: { name: 'vllm' },
      spec: { groups: [{ name: 'vllm', partial_response_strategy: strategy, rules: [{ record: 'x', expr: 'up' }] }] },
    });
    expect(problems(rule('ABORT'))).toEqual([]);
    expect(problems(rule('warn'))).toEqual([]);
    expect(problems(rule('drop'))).toEqual(['spec.groups[0].partial_response_strategy: must match pattern "^(?i:(abort|warn)?$)", got string "drop"']);
    expect(schemaLoadStats().droppedPatterns.map((d) => d.pattern)).not.toContain('^(?i)(abort|warn)?$');
  });

  test('scans CRD headers without parsing, and gives up on anything unusual', () => {
    const crd = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  group: a.example\n  names:\n    kind: Thing\n    plural: things\n  versions: []\n';
    expect(scanDefinitionHeader(crd)).toEqual({ group: 'a.example', kind: 'Thing' });
    expect(scanDefinitionHeader(crd.replace('  names:', '# a comment at column 0\n  names:'))).toEqual({ group: 'a.example', kind: 'Thing' });
    expect(scanDefinitionHeader(`${crd}---\n${crd}`)).toBeUndefined();
    expect(scanDefinitionHeader('{"kind": "CustomResourceDefinition"}')).toBeUndefined();
  });
});

// --- Structural-schema semantics, on CRDs written for this test ----------------------------------------

const SYNTHETIC_CRDS = `# Two definitions in one file (the header scan gives up; the file is parsed on a miss).
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.test.example
spec:
  group: test.example
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size, mode]
            properties:
              size: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
              mode: {type: string, default: fast, enum: [fast, slow]}
              count: {type: integer, format: int32, minimum: 0, exclusiveMinimum: true}
              note: {type: string, nullable: true}
              free: {type: object, x-kubernetes-preserve-unknown-fields: true}
              marker: {type: object}
              tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}
              child: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
              address: {type: string, format: ipv4}
              since: {type: string, format: date-time}
              ratio: {type: number, format: double}
              checked: {type: string, x-kubernetes-validations: [{rule: "self == 'checked'"}]}
              either:
                type: object
                properties:
                  a: {type: string}
                  b: {type: string}
                oneOf:
                - required: [a]
                - required: [b]
  - name: v0
    served: false
    storage: false
    schema:
      openAPIV3Schema: {type: object}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.test.example
spec:
  group: test.example
  names: {kind: Gadget, plural: gadgets}
  scope: Cluster
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata:
            type: object
            properties:
              name: {type: string, maxLength: 8}
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ruleds.test.example
spec:
  group: test.example
  names: {kind: Ruled, plural: ruleds}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        # The root sees apiVersion, kind and only metadata.name/generateName.
        - rule: "self.apiVersion == 'test.example/v1' && self.kind == 'Ruled' && !has(self.metadata.labels)"
          message: the root sees apiVersion, kind, metadata.name
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "!has(self.replicas) || self.replicas <= self.maxReplicas"
              messageExpression: "'replicas ' + string(self.replicas) + ' exceeds ' + string(self.maxReplicas)"
              fieldPath: .replicas
              reason: FieldValueForbidden
            - rule: "!has(self.__namespace__) || self.__namespace__ != 'default'"
              message: namespace must not be default
            - rule: "!has(self.limits) || !('nvidia.com/gpu' in self.limits) || self.limits['nvidia.com/gpu'] == 1"
              message: at most one GPU
            # An absent owner is defaulted; an explicit null is kept, and CEL sees it as absent.
            - rule: "has(self.owner)"
              message: owner is null
            properties:
              owner: {type: string, nullable: true, default: team}
              replicas: {type: integer, x-kubernetes-validations: [{rule: "type(self) == int", message: replicas is an int}]}
              maxReplicas: {type: integer, default: 4}
              ratio: {type: number, x-kubernetes-validations: [{rule: "type(self) == double", message: ratio is a double}]}
              namespace: {type: string}
              limits:
                type: object
                additionalProperties: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
              target:
                type: object
                properties:
                  port: {type: integer}
                x-kubernetes-validations: [{rule: "self.port > 0", message: target port must be positive}]
              window:
                type: string
                format: duration
                x-kubernetes-validations: [{rule: "self >= duration('1s')", message: window must be at least 1s}]
              members:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                  x-kubernetes-validations: [{rule: "self.name != ''", message: a member needs a name}]
              endpoint:
                type: string
                x-kubernetes-validations:
                - {rule: "isURL(self)", message: endpoint must be a URL}
                - {rule: "self.?scheme.orValue('') == ''", message: never parsed}
              mode:
                type: string
                x-kubernetes-validations:
                - {rule: "self == oldSelf", message: mode is immutable}
                - {rule: "!oldSelf.hasValue() || self == oldSelf.value()", optionalOldSelf: true, message: mode is immutable once set}
                - {rule: "self != 'locked' || oldSelf.hasValue()", optionalOldSelf: true, message: mode may be locked only after creation}
`;

const SYNTHETIC_XRD = `apiVersion: apiextensions.crossplane.io/v2
kind: CompositeResourceDefinition
metadata:
  name: stacks.test.example
spec:
  group: test.example
  names:
    kind: Stack
    plural: stacks
  versions:
  - name: v1alpha1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: string}
`;

describe('structural schema semantics (synthetic CRDs)', () => {
  let dir: string;
  let cacheDir: string;
  const saved = { upstream: process.env[UPSTREAM_DIR_ENV], cache: process.env[SCHEMA_CACHE_ENV] };

  beforeAll(() => {
    const realKubernetes = path.join(upstreamDir(), 'kubernetes');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upstream-schemas-test-'));
    cacheDir = path.join(dir, '.cache');
    fs.mkdirSync(path.join(dir, 'synthetic'));
    fs.symlinkSync(realKubernetes, path.join(dir, 'kubernetes'));
    fs.writeFileSync(path.join(dir, 'synthetic', 'crds.yaml'), SYNTHETIC_CRDS);
    fs.writeFileSync(path.join(dir, 'synthetic', 'xrd.yaml'), SYNTHETIC_XRD);
    process.env[UPSTREAM_DIR_ENV] = dir;
    process.env[SCHEMA_CACHE_ENV] = cacheDir;
  });

  afterAll(() => {
    restore(UPSTREAM_DIR_ENV, saved.upstream);
    restore(SCHEMA_CACHE_ENV, saved.cache);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const widget = (spec: any) => ({ apiVersion: 'test.example/v1', kind: 'Widget', metadata: { name: 'w' }, spec });

  test('the upstream directory can be overridden', () => {
    expect(upstreamDir()).toBe(dir);
    expect(findUpstreamSchema('apps/v1', 'Deployment')).toBeDefined();
    expect(findUpstreamSchema('nvidia.com/v1beta1', 'DynamoGraphDeployment')).toBeUndefined();
  });

  test('a minimal object passes; defaulted required fields may be omitted', () => {
    expect(problems(widget({ size: 3 }))).toEqual([]);
    expect(problems(widget({ size: '3Gi', mode: 'slow' }))).toEqual([]);
    expect(problems(widget({}))).toEqual(['spec.size: required field is missing']);
  });

  test('objects are closed unless x-kubernetes-preserve-unknown-fields; bare objects accept nothing', () => {
    expect(problems(widget({ size: 1, free: { any: { thing: [1] } }, marker: {} }))).toEqual([]);
    expect(problems(widget({ size: 1, marker: { on: true }, other: 1 }))).toEqual([
      'spec.marker.on: unknown field (not in the upstream schema; the API server would drop it)',
      'spec.other: unknown field (not in the upstream schema; the API server would drop it)',
    ]);
    expect(problems({ ...widget({ size: 1 }), extra: {} })).toEqual(['extra: unknown field (not in the upstream schema; the API server would drop it)']);
  });

  test('int-or-string, nullable, int32 with exclusive minimum, set lists', () => {
    expect(problems(widget({ size: 1, note: null, count: 1, tags: ['a', 'b'] }))).toEqual([]);
    expect(problems(widget({ size: false, count: 0, tags: ['a', 'a'] }))).toEqual([
      'spec.count: must be > 0, got number 0',
      'spec.size: must be integer or string, got boolean false',
      'spec.tags[1]: duplicate entry string "a" in a set-type list (same as item 0)',
    ]);
    expect(problems(widget({ size: 1, count: 2 ** 31, mode: null }))).toEqual([
      'spec.count: must be <= 2147483647, got number 2147483648',
      'spec.mode: must be string, got null',
    ]);
  });

  test('embedded resources need apiVersion and kind, and their metadata is ObjectMeta', () => {
    expect(problems(widget({ size: 1, child: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } } }))).toEqual([]);
    expect(problems(widget({ size: 1, child: { kind: 'ConfigMap', metadata: { nam: 'c' } } }))).toEqual([
      'spec.child.apiVersion: required field is missing',
      'spec.child.metadata.nam: unknown field (not in the upstream schema; the API server would drop it)',
    ]);
  });

  test('ipv4 is checked; other formats are not', () => {
    expect(problems(widget({ size: 1, address: '10.0.0.1', since: 'yesterday', ratio: 0.5 }))).toEqual([]);
    expect(problems(widget({ size: 1, address: '10.0.0.256' }))).toEqual(['spec.address: must match format "ipv4", got string "10.0.0.256"']);
  });

  const ruled = (spec: any, metadata: any = { name: 'r' }) => ({ apiVersion: 'test.example/v1', kind: 'Ruled', metadata, spec });

  test('CEL: a rule without message reports the rule; a rule sees only a present value', () => {
    expect(problems(widget({ size: 1, checked: 'checked' }))).toEqual([]);
    expect(problems(widget({ size: 1, checked: 'x' }))).toEqual(["spec.checked: failed rule: self == 'checked'"]);
    expect(problems(ruled({}, { name: 'r', labels: { app: 'x' } }))).toEqual([]);
  });

  test('CEL: messageExpression, fieldPath and reason; defaults are applied first', () => {
    expect(problems(ruled({ replicas: 4 }))).toEqual([]);
    expect(problems(ruled({ replicas: 5 }))).toEqual(['spec.replicas: Forbidden: replicas 5 exceeds 4']);
    expect(problems(ruled({ replicas: 5, maxReplicas: 8 }))).toEqual([]);
  });

  test('CEL: integers are ints, numbers doubles (also when integral), map keys unescaped, reserved names escaped', () => {
    expect(problems(ruled({ replicas: 2, ratio: 1, limits: { 'nvidia.com/gpu': 1 }, namespace: 'team-a' }))).toEqual([]);
    expect(problems(ruled({ limits: { 'nvidia.com/gpu': 2 }, namespace: 'default' }))).toEqual([
      'spec: namespace must not be default',
      'spec: at most one GPU',
    ]);
  });

  test('CEL: an explicit null of a nullable property is not defaulted and reads as absent', () => {
    expect(problems(ruled({ owner: 'me' }))).toEqual([]);
    expect(problems(ruled({ owner: null }))).toEqual(['spec: owner is null']);
  });

  test('CEL: a run-time error (a missing key without has()) rejects the object, as the API server does', () => {
    expect(problems(ruled({ target: { port: 8080 } }))).toEqual([]);
    expect(problems(ruled({ target: {} }))).toEqual(['spec.target: field not found: port evaluating rule: target port must be positive']);
  });

  test('CEL: list items are checked one by one; duration-format strings are durations', () => {
    expect(problems(ruled({ members: [{ name: 'a' }, { name: '' }], window: '500ms' }))).toEqual([
      'spec.members[1]: a member needs a name',
      'spec.window: window must be at least 1s',
    ]);
    expect(problems(ruled({ window: '1m30s' }))).toEqual([]);
  });

  test('CEL: a value @bufbuild/cel cannot represent leaves its rules undecided, not failed', () => {
    expect(problems(ruled({ window: '1 day' }))).toEqual([]);
    expect(celRuleStats().undecided).toContainEqual(expect.objectContaining({ kind: 'Ruled', path: 'spec.window', count: 1 }));
  });

  test('CEL: transition rules are skipped; unsupported rules never fail and are listed with the reason', () => {
    expect(problems(ruled({ endpoint: 'not a URL', mode: 'fast' }))).toEqual([]);
    expect(problems(ruled({ mode: 'locked' }))).toEqual(['spec.mode: mode may be locked only after creation']);
    const coverage = celRuleCoverage('test.example/v1', 'Ruled');
    expect(coverage?.coverage).toEqual({ apiVersion: 'test.example/v1', kind: 'Ruled', rules: 15, evaluated: 11, transition: 1, unsupported: 3 });
    expect(coverage?.rules.filter((r) => r.status !== 'evaluated').map((r) => `${r.path} ${r.status} ${r.reason ?? ''}`)).toEqual([
      'spec.endpoint unsupported isURL()',
      expect.stringMatching(/^spec\.endpoint unsupported @bufbuild\/cel cannot parse it/),
      'spec.mode transition ',
      'spec.mode unsupported .value(), oldSelf as an optional value',
    ]);
  });

  test('properties inside oneOf/anyOf are value checks and do not close the object', () => {
    expect(problems(widget({ size: 1, either: { a: 'x' } }))).toEqual([]);
    expect(problems(widget({ size: 1, either: { a: 'x', b: 'y' } }))).toEqual([
      'spec.either: must match exactly one of the allowed shapes, but matches several (0, 1)',
    ]);
    expect(problems(widget({ size: 1, either: {} }))).toEqual([
      'spec.either: must match exactly one of the allowed shapes, got object (must have required property \'a\'; must have required property \'b\')',
    ]);
  });

  test('unserved versions are unknown; the second definition of a multi-document file is found', () => {
    expect(problems({ apiVersion: 'test.example/v0', kind: 'Widget', metadata: { name: 'w' } })).toEqual(['(root): no upstream schema for test.example/v0 Widget']);
    expect(problems({ apiVersion: 'test.example/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { x: 1 } })).toEqual([]);
  });

  test('a CRD may restrict metadata.name; the rest of metadata is still ObjectMeta', () => {
    expect(problems({ apiVersion: 'test.example/v1', kind: 'Gadget', metadata: { name: 'too-long-name', labels: { a: 'b' }, owner: 'x' } })).toEqual([
      'metadata.name: must NOT have more than 8 characters, got string "too-long-name"',
      'metadata.owner: unknown field (not in the upstream schema; the API server would drop it)',
    ]);
  });

  test('Crossplane XRDs: spec is closed, Crossplane machinery fields are accepted', () => {
    const stack = { apiVersion: 'test.example/v1alpha1', kind: 'Stack', metadata: { name: 's', namespace: 'team-a' }, spec: { size: 'l', crossplane: { compositionRef: { name: 'c' } } } };
    expect(problems(stack)).toEqual([]);
    expect(problems({ ...stack, spec: { sise: 'l' } })).toEqual(['spec.sise: unknown field (not in the upstream schema; the API server would drop it)']);
    expect(findUpstreamSchema('test.example/v1alpha1', 'Stack')).toMatchObject({ source: 'xrd', file: path.join('synthetic', 'xrd.yaml') });
  });

  test('converted schemas are cached on disk and reused by a fresh registry', () => {
    upstreamValidator('test.example/v1alpha1', 'Stack');
    expect(fs.readdirSync(cacheDir).filter((f) => f.endsWith('.json')).length).toBeGreaterThan(0);
    resetUpstreamSchemas();
    expect(problems(widget({ size: 1 }))).toEqual([]);
    expect(schemaLoadStats().cacheHits).toBeGreaterThan(0);
  });
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) {
    delete process.env[name];
  } else {
    process.env[name] = value;
  }
}
