/**
 * Per shipped provider: a fixture deployment, the object its status comes from, and upstream
 * statuses (written from the upstream status schemas, as the providers' status tests do) that
 * map to Deploying, Running and Failed.
 */
import type { ResolvedModelDeployment } from '../../../src/core/resolved-model-deployment';
import { dynamoDeployment } from '../../providers/dynamo/fixtures';
import { kaitoLlamaCppDeployment, kaitoVllmDeployment } from '../../providers/kaito/fixtures';
import { multiGpuDeployment } from '../../providers/kuberay/fixtures';
import { disaggregatedLlmdDeployment, llmdDeployment } from '../../providers/llmd/fixtures';
import { vllmDeployment } from '../../providers/vllm/fixtures';
import { crdCondition, deploymentCondition } from '../../support/status-conditions';

export interface Lifecycle {
  /** Test title. */
  readonly title: string;
  readonly md: ResolvedModelDeployment;
  /** The status source: apiVersion, kind, name. */
  readonly source: { readonly apiVersion: string; readonly kind: string; readonly name: string };
  /** What the provider's messages say it created. */
  readonly created: string;
  readonly deploying: unknown;
  readonly running: unknown;
  readonly failed: unknown;
  /** Message of the Failed phase. */
  readonly failedMessage: string;
  readonly runningReplicas: { desired: number; ready: number; available: number };
  readonly endpoint: { service: string; port: number };
}

