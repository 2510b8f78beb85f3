import { kthenaDeployment } from './fixtures';
import { ConditionStatus, DeploymentPhase } from '../../../src/api/provider/provider-status';
import { toResolvedDeployment } from '../../../src/api/resolved-model-deployment';
import { KthenaProvider } from '../../../src/providers/kthena';
import { mapModelServingStatus, reconcileModelServingStatus, STALE_STATUS_MESSAGE } from '../../../src/providers/kthena/status';
import { expectValidManifests } from '../../support/schema-validator';
import { crdCondition as condition } from '../../support/status-conditions';

interface ModelServingFixture {
  /** `spec.replicas`; null leaves it out. @default 2 */
  readonly replicas?: number | null;
  /** `metadata.generation`. @default 1 */
  readonly generation?: number;
  readonly name?: string;
}

/**
 * A workload.serving.volcano.sh/v1alpha1 ModelServing as the API server returns it, with a status
 * written from the CRD's ModelServingStatus schema (observedGeneration, replicas, currentReplicas,
 * updatedReplicas, availableReplicas, revisions, labelSelector, conditions).
 */
function modelServing(status: Record<string, unknown> | undefined, options: ModelServingFixture = {}): unknown {
  const replicas = options.replicas === undefined ? 2 : options.replicas;
  const obj = {
    apiVersion: 'workload.serving.volcano.sh/v1alpha1',
    kind: 'ModelServing',
    metadata: { name: options.name ?? 'qwen', namespace: 'ml', generation: options.generation ?? 1, uid: '0b3c5e7a-0000-4000-8000-000000000001' },
    spec: {
      ...(replicas !== null && { replicas }),
      schedulerName: 'volcano',
      template: {
        gangPolicy: { minRoleReplicas: { server: 1 } },
        roles: [{ name: 'server', replicas: 1, workerReplicas: 0, entryTemplate: { spec: { containers: [{ name: 'vllm', image: 'vllm/vllm-openai:v0.11.0' }] } } }],
      },
    },
    ...(status ? { status } : {}),
  };
  // Keeps the fixtures honest: each one is a ModelServing the CRD schema accepts.
  expectValidManifests([obj]);
  return obj;
}

/*
 * Conditions as the Kthena controller writes them (volcano-sh/kthena
 * pkg/model-serving-controller/utils/utils.go `newCondition`, `SetCondition`; see
 * modelServingStatuses in test/support/operator-statuses.ts): one True at a time, the others
 * flipped to False with their reason and message left as they were.
 */
const available = condition('Available', 'True', 'AllGroupsReady', 'All Serving groups are ready');
const notAvailable = condition('Available', 'False', 'AllGroupsReady', 'All Serving groups are ready');
const progressing = condition('Progressing', 'True', 'GroupProgressing', 'Some groups is progressing: [1]');
const notProgressing = condition('Progressing', 'False', 'GroupProgressing', 'Some groups is progressing: [1]');
const updating = condition('UpdateInProgress', 'True', 'GroupsUpdating', 'Some groups is progressing: [0], Updated Groups are: [1]');

/** Counters of a ModelServing of `n` groups, `ready` of them available (zero counts left out, `omitempty`). */
function counters(n: number, ready: number, revision = 'qwen-7d9f6c5b8'): Record<string, unknown> {
  return {
    observedGeneration: 1,
    ...(n > 0 && { replicas: n, currentReplicas: n, updatedReplicas: n }),
    ...(ready > 0 && { availableReplicas: ready }),
    currentRevision: revision,
    updateRevision: revision,
    labelSelector: 'modelserving.volcano.sh/name=qwen',
  };
}

const endpoint = { service: 'qwen', port: 8000 };

