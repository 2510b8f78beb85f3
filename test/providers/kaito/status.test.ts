import { KAITO_SERVICE_PORT, mapWorkspaceStatus, reconcileWorkspaceStatus } from '../../../src/providers/kaito/status';
import { expectValidManifests } from '../../support/schema-validator';
import { crdCondition as condition } from '../../support/status-conditions';

/**
 * A kaito.sh/v1beta1 Workspace as the API server returns it, with a status written from the
 * CRD's WorkspaceStatus schema (state, conditions, workerNodes, targetNodeCount).
 */
function workspace(status: Record<string, unknown> | undefined, count = 1, name = 'qwen'): unknown {
  const obj = {
    apiVersion: 'kaito.sh/v1beta1',
    kind: 'Workspace',
    metadata: { name, namespace: 'ml', generation: 1, uid: '6f1c2a9e-0000-4000-8000-000000000001' },
    resource: { count, labelSelector: { matchLabels: { 'kubernetes.io/os': 'linux', 'nvidia.com/gpu.present': 'true' } } },
    inference: { preset: { name: 'Qwen/Qwen3-0.6B', accessMode: 'public' } },
    ...(status ? { status } : {}),
  };
  // Keeps the fixtures honest: each one is a Workspace the v1beta1 schema accepts.
  expectValidManifests([obj]);
  return obj;
}

/*
 * Conditions as the KAITO controller writes them (kaito-project/kaito api/v1beta1/condition_types.go
 * and pkg/workspace/controllers/workspace_controller.go; see WORKSPACE_STATUSES in
 * test/support/operator-statuses.ts). `failed` is what the controller without `state` writes on a
 * reconcile error (here `CheckResourceStatus` timing out); the `state`-writing one never fails an
 * inference Workspace.
 */
const resourceReady = condition('ResourceReady', 'True', 'workspaceResourceStatusSuccess', 'workspace resource is ready');
const resourceNotReady = condition('ResourceReady', 'False', 'workspaceResourceStatusNotReady', 'node status condition not ready');
const inferenceReady = condition('InferenceReady', 'True', 'WorkspaceInferenceStatusSuccess', 'Inference has been deployed successfully');
const inferenceNotReady = condition('InferenceReady', 'False', 'WorkspaceInferenceStatusPending', 'Inference workload is not ready');
const succeeded = condition('WorkspaceSucceeded', 'True', 'workspaceSucceeded', 'workspace succeeds');
const failed = condition('WorkspaceSucceeded', 'False', 'workspaceFailed', 'context deadline exceeded');

const endpoint = { service: 'qwen', port: 80 };

