/**
 * The status mapping of a LeaderWorkerSet, for providers whose primary workload is one when its
 * component runs multi-node replicas. Its status counts groups (one group is one replica):
 * `replicas` created, `readyReplicas` whose pods are all ready, `updatedReplicas`; its conditions
 * are `Available` (every group ready), `Progressing` (groups being created or recreated) and
 * `UpdateInProgress` (a rolling update). There is no failure condition: a group that never becomes
 * ready keeps the LeaderWorkerSet progressing, and the pods say why.
 */
import { DEPLOYMENT_ENDPOINT_PORT } from './deployment-status';
import { ProviderPhase, ProviderStatus, reconcileProviderStatus, ReconciledProviderStatus } from './reconciled-status';
import { conditionsByType, intField, isJsonObject, stringField } from './unstructured';

/** How providers name what they created in status messages when it is a LeaderWorkerSet. */
export const LEADER_WORKER_SET_CREATED_WHAT = 'LeaderWorkerSet';

/**
 * Maps a `leaderworkerset.x-k8s.io/v1` LeaderWorkerSet (JSON, as the API server returns it):
 *
 * - replicas: desired `spec.replicas` (1 when absent, the CRD's default), ready and available
 *   `status.readyReplicas` (a group is available when all its pods are ready; there is no
 *   separate count);
 * - endpoint: the Service named like the LeaderWorkerSet, port 8000 (it selects the leaders);
 * - phase: `Available=True` → Running; `Progressing=True` or `UpdateInProgress=True` → Deploying;
 *   otherwise (no conditions yet) Pending.
 *
 * Throws when the input is not an object or `status.conditions` is not a list.
 */
export function mapLeaderWorkerSetStatus(lws: unknown): ProviderStatus {
  if (!isJsonObject(lws)) throw new Error('upstream resource is nil');
  const metadata = isJsonObject(lws.metadata) ? lws.metadata : {};
  const spec = isJsonObject(lws.spec) ? lws.spec : {};
  const status = isJsonObject(lws.status) ? lws.status : {};
  const ready = intField(status.readyReplicas);
  const replicas = {
    desired: spec.replicas === undefined || spec.replicas === null ? 1 : intField(spec.replicas),
    ready,
    available: ready,
  };
  const endpoint = { service: stringField(metadata.name), port: DEPLOYMENT_ENDPOINT_PORT };

  const raw = status.conditions;
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) {
    throw new Error('failed to get status conditions: status.conditions is not a list');
  }
  const conditions = conditionsByType(raw ?? []);
  let phase: ProviderPhase = 'Pending';
  if (conditions.get('Available')?.status === 'True') phase = 'Running';
  else if (conditions.get('Progressing')?.status === 'True' || conditions.get('UpdateInProgress')?.status === 'True') phase = 'Deploying';
  return { phase, message: '', replicas, endpoint };
}

/** The mapping above followed by the reconcile rules (Ready condition, `LeaderWorkerSet created, ...` messages). */
export function reconcileLeaderWorkerSetStatus(lws: unknown): ReconciledProviderStatus {
  return reconcileProviderStatus(mapLeaderWorkerSetStatus(lws), LEADER_WORKER_SET_CREATED_WHAT);
}
