import * as shared from '../../../src/provider-kit/deployment-status';
import { DEPLOYMENT_ENDPOINT_PORT, mapDeploymentStatus, reconcileDeploymentStatus } from '../../../src/providers/llmd/status';
import { expectValidManifests } from '../../support/schema-validator';
import { deploymentCondition as condition } from '../../support/status-conditions';

/** An apps/v1 Deployment as the API server returns it for an llm-d deployment. */
function deployment(name: string, replicas: number, status?: Record<string, unknown>): unknown {
  const labels = { 'airunway.ai/deployment': 'llama', 'app': name };
  const obj = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'ml', generation: 1 },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'vllm', image: 'vllm/vllm-openai:v0.9.1' }] } },
    },
    ...(status ? { status } : {}),
  };
  expectValidManifests([obj]);
  return obj;
}

describe('llm-d status mapping', () => {
  test('is the shared Deployment mapping (identical to Direct vLLM, AI Runway providers spec §5.7)', () => {
    expect(mapDeploymentStatus).toBe(shared.mapDeploymentStatus);
    expect(reconcileDeploymentStatus).toBe(shared.reconcileDeploymentStatus);
    expect(DEPLOYMENT_ENDPOINT_PORT).toBe(8000);
  });

  test('reports the decode Deployment of a prefill/decode deployment as the endpoint', () => {
    const status = reconcileDeploymentStatus(
      deployment('llama-decode', 2, {
        replicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        conditions: [condition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.')],
      }),
    );
    expect(status).toEqual({
      phase: 'Running',
      message: 'Deployments created, pods are ready',
      replicas: { desired: 2, ready: 2, available: 2 },
      endpoint: { service: 'llama-decode', port: 8000 },
      ready: { type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' },
    });
  });

  test('reports a partially ready rollout as Deploying', () => {
    const status = reconcileDeploymentStatus(
      deployment('llama', 3, {
        replicas: 3,
        readyReplicas: 1,
        availableReplicas: 1,
        unavailableReplicas: 2,
        conditions: [
          condition('Available', 'False', 'MinimumReplicasUnavailable', ''),
          condition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "llama-5d8f" is progressing.'),
        ],
      }),
    );
    expect(status).toMatchObject({
      phase: 'Deploying',
      message: 'Deployments created, waiting for pods to be ready',
      replicas: { desired: 3, ready: 1, available: 1 },
      endpoint: { service: 'llama', port: 8000 },
    });
  });

  test('reports a rollout past its deadline as Failed', () => {
    const status = reconcileDeploymentStatus(
      deployment('llama', 1, {
        conditions: [condition('Progressing', 'False', 'ProgressDeadlineExceeded', 'ReplicaSet "llama-5d8f" has timed out progressing.')],
      }),
    );
    expect(status).toMatchObject({ phase: 'Failed', message: 'ReplicaSet "llama-5d8f" has timed out progressing.' });
    expect(status.ready).toMatchObject({ status: 'False', reason: 'DeploymentFailed' });
  });
});