describe('mapModelServingStatus', () => {
  test('reports Pending, the desired groups and the Service endpoint for a ModelServing without status', () => {
    expect(mapModelServingStatus(modelServing(undefined))).toEqual({
      phase: 'Pending',
      message: '',
      replicas: { desired: 2, ready: 0, available: 0 },
      endpoint,
    });
  });

  test('reports Pending for an empty status, and when no condition is True', () => {
    expect(mapModelServingStatus(modelServing({})).phase).toBe('Pending');
    expect(mapModelServingStatus(modelServing({ conditions: [] })).phase).toBe('Pending');
    expect(mapModelServingStatus(modelServing({ ...counters(2, 0), conditions: [notAvailable, notProgressing] })).phase).toBe('Pending');
  });

  test('Available=True is Running with the available groups ready', () => {
    expect(mapModelServingStatus(modelServing({ ...counters(2, 2), conditions: [notProgressing, available] }))).toEqual({
      phase: 'Running',
      message: '',
      replicas: { desired: 2, ready: 2, available: 2 },
      endpoint,
    });
  });

  test('Progressing=True is Deploying with its message', () => {
    expect(mapModelServingStatus(modelServing({ ...counters(2, 1), conditions: [notAvailable, progressing] }))).toEqual({
      phase: 'Deploying',
      message: 'Some groups is progressing: [1]',
      replicas: { desired: 2, ready: 1, available: 1 },
      endpoint,
    });
  });

  test('UpdateInProgress=True is Deploying, even beside a leftover Available=True', () => {
    const status = mapModelServingStatus(modelServing({ ...counters(2, 1), conditions: [available, updating] }));
    expect(status).toMatchObject({ phase: 'Deploying', message: 'Some groups is progressing: [0], Updated Groups are: [1]' });
  });

  test('a status of an older generation is Deploying, whatever its conditions say', () => {
    const ms = modelServing({ ...counters(2, 2), conditions: [available] }, { generation: 2 });
    expect(mapModelServingStatus(ms)).toEqual({ phase: 'Deploying', message: STALE_STATUS_MESSAGE, replicas: { desired: 2, ready: 2, available: 2 }, endpoint });
  });

  test('desired groups default to the CRD\'s 1 and keep an explicit 0', () => {
    expect(mapModelServingStatus(modelServing(undefined, { replicas: null })).replicas.desired).toBe(1);
    expect(mapModelServingStatus(modelServing({ ...counters(0, 0), conditions: [available] }, { replicas: 0 }))).toMatchObject({
      phase: 'Running', replicas: { desired: 0, ready: 0, available: 0 },
    });
  });

  test('the endpoint is the Service named like the ModelServing, port 8000', () => {
    expect(mapModelServingStatus(modelServing(undefined, { name: 'llama' })).endpoint).toEqual({ service: 'llama', port: 8000 });
  });

  test('fails when the input is not an object or the conditions are not a list', () => {
    expect(() => mapModelServingStatus(undefined)).toThrow('upstream resource is nil');
    expect(() => mapModelServingStatus({ status: { conditions: {} } })).toThrow('failed to get status conditions: status.conditions is not a list');
  });
});

describe('reconcileModelServingStatus', () => {
  test('Running says the ModelServing is ready, with Ready=True', () => {
    expect(reconcileModelServingStatus(modelServing({ ...counters(2, 2), conditions: [available] }))).toEqual({
      phase: 'Running',
      message: 'ModelServing created, pods are ready',
      replicas: { desired: 2, ready: 2, available: 2 },
      endpoint,
      ready: { type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' },
    });
  });

  test('anything else is Deploying, waiting for pods', () => {
    for (const ms of [modelServing(undefined), modelServing({ ...counters(2, 1), conditions: [progressing] })]) {
      expect(reconcileModelServingStatus(ms)).toMatchObject({
        phase: 'Deploying',
        message: 'ModelServing created, waiting for pods to be ready',
        ready: { type: 'Ready', status: 'False', reason: 'DeploymentInProgress' },
      });
    }
  });
});

describe('KthenaProvider status facts', () => {
  const provider = new KthenaProvider();
  const md = toResolvedDeployment(kthenaDeployment());

  test('reads the ModelServing named like the deployment', () => {
    expect(provider.statusSource(md)).toEqual({ apiVersion: 'workload.serving.volcano.sh/v1alpha1', kind: 'ModelServing', name: 'qwen' });
  });

  test('maps it to the public report', () => {
    expect(provider.mapStatus(modelServing({ ...counters(2, 2), conditions: [available] }))).toEqual({
      phase: DeploymentPhase.RUNNING,
      message: 'ModelServing created, pods are ready',
      replicas: { desired: 2, ready: 2, available: 2 },
      endpoint,
      ready: { type: 'Ready', status: ConditionStatus.TRUE, reason: 'DeploymentReady', message: 'All replicas are ready' },
    });
  });

  test('declares every kind it creates, for the controller\'s RBAC and watches', () => {
    expect(provider.emittedKinds()).toEqual([
      { apiVersion: 'workload.serving.volcano.sh/v1alpha1', kind: 'ModelServing', resource: 'modelservings' },
      { apiVersion: 'networking.serving.volcano.sh/v1alpha1', kind: 'ModelServer', resource: 'modelservers' },
      { apiVersion: 'networking.serving.volcano.sh/v1alpha1', kind: 'ModelRoute', resource: 'modelroutes' },
      { apiVersion: 'workload.serving.volcano.sh/v1alpha1', kind: 'AutoscalingPolicy', resource: 'autoscalingpolicies' },
      { apiVersion: 'v1', kind: 'Service', resource: 'services' },
      { apiVersion: 'v1', kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims' },
    ]);
  });
});
