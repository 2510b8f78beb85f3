import { ProviderPhase, ProviderStatus, reconcileProviderStatus, ReconciledProviderStatus } from '../../provider-kit/reconciled-status';
import { isJsonObject, stringField } from '../../provider-kit/unstructured';

/** How the Dynamo provider names what it created in status messages. */
export const DYNAMO_CREATED_WHAT = 'DynamoGraphDeployment';
/** Port of the frontend Service when the DynamoGraphDeployment reports no endpoint. */
export const DYNAMO_FRONTEND_PORT = 8000;
/** Message of a failed DynamoGraphDeployment that says nothing about why. */
export const DYNAMO_DEFAULT_FAILURE_MESSAGE = 'deployment failed';


/** An integer field, or undefined when absent or not an integer (Go's NestedInt64 "not found"). */
function intOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/**
 * `status.state` → phase: successful → Running; initializing/deploying → Deploying; failed →
 * Failed; else Pending. Dynamo's states are `DGDState` initializing|pending|successful|failed
 * (the older deploy/cloud operator: pending|successful|failed); it writes `pending` while
 * resources come up, which the reconcile rules report as Deploying. `deploying` is no Dynamo
 * state: AI Runway reads it, so it is read here too.
 */
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
  if (!isJsonObject(status)) return DYNAMO_DEFAULT_FAILURE_MESSAGE;
  if (stringField(status.message) !== '') return stringField(status.message);
  if (stringField(status.error) !== '') return stringField(status.error);
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  for (const c of conditions) {
    if (isJsonObject(c) && c.status === 'False' && stringField(c.message) !== '') return stringField(c.message);
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
  const perService = isJsonObject(status.services) ? status.services : isJsonObject(status.components) ? status.components : undefined;
  let replicas: Replicas | undefined;
  if (perService) {
    replicas = { desired: 0, ready: 0, available: 0 };
    for (const s of Object.values(perService)) {
      if (!isJsonObject(s)) continue;
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
  if (!isJsonObject(spec)) return 0;
  const services = isJsonObject(spec.services) ? Object.values(spec.services) : Array.isArray(spec.components) ? spec.components : [];
  return services.reduce<number>((sum, s) => sum + (isJsonObject(s) ? intOrUndefined(s.replicas) ?? 1 : 0), 0);
}

/**
 * Maps a DynamoGraphDeployment (either version, as JSON, e.g. from a watch) to provider status,
 * the way AI Runway's Dynamo controller does:
 *
 * - phase from `status.state`: `successful` → Running; `initializing`, `deploying` → Deploying;
 *   `failed` → Failed; `pending`, anything else, or no state → Pending;
 * - message: `status.message` (AI Runway reads it; no DynamoGraphDeployment status type in
 *   ai-dynamo/dynamo, from the deploy/cloud operator to v1beta1, has the field);
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
  if (!isJsonObject(dgd)) throw new Error('upstream resource is nil');
  const metadata = isJsonObject(dgd.metadata) ? dgd.metadata : {};
  const name = stringField(metadata.name);
  const defaultEndpoint = { service: `${name}-frontend`, port: DYNAMO_FRONTEND_PORT };
  const notReported = { desired: specReplicas(dgd.spec), ready: 0, available: 0 };
  if (!isJsonObject(dgd.status)) {
    return { phase: 'Pending', message: '', replicas: notReported, endpoint: defaultEndpoint };
  }
  const status = dgd.status;
  const phase = phaseOf(stringField(status.state));
  let message = stringField(status.message);
  if (phase === 'Failed' && message === '') message = dynamoErrorMessage(status);

  const endpoint = isJsonObject(status.endpoint) ? status.endpoint : {};
  const port = intOrUndefined(endpoint.port);
  return {
    phase,
    message,
    replicas: replicasOf(status) ?? notReported,
    endpoint: {
      service: stringField(endpoint.service) || defaultEndpoint.service,
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
