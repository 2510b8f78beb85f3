import { DeploymentPhase } from '../../../src/api/provider/provider-status';
import { FlexInferProvider } from '../../../src/providers/flexinfer';
import { mapModelStatus, reconcileModelStatus } from '../../../src/providers/flexinfer/status';
import { expectValidManifests, validateManifests } from '../../support/schema-validator';
import { crdCondition as condition } from '../../support/status-conditions';

const T = '2025-01-01T00:00:00Z';

/**
 * An `ai.flexinfer/v1alpha2` Model as the API server returns it, with a status written from the
 * CRD's status schema (phase, loadingSubstage, message, endpoint, conditions, cache, gpu,
 * sharedGroup, metrics, lastActiveTime). Each fixture is checked against the CRD.
 */
function model(status: Record<string, unknown> | undefined, spec: Record<string, unknown> = {}): Record<string, unknown> {
  const obj = {
    apiVersion: 'ai.flexinfer/v1alpha2',
    kind: 'Model',
    metadata: { name: 'qwen', namespace: 'ml', generation: 1 },
    spec: { backend: 'vllm', source: 'HF://Qwen/Qwen3-0.6B', gpu: { vendor: 'nvidia', count: 1 }, serverless: { enabled: false }, ...spec },
    ...(status ? { status } : {}),
  };
  expectValidManifests([obj]);
  return obj;
}

const ENDPOINT = { service: 'qwen', port: 8000 };

/*
 * Condition reasons and messages as the FlexInfer controller writes them (flexinfer/flexinfer
 * api/v1alpha2/model_types.go `Condition*` / `Reason*`, controllers/; see flexInferModelStatuses
 * in test/support/operator-statuses.ts).
 */
const NO_NODES = 'no NVIDIA GPU nodes match selector for model qwen';

describe('mapModelStatus', () => {
  test('a Model without status is Pending, with the Service FlexInfer names after it', () => {
    expect(mapModelStatus(model(undefined))).toEqual({ phase: 'Pending', message: '', replicas: { desired: 1, ready: 0, available: 0 }, endpoint: ENDPOINT });
  });

  test('Ready is Running with every replica ready, the endpoint from status.endpoint', () => {
    const ready = model({
      phase: 'Ready',
      endpoint: 'http://qwen.ml.svc:8000',
      message: 'serving',
      lastActiveTime: T,
      gpu: { node: 'node-a', device: '0', vendor: 'NVIDIA', architecture: 'sm_89', memoryMB: 24576 },
      metrics: { tokensPerSecond: '42.5', loadTimeSeconds: '31', avgLatencyMs: '120' },
      cache: { strategy: 'None', ready: true },
      conditions: [condition('Ready', 'True', 'BackendReady', 'Backend is ready to serve requests'), condition('Cached', 'True', 'BackendReady', 'Cache is ready')],
    });
    expect(mapModelStatus(ready)).toEqual({ phase: 'Running', message: '', replicas: { desired: 1, ready: 1, available: 1 }, endpoint: ENDPOINT });
  });

  test('a fixed count above one (serverless.minReplicas) is the desired count', () => {
    const ready = model({ phase: 'Ready' }, { serverless: { enabled: true, minReplicas: 3 } });
    expect(mapModelStatus(ready).replicas).toEqual({ desired: 3, ready: 3, available: 3 });
    expect(mapModelStatus(model({ phase: 'Loading' }, { serverless: { minReplicas: 0 } })).replicas).toEqual({ desired: 1, ready: 0, available: 0 });
  });

  test('Idle after scale-to-zero is Running with no replicas and a message', () => {
    const idle = model({ phase: 'Idle', endpoint: 'http://qwen.ml.svc:8000', lastActiveTime: T }, { serverless: { enabled: true, minReplicas: 0 } });
    expect(mapModelStatus(idle)).toEqual({
      phase: 'Running',
      message: 'Model is idle (scaled to zero); the next request through flexinfer-proxy activates it',
      replicas: { desired: 0, ready: 0, available: 0 },
      endpoint: ENDPOINT,
    });
  });

  test('Idle while queued in a shared GPU group says so', () => {
    const queued = model({ phase: 'Idle', sharedGroup: { groupName: 'rtx4090', state: 'Queued', queuePosition: 2 } }, { gpu: { vendor: 'nvidia', count: 1, shared: 'rtx4090' } });
    expect(mapModelStatus(queued).message).toBe("Model is idle: queued in shared GPU group rtx4090; it loads when the group's GPU is free for it");
  });

  test.each(['Pending', 'Loading', 'Preempted', 'Evicting', ''])('phase %j is Pending (the reconcile rules report Deploying)', (phase) => {
    const status = phase === 'Loading' ? { phase, loadingSubstage: 'LoadingWeights', message: 'loading weights', loadingProgressAt: T } : { phase };
    expect(mapModelStatus(model(status)).phase).toBe('Pending');
  });

  test('Preempted has no replicas: another model of the group holds the GPU', () => {
    const preempted = model({
      phase: 'Preempted',
      loadingSubstage: 'Preempted',
      sharedGroup: { groupName: 'g', state: 'Preempted', preemptedBy: 'llama', preemptedAt: T },
      conditions: [condition('Ready', 'False', 'Preempted', 'Model was preempted by higher priority model')],
    }, { gpu: { vendor: 'nvidia', count: 1, shared: 'g' } });
    expect(mapModelStatus(preempted).replicas).toEqual({ desired: 0, ready: 0, available: 0 });
  });

  test('Failed carries status.message, else the first False failure condition', () => {
    expect(mapModelStatus(model({ phase: 'Failed', message: 'image pull failed' })).message).toBe('image pull failed');
    const unschedulable = model({
      phase: 'Failed',
      conditions: [
        condition('Ready', 'False', 'StartingBackend', 'Waiting for deployment to be ready'),
        condition('Schedulable', 'False', 'NoMatchingNodes', NO_NODES),
        condition('ConfigValid', 'True', 'ConfigValid', 'No litellm config to validate'),
      ],
    });
    // Schedulable is consulted before Ready, whatever the order of the list.
    expect(mapModelStatus(unschedulable)).toEqual({ phase: 'Failed', message: NO_NODES, replicas: { desired: 1, ready: 0, available: 0 }, endpoint: ENDPOINT });
    expect(mapModelStatus(model({ phase: 'Failed' })).message).toBe('');
  });

  test('the endpoint port follows status.endpoint, else the backend (llama.cpp: 8080)', () => {
    expect(mapModelStatus(model({ phase: 'Ready', endpoint: 'http://qwen.ml.svc:9000' })).endpoint).toEqual({ service: 'qwen', port: 9000 });
    expect(mapModelStatus(model({ phase: 'Ready', endpoint: 'http://qwen.ml.svc' })).endpoint).toEqual({ service: 'qwen', port: 80 });
    expect(mapModelStatus(model({ phase: 'Ready', endpoint: 'https://qwen.ml.svc' })).endpoint).toEqual({ service: 'qwen', port: 443 });
    expect(mapModelStatus(model({ phase: 'Ready', endpoint: 'not a url' })).endpoint).toEqual(ENDPOINT);
    const llama = model({ phase: 'Ready' }, { backend: 'llamacpp', gpu: { vendor: 'cpu' }, source: 'HF://a/b', cache: { strategy: 'SharedPVC', pvcName: 'c' } });
    expect(mapModelStatus(llama).endpoint).toEqual({ service: 'qwen', port: 8080 });
    expect(mapModelStatus(model({ phase: 'Ready' }, { backend: 'custom-thing' })).endpoint).toEqual({ service: 'qwen', port: 8000 });
  });

  test('fails when the input is not an object or conditions is not a list', () => {
    expect(() => mapModelStatus(null)).toThrow('upstream resource is nil');
    const broken = { apiVersion: 'ai.flexinfer/v1alpha2', kind: 'Model', metadata: { name: 'qwen' }, spec: {}, status: { conditions: {} } };
    expect(validateManifests([broken]).length).toBeGreaterThan(0);
    expect(() => mapModelStatus(broken)).toThrow('status.conditions is not a list');
  });
});

