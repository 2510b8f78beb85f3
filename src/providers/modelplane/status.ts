/**
 * Status of a deployment on modelplane, read from its `modelplane.ai/v1alpha1` ModelDeployment.
 *
 * What that object reports (spec/other-seed-systems.md §1.10): `status.replicas.total` (the
 * ModelReplicas scheduled onto clusters) and `status.replicas.ready` (those Ready), and conditions
 * — modelplane's `ReplicasScheduled` (NoClusters, InsufficientCapacity, InvalidNodeSelector,
 * ReplicasCreated, Scheduling), `ReplicasReady` (NoReplicasScheduled, AllReplicasReady,
 * ModelStarting), `ModelCacheResolved` (ModelCacheResolved, ModelCacheUnresolved,
 * ModelCacheNotFound), and Crossplane's `Ready` and `Synced` on every composite resource.
 *
 * Pure functions on the object as JSON, shared by the controller and the tests.
 */
import { ConditionStatus, DeploymentPhase, ProviderStatusReport } from '../../api/provider/provider-status';
import { ProviderPhase, ProviderReplicas, readyCondition } from '../../provider-kit/reconciled-status';
import { ConditionInfo, conditionsByType, intField, isJsonObject } from '../../provider-kit/unstructured';

/** How status messages name what was created. */
export const MODELPLANE_CREATED_WHAT = 'modelplane ModelDeployment';

/** The mapping before the reconcile rules: phase, the deciding condition's words, replica counts. */
export interface ModelplaneStatus {
  readonly phase: ProviderPhase;
  readonly message: string;
  readonly replicas: ProviderReplicas;
}

function said(c: ConditionInfo): string {
  return [c.reason, c.message].filter((s) => s !== '').join(': ');
}

/**
 * Maps the object's status:
 *
 * - Failed: `ReplicasScheduled=False` with reason `InvalidNodeSelector` (a device selector
 *   modelplane cannot compile: nothing will ever be placed), or Crossplane's `Synced=False` (the
 *   composition failed); the message is the condition's reason and message;
 * - Running: `ReplicasReady=True`; without that condition, Crossplane's `Ready=True`; without
 *   conditions at all, every desired replica ready;
 * - Deploying: replicas are scheduled (`ReplicasScheduled=True`) but not all ready, with the
 *   `ReplicasReady` reason (e.g. `ModelStarting`);
 * - Pending otherwise, with the reason that holds it back: no cluster or capacity
 *   (`ReplicasScheduled=False`), or the ModelCache (`ModelCacheResolved=False`), which the
 *   deployment waits for without placing replicas;
 * - replicas: desired `spec.replicas` (ModelReplicas, modelplane's scaling unit), ready and
 *   available `status.replicas.ready`.
 *
 * Throws when the input is not an object or `status.conditions` is not a list.
 */
export function mapModelplaneStatus(xr: unknown): ModelplaneStatus {
  if (!isJsonObject(xr)) throw new Error('upstream resource is nil');
  const spec = isJsonObject(xr.spec) ? xr.spec : {};
  const status = isJsonObject(xr.status) ? xr.status : {};
  const raw = status.conditions;
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) {
    throw new Error('failed to get status conditions: status.conditions is not a list');
  }
  const conditions = conditionsByType(raw ?? []);
  const counts = isJsonObject(status.replicas) ? status.replicas : {};
  const desired = intField(spec.replicas);
  const ready = intField(counts.ready);
  const replicas = { desired, ready, available: ready };
  const result = (phase: ProviderPhase, message = ''): ModelplaneStatus => ({ phase, message, replicas });

  const scheduled = conditions.get('ReplicasScheduled');
  const replicasReady = conditions.get('ReplicasReady');
  const synced = conditions.get('Synced');
  const cache = conditions.get('ModelCacheResolved');
  if (scheduled?.status === 'False' && scheduled.reason === 'InvalidNodeSelector') return result('Failed', said(scheduled));
  if (synced?.status === 'False') return result('Failed', said(synced));
  if (replicasReady?.status === 'True') return result('Running');
  if (replicasReady === undefined && conditions.get('Ready')?.status === 'True') return result('Running');
  if (conditions.size === 0 && desired > 0 && ready >= desired) return result('Running');
  if (cache?.status === 'False') return result('Pending', said(cache));
  if (scheduled?.status === 'False') return result('Pending', said(scheduled));
  if (scheduled?.status === 'True') return result('Deploying', replicasReady ? said(replicasReady) : '');
  return result('Pending');
}

/**
 * The report the controller writes, after the reconcile rules every provider follows (the Ready
 * condition from the phase; a phase neither Running nor Failed becomes Deploying, "created,
 * waiting"), except that the condition holding the deployment back is kept in the message: for
 * modelplane it says why (no cluster, no capacity, the cache), which "waiting" alone would hide.
 * No endpoint: modelplane serves each replica behind its own gateway on a workload cluster, not
 * through a Service in this namespace.
 */
export function modelplaneStatusReport(xr: unknown): ProviderStatusReport {
  const mapped = mapModelplaneStatus(xr);
  const ready = readyCondition(mapped);
  let phase = mapped.phase;
  let message = mapped.message;
  if (phase === 'Running') {
    message = message || `${MODELPLANE_CREATED_WHAT} created, replicas are ready`;
  } else if (phase !== 'Failed') {
    phase = 'Deploying';
    message = `${MODELPLANE_CREATED_WHAT} created, waiting for replicas to be ready` + (mapped.message ? ` (${mapped.message})` : '');
  }
  return {
    phase: phase as string as DeploymentPhase,
    message,
    replicas: mapped.replicas,
    ready: { ...ready, status: ready.status as string as ConditionStatus },
  };
}
