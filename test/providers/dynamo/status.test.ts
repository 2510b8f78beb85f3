import {
  DYNAMO_CREATED_WHAT,
  DYNAMO_FRONTEND_PORT,
  dynamoErrorMessage,
  mapDynamoGraphDeploymentStatus,
  reconcileDynamoGraphDeploymentStatus,
} from '../../../src/providers/dynamo/status';
import { expectValidManifests } from '../../support/schema-validator';
import { crdCondition } from '../../support/status-conditions';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.1.1';

/**
 * A DynamoGraphDeployment as the API server returns it: a Frontend (1 replica) and a VllmWorker
 * (2 replicas), with a status written from the CRD's status schema (state, conditions and
 * per-service replica counts keyed by service name: `services` in v1alpha1, `components` in
 * v1beta1). Each fixture is checked against that schema.
 */
function dgd(status: Record<string, unknown> | undefined, version: 'v1alpha1' | 'v1beta1' = 'v1alpha1'): unknown {
  const spec = version === 'v1alpha1'
    ? {
      backendFramework: 'vllm',
      services: {
        Frontend: { componentType: 'frontend', replicas: 1, extraPodSpec: { mainContainer: { image: IMAGE } } },
        VllmWorker: { componentType: 'worker', replicas: 2, extraPodSpec: { mainContainer: { image: IMAGE } } },
      },
    }
    : {
      backendFramework: 'vllm',
      components: [
        { name: 'Frontend', type: 'frontend', replicas: 1, podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } },
        { name: 'VllmWorker', type: 'worker', replicas: 2, podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } },
      ],
    };
  const obj = {
    apiVersion: `nvidia.com/${version}`,
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'qwen', namespace: 'ml', generation: 2, uid: '3b0f9a52-0000-4000-8000-000000000001' },
    spec,
    ...(status ? { status } : {}),
  };
  expectValidManifests([obj]);
  return obj;
}

/**
 * The same object with status fields that AI Runway reads but no DynamoGraphDeployment status
 * type in ai-dynamo/dynamo has (`message`, `error`, `endpoint`, top-level counts; the deploy/cloud
 * operator's status had only `state` and `conditions`), or a state outside the schema's enum.
 * Not schema-checked, because the schema would reject them.
 */
function legacyDgd(status: Record<string, unknown>): unknown {
  return { apiVersion: 'nvidia.com/v1alpha1', kind: 'DynamoGraphDeployment', metadata: { name: 'qwen', namespace: 'ml' }, spec: {}, status };
}

const condition = (type: string, status: 'True' | 'False' | 'Unknown', reason: string, message: string) => crdCondition(type, status, reason, message, 2);

function service(componentName: string, replicas: number, counts: { ready?: number; available?: number } = {}, componentKind = 'PodClique'): Record<string, unknown> {
  return {
    componentKind,
    componentName,
    componentNames: [componentName],
    replicas,
    updatedReplicas: replicas,
    ...(counts.ready !== undefined && { readyReplicas: counts.ready }),
    ...(counts.available !== undefined && { availableReplicas: counts.available }),
  };
}

const endpoint = { service: 'qwen-frontend', port: 8000 };
const allReady = {
  Frontend: service('qwen-0-frontend', 1, { ready: 1 }),
  VllmWorker: service('qwen-0-vllmworker', 2, { ready: 2 }),
};
const partlyReady = {
  Frontend: service('qwen-0-frontend', 1, { ready: 1 }),
  VllmWorker: service('qwen-0-vllmworker', 2, { ready: 1 }),
};
/*
 * Ready conditions as the Dynamo operator writes them (ai-dynamo/dynamo
 * deploy/operator/api/v1beta1/dynamographdeployment_types.go `DGDReadyReason*`,
 * deploy/operator/internal/controller/dgd_workload_result.go and dynamographdeployment_controller.go;
 * see dynamoStatuses in test/support/operator-statuses.ts). The operator writes state `pending`
 * while resources come up and `failed` with the reconcile error.
 */
const readyCondition = condition('Ready', 'True', 'all_resources_are_ready', 'All resources are ready');
const notReadyCondition = condition('Ready', 'False', 'some_resources_are_not_ready', 'Resources not ready: qwen-0-vllmworker: scheduled but ready=1/2');
const FAILURE = 'failed to reconcile Dynamo components deployments: no multinode orchestrator available';
const failedCondition = condition('Ready', 'False', 'failed_to_reconcile_the_resources', FAILURE);

