/**
 * modelplane status mapping on fixtures written from the ModelDeployment XRD's status schema
 * (`status.replicas.total` / `.ready`) plus the conditions modelplane's composition function and
 * Crossplane write (spec/other-seed-systems.md §1.10).
 *
 * The XRD declares only `status.replicas`; Crossplane adds `status.conditions` to the CRD it
 * derives from every XRD, and the validator accepts that field on XRD-derived schemas. Every
 * fixture is validated.
 */
import { ModelplaneProvider } from '../../../src/providers/modelplane';
import { mapModelplaneStatus, modelplaneStatusReport } from '../../../src/providers/modelplane/status';
import { formatViolation, validateManifests } from '../../support/schema-validator';
import { crdCondition as condition } from '../../support/status-conditions';

type Condition = ReturnType<typeof condition>;

/** A modelplane ModelDeployment as the API server returns it, with `desired` ModelReplicas. */
function xr(desired: number, replicas?: { total?: number; ready?: number }, conditions?: Condition[]): Record<string, unknown> {
  const obj = {
    apiVersion: 'modelplane.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'qwen', namespace: 'ml', generation: 1 },
    spec: {
      replicas: desired,
      template: {
        spec: {
          engines: [{
            name: 'serving',
            members: [{
              role: 'Standalone',
              nodeSelector: { devices: [{ name: 'gpu', count: 1, selectors: [{ cel: 'device.driver == "gpu.nvidia.com"' }] }] },
              template: { spec: { containers: [{ name: 'engine', image: 'vllm/vllm-openai:v0.11.0' }] } },
            }],
          }],
        },
      },
    },
    ...((replicas || conditions) && { status: { ...(replicas && { replicas }), ...(conditions && { conditions }) } }),
  };
  const violations = validateManifests([obj]).map(formatViolation);
  expect(violations).toEqual([]);
  return obj;
}

/*
 * Conditions as compose-model-deployment (modelplaneai/modelplane
 * functions/compose-model-deployment/function/fn.py) and Crossplane write them; see
 * modelplaneStatuses in test/support/operator-statuses.ts. ModelCacheResolved and its reasons come
 * from spec/other-seed-systems.md §1.10 (the stored fn.py predates it); their messages are
 * illustrative.
 */
const scheduled = condition('ReplicasScheduled', 'True', 'ReplicasCreated', 'Scheduled 2 of 2 replicas');
const allReady = condition('ReplicasReady', 'True', 'AllReplicasReady', '2 of 2 ready');
const starting = condition('ReplicasReady', 'False', 'ModelStarting', '1 of 2 ready');
const synced = condition('Synced', 'True', 'ReconcileSuccess', '');
const crossplaneReady = condition('Ready', 'True', 'Available', '');

