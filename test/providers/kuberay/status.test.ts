import { Testing } from 'cdk8s';
import { disaggregatedDeployment, multiGpuDeployment } from './fixtures';
import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import {
  mapRayServiceStatus,
  RAY_SERVE_PORT,
  reconcileRayServiceStatus,
} from '../../../src/providers/kuberay/status';
import { translateKubeRay } from '../../../src/providers/kuberay/translator';
import { expectValidManifests } from '../../support/schema-validator';
import { crdCondition as condition } from '../../support/status-conditions';

/**
 * A ray.io/v1 RayService as the API server returns it: the spec our translator synthesizes for
 * `md`, server-set metadata, and a status written from the CRD's RayServiceStatuses schema
 * (conditions, activeServiceStatus with applicationStatuses and rayClusterStatus,
 * pendingServiceStatus, numServeEndpoints, observedGeneration).
 */
function rayService(status: Record<string, unknown> | undefined, md: ResolvedModelDeployment = multiGpuDeployment()): unknown {
  const chart = Testing.chart();
  translateKubeRay(chart, md);
  const [synthesized] = Testing.synth(chart);
  const obj = {
    ...synthesized,
    metadata: { ...synthesized.metadata, generation: 1, uid: '0b6c6a58-0000-4000-8000-000000000002', resourceVersion: '4711' },
    ...(status ? { status } : {}),
  };
  // Keeps the fixtures honest: each one is a RayService the v1 schema accepts, status included.
  expectValidManifests([obj]);
  return obj;
}

const initializing = condition('Ready', 'False', 'Initializing', 'RayService is initializing');
const zeroEndpoints = condition('Ready', 'False', 'ZeroServeEndpoints', 'Number of serve endpoints dropped to 0');
const ready = condition('Ready', 'True', 'NonZeroServeEndpoints', 'Number of serve endpoints is greater than 0');
const readyUnknown = condition('Ready', 'Unknown', 'Initializing', '');
const noUpgrade = condition('UpgradeInProgress', 'False', 'NoPendingCluster', 'No pending cluster exists');
const upgrading = condition('UpgradeInProgress', 'True', 'BothActivePendingClustersExist', 'Upgrade in progress');

/** A Ray Serve application status, with the Serve deployment status inside it. */
function app(status: string, message = '', deploymentStatus = 'HEALTHY'): Record<string, unknown> {
  return {
    status,
    ...(message ? { message } : {}),
    serveDeploymentStatuses: { VLLMDeployment: { status: deploymentStatus, ...(message ? { message } : {}) } },
  };
}

/** `activeServiceStatus` of the running cluster (2 worker pods of 4 GPUs, multiGpuDeployment). */
function active(applicationStatuses: Record<string, unknown> | undefined, readyWorkers = 2): Record<string, unknown> {
  return {
    ...(applicationStatuses ? { applicationStatuses } : {}),
    rayClusterName: 'llama-raycluster-x7k2p',
    rayClusterStatus: {
      state: readyWorkers === 2 ? 'ready' : '',
      availableWorkerReplicas: readyWorkers,
      readyWorkerReplicas: readyWorkers,
      desiredWorkerReplicas: 2,
      minWorkerReplicas: 2,
      maxWorkerReplicas: 2,
      desiredCPU: '12',
      desiredGPU: '8',
      desiredMemory: '528Gi',
      desiredTPU: '0',
      head: { podName: 'llama-raycluster-x7k2p-head-abcde', podIP: '10.0.0.12', serviceName: 'llama-raycluster-x7k2p-head-svc' },
      endpoints: { 'client': '10001', 'dashboard': '8265', 'gcs-server': '6379', 'serve': '8000' },
      conditions: [condition('HeadPodReady', 'True', 'HeadPodRunningAndReady', '')],
      observedGeneration: 1,
    },
  };
}

const endpoint = { service: 'llama-serve-svc', port: 8000 };

