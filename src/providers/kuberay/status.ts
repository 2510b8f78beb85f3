import { ProviderPhase, ProviderStatus, reconcileProviderStatus, ReconciledProviderStatus } from '../../provider-kit/reconciled-status';
import { intField, isJsonObject, stringField } from '../../provider-kit/unstructured';

/** How the KubeRay provider names what it created in status messages. */
export const RAYSERVICE_CREATED_WHAT = 'RayService';

/** Port of the Ray Serve HTTP proxy behind the serve Service. */
export const RAY_SERVE_PORT = 8000;

/** Suffix KubeRay gives the Service in front of the Serve applications (`<name>-serve-svc`). */
export const SERVE_SERVICE_SUFFIX = '-serve-svc';

/**
 * The RayService condition the mapping reads: KubeRay's `RayServiceReady` condition type, whose
 * value is `Ready` (ray-operator/apis/ray/v1/rayservice_types.go, v1.5.0; the real operator writes
 * it in test/simcluster).
 */
export const RAY_SERVICE_READY_CONDITION = 'Ready';

/**
 * The reason of a `Ready=False` condition when the RayService's cluster did not become ready in
 * its initializing timeout (KubeRay's `RayServiceInitializingTimeout`, value `InitializingTimeout`):
 * KubeRay gives up on it, so the record is Failed.
 */
export const RAY_SERVICE_INITIALIZING_TIMEOUT_REASON = 'InitializingTimeout';

/** Ray Serve application status of a healthy application. */
export const APP_STATUS_RUNNING = 'RUNNING';
/** Ray Serve application status of an application that failed to deploy. */
export const APP_STATUS_DEPLOY_FAILED = 'DEPLOY_FAILED';


interface ApplicationStatus {
  readonly name: string;
  readonly status: string;
  readonly message: string;
}

/** `status.activeServiceStatus.applicationStatuses` as a list sorted by application name. */
function applicationStatuses(status: Record<string, unknown>): ApplicationStatus[] {
  const active = status.activeServiceStatus;
  if (active === undefined || active === null) return [];
  if (!isJsonObject(active)) throw new Error('failed to get application statuses: status.activeServiceStatus is not an object');
  const apps = active.applicationStatuses;
  if (apps === undefined || apps === null) return [];
  if (!isJsonObject(apps)) throw new Error('failed to get application statuses: status.activeServiceStatus.applicationStatuses is not a map');
  return Object.keys(apps)
    .sort()
    .map((name) => {
      const app = isJsonObject(apps[name]) ? (apps[name] as Record<string, unknown>) : {};
      return { name, status: stringField(app.status), message: stringField(app.message) };
    });
}

/** Sum of `spec.rayClusterConfig.workerGroupSpecs[].replicas` (absent → 0). */
function desiredWorkerReplicas(rayService: Record<string, unknown>): number {
  const spec = isJsonObject(rayService.spec) ? rayService.spec : {};
  const cluster = isJsonObject(spec.rayClusterConfig) ? spec.rayClusterConfig : {};
  const groups = Array.isArray(cluster.workerGroupSpecs) ? cluster.workerGroupSpecs : [];
  return groups.reduce((sum: number, g) => sum + (isJsonObject(g) ? intField(g.replicas) : 0), 0);
}

/**
 * Maps a `ray.io/v1` RayService (as JSON, e.g. from a watch) to provider status, the way AI
 * Runway's KubeRay controller does:
 *
 * - start Pending without a message;
 * - the `Ready` condition (KubeRay's `RayServiceReady`): True → Running; False → Deploying with
 *   its message, or Failed with it when the reason is `InitializingTimeout` (KubeRay gave up on
 *   the cluster); Unknown changes nothing; a later entry of the same type wins. (The spec names
 *   the Go constant, `RayServiceReady`; an earlier port read that name as the type's value, which
 *   KubeRay never writes, so no condition ever reached the record);
 * - then, when `status.activeServiceStatus.applicationStatuses` is non-empty, it decides:
 *   (unless the cluster timed out) any application `DEPLOY_FAILED` → Failed with that application's message (an empty one keeps
 *   the message so far); every application `RUNNING` → Running; otherwise Deploying. These
 *   carry no message of their own, so a `Ready=False` message survives, even into a
 *   Running result (as upstream; the reconcile step then keeps it instead of
 *   `RayService created, pods are ready`);
 * - replicas: desired = the sum of the worker groups' `replicas`; ready and available equal
 *   desired when there is at least one application and all are `RUNNING`, else 0;
 * - endpoint: `<name>-serve-svc`, port 8000 (the Service KubeRay creates for Serve).
 *
 * One deliberate difference: when several applications failed, AI Runway takes the message of
 * whichever one Go's (random) map iteration visits last; we take the first failed application
 * with a message in name order, so the result is stable. (Our RayServices have one application.)
 *
 * Throws when the input is not an object, `status.conditions` is not a list, or the
 * application statuses are not a map.
 */
export function mapRayServiceStatus(rayService: unknown): ProviderStatus {
  if (!isJsonObject(rayService)) throw new Error('upstream resource is nil');
  const metadata = isJsonObject(rayService.metadata) ? rayService.metadata : {};
  const status = isJsonObject(rayService.status) ? rayService.status : {};

  const rawConditions = status.conditions;
  if (rawConditions !== undefined && rawConditions !== null && !Array.isArray(rawConditions)) {
    throw new Error('failed to get status conditions: status.conditions is not a list');
  }

  let phase: ProviderPhase = 'Pending';
  let message = '';
  let timedOut = false;
  for (const c of rawConditions ?? []) {
    if (!isJsonObject(c) || stringField(c.type) !== RAY_SERVICE_READY_CONDITION) continue;
    timedOut = false;
    if (c.status === 'True') {
      phase = 'Running';
    } else if (c.status === 'False') {
      timedOut = stringField(c.reason) === RAY_SERVICE_INITIALIZING_TIMEOUT_REASON;
      phase = timedOut ? 'Failed' : 'Deploying';
      message = stringField(c.message);
    }
  }

  const apps = applicationStatuses(status);
  const allRunning = apps.length > 0 && apps.every((a) => a.status === APP_STATUS_RUNNING);
  if (apps.length > 0 && !timedOut) {
    const failed = apps.filter((a) => a.status === APP_STATUS_DEPLOY_FAILED);
    if (failed.length > 0) {
      phase = 'Failed';
      message = failed.find((a) => a.message !== '')?.message ?? message;
    } else {
      phase = allRunning ? 'Running' : 'Deploying';
    }
  }

  const desired = desiredWorkerReplicas(rayService);
  const ready = allRunning ? desired : 0;
  return {
    phase,
    message,
    replicas: { desired, ready, available: ready },
    endpoint: { service: `${stringField(metadata.name)}${SERVE_SERVICE_SUFFIX}`, port: RAY_SERVE_PORT },
  };
}

/**
 * The status the KubeRay controller writes for its RayService: the mapping above followed by the
 * Ready condition and the `RayService created, ...` messages (§0.3 steps 10–11).
 */
export function reconcileRayServiceStatus(rayService: unknown): ReconciledProviderStatus {
  return reconcileProviderStatus(mapRayServiceStatus(rayService), RAYSERVICE_CREATED_WHAT);
}