describe('mapDynamoGraphDeploymentStatus', () => {
  test('reports Pending for a DynamoGraphDeployment without status, desiring what the spec asks for', () => {
    expect(mapDynamoGraphDeploymentStatus(dgd(undefined))).toEqual({
      phase: 'Pending',
      message: '',
      replicas: { desired: 3, ready: 0, available: 0 },
      endpoint,
    });
    expect(mapDynamoGraphDeploymentStatus(dgd(undefined, 'v1beta1')).replicas).toEqual({ desired: 3, ready: 0, available: 0 });
  });

  test('state initializing with part of the workers ready is Deploying, with the partial counts', () => {
    const obj = dgd({ state: 'initializing', conditions: [notReadyCondition], services: partlyReady });
    expect(mapDynamoGraphDeploymentStatus(obj)).toEqual({
      phase: 'Deploying',
      message: '',
      replicas: { desired: 3, ready: 2, available: 2 },
      endpoint,
    });
  });

  test('state pending is Pending', () => {
    const obj = dgd({ state: 'pending', conditions: [notReadyCondition], services: { Frontend: service('qwen-0-frontend', 1, { ready: 0 }) } });
    expect(mapDynamoGraphDeploymentStatus(obj)).toMatchObject({ phase: 'Pending', replicas: { desired: 1, ready: 0, available: 0 } });
  });

  test('state successful is Running with every replica ready', () => {
    const obj = dgd({ state: 'successful', observedGeneration: 2, conditions: [readyCondition], services: allReady });
    expect(mapDynamoGraphDeploymentStatus(obj)).toEqual({
      phase: 'Running',
      message: '',
      replicas: { desired: 3, ready: 3, available: 3 },
      endpoint,
    });
  });

  test('reads the v1beta1 per-component counts', () => {
    // v1beta1 drops the deprecated componentName.
    const components = Object.fromEntries(Object.entries(allReady).map(([k, { componentName: _name, ...rest }]) => [k, rest]));
    const obj = dgd({ state: 'successful', conditions: [readyCondition], components }, 'v1beta1');
    expect(mapDynamoGraphDeploymentStatus(obj).replicas).toEqual({ desired: 3, ready: 3, available: 3 });
  });

  test('ready falls back to available and available to ready, per service', () => {
    const obj = dgd({
      state: 'initializing',
      services: {
        // A scaling group (multi-node) reports only available replicas, a PodClique only ready ones.
        VllmWorker: service('qwen-0-vllmworker', 2, { available: 1 }, 'PodCliqueScalingGroup'),
        Frontend: service('qwen-0-frontend', 1, { ready: 1 }),
      },
    });
    expect(mapDynamoGraphDeploymentStatus(obj).replicas).toEqual({ desired: 3, ready: 2, available: 2 });
  });

  test('state failed is Failed with the message of the failing condition (AI Runway leaves it empty)', () => {
    const obj = dgd({ state: 'failed', conditions: [failedCondition], services: partlyReady });
    expect(mapDynamoGraphDeploymentStatus(obj)).toEqual({
      phase: 'Failed',
      message: FAILURE,
      replicas: { desired: 3, ready: 2, available: 2 },
      endpoint,
    });
  });

  test('state failed without any message says deployment failed', () => {
    expect(mapDynamoGraphDeploymentStatus(dgd({ state: 'failed' })).message).toBe('deployment failed');
    expect(mapDynamoGraphDeploymentStatus(dgd({ state: 'failed', conditions: [condition('Ready', 'False', 'failed_to_reconcile_the_resources', '')] })).message).toBe('deployment failed');
  });

  test('unknown and missing states are Pending', () => {
    expect(mapDynamoGraphDeploymentStatus(legacyDgd({ state: 'rolling' })).phase).toBe('Pending');
    expect(mapDynamoGraphDeploymentStatus(legacyDgd({})).phase).toBe('Pending');
  });

  test('state deploying, which AI Runway reads though no Dynamo operator writes it, is Deploying', () => {
    // Dynamo's states are failed/successful/pending (the deploy/cloud operator) and
    // initializing|pending|successful|failed (DGDState); the schema rejects anything else.
    expect(mapDynamoGraphDeploymentStatus(legacyDgd({ state: 'deploying' })).phase).toBe('Deploying');
  });

  describe('fields AI Runway reads that no Dynamo status type has', () => {
    test('status.message is the message, whatever the phase', () => {
      expect(mapDynamoGraphDeploymentStatus(legacyDgd({ state: 'successful', message: 'serving' })).message).toBe('serving');
      expect(mapDynamoGraphDeploymentStatus(legacyDgd({ state: 'failed', message: 'image pull failed', error: 'x' })).message).toBe('image pull failed');
    });

    test('status.error explains a failure without a message', () => {
      expect(mapDynamoGraphDeploymentStatus(legacyDgd({ state: 'failed', error: 'quota exceeded' })).message).toBe('quota exceeded');
    });

    test('status.endpoint names the Service and port', () => {
      expect(mapDynamoGraphDeploymentStatus(legacyDgd({ state: 'successful', endpoint: { service: 'qwen-router', port: 9000 } })).endpoint)
        .toEqual({ service: 'qwen-router', port: 9000 });
      expect(mapDynamoGraphDeploymentStatus(legacyDgd({ state: 'successful', endpoint: { port: 0 } })).endpoint).toEqual(endpoint);
    });

    test('top-level counts override the per-service sums', () => {
      const obj = legacyDgd({ state: 'initializing', services: partlyReady, desiredReplicas: 4, availableReplicas: 1 });
      expect(mapDynamoGraphDeploymentStatus(obj).replicas).toEqual({ desired: 4, ready: 2, available: 1 });
      expect(mapDynamoGraphDeploymentStatus(legacyDgd({ state: 'successful', readyReplicas: 2 })).replicas).toEqual({ desired: 0, ready: 2, available: 0 });
    });
  });

  test('the endpoint defaults to <name>-frontend on port 8000', () => {
    expect(DYNAMO_FRONTEND_PORT).toBe(8000);
    expect(mapDynamoGraphDeploymentStatus(dgd({ state: 'successful' })).endpoint).toEqual(endpoint);
  });

  test('fails when the input is not an object', () => {
    expect(() => mapDynamoGraphDeploymentStatus(undefined)).toThrow('upstream resource is nil');
    expect(() => mapDynamoGraphDeploymentStatus([])).toThrow('upstream resource is nil');
  });
});