describe('mapWorkspaceStatus', () => {
  test('reports Pending for a Workspace without status', () => {
    expect(mapWorkspaceStatus(workspace(undefined))).toEqual({
      phase: 'Pending',
      message: '',
      replicas: { desired: 1, ready: 0, available: 0 },
      endpoint,
    });
  });

  test('reports Pending for an empty status', () => {
    expect(mapWorkspaceStatus(workspace({})).phase).toBe('Pending');
    expect(mapWorkspaceStatus(workspace({ conditions: [] })).phase).toBe('Pending');
  });

  describe('ready', () => {
    test('state Ready is Running with every replica ready', () => {
      const ws = workspace({
        state: 'Ready',
        workerNodes: ['aks-gpu-1', 'aks-gpu-2'],
        targetNodeCount: 2,
        conditions: [resourceReady, inferenceReady, succeeded],
      }, 2);
      expect(mapWorkspaceStatus(ws)).toEqual({ phase: 'Running', message: '', replicas: { desired: 2, ready: 2, available: 2 }, endpoint });
    });

    test('state Succeeded is Running', () => {
      expect(mapWorkspaceStatus(workspace({ state: 'Succeeded' }, 3))).toEqual({
        phase: 'Running', message: '', replicas: { desired: 3, ready: 3, available: 3 }, endpoint,
      });
    });

    test('without a state, WorkspaceSucceeded=True is Running', () => {
      expect(mapWorkspaceStatus(workspace({ conditions: [resourceReady, inferenceReady, succeeded] }, 2))).toEqual({
        phase: 'Running', message: '', replicas: { desired: 2, ready: 2, available: 2 }, endpoint,
      });
    });

    test('the endpoint is the Service named after the Workspace, port 80 (also for llama.cpp)', () => {
      expect(KAITO_SERVICE_PORT).toBe(80);
      expect(mapWorkspaceStatus(workspace({ state: 'Ready' }, 1, 'tinyllama')).endpoint).toEqual({ service: 'tinyllama', port: 80 });
    });
  });

  describe('partially ready', () => {
    test('state NotReady is Deploying with no ready replicas', () => {
      const ws = workspace({ state: 'NotReady', targetNodeCount: 2, conditions: [resourceReady, inferenceNotReady] }, 2);
      expect(mapWorkspaceStatus(ws)).toEqual({ phase: 'Deploying', message: '', replicas: { desired: 2, ready: 0, available: 0 }, endpoint });
    });

    test('state Pending is Pending', () => {
      expect(mapWorkspaceStatus(workspace({ state: 'Pending', conditions: [resourceNotReady] })).phase).toBe('Pending');
    });

    test('state Running (a tuning job) is Deploying, fine-tuning in progress', () => {
      const status = mapWorkspaceStatus(workspace({ state: 'Running', conditions: [resourceReady, condition('JobStarted', 'True', 'WorkspaceTuningJobStatusStarted', 'Tuning job has started')] }));
      expect(status).toMatchObject({ phase: 'Deploying', message: 'fine-tuning in progress', replicas: { desired: 1, ready: 0, available: 0 } });
    });

    test('an unknown state is Pending and says so', () => {
      expect(mapWorkspaceStatus(workspace({ state: 'Provisioning' }))).toMatchObject({ phase: 'Pending', message: 'unknown state: Provisioning' });
    });

    test('without a state, resources ready and inference not (yet) ready is Deploying', () => {
      expect(mapWorkspaceStatus(workspace({ conditions: [resourceReady, inferenceNotReady] })).phase).toBe('Deploying');
      expect(mapWorkspaceStatus(workspace({ conditions: [resourceReady] })).phase).toBe('Deploying');
    });

    test('without a state, resources not ready is Pending', () => {
      expect(mapWorkspaceStatus(workspace({ conditions: [resourceNotReady] })).phase).toBe('Pending');
      // Nodes still being created: NodeClaimReady Unknown, no ResourceReady yet.
      expect(mapWorkspaceStatus(workspace({ conditions: [condition('NodeClaimReady', 'Unknown', 'CreateNodeClaimPending', 'creating 1 nodeClaims')] })).phase).toBe('Pending');
    });

    test('without a state or WorkspaceSucceeded, resources and inference ready is still Pending', () => {
      expect(mapWorkspaceStatus(workspace({ conditions: [resourceReady, inferenceReady] }))).toMatchObject({
        phase: 'Pending', replicas: { desired: 1, ready: 0, available: 0 },
      });
    });

    test('the state decides over the conditions, while WorkspaceSucceeded=True still counts the replicas ready', () => {
      expect(mapWorkspaceStatus(workspace({ state: 'NotReady', conditions: [succeeded] }, 2))).toMatchObject({
        phase: 'Deploying', replicas: { desired: 2, ready: 2, available: 2 },
      });
    });
  });

  describe('failed', () => {
    test('without a state, WorkspaceSucceeded=False is Failed with its message', () => {
      expect(mapWorkspaceStatus(workspace({ conditions: [resourceReady, failed] }))).toEqual({
        phase: 'Failed',
        message: 'context deadline exceeded',
        replicas: { desired: 1, ready: 0, available: 0 },
        endpoint,
      });
    });

    test('state Failed (a failed tuning job) is Failed without a message', () => {
      const tuningFailed = [
        condition('JobStarted', 'False', 'WorkspaceTuningJobStatusFailed', 'tuning job failed'),
        condition('WorkspaceSucceeded', 'False', 'workspaceFailed', 'tuning job failed'),
      ];
      expect(mapWorkspaceStatus(workspace({ state: 'Failed', conditions: [resourceReady, ...tuningFailed] }))).toEqual({
        phase: 'Failed', message: '', replicas: { desired: 1, ready: 0, available: 0 }, endpoint,
      });
    });
  });

  test('a later condition of the same type wins', () => {
    expect(mapWorkspaceStatus(workspace({ conditions: [failed, succeeded] })).phase).toBe('Running');
  });

  test('reports 0 desired replicas when resource.count is absent', () => {
    const obj = { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', metadata: { name: 'qwen' }, resource: {}, status: { state: 'Ready' } };
    expect(mapWorkspaceStatus(obj).replicas).toEqual({ desired: 0, ready: 0, available: 0 });
  });

  test('fails when the input is not an object', () => {
    expect(() => mapWorkspaceStatus(undefined)).toThrow('upstream resource is nil');
    expect(() => mapWorkspaceStatus([])).toThrow('upstream resource is nil');
  });

  test('fails when status.conditions is not a list', () => {
    expect(() => mapWorkspaceStatus({ metadata: { name: 'qwen' }, status: { conditions: { type: 'WorkspaceSucceeded' } } }))
      .toThrow('failed to get status conditions: status.conditions is not a list');
  });
});

describe('reconcileWorkspaceStatus', () => {
  test('ready: Running, Ready=True, Workspace created, pods are ready', () => {
    expect(reconcileWorkspaceStatus(workspace({ state: 'Ready', conditions: [resourceReady, inferenceReady, succeeded] }))).toEqual({
      phase: 'Running',
      message: 'Workspace created, pods are ready',
      replicas: { desired: 1, ready: 1, available: 1 },
      endpoint,
      ready: { type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' },
    });
  });

  test('partially ready: Deploying, waiting for pods', () => {
    expect(reconcileWorkspaceStatus(workspace({ state: 'NotReady', conditions: [resourceReady, inferenceNotReady] }))).toMatchObject({
      phase: 'Deploying',
      message: 'Workspace created, waiting for pods to be ready',
      ready: { type: 'Ready', status: 'False', reason: 'DeploymentInProgress', message: 'Deployment is in progress' },
    });
  });

  test('the tuning message is replaced like any other in-progress phase', () => {
    expect(reconcileWorkspaceStatus(workspace({ state: 'Running' })).message).toBe('Workspace created, waiting for pods to be ready');
  });

  test('failed: Ready=False DeploymentFailed with the condition message', () => {
    expect(reconcileWorkspaceStatus(workspace({ conditions: [failed] }))).toMatchObject({
      phase: 'Failed',
      message: 'context deadline exceeded',
      ready: { type: 'Ready', status: 'False', reason: 'DeploymentFailed', message: 'context deadline exceeded' },
    });
  });

  test('failed state: the Ready message is empty', () => {
    expect(reconcileWorkspaceStatus(workspace({ state: 'Failed' }))).toMatchObject({
      phase: 'Failed',
      message: '',
      ready: { type: 'Ready', status: 'False', reason: 'DeploymentFailed', message: '' },
    });
  });

  test('no status: Deploying, waiting for pods', () => {
    expect(reconcileWorkspaceStatus(workspace(undefined))).toEqual({
      phase: 'Deploying',
      message: 'Workspace created, waiting for pods to be ready',
      replicas: { desired: 1, ready: 0, available: 0 },
      endpoint,
      ready: { type: 'Ready', status: 'False', reason: 'DeploymentInProgress', message: 'Deployment is in progress' },
    });
  });
});
