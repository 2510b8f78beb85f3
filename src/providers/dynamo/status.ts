import { ProviderPhase, ProviderStatus, reconcileProviderStatus, ReconciledProviderStatus } from '../provider-status';

/** How the Dynamo provider names what it created in status messages. */
export const DYNAMO_CREATED_WHAT = 'DynamoGraphDeployment';
/** Port of the frontend Service when the DynamoGraphDeployment reports no endpoint. */
export const DYNAMO_FRONTEND_PORT = 8000;
/** Message of a failed DynamoGraphDeployment that says nothing about why. */
export const DYNAMO_DEFAULT_FAILURE_MESSAGE = 'deployment failed';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** An integer field, or undefined when absent or not an integer (Go's NestedInt64 "not found"). */
function intOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/** `status.state` → phase: successful → Running; initializing/deploying → Deploying; failed → Failed; else Pending. */
function phaseOf(state: string): ProviderPhase {
  switch (state) {
    case 'successful':
      return 'Running';
    case 'initializing':
    case 'deploying':
      return 'Deploying';
    case 'failed':
      return 'Failed';
    default:
      return 'Pending';
  }
}

/**
 * Why a DynamoGraphDeployment failed: `status.message`, else `status.error`, else the message of
 * the first condition whose status is False and that has one, else `deployment failed`.
 */
export function dynamoErrorMessage(status: unknown): string {
  if (!isObject(status)) return DYNAMO_DEFAULT_FAILURE_MESSAGE;
  if (str(status.message) !== '') return str(status.message);
  if (str(status.error) !== '') return str(status.error);
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  for (const c of conditions) {
    if (isObject(c) && c.status === 'False' && str(c.message) !== '') return str(c.message);
  }
  return DYNAMO_DEFAULT_FAILURE_MESSAGE;
}

interface Replicas {
  desired: number;
  ready: number;
  available: number;
}

/**
 * Replicas summed over the per-service status (`status.services` in v1alpha1,
 * `status.components` in v1beta1): desired from `replicas`, ready from `readyReplicas` (else
 * `availableReplicas`), available from `availableReplicas` (else `readyReplicas`); then
 * top-level `desiredReplicas`/`readyReplicas`/`availableReplicas` win where present.
 */
function replicasOf(status: Record<string, unknown>): Replicas | undefined {
  const perService = isObject(status.services) ? status.services : isObject(status.components) ? status.components : undefined;
  let replicas: Replicas | undefined;
  if (perService) {
    replicas = { desired: 0, ready: 0, available: 0 };
    for (const s of Object.values(perService)) {
      if (!isObject(s)) continue;
      const ready = intOrUndefined(s.readyReplicas);
      const available = intOrUndefined(s.availableReplicas);
      replicas.desired += intOrUndefined(s.replicas) ?? 0;
      replicas.ready += ready ?? available ?? 0;
      replicas.available += available ?? ready ?? 0;
    }
  }
  const desired = intOrUndefined(status.desiredReplicas);
  const ready = intOrUndefined(status.readyReplicas);
  const available = intOrUndefined(status.availableReplicas);
  if (desired === undefined && ready === undefined && available === undefined) return replicas;
  const base = replicas ?? { desired: 0, ready: 0, available: 0 };
  return { desired: desired ?? base.desired, ready: ready ?? base.ready, available: available ?? base.available };
}

/**
 * Replicas the spec asks for, summed over its services (v1alpha1 map) or components (v1beta1
 * list), 1 for a service without `replicas`: what is desired before Dynamo reports anything.
 */
function specReplicas(spec: unknown): number {
  if (!isObject(spec)) return 0;
  const services = isObject(spec.services) ? Object.values(spec.services) : Array.isArray(spec.components) ? spec.components : [];
  return services.reduce<number>((sum, s) => sum + (isObject(s) ? intOrUndefined(s.replicas) ?? 1 : 0), 0);
}

/**
 * Maps a DynamoGraphDeployment (either version, as JSON, e.g. from a watch) to provider status,
 * the way AI Runway's Dynamo controller does:
 *
 * - phase from `status.state`: `successful` → Running; `initializing`, `deploying` → Deploying;
 *   `failed` → Failed; `pending`, anything else, or no state → Pending;
 * - message: `status.message` (older Dynamo operators write one);
 * - replicas summed over `status.services` (v1alpha1) or `status.components` (v1beta1, which
 *   AI Runway does not read), top-level counts overriding;
 * - endpoint: `status.endpoint.service` / `.port`, else the frontend Service Dynamo names
 *   `<name>-frontend`, port 8000.
 *
 * Two deliberate differences:
 * - a Failed phase without `status.message` gets the best message the object has
 *   (`dynamoErrorMessage`: `status.error`, a False condition's message, else `deployment
 *   failed`). AI Runway has that helper but does not call it, so its Ready condition then says
 *   DeploymentFailed with an empty message — and current Dynamo never writes `status.message`;
 * - without a status (or without per-service counts) AI Runway reports no replicas; here desired
 *   is what the spec asks for and nothing is ready.
 *
 * Throws when the input is not an object.
 */
export function mapDynamoGraphDeploymentStatus(dgd: unknown): ProviderStatus {
  if (!isObject(dgd)) throw new Error('upstream resource is nil');
  const metadata = isObject(dgd.metadata) ? dgd.metadata : {};
  const name = str(metadata.name);
  const defaultEndpoint = { service: `${name}-frontend`, port: DYNAMO_FRONTEND_PORT };
  const notReported = { desired: specReplicas(dgd.spec), ready: 0, available: 0 };
  if (!isObject(dgd.status)) {
    return { phase: 'Pending', message: '', replicas: notReported, endpoint: defaultEndpoint };
  }
  const status = dgd.status;
  const phase = phaseOf(str(status.state));
  let message = str(status.message);
  if (phase === 'Failed' && message === '') message = dynamoErrorMessage(status);

  const endpoint = isObject(status.endpoint) ? status.endpoint : {};
  const port = intOrUndefined(endpoint.port);
  return {
    phase,
    message,
    replicas: replicasOf(status) ?? notReported,
    endpoint: {
      service: str(endpoint.service) || defaultEndpoint.service,
      port: port !== undefined && port > 0 ? port : DYNAMO_FRONTEND_PORT,
    },
  };
}

/**
 * The status the Dynamo controller writes for its DynamoGraphDeployment: the mapping above
 * followed by the Ready condition and the `DynamoGraphDeployment created, ...` messages.
 */
export function reconcileDynamoGraphDeploymentStatus(dgd: unknown): ReconciledProviderStatus {
  return reconcileProviderStatus(mapDynamoGraphDeploymentStatus(dgd), DYNAMO_CREATED_WHAT);
}