describe('dynamoErrorMessage', () => {
  test('prefers message, then error, then the first False condition with a message', () => {
    expect(dynamoErrorMessage({ message: 'm', error: 'e' })).toBe('m');
    expect(dynamoErrorMessage({ error: 'e' })).toBe('e');
    expect(dynamoErrorMessage({
      conditions: [condition('A', 'True', 'R', 'fine'), condition('B', 'False', 'R', ''), condition('C', 'False', 'R', 'broken')],
    })).toBe('broken');
    expect(dynamoErrorMessage({})).toBe('deployment failed');
    expect(dynamoErrorMessage(undefined)).toBe('deployment failed');
  });
});

describe('reconcileDynamoGraphDeploymentStatus', () => {
  test('a successful graph is Running, Ready=True, "DynamoGraphDeployment created, pods are ready"', () => {
    expect(reconcileDynamoGraphDeploymentStatus(dgd({ state: 'successful', conditions: [readyCondition], services: allReady }))).toEqual({
      phase: 'Running',
      message: 'DynamoGraphDeployment created, pods are ready',
      replicas: { desired: 3, ready: 3, available: 3 },
      endpoint,
      ready: { type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' },
    });
    expect(DYNAMO_CREATED_WHAT).toBe('DynamoGraphDeployment');
  });

  test('a partly ready graph is Deploying and waiting', () => {
    expect(reconcileDynamoGraphDeploymentStatus(dgd({ state: 'initializing', conditions: [notReadyCondition], services: partlyReady }))).toEqual({
      phase: 'Deploying',
      message: 'DynamoGraphDeployment created, waiting for pods to be ready',
      replicas: { desired: 3, ready: 2, available: 2 },
      endpoint,
      ready: { type: 'Ready', status: 'False', reason: 'DeploymentInProgress', message: 'Deployment is in progress' },
    });
  });

  test('a pending graph or one without status is Deploying too', () => {
    expect(reconcileDynamoGraphDeploymentStatus(dgd({ state: 'pending' })).phase).toBe('Deploying');
    expect(reconcileDynamoGraphDeploymentStatus(dgd(undefined)).message).toBe('DynamoGraphDeployment created, waiting for pods to be ready');
  });

  test('a failed graph is Failed with the failing condition as the Ready message', () => {
    expect(reconcileDynamoGraphDeploymentStatus(dgd({ state: 'failed', conditions: [failedCondition] }))).toMatchObject({
      phase: 'Failed',
      message: FAILURE,
      ready: { type: 'Ready', status: 'False', reason: 'DeploymentFailed', message: FAILURE },
    });
  });
});
