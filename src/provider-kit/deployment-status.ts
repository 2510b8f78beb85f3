import { ProviderPhase, ProviderStatus, reconcileProviderStatus, ReconciledProviderStatus } from './reconciled-status';
import { ConditionInfo, conditionsByType, intField, isJsonObject, stringField } from './unstructured';

/*
 * The status mapping of the Deployment-based providers. AI Runway's llm-d and Direct vLLM
 * controllers translate their primary Deployment identically, so it is written once here and
 * each provider's `status.ts` re-exports it.
 */

/** How llm-d and Direct vLLM name what they created in status messages. */
export const DEPLOYMENT_PROVIDER_CREATED_WHAT = 'Deployments';

/**
 * Port reported as `status.endpoint.port`: the port both providers' vLLM containers listen on
 * and their Services expose.
 */
export const DEPLOYMENT_ENDPOINT_PORT = 8000;


function phaseFromConditions(conditions: Map<string, ConditionInfo>): { phase: ProviderPhase; message: string } {
  const available = conditions.get('Available');
  const progressing = conditions.get('Progressing');
  if (available?.status === 'True') return { phase: 'Running', message: '' };
  if (progressing?.status === 'False' && progressing.reason === 'ProgressDeadlineExceeded') {
    return { phase: 'Failed', message: progressing.message || 'deployment timed out waiting for rollout' };
  }
  if (progressing?.status === 'True') return { phase: 'Deploying', message: '' };
  if (available?.status === 'False' && available.message !== '') return { phase: 'Failed', message: available.message };
  return { phase: 'Pending', message: '' };
}

/**
 * Maps an `apps/v1` Deployment (as JSON, e.g. from a watch) to provider status, the way AI
 * Runway's llm-d and Direct vLLM controllers do (the primary Deployment: `<md>`, or
 * `<md>-decode` in disaggregated mode):
 *
 * - replicas: desired `spec.replicas`, ready `status.readyReplicas`, available
 *   `status.availableReplicas` (0 when absent);
 * - endpoint: the Service named like the Deployment, port 8000;
 * - phase: no conditions → Pending; `Available=True` → Running; `Progressing=False` with reason
 *   `ProgressDeadlineExceeded` → Failed (its message, or `deployment timed out waiting for
 *   rollout`); `Progressing=True` → Deploying; `Available=False` with a message → Failed with it;
 *   otherwise Pending.
 *
 * `Available=True` means Running even while some replicas are not ready yet (the Deployment's
 * own minimum-availability rule), as at the AI Runway commit we follow.
 *
 * Throws when the input is not an object or `status.conditions` is not a list.
 */
export function mapDeploymentStatus(deployment: unknown): ProviderStatus {
  if (!isJsonObject(deployment)) throw new Error('upstream resource is nil');
  const metadata = isJsonObject(deployment.metadata) ? deployment.metadata : {};
  const spec = isJsonObject(deployment.spec) ? deployment.spec : {};
  const status = isJsonObject(deployment.status) ? deployment.status : {};

  const replicas = {
    desired: intField(spec.replicas),
    ready: intField(status.readyReplicas),
    available: intField(status.availableReplicas),
  };
  const endpoint = { service: stringField(metadata.name), port: DEPLOYMENT_ENDPOINT_PORT };

  const rawConditions = status.conditions;
  if (rawConditions !== undefined && rawConditions !== null && !Array.isArray(rawConditions)) {
    throw new Error('failed to get status conditions: status.conditions is not a list');
  }
  if (!rawConditions || rawConditions.length === 0) {
    return { phase: 'Pending', message: '', replicas, endpoint };
  }
  return { ...phaseFromConditions(conditionsByType(rawConditions)), replicas, endpoint };
}

/**
 * The status the llm-d and Direct vLLM controllers write for its primary Deployment: the
 * mapping above followed by the Ready condition and the `Deployments created, ...` messages.
 */
export function reconcileDeploymentStatus(deployment: unknown): ReconciledProviderStatus {
  return reconcileProviderStatus(mapDeploymentStatus(deployment), DEPLOYMENT_PROVIDER_CREATED_WHAT);
}
