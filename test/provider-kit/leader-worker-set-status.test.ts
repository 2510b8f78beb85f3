import { mapLeaderWorkerSetStatus, reconcileLeaderWorkerSetStatus } from '../../src/provider-kit/leader-worker-set-status';
import { LlmdProvider } from '../../src/providers/llmd';
import { DirectVllmProvider } from '../../src/providers/vllm';
import { expectValidManifests } from '../support/schema-validator';
import { crdCondition as condition } from '../support/status-conditions';

/**
 * A LeaderWorkerSet as the API server returns it, its status written from the CRD's status
 * schema (replicas, readyReplicas, updatedReplicas, hpaPodSelector, conditions of metav1.Condition).
 */
function leaderWorkerSet(replicas: number | undefined, status: Record<string, unknown> | undefined, name = 'llama'): any {
  const pod = { spec: { containers: [{ name: 'vllm', image: 'vllm/vllm-openai:cu130-nightly' }] } };
  const obj = {
    apiVersion: 'leaderworkerset.x-k8s.io/v1',
    kind: 'LeaderWorkerSet',
    metadata: { name, namespace: 'ml', generation: 1 },
    spec: {
      ...(replicas !== undefined && { replicas }),
      leaderWorkerTemplate: { size: 2, leaderTemplate: pod, workerTemplate: pod },
    },
    ...(status ? { status } : {}),
  };
  // Keeps the fixtures honest: each one is a LeaderWorkerSet the CRD's schema accepts.
  expectValidManifests([obj]);
  return obj;
}

const available = condition('Available', 'True', 'AllGroupsReady', 'All replicas are ready');
const notAvailable = condition('Available', 'False', 'AllGroupsReady', 'All replicas are ready');
const progressing = condition('Progressing', 'True', 'GroupsProgressing', 'Replicas are progressing');
const notProgressing = condition('Progressing', 'False', 'GroupsProgressing', 'Replicas are progressing');
const updating = condition('UpdateInProgress', 'True', 'GroupsUpdating', 'Rolling Upgrade is in progress');
const selector = 'leaderworkerset.sigs.k8s.io/name=llama,leaderworkerset.sigs.k8s.io/worker-index=0';

describe('mapLeaderWorkerSetStatus', () => {
  test('reports Pending with zero counts before the controller wrote a status', () => {
    expect(mapLeaderWorkerSetStatus(leaderWorkerSet(2, undefined))).toEqual({
      phase: 'Pending',
      message: '',
      replicas: { desired: 2, ready: 0, available: 0 },
      endpoint: { service: 'llama', port: 8000 },
    });
  });

  test('counts groups: ready groups are the available replicas', () => {
    const status = { replicas: 2, readyReplicas: 1, updatedReplicas: 2, hpaPodSelector: selector, conditions: [notAvailable, progressing] };
    expect(mapLeaderWorkerSetStatus(leaderWorkerSet(2, status))).toMatchObject({
      phase: 'Deploying',
      replicas: { desired: 2, ready: 1, available: 1 },
    });
  });

  test('is Running when every group is ready (Available=True)', () => {
    const status = { replicas: 2, readyReplicas: 2, updatedReplicas: 2, conditions: [available, notProgressing] };
    expect(mapLeaderWorkerSetStatus(leaderWorkerSet(2, status)).phase).toBe('Running');
  });

  test('is Deploying during a rolling update that left it unavailable', () => {
    const status = { replicas: 1, readyReplicas: 0, conditions: [notAvailable, notProgressing, updating] };
    expect(mapLeaderWorkerSetStatus(leaderWorkerSet(1, status)).phase).toBe('Deploying');
  });

  test('is Pending when no condition says it is available or progressing', () => {
    const status = { replicas: 1, readyReplicas: 0, conditions: [notAvailable, notProgressing] };
    expect(mapLeaderWorkerSetStatus(leaderWorkerSet(1, status)).phase).toBe('Pending');
  });

  test('takes an absent spec.replicas as the CRD default, 1', () => {
    expect(mapLeaderWorkerSetStatus(leaderWorkerSet(undefined, undefined)).replicas.desired).toBe(1);
  });

  test('fails when the input is not an object or the conditions are not a list', () => {
    expect(() => mapLeaderWorkerSetStatus(undefined)).toThrow('upstream resource is nil');
    expect(() => mapLeaderWorkerSetStatus({ kind: 'LeaderWorkerSet', status: { conditions: {} } })).toThrow('status.conditions is not a list');
  });

  test('reconciles to the Ready condition and the LeaderWorkerSet messages', () => {
    const running = reconcileLeaderWorkerSetStatus(leaderWorkerSet(1, { replicas: 1, readyReplicas: 1, conditions: [available] }));
    expect(running.message).toBe('LeaderWorkerSet created, pods are ready');
    expect(running.ready).toMatchObject({ type: 'Ready', status: 'True' });
    const waiting = reconcileLeaderWorkerSetStatus(leaderWorkerSet(1, undefined));
    expect(waiting).toMatchObject({ phase: 'Deploying', message: 'LeaderWorkerSet created, waiting for pods to be ready' });
  });
});

describe.each([
  ['Direct vLLM', new DirectVllmProvider()],
  ['llm-d', new LlmdProvider()],
])('%s mapStatus', (_name, provider) => {
  test('maps a LeaderWorkerSet by its kind, and still maps a Deployment', () => {
    const lws = provider.mapStatus(leaderWorkerSet(2, { replicas: 2, readyReplicas: 2, conditions: [available] }));
    expect(lws).toMatchObject({ phase: 'Running', message: 'LeaderWorkerSet created, pods are ready', replicas: { desired: 2, ready: 2, available: 2 } });
    const deployment = provider.mapStatus({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'llama' }, spec: { replicas: 1 }, status: {} });
    expect(deployment.message).toBe('Deployments created, waiting for pods to be ready');
  });
});