const deployment = {
  deploying: { observedGeneration: 1, replicas: 1, updatedReplicas: 1, unavailableReplicas: 1, conditions: [deploymentCondition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "x-7d9f" is progressing.')] },
  running: (n: number) => ({
    observedGeneration: 1,
    replicas: n,
    updatedReplicas: n,
    readyReplicas: n,
    availableReplicas: n,
    conditions: [
      deploymentCondition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'),
      deploymentCondition('Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "x-7d9f" has successfully progressed.'),
    ],
  }),
  failed: {
    observedGeneration: 1,
    replicas: 1,
    unavailableReplicas: 1,
    conditions: [
      deploymentCondition('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'),
      deploymentCondition('Progressing', 'False', 'ProgressDeadlineExceeded', 'ReplicaSet "x-7d9f" has timed out progressing.'),
    ],
  },
};

function dgdService(componentName: string, replicas: number, ready: number): Record<string, unknown> {
  return { componentKind: 'PodClique', componentName, componentNames: [componentName], replicas, updatedReplicas: replicas, readyReplicas: ready };
}

const dynamo = {
  deploying: {
    state: 'initializing',
    conditions: [crdCondition('Ready', 'False', 'SomeResourcesAreNotReady', 'Resources not ready: qwen-0-vllmworker: podclique 0/1 ready')],
    services: { Frontend: dgdService('qwen-0-frontend', 1, 1), VllmWorker: dgdService('qwen-0-vllmworker', 1, 0) },
  },
  running: {
    state: 'successful',
    conditions: [crdCondition('Ready', 'True', 'AllResourcesAreReady', 'All resources are ready')],
    services: { Frontend: dgdService('qwen-0-frontend', 1, 1), VllmWorker: dgdService('qwen-0-vllmworker', 1, 1) },
  },
  failed: {
    state: 'failed',
    conditions: [crdCondition('Ready', 'False', 'Failed', 'VllmWorker: CrashLoopBackOff')],
    services: { Frontend: dgdService('qwen-0-frontend', 1, 1), VllmWorker: dgdService('qwen-0-vllmworker', 1, 0) },
  },
};

function rayApp(status: string, message = ''): Record<string, unknown> {
  return {
    status,
    ...(message && { message }),
    serveDeploymentStatuses: { VLLMDeployment: { status: status === 'RUNNING' ? 'HEALTHY' : 'UNHEALTHY', ...(message && { message }) } },
  };
}

const kuberay = {
  deploying: {
    conditions: [crdCondition('RayServiceReady', 'False', 'Initializing', 'RayService is initializing')],
    activeServiceStatus: { applicationStatuses: { llm: rayApp('DEPLOYING') } },
  },
  running: {
    conditions: [crdCondition('RayServiceReady', 'True', 'NonZeroServeEndpoints', 'Number of serve endpoints is greater than 0')],
    activeServiceStatus: { applicationStatuses: { llm: rayApp('RUNNING') } },
    numServeEndpoints: 2,
  },
  failed: {
    conditions: [crdCondition('RayServiceReady', 'False', 'ZeroServeEndpoints', 'Number of serve endpoints dropped to 0')],
    activeServiceStatus: { applicationStatuses: { llm: rayApp('DEPLOY_FAILED', 'CUDA out of memory') } },
  },
};

const kaito = {
  deploying: {
    state: 'NotReady',
    conditions: [
      crdCondition('ResourceReady', 'True', 'WorkspaceResourceStatusSuccess', 'workspace resource is ready'),
      crdCondition('InferenceReady', 'False', 'WorkspaceInferenceStatusFailed', 'inference deployment has 0/1 ready replicas'),
    ],
  },
  running: {
    state: 'Ready',
    conditions: [
      crdCondition('ResourceReady', 'True', 'WorkspaceResourceStatusSuccess', 'workspace resource is ready'),
      crdCondition('InferenceReady', 'True', 'WorkspaceInferenceStatusSuccess', 'Inference has been deployed successfully'),
      crdCondition('WorkspaceSucceeded', 'True', 'WorkspaceSucceeded', 'workspace succeeds'),
    ],
  },
  failed: {
    conditions: [crdCondition('WorkspaceSucceeded', 'False', 'WorkspaceFailed', 'preset is not supported')],
  },
};

export const LIFECYCLES: Lifecycle[] = [
  {
    title: 'vllm (Direct vLLM Deployment)',
    md: vllmDeployment(),
    source: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'qwen' },
    created: 'Deployments',
    ...deployment,
    running: deployment.running(1),
    failedMessage: 'ReplicaSet "x-7d9f" has timed out progressing.',
    runningReplicas: { desired: 1, ready: 1, available: 1 },
    endpoint: { service: 'qwen', port: 8000 },
  },
  {
    title: 'llmd (aggregated Deployment)',
    md: llmdDeployment(),
    source: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'llama' },
    created: 'Deployments',
    ...deployment,
    running: deployment.running(1),
    failedMessage: 'ReplicaSet "x-7d9f" has timed out progressing.',
    runningReplicas: { desired: 1, ready: 1, available: 1 },
    endpoint: { service: 'llama', port: 8000 },
  },
  {
    title: 'llmd (prefill/decode: the decode Deployment)',
    md: disaggregatedLlmdDeployment(),
    source: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'llama-decode' },
    created: 'Deployments',
    ...deployment,
    running: deployment.running(2),
    failedMessage: 'ReplicaSet "x-7d9f" has timed out progressing.',
    runningReplicas: { desired: 2, ready: 2, available: 2 },
    endpoint: { service: 'llama-decode', port: 8000 },
  },
  {
    title: 'dynamo (DynamoGraphDeployment v1alpha1)',
    md: dynamoDeployment(),
    source: { apiVersion: 'nvidia.com/v1alpha1', kind: 'DynamoGraphDeployment', name: 'qwen' },
    created: 'DynamoGraphDeployment',
    ...dynamo,
    failedMessage: 'VllmWorker: CrashLoopBackOff',
    runningReplicas: { desired: 2, ready: 2, available: 2 },
    endpoint: { service: 'qwen-frontend', port: 8000 },
  },
  {
    title: 'dynamo (DynamoGraphDeployment v1beta1, by annotation)',
    md: dynamoDeployment({ annotations: { 'inference.cdk8s.io/dynamo-api-version': 'nvidia.com/v1beta1' } }),
    source: { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', name: 'qwen' },
    created: 'DynamoGraphDeployment',
    deploying: { state: 'initializing', conditions: dynamo.deploying.conditions },
    running: { state: 'successful', conditions: dynamo.running.conditions },
    failed: { state: 'failed', conditions: dynamo.failed.conditions },
    failedMessage: 'VllmWorker: CrashLoopBackOff',
    runningReplicas: { desired: 2, ready: 0, available: 0 },
    endpoint: { service: 'qwen-frontend', port: 8000 },
  },
  {
    title: 'kuberay (RayService)',
    md: multiGpuDeployment(),
    source: { apiVersion: 'ray.io/v1', kind: 'RayService', name: 'llama' },
    created: 'RayService',
    ...kuberay,
    failedMessage: 'CUDA out of memory',
    runningReplicas: { desired: 2, ready: 2, available: 2 },
    endpoint: { service: 'llama-serve-svc', port: 8000 },
  },
  {
    title: 'kaito (Workspace, vLLM preset)',
    md: kaitoVllmDeployment(),
    source: { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: 'qwen' },
    created: 'Workspace',
    ...kaito,
    failedMessage: 'preset is not supported',
    runningReplicas: { desired: 1, ready: 1, available: 1 },
    endpoint: { service: 'qwen', port: 80 },
  },
  {
    title: 'kaito (Workspace, llama.cpp on CPU)',
    md: kaitoLlamaCppDeployment(),
    source: { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: 'tinyllama' },
    created: 'Workspace',
    ...kaito,
    failedMessage: 'preset is not supported',
    runningReplicas: { desired: 1, ready: 1, available: 1 },
    endpoint: { service: 'tinyllama', port: 80 },
  },
];
