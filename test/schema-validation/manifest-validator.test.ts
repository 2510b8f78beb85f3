import {
  deployment, dynamoV1alpha1, dynamoV1beta1, httpRoute, inferencePool, job, modelDeployment, problems, pvc, rayService,
  resourceClaimTemplate, service, workspace,
} from './fixtures';
import { formatViolation, validateManifest, validateManifests } from '../../src/schema-validation/manifest-validator';

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
});

describe('objects that are not manifests', () => {
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
});

describe('results', () => {
  test('violations are sorted by path, deduplicated, and formatted as <kind>/<name>: <path>: <message>', () => {
    const obj: any = deployment();
    obj.spec.template.spec.containers[0].gpu = 1;
    obj.metadata.extra = 1;
    const text = validateManifest(obj).map(formatViolation);
    expect(text).toEqual([
      'Deployment/chat: metadata.extra: unknown field (not in the upstream schema; the API server would drop it)',
      'Deployment/chat: spec.template.spec.containers[0].gpu: unknown field (not in the upstream schema; the API server would drop it)',
    ]);
    expect(validateManifests([obj, service(), obj]).map(formatViolation)).toEqual([...text, ...text]);
  });
});
