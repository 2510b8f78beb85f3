import { mapDeploymentStatus, reconcileDeploymentStatus } from '../../../src/provider-kit/deployment-status';
import { readyCondition, reconcileProviderStatus } from '../../../src/provider-kit/reconciled-status';
import { expectValidManifests } from '../../support/schema-validator';
import { deploymentCondition as condition } from '../../support/status-conditions';

/**
 * An apps/v1 Deployment as the API server returns it (fields from the apps/v1 schema:
 * DeploymentStatus and DeploymentCondition).
 */
function deployment(replicas: number, status: Record<string, unknown> | undefined, name = 'qwen', schemaValid = true): unknown {
  const obj = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'ml', generation: 2 },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'vllm', image: 'vllm/vllm-openai:cu130-nightly' }] } },
    },
    ...(status ? { status } : {}),
  };
  // Keeps the fixtures honest: each one is a Deployment the apps/v1 schema accepts.
  if (schemaValid) expectValidManifests([obj]);
  return obj;
}

const progressingTrue = condition('Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "qwen-7d9f" has successfully progressed.');
const availableTrue = condition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.');
const availableFalse = condition('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.');

describe('mapDeploymentStatus', () => {
  test('reports Pending with zero counts for a Deployment without status', () => {
    expect(mapDeploymentStatus(deployment(1, undefined))).toEqual({
      phase: 'Pending',
      message: '',
      replicas: { desired: 1, ready: 0, available: 0 },
      endpoint: { service: 'qwen', port: 8000 },
    });
  });

  test('reports Pending when the status has no conditions', () => {
    const status = mapDeploymentStatus(deployment(2, { observedGeneration: 2, replicas: 2, updatedReplicas: 2, unavailableReplicas: 2 }));
    expect(status.phase).toBe('Pending');
    expect(status.replicas).toEqual({ desired: 2, ready: 0, available: 0 });
    expect(mapDeploymentStatus(deployment(2, { conditions: [] })).phase).toBe('Pending');
  });

  test('reports Running when Available=True', () => {
    const status = mapDeploymentStatus(
      deployment(2, {
        observedGeneration: 2,
        replicas: 2,
        updatedReplicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        conditions: [availableTrue, progressingTrue],
      }),
    );
    expect(status).toEqual({
      phase: 'Running',
      message: '',
      replicas: { desired: 2, ready: 2, available: 2 },
      endpoint: { service: 'qwen', port: 8000 },
    });
  });

  test('reports Running when Available=True while some replicas are not ready yet', () => {
    // maxUnavailable lets a 3-replica Deployment be Available with 2 ready pods; the AI Runway
    // commit we follow maps Available=True to Running regardless of the counts.
    const status = mapDeploymentStatus(
      deployment(3, {
        replicas: 3,
        updatedReplicas: 3,
        readyReplicas: 2,
        availableReplicas: 2,
        unavailableReplicas: 1,
        conditions: [availableTrue, condition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "qwen-7d9f" is progressing.')],
      }),
    );
    expect(status.phase).toBe('Running');
    expect(status.replicas).toEqual({ desired: 3, ready: 2, available: 2 });
  });

  test('reports Failed with the condition message on ProgressDeadlineExceeded', () => {
    const status = mapDeploymentStatus(
      deployment(1, {
        replicas: 1,
        unavailableReplicas: 1,
        conditions: [availableFalse, condition('Progressing', 'False', 'ProgressDeadlineExceeded', 'ReplicaSet "qwen-7d9f" has timed out progressing.')],
      }),
    );
    expect(status.phase).toBe('Failed');
    expect(status.message).toBe('ReplicaSet "qwen-7d9f" has timed out progressing.');
  });

  test('reports Failed with a default message on ProgressDeadlineExceeded without one', () => {
    const status = mapDeploymentStatus(deployment(1, { conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] }));
    expect(status).toMatchObject({ phase: 'Failed', message: 'deployment timed out waiting for rollout' });
  });

  test('reports Deploying when Progressing=True and the Deployment is not available', () => {
    const status = mapDeploymentStatus(
      deployment(1, {
        replicas: 1,
        updatedReplicas: 1,
        unavailableReplicas: 1,
        conditions: [availableFalse, condition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "qwen-7d9f" is progressing.')],
      }),
    );
    expect(status).toMatchObject({ phase: 'Deploying', message: '' });
  });

  test('reports Failed with the message when Available=False and not progressing', () => {
    const status = mapDeploymentStatus(deployment(1, { conditions: [availableFalse] }));
    expect(status).toMatchObject({ phase: 'Failed', message: 'Deployment does not have minimum availability.' });
  });

  test('reports Pending when Available=False has no message', () => {
    const status = mapDeploymentStatus(deployment(1, { conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' }] }));
    expect(status.phase).toBe('Pending');
  });

  test('reports Pending for Progressing=False with another reason', () => {
    const status = mapDeploymentStatus(deployment(1, { conditions: [condition('Progressing', 'False', 'ReplicaSetCreateError', 'quota exceeded')] }));
    expect(status.phase).toBe('Pending');
  });

  test('lets a later condition of the same type win and skips malformed entries', () => {
    const status = mapDeploymentStatus(deployment(1, { conditions: ['junk', { status: 'True' }, availableFalse, availableTrue] }, 'qwen', false));
    expect(status.phase).toBe('Running');
  });

  test('uses the Deployment name as the endpoint Service (decode in disaggregated mode)', () => {
    expect(mapDeploymentStatus(deployment(1, undefined, 'qwen-decode')).endpoint).toEqual({ service: 'qwen-decode', port: 8000 });
  });

  test('fails when the input is not an object', () => {
    expect(() => mapDeploymentStatus(undefined)).toThrow('upstream resource is nil');
    expect(() => mapDeploymentStatus('x')).toThrow('upstream resource is nil');
  });

  test('fails when status.conditions is not a list', () => {
    expect(() => mapDeploymentStatus(deployment(1, { conditions: {} }, 'qwen', false))).toThrow('failed to get status conditions');
  });
});

describe('reconcileDeploymentStatus', () => {
  test('Running: Ready=True and the default ready message', () => {
    expect(reconcileDeploymentStatus(deployment(1, { readyReplicas: 1, availableReplicas: 1, conditions: [availableTrue] }))).toEqual({
      phase: 'Running',
      message: 'Deployments created, pods are ready',
      replicas: { desired: 1, ready: 1, available: 1 },
      endpoint: { service: 'qwen', port: 8000 },
      ready: { type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' },
    });
  });

  test('Failed: Ready=False with the mapped message', () => {
    const status = reconcileDeploymentStatus(deployment(1, { conditions: [availableFalse] }));
    expect(status.phase).toBe('Failed');
    expect(status.message).toBe('Deployment does not have minimum availability.');
    expect(status.ready).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'DeploymentFailed',
      message: 'Deployment does not have minimum availability.',
    });
  });

  test.each([
    ['no conditions', undefined],
    ['Progressing=True', { conditions: [progressingTrue] }],
  ])('Pending or Deploying (%s) becomes Deploying, waiting for pods', (_, status) => {
    const reconciled = reconcileDeploymentStatus(deployment(1, status));
    expect(reconciled.phase).toBe('Deploying');
    expect(reconciled.message).toBe('Deployments created, waiting for pods to be ready');
    expect(reconciled.ready).toEqual({ type: 'Ready', status: 'False', reason: 'DeploymentInProgress', message: 'Deployment is in progress' });
  });
});

describe('provider status helpers', () => {
  const base = { replicas: { desired: 1, ready: 1, available: 1 }, endpoint: { service: 's', port: 8000 } };

  test('keep a non-empty Running message', () => {
    const status = reconcileProviderStatus({ ...base, phase: 'Running', message: 'serving' }, 'RayService');
    expect(status.message).toBe('serving');
    expect(status.ready.reason).toBe('DeploymentReady');
  });

  test('name the created kind in messages', () => {
    expect(reconcileProviderStatus({ ...base, phase: 'Running', message: '' }, 'Workspace').message).toBe('Workspace created, pods are ready');
    expect(reconcileProviderStatus({ ...base, phase: 'Pending', message: '' }, 'DynamoGraphDeployment').message).toBe(
      'DynamoGraphDeployment created, waiting for pods to be ready',
    );
  });

  test('derive Ready from the mapped phase', () => {
    expect(readyCondition({ phase: 'Deploying', message: 'x' }).reason).toBe('DeploymentInProgress');
    expect(readyCondition({ phase: 'Failed', message: 'boom' })).toEqual({ type: 'Ready', status: 'False', reason: 'DeploymentFailed', message: 'boom' });
  });
});