describe('mapRayServiceStatus', () => {
  test('reports Pending for a RayService without status, with the desired worker replicas', () => {
    expect(mapRayServiceStatus(rayService(undefined))).toEqual({
      phase: 'Pending',
      message: '',
      replicas: { desired: 2, ready: 0, available: 0 },
      endpoint,
    });
  });

  test('reports Pending for an empty status or conditions', () => {
    expect(mapRayServiceStatus(rayService({})).phase).toBe('Pending');
    expect(mapRayServiceStatus(rayService({ conditions: [] })).phase).toBe('Pending');
    expect(mapRayServiceStatus(rayService({ conditions: [readyUnknown] })).phase).toBe('Pending');
  });

  test('the endpoint is the serve Service KubeRay creates, port 8000', () => {
    expect(RAY_SERVE_PORT).toBe(8000);
    expect(mapRayServiceStatus(rayService(undefined, multiGpuDeployment({ name: 'mixtral' }))).endpoint).toEqual({
      service: 'mixtral-serve-svc',
      port: 8000,
    });
  });

  describe('ready', () => {
    test('Ready=True with every application RUNNING is Running with every replica ready', () => {
      const rs = rayService({
        conditions: [ready, noUpgrade],
        activeServiceStatus: active({ llm: app('RUNNING') }),
        numServeEndpoints: 3,
        observedGeneration: 1,
      });
      expect(mapRayServiceStatus(rs)).toEqual({ phase: 'Running', message: '', replicas: { desired: 2, ready: 2, available: 2 }, endpoint });
    });

    test('desired replicas sum both disaggregated worker groups', () => {
      const rs = rayService({ conditions: [ready], activeServiceStatus: active({ llm: app('RUNNING') }, 4) }, disaggregatedDeployment({ name: 'llama' }));
      expect(mapRayServiceStatus(rs).replicas).toEqual({ desired: 4, ready: 4, available: 4 });
    });

    test('all applications RUNNING is Running even without the condition', () => {
      expect(mapRayServiceStatus(rayService({ activeServiceStatus: active({ llm: app('RUNNING'), embed: app('RUNNING') }) }))).toMatchObject({
        phase: 'Running',
        replicas: { desired: 2, ready: 2, available: 2 },
      });
    });

    test('Ready=True without application statuses is Running, but no replica counts as ready', () => {
      expect(mapRayServiceStatus(rayService({ conditions: [ready], activeServiceStatus: active(undefined) }))).toEqual({
        phase: 'Running',
        message: '',
        replicas: { desired: 2, ready: 0, available: 0 },
        endpoint,
      });
      expect(mapRayServiceStatus(rayService({ conditions: [ready], activeServiceStatus: active({}) })).phase).toBe('Running');
    });

    test('a Ready=False message survives into a Running result (as upstream)', () => {
      const rs = rayService({ conditions: [zeroEndpoints], activeServiceStatus: active({ llm: app('RUNNING') }) });
      expect(mapRayServiceStatus(rs)).toEqual({
        phase: 'Running',
        message: 'Number of serve endpoints dropped to 0',
        replicas: { desired: 2, ready: 2, available: 2 },
        endpoint,
      });
    });
  });

  describe('partially ready', () => {
    test('Ready=False without applications is Deploying with the condition message', () => {
      expect(mapRayServiceStatus(rayService({ conditions: [initializing, noUpgrade] }))).toEqual({
        phase: 'Deploying',
        message: 'RayService is initializing',
        replicas: { desired: 2, ready: 0, available: 0 },
        endpoint,
      });
    });

    test('Ready=False for InitializingTimeout is Failed with KubeRay\'s message, whatever the applications say', () => {
      const timeout = condition('Ready', 'False', 'InitializingTimeout', 'RayService did not become ready within the initializing timeout');
      const rs = rayService({ conditions: [timeout], activeServiceStatus: active({ llm: app('DEPLOYING', 'Deploying app "llm"', 'UPDATING') }, 1) });
      expect(mapRayServiceStatus(rs)).toMatchObject({ phase: 'Failed', message: 'RayService did not become ready within the initializing timeout' });
    });

    test('a condition typed by the constant\'s name, RayServiceReady (which KubeRay never writes), changes nothing', () => {
      expect(mapRayServiceStatus(rayService({ conditions: [condition('RayServiceReady', 'True', 'NonZeroServeEndpoints', '')] }))).toMatchObject({ phase: 'Pending' });
    });

    test('an application still DEPLOYING is Deploying with no ready replicas, while the workers come up', () => {
      const rs = rayService({
        conditions: [initializing],
        activeServiceStatus: active({ llm: app('DEPLOYING', 'Deploying app "llm"', 'UPDATING') }, 1),
      });
      expect(mapRayServiceStatus(rs)).toEqual({
        phase: 'Deploying',
        message: 'RayService is initializing',
        replicas: { desired: 2, ready: 0, available: 0 },
        endpoint,
      });
    });

    test('one application RUNNING and another not is Deploying, and no replica counts as ready', () => {
      const rs = rayService({ conditions: [ready], activeServiceStatus: active({ llm: app('RUNNING'), embed: app('DEPLOYING') }) });
      expect(mapRayServiceStatus(rs)).toMatchObject({ phase: 'Deploying', message: '', replicas: { desired: 2, ready: 0, available: 0 } });
    });

    test.each(['NOT_STARTED', 'DEPLOYING', 'UNHEALTHY', 'DELETING'])('application status %s is Deploying over Ready=True', (s) => {
      expect(mapRayServiceStatus(rayService({ conditions: [ready], activeServiceStatus: active({ llm: app(s) }) })).phase).toBe('Deploying');
    });

    test('an upgrade in progress does not change the mapping (only Ready and the active applications count)', () => {
      const rs = rayService({
        conditions: [ready, upgrading],
        activeServiceStatus: active({ llm: app('RUNNING') }),
        pendingServiceStatus: { rayClusterName: 'llama-raycluster-q9w8e', applicationStatuses: { llm: app('DEPLOYING') } },
      });
      expect(mapRayServiceStatus(rs)).toMatchObject({ phase: 'Running', replicas: { desired: 2, ready: 2, available: 2 } });
    });
  });

  describe('failed', () => {
    test('an application DEPLOY_FAILED is Failed with its message', () => {
      const message = "Failed to import application: ModuleNotFoundError: No module named 'vllm_serve'";
      const rs = rayService({ conditions: [initializing], activeServiceStatus: active({ llm: app('DEPLOY_FAILED', message, 'UNHEALTHY') }) });
      expect(mapRayServiceStatus(rs)).toEqual({ phase: 'Failed', message, replicas: { desired: 2, ready: 0, available: 0 }, endpoint });
    });

    test('a failed application wins over RUNNING ones', () => {
      const rs = rayService({ conditions: [ready], activeServiceStatus: active({ embed: app('RUNNING'), llm: app('DEPLOY_FAILED', 'CUDA out of memory') }) });
      expect(mapRayServiceStatus(rs)).toMatchObject({ phase: 'Failed', message: 'CUDA out of memory', replicas: { ready: 0 } });
    });

    test('a failed application without a message keeps the condition message', () => {
      const rs = rayService({ conditions: [initializing], activeServiceStatus: active({ llm: app('DEPLOY_FAILED') }) });
      expect(mapRayServiceStatus(rs)).toMatchObject({ phase: 'Failed', message: 'RayService is initializing' });
      const noCondition = rayService({ activeServiceStatus: active({ llm: app('DEPLOY_FAILED') }) });
      expect(mapRayServiceStatus(noCondition)).toMatchObject({ phase: 'Failed', message: '' });
    });

    test('of several failed applications, the first with a message in name order gives it (stable, unlike Go map order)', () => {
      const rs = rayService({
        activeServiceStatus: active({ zeta: app('DEPLOY_FAILED', 'zeta failed'), alpha: app('DEPLOY_FAILED'), beta: app('DEPLOY_FAILED', 'beta failed') }),
      });
      expect(mapRayServiceStatus(rs)).toMatchObject({ phase: 'Failed', message: 'beta failed' });
    });
  });

  test('a later Ready entry wins', () => {
    // The API server keeps one entry per type (list-map); a hand-made list may repeat one.
    const obj = { apiVersion: 'ray.io/v1', kind: 'RayService', metadata: { name: 'llama' }, status: { conditions: [initializing, ready] } };
    expect(mapRayServiceStatus(obj).phase).toBe('Running');
  });

  test('reports 0 desired replicas when the spec has no worker groups', () => {
    const obj = { apiVersion: 'ray.io/v1', kind: 'RayService', metadata: { name: 'llama' }, status: { conditions: [ready] } };
    expect(mapRayServiceStatus(obj).replicas).toEqual({ desired: 0, ready: 0, available: 0 });
  });

  test('fails when the input is not an object', () => {
    expect(() => mapRayServiceStatus(undefined)).toThrow('upstream resource is nil');
    expect(() => mapRayServiceStatus(null)).toThrow('upstream resource is nil');
    expect(() => mapRayServiceStatus([])).toThrow('upstream resource is nil');
  });

  test('fails when status.conditions is not a list', () => {
    expect(() => mapRayServiceStatus({ metadata: { name: 'x' }, status: { conditions: { type: 'RayServiceReady' } } })).toThrow(
      'failed to get status conditions: status.conditions is not a list',
    );
  });

  test('fails when the application statuses are not a map', () => {
    expect(() => mapRayServiceStatus({ metadata: { name: 'x' }, status: { activeServiceStatus: { applicationStatuses: ['llm'] } } })).toThrow(
      'failed to get application statuses: status.activeServiceStatus.applicationStatuses is not a map',
    );
    expect(() => mapRayServiceStatus({ metadata: { name: 'x' }, status: { activeServiceStatus: 'ready' } })).toThrow(
      'failed to get application statuses: status.activeServiceStatus is not an object',
    );
  });
});

