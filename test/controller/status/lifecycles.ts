/**
 * Per shipped provider: a fixture deployment, the object its status comes from, and upstream
 * statuses (written from the upstream status schemas, as the providers' status tests do) that
 * map to Deploying, Running and Failed. The statuses come from test/support/operator-statuses.ts,
 * where each hand-written one (Dynamo, KAITO) says which upstream source its values follow.
 */
import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { dynamoDeployment } from '../../providers/dynamo/fixtures';
import { kaitoLlamaCppDeployment, kaitoVllmDeployment } from '../../providers/kaito/fixtures';
import { multiGpuDeployment } from '../../providers/kuberay/fixtures';
import { disaggregatedLlmdDeployment, llmdDeployment } from '../../providers/llmd/fixtures';
import { vllmDeployment } from '../../providers/vllm/fixtures';
import { conditionMessage, deploymentStatuses, DYNAMO_FAILED_MESSAGE, dynamoStatuses, rayServiceStatuses, WORKSPACE_FAILED_MESSAGE, WORKSPACE_STATUSES } from '../../support/operator-statuses';

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
  /**
   * Further status sources (`additionalStatusSources`), applied with the source and Running
   * throughout, so the source alone drives the phases.
   */
  readonly alongside?: ReadonlyArray<{ readonly source: Lifecycle['source']; readonly running: unknown }>;
}

const kuberay = rayServiceStatuses(2);

export const LIFECYCLES: Lifecycle[] = [
  {
    title: 'vllm (Direct vLLM Deployment)',
    md: vllmDeployment(),
    source: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'qwen' },
    created: 'Deployments',
    ...deploymentStatuses(1),
    failedMessage: conditionMessage(deploymentStatuses(1).failed, 'Progressing'),
    runningReplicas: { desired: 1, ready: 1, available: 1 },
    endpoint: { service: 'qwen', port: 8000 },
  },
  {
    title: 'llmd (aggregated Deployment)',
    md: llmdDeployment(),
    source: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'llama' },
    created: 'Deployments',
    ...deploymentStatuses(1),
    failedMessage: conditionMessage(deploymentStatuses(1).failed, 'Progressing'),
    runningReplicas: { desired: 1, ready: 1, available: 1 },
    endpoint: { service: 'llama', port: 8000 },
  },
  {
    title: 'llmd (prefill/decode: the decode Deployment, with the prefill Deployment Running beside it)',
    md: disaggregatedLlmdDeployment(),
    source: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'llama-decode' },
    created: 'Deployments',
    ...deploymentStatuses(2),
    failedMessage: conditionMessage(deploymentStatuses(2).failed, 'Progressing'),
    // Decode's 2 and prefill's 3: both sides count.
    runningReplicas: { desired: 5, ready: 5, available: 5 },
    endpoint: { service: 'llama-decode', port: 8000 },
    alongside: [{ source: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'llama-prefill' }, running: deploymentStatuses(3).running }],
  },
  {
    title: 'dynamo (DynamoGraphDeployment v1alpha1, by annotation)',
    md: dynamoDeployment({ annotations: { 'inference.cdk8s.io/dynamo-api-version': 'nvidia.com/v1alpha1' } }),
    source: { apiVersion: 'nvidia.com/v1alpha1', kind: 'DynamoGraphDeployment', name: 'qwen' },
    created: 'DynamoGraphDeployment',
    ...dynamoStatuses('qwen', 'v1alpha1'),
    failedMessage: DYNAMO_FAILED_MESSAGE,
    runningReplicas: { desired: 2, ready: 2, available: 2 },
    endpoint: { service: 'qwen-frontend', port: 8000 },
  },
  {
    title: 'dynamo (DynamoGraphDeployment v1beta1, by annotation)',
    md: dynamoDeployment({ annotations: { 'inference.cdk8s.io/dynamo-api-version': 'nvidia.com/v1beta1' } }),
    source: { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', name: 'qwen' },
    created: 'DynamoGraphDeployment',
    ...dynamoStatuses('qwen', 'v1beta1'),
    failedMessage: DYNAMO_FAILED_MESSAGE,
    // v1beta1 counts per component, under `status.components`.
    runningReplicas: { desired: 2, ready: 2, available: 2 },
    endpoint: { service: 'qwen-frontend', port: 8000 },
  },
  {
    title: 'kuberay (RayService)',
    md: multiGpuDeployment(),
    source: { apiVersion: 'ray.io/v1', kind: 'RayService', name: 'llama' },
    created: 'RayService',
    ...kuberay,
    failedMessage: conditionMessage(kuberay.failed, 'Ready'),
    runningReplicas: { desired: 2, ready: 2, available: 2 },
    endpoint: { service: 'llama-serve-svc', port: 8000 },
  },
  {
    title: 'kaito (Workspace, vLLM preset)',
    md: kaitoVllmDeployment(),
    source: { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: 'qwen' },
    created: 'Workspace',
    ...WORKSPACE_STATUSES,
    failedMessage: WORKSPACE_FAILED_MESSAGE,
    runningReplicas: { desired: 1, ready: 1, available: 1 },
    endpoint: { service: 'qwen', port: 80 },
  },
  {
    title: 'kaito (Workspace, llama.cpp on CPU)',
    md: kaitoLlamaCppDeployment(),
    source: { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: 'tinyllama' },
    created: 'Workspace',
    ...WORKSPACE_STATUSES,
    failedMessage: WORKSPACE_FAILED_MESSAGE,
    runningReplicas: { desired: 1, ready: 1, available: 1 },
    endpoint: { service: 'tinyllama', port: 80 },
  },
];
