import { FlexInferBackend } from '../../flexinfer/backend';
import { ProviderEndpoint, ProviderStatus, reconcileProviderStatus, ReconciledProviderStatus } from '../../provider-kit/reconciled-status';
import { conditionsByType, intField, isJsonObject, stringField } from '../../provider-kit/unstructured';

/** How the FlexInfer provider names what it created in status messages. */
export const MODEL_CREATED_WHAT = 'Model';

/** Port reported when neither the status endpoint nor the backend tells one. */
const FALLBACK_PORT = 8000;

/** Conditions whose False status explains a failure, in the order they are consulted. */
const FAILURE_CONDITIONS = ['ConfigValid', 'Schedulable', 'Cached', 'Loaded', 'Ready'];

/**
 * `status.endpoint` (`http://<model>.<namespace>.svc:<port>`) as a Service and port; without one,
 * the Service FlexInfer names after the Model and the port of its backend.
 */
function endpointOf(name: string, backend: string, endpoint: string): ProviderEndpoint {
  const fallback = { service: name, port: FlexInferBackend.of(backend).port ?? FALLBACK_PORT };
  if (endpoint === '') return fallback;
  try {
    const url = new URL(endpoint);
    const service = url.hostname.split('.')[0];
    const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    return service !== '' ? { service, port } : fallback;
  } catch {
    return fallback;
  }
}

/** The message of the first failure condition that is False, or ''. */
function failureDetail(conditions: ReturnType<typeof conditionsByType>): string {
  for (const type of FAILURE_CONDITIONS) {
    const c = conditions.get(type);
    if (c?.status === 'False' && c.message !== '') return c.message;
  }
  return '';
}

/**
 * Maps a FlexInfer `ai.flexinfer/v1alpha2` Model (as JSON, e.g. from a watch) to provider status.
 * The Model reports a lifecycle phase but no replica counts, so the counts are derived from the
 * phase and the spec's replica setting (`serverless.enabled: false` → 1, else
 * `max(1, serverless.minReplicas)` while serving):
 *
 * - `Ready` → Running; all replicas ready;
 * - `Idle` (scaled to zero, or waiting its turn in a shared GPU group) → Running with a message
 *   saying so and no replicas: a serverless model that is idle is available, and the next request
 *   through flexinfer-proxy activates it (a Deploying phase would never end);
 * - `Failed` → Failed, with `status.message`, else the message of the first False condition among
 *   ConfigValid, Schedulable, Cached, Loaded, Ready;
 * - `Preempted` (another model of its shared group took the GPU), `Loading`, `Pending`, no phase or
 *   any other → Pending (the reconcile rules then report Deploying: `Model created, waiting for
 *   pods to be ready`);
 * - endpoint: the Service and port of `status.endpoint`, else the Model's name and its backend's
 *   port.
 *
 * Throws when the input is not an object or `status.conditions` is not a list.
 */
export function mapModelStatus(model: unknown): ProviderStatus {
  if (!isJsonObject(model)) throw new Error('upstream resource is nil');
  const metadata = isJsonObject(model.metadata) ? model.metadata : {};
  const spec = isJsonObject(model.spec) ? model.spec : {};
  const status = isJsonObject(model.status) ? model.status : {};
  const rawConditions = status.conditions;
  if (rawConditions !== undefined && rawConditions !== null && !Array.isArray(rawConditions)) {
    throw new Error('failed to get status conditions: status.conditions is not a list');
  }
  const conditions = conditionsByType(rawConditions ?? []);
  const serverless = isJsonObject(spec.serverless) ? spec.serverless : {};
  const serving = serverless.enabled === false ? 1 : Math.max(1, intField(serverless.minReplicas));
  const endpoint = endpointOf(stringField(metadata.name), stringField(spec.backend), stringField(status.endpoint));
  const none = { desired: 0, ready: 0, available: 0 };

  switch (stringField(status.phase)) {
    case 'Ready':
      return { phase: 'Running', message: '', replicas: { desired: serving, ready: serving, available: serving }, endpoint };
    case 'Idle': {
      const group = isJsonObject(status.sharedGroup) ? status.sharedGroup : {};
      const state = stringField(group.state);
      const message = state === 'Queued' || state === 'Preempted'
        ? `Model is idle: ${state.toLowerCase()} in shared GPU group ${stringField(group.groupName)}; it loads when the group's GPU is free for it`
        : 'Model is idle (scaled to zero); the next request through flexinfer-proxy activates it';
      return { phase: 'Running', message, replicas: none, endpoint };
    }
    case 'Failed':
      return { phase: 'Failed', message: stringField(status.message) || failureDetail(conditions), replicas: { ...none, desired: serving }, endpoint };
    case 'Preempted':
      return { phase: 'Pending', message: '', replicas: none, endpoint };
    default:
      return { phase: 'Pending', message: '', replicas: { ...none, desired: serving }, endpoint };
  }
}

/**
 * The status the controller writes for a FlexInfer Model: the mapping above followed by the
 * Ready condition and the `Model created, ...` messages (the reconcile rules all providers share).
 */
export function reconcileModelStatus(model: unknown): ReconciledProviderStatus {
  return reconcileProviderStatus(mapModelStatus(model), MODEL_CREATED_WHAT);
}