describe('reconcileRayServiceStatus', () => {
  test('Running without a message says the RayService pods are ready, Ready=True', () => {
    const rs = rayService({ conditions: [ready], activeServiceStatus: active({ llm: app('RUNNING') }) });
    expect(reconcileRayServiceStatus(rs)).toEqual({
      phase: 'Running',
      message: 'RayService created, pods are ready',
      replicas: { desired: 2, ready: 2, available: 2 },
      endpoint,
      ready: { type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' },
    });
  });

  test('Running keeps a surviving Ready=False message instead of the default', () => {
    const rs = rayService({ conditions: [zeroEndpoints], activeServiceStatus: active({ llm: app('RUNNING') }) });
    expect(reconcileRayServiceStatus(rs)).toMatchObject({ phase: 'Running', message: 'Number of serve endpoints dropped to 0', ready: { status: 'True' } });
  });

  test('Failed keeps the application message, Ready=False DeploymentFailed', () => {
    const rs = rayService({ activeServiceStatus: active({ llm: app('DEPLOY_FAILED', 'CUDA out of memory') }) });
    expect(reconcileRayServiceStatus(rs)).toMatchObject({
      phase: 'Failed',
      message: 'CUDA out of memory',
      ready: { type: 'Ready', status: 'False', reason: 'DeploymentFailed', message: 'CUDA out of memory' },
    });
  });

  test.each([
    ['no status', undefined],
    ['initializing', { conditions: [initializing] }],
    ['deploying', { conditions: [initializing], activeServiceStatus: active({ llm: app('DEPLOYING') }, 1) }],
  ])('Pending and Deploying (%s) become Deploying, waiting for the RayService pods', (_name, status) => {
    expect(reconcileRayServiceStatus(rayService(status))).toEqual({
      phase: 'Deploying',
      message: 'RayService created, waiting for pods to be ready',
      replicas: { desired: 2, ready: 0, available: 0 },
      endpoint,
      ready: { type: 'Ready', status: 'False', reason: 'DeploymentInProgress', message: 'Deployment is in progress' },
    });
  });
});
