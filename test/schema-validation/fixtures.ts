/**
 * Shared by the schema-validation tests: small, minimal manifests written from the upstream
 * schemas, and the kinds the library emits.
 */
import { validateManifest } from '../../src/schema-validation/manifest-validator';

/** The violations of one object, as `<path>: <message>` lines. */
export function problems(obj: any): string[] {
  return validateManifest(obj).map((v) => `${v.path}: ${v.message}`);
}

export function clone<T>(obj: T): T {
  return JSON.parse(JSON.stringify(obj));
}

export const deployment = () => ({
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

export const service = () => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'chat' },
  spec: {
    selector: { 'app.kubernetes.io/name': 'chat' },
    ports: [{ name: 'http', port: 80, targetPort: 'http' }],
  },
});

export const pvc = () => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'model-cache' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '50Gi' } } },
});

export const job = () => ({
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

export const modelDeployment = () => ({
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  metadata: { name: 'qwen' },
  spec: {
    model: { id: 'Qwen/Qwen3-0.6B' },
    engine: { type: 'vllm' },
    resources: { gpu: { count: 1 } },
  },
});

export const dynamoV1alpha1 = () => ({
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

export const dynamoV1beta1 = () => ({
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

export const rayService = () => ({
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

export const workspace = () => ({
  apiVersion: 'kaito.sh/v1beta1',
  kind: 'Workspace',
  metadata: { name: 'phi-4' },
  resource: { instanceType: 'Standard_NC24ads_A100_v4', labelSelector: { matchLabels: { apps: 'phi-4' } } },
  inference: { preset: { name: 'phi-4-mini-instruct' } },
});

export const inferencePool = () => ({
  apiVersion: 'inference.networking.k8s.io/v1',
  kind: 'InferencePool',
  metadata: { name: 'qwen-pool' },
  spec: {
    selector: { matchLabels: { 'app.kubernetes.io/name': 'qwen' } },
    targetPorts: [{ number: 8000 }],
    endpointPickerRef: { name: 'qwen-epp', port: { number: 9002 } },
  },
});

export const httpRoute = () => ({
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

export const gateway = () => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: { name: 'inference-gateway' },
  spec: {
    gatewayClassName: 'istio',
    listeners: [{ name: 'http', port: 80, protocol: 'HTTP', allowedRoutes: { namespaces: { from: 'Same' } } }],
  },
});

export const resourceClaimTemplate = () => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaimTemplate',
  metadata: { name: 'one-gpu' },
  spec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', count: 1 } }] } } },
});

/** The custom resource kinds the library synthesizes (or passes through, as Gateways). */
export const EMITTED_KINDS = [
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