describe('reconcileModelStatus and FlexInferProvider.mapStatus', () => {
  test('Running says the Model was created and its pods are ready; Ready=True', () => {
    const status = reconcileModelStatus(model({ phase: 'Ready' }));
    expect(status.message).toBe('Model created, pods are ready');
    expect(status.ready).toEqual({ type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' });
  });

  test('Idle keeps its message', () => {
    expect(reconcileModelStatus(model({ phase: 'Idle' }, { serverless: { minReplicas: 0 } })).message).toMatch(/^Model is idle/);
  });

  test('Loading is Deploying: Model created, waiting for pods', () => {
    const report = new FlexInferProvider().mapStatus(model({ phase: 'Loading', loadingSubstage: 'ImagePulling' }));
    expect(report).toEqual({
      phase: DeploymentPhase.DEPLOYING,
      message: 'Model created, waiting for pods to be ready',
      replicas: { desired: 1, ready: 0, available: 0 },
      endpoint: ENDPOINT,
      ready: { type: 'Ready', status: 'False', reason: 'DeploymentInProgress', message: 'Deployment is in progress' },
    });
  });

  test('Failed is Failed with Ready=False and the reason', () => {
    const ambiguous = 'gpu.vendor is "auto" but both NVIDIA and AMD GPU nodes match selector for model qwen; set spec.gpu.vendor explicitly';
    const failed = model({ phase: 'Failed', conditions: [condition('Schedulable', 'False', 'AmbiguousGPUVendor', ambiguous)] }, { gpu: { vendor: 'auto', count: 1 } });
    const report = new FlexInferProvider().mapStatus(failed);
    expect(report.phase).toBe(DeploymentPhase.FAILED);
    expect(report.ready).toEqual({ type: 'Ready', status: 'False', reason: 'DeploymentFailed', message: ambiguous });
  });
});