describe('mapModelplaneStatus', () => {
  test('reports Pending with zero counts before anything is observed', () => {
    expect(mapModelplaneStatus(xr(2))).toEqual({ phase: 'Pending', message: '', replicas: { desired: 2, ready: 0, available: 0 } });
  });

  test('reports Running when ReplicasReady is True, with the ready count', () => {
    expect(mapModelplaneStatus(xr(2, { total: 2, ready: 2 }, [scheduled, allReady, synced, crossplaneReady]))).toEqual({
      phase: 'Running',
      message: '',
      replicas: { desired: 2, ready: 2, available: 2 },
    });
  });

  test('reports Running on Crossplane Ready without a ReplicasReady condition', () => {
    expect(mapModelplaneStatus(xr(1, { total: 1, ready: 1 }, [crossplaneReady])).phase).toBe('Running');
  });

  test('reports Running from the counts alone when there are no conditions', () => {
    expect(mapModelplaneStatus(xr(2, { total: 2, ready: 2 })).phase).toBe('Running');
    expect(mapModelplaneStatus(xr(2, { total: 2, ready: 1 })).phase).toBe('Pending');
  });

  test('reports Deploying while scheduled replicas start', () => {
    expect(mapModelplaneStatus(xr(2, { total: 2, ready: 1 }, [scheduled, starting, synced]))).toEqual({
      phase: 'Deploying',
      message: 'ModelStarting: 1 of 2 ready',
      replicas: { desired: 2, ready: 1, available: 1 },
    });
    expect(mapModelplaneStatus(xr(2, { total: 2, ready: 0 }, [scheduled])).message).toBe('');
  });

  test.each([
    // The function writes NoClusters and Scheduling without a message.
    ['NoClusters', '', 'NoClusters'],
    ['InsufficientCapacity', '0 of 2 replicas scheduled (checked 3 clusters)', 'InsufficientCapacity: 0 of 2 replicas scheduled (checked 3 clusters)'],
    ['Scheduling', '', 'Scheduling'],
  ])('reports Pending with the reason when replicas are not scheduled (%s)', (reason, message, said) => {
    const status = mapModelplaneStatus(xr(2, { total: 0, ready: 0 }, [condition('ReplicasScheduled', 'False', reason, message)]));
    expect(status).toEqual({ phase: 'Pending', message: said, replicas: { desired: 2, ready: 0, available: 0 } });
  });

  test('reports Pending while the ModelCache is not resolved', () => {
    const status = mapModelplaneStatus(xr(1, { total: 0, ready: 0 }, [
      condition('ModelCacheResolved', 'False', 'ModelCacheNotFound', 'ModelCache qwen-model-cache not found'),
      condition('ReplicasScheduled', 'False', 'Scheduling', ''),
    ]));
    expect(status.phase).toBe('Pending');
    expect(status.message).toBe('ModelCacheNotFound: ModelCache qwen-model-cache not found');
  });

  test('reports Failed for a device selector modelplane cannot compile', () => {
    // The function stops before writing status.replicas.
    const status = mapModelplaneStatus(xr(1, undefined, [
      condition('ReplicasScheduled', 'False', 'InvalidNodeSelector', 'Invalid nodeSelector CEL expression: unexpected end of input'),
    ]));
    expect(status).toEqual({
      phase: 'Failed',
      message: 'InvalidNodeSelector: Invalid nodeSelector CEL expression: unexpected end of input',
      replicas: { desired: 1, ready: 0, available: 0 },
    });
  });

  test('reports Failed when the composition fails (Synced=False)', () => {
    const status = mapModelplaneStatus(xr(1, { total: 1, ready: 1 }, [allReady, condition('Synced', 'False', 'ReconcileError', 'cannot compose resources: function failed')]));
    expect(status.phase).toBe('Failed');
    expect(status.message).toBe('ReconcileError: cannot compose resources: function failed');
  });

  test('fails when the input is not an object or the conditions are not a list', () => {
    expect(() => mapModelplaneStatus(undefined)).toThrow('upstream resource is nil');
    expect(() => mapModelplaneStatus({ spec: { replicas: 1 }, status: { conditions: {} } })).toThrow('failed to get status conditions');
  });
});

describe('modelplaneStatusReport', () => {
  test('Running: Ready=True and the default message, without an endpoint', () => {
    expect(modelplaneStatusReport(xr(2, { total: 2, ready: 2 }, [scheduled, allReady]))).toEqual({
      phase: 'Running',
      message: 'modelplane ModelDeployment created, replicas are ready',
      replicas: { desired: 2, ready: 2, available: 2 },
      ready: { type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' },
    });
  });

  test('Pending and Deploying become Deploying, keeping the reason that holds the deployment back', () => {
    expect(modelplaneStatusReport(xr(2, { total: 0, ready: 0 }, [condition('ReplicasScheduled', 'False', 'InsufficientCapacity', '0 of 2 replicas scheduled (checked 1 clusters)')]))).toEqual({
      phase: 'Deploying',
      message: 'modelplane ModelDeployment created, waiting for replicas to be ready (InsufficientCapacity: 0 of 2 replicas scheduled (checked 1 clusters))',
      replicas: { desired: 2, ready: 0, available: 0 },
      ready: { type: 'Ready', status: 'False', reason: 'DeploymentInProgress', message: 'Deployment is in progress' },
    });
    expect(modelplaneStatusReport(xr(1)).message).toBe('modelplane ModelDeployment created, waiting for replicas to be ready');
  });

  test('Failed: Ready=False with the mapped message; the provider maps through the same function', () => {
    const invalid = 'Invalid nodeSelector CEL expression: unexpected end of input';
    const failed = xr(1, undefined, [condition('ReplicasScheduled', 'False', 'InvalidNodeSelector', invalid)]);
    const report = new ModelplaneProvider().mapStatus(failed);
    expect(report).toEqual({
      phase: 'Failed',
      message: `InvalidNodeSelector: ${invalid}`,
      replicas: { desired: 1, ready: 0, available: 0 },
      ready: { type: 'Ready', status: 'False', reason: 'DeploymentFailed', message: `InvalidNodeSelector: ${invalid}` },
    });
  });
});
