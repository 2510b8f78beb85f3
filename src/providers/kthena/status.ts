import { KTHENA_ENGINE_PORT } from './args';
import { ProviderPhase, ProviderStatus, reconcileProviderStatus, ReconciledProviderStatus } from '../../provider-kit/reconciled-status';
import { ConditionInfo, conditionsByType, intField, isJsonObject, stringField } from '../../provider-kit/unstructured';

/** How the Kthena provider names what it created in status messages. */
export const MODEL_SERVING_CREATED_WHAT = 'ModelServing';

/** The ModelServing conditions the mapping reads (the controller sets each only to True, and clears the others). */
export const MODEL_SERVING_AVAILABLE = 'Available';
export const MODEL_SERVING_PROGRESSING = 'Progressing';
export const MODEL_SERVING_UPDATE_IN_PROGRESS = 'UpdateInProgress';

/** The message of a status that describes an older generation of the ModelServing. */
export const STALE_STATUS_MESSAGE = 'the Kthena controller has not yet observed the latest ModelServing spec';

interface PhaseAndMessage {
  readonly phase: ProviderPhase;
  readonly message: string;
}

function phaseFromConditions(conditions: Map<string, ConditionInfo>): PhaseAndMessage {
  const isTrue = (type: string) => conditions.get(type)?.status === 'True';
  if (isTrue(MODEL_SERVING_UPDATE_IN_PROGRESS)) return { phase: 'Deploying', message: conditions.get(MODEL_SERVING_UPDATE_IN_PROGRESS)!.message };
  if (isTrue(MODEL_SERVING_PROGRESSING)) return { phase: 'Deploying', message: conditions.get(MODEL_SERVING_PROGRESSING)!.message };
  if (isTrue(MODEL_SERVING_AVAILABLE)) return { phase: 'Running', message: '' };
  return { phase: 'Pending', message: '' };
}

/** `metadata.generation` is ahead of `status.observedGeneration`: the conditions describe an older spec. */
function isStale(metadata: Record<string, unknown>, status: Record<string, unknown>): boolean {
  const generation = metadata.generation;
  const observed = status.observedGeneration;
  return typeof generation === 'number' && typeof observed === 'number' && observed < generation;
}

/**
 * Maps a `workload.serving.volcano.sh/v1alpha1` ModelServing (as JSON, e.g. from a watch) to
 * provider status. Kthena's controller keeps three conditions and sets one of them True at a
 * time (`Available` when every ServingGroup is ready, `Progressing` while groups start,
 * `UpdateInProgress` while a rollout replaces groups), never a failure, so:
 *
 * - a status whose `observedGeneration` is behind `metadata.generation` → Deploying (the
 *   conditions describe the previous spec; without this a fresh update would read Running);
 * - `UpdateInProgress=True` or `Progressing=True` → Deploying with the condition's message (an
 *   out-of-date `Available=True` left beside them does not count);
 * - `Available=True` → Running;
 * - no conditions, or none True → Pending.
 *
 * Replicas count ServingGroups, the ModelServing's unit of scale (its scale subresource):
 * desired `spec.replicas` (the CRD default 1 when absent), ready and available
 * `status.availableReplicas` (groups whose pods are all ready). In prefill/decode mode that is
 * the one group holding every prefill and decode pod. The endpoint is the Service the provider
 * synthesizes beside the ModelServing, named like it, on the engine port 8000.
 *
 * A Failed phase is never reported: Kthena has no failure condition (a crashing pod keeps its
 * group Progressing while the controller recreates it).
 *
 * Throws when the input is not an object or `status.conditions` is not a list.
 */
export function mapModelServingStatus(modelServing: unknown): ProviderStatus {
  if (!isJsonObject(modelServing)) throw new Error('upstream resource is nil');
  const metadata = isJsonObject(modelServing.metadata) ? modelServing.metadata : {};
  const spec = isJsonObject(modelServing.spec) ? modelServing.spec : {};
  const status = isJsonObject(modelServing.status) ? modelServing.status : {};

  const rawConditions = status.conditions;
  if (rawConditions !== undefined && rawConditions !== null && !Array.isArray(rawConditions)) {
    throw new Error('failed to get status conditions: status.conditions is not a list');
  }
  const available = intField(status.availableReplicas);
  const replicas = {
    desired: spec.replicas === undefined || spec.replicas === null ? 1 : intField(spec.replicas),
    ready: available,
    available,
  };
  const endpoint = { service: stringField(metadata.name), port: KTHENA_ENGINE_PORT };
  if (isStale(metadata, status)) return { phase: 'Deploying', message: STALE_STATUS_MESSAGE, replicas, endpoint };
  return { ...phaseFromConditions(conditionsByType(rawConditions ?? [])), replicas, endpoint };
}

/**
 * The status written for a Kthena deployment: the mapping above followed by the Ready condition
 * and the `ModelServing created, ...` messages (`reconcileProviderStatus`).
 */
export function reconcileModelServingStatus(modelServing: unknown): ReconciledProviderStatus {
  return reconcileProviderStatus(mapModelServingStatus(modelServing), MODEL_SERVING_CREATED_WHAT);
}
