/**
 * Rules of modelplane's ModelDeployment that both faces check: the typed `ModelplaneDeployment`
 * on its props, the AI Runway provider on the fields a deployment's values come from. Each takes
 * the path to blame, so either user reads their own field; where the provider's value is derived
 * (Worker pods from `gpu.count` over `gpusPerNode`) the caller also says how, in its terms.
 */
import { MAX_MODEL_REPLICAS, MAX_WORKER_NODES, MIN_MODEL_REPLICAS } from './limits';
import { FieldError, invalid, required } from '../core/field-error';

/** `spec.replicas`: 1 to 10 ModelReplicas. */
export function modelReplicaErrors(replicas: number, path: string): FieldError[] {
  if (Number.isInteger(replicas) && replicas >= MIN_MODEL_REPLICAS && replicas <= MAX_MODEL_REPLICAS) return [];
  return [invalid(path, replicas, `must be a whole number from ${MIN_MODEL_REPLICAS} to ${MAX_MODEL_REPLICAS}: ModelReplicas, each a whole serving instance`)];
}

/** How a caller whose Worker pods are derived explains them: the field the user wrote, and what to change. */
export interface DerivedWorkerNodes {
  /** The value at `path` the nodes follow from. */
  readonly value: unknown;
  /** How the nodes follow from it, in the user's terms. */
  readonly because: string;
  readonly remedy: string;
}

/** `members[].worker.nodes`: 1 to 63 Worker pods, one per node, beside the Leader. */
export function workerNodesErrors(nodes: number, path: string, derived?: DerivedWorkerNodes): FieldError[] {
  if (Number.isInteger(nodes) && nodes >= 1 && nodes <= MAX_WORKER_NODES) return [];
  if (derived === undefined) return [invalid(path, nodes, `must be a whole number from 1 to ${MAX_WORKER_NODES}: the Worker pods, one per node`)];
  return [invalid(path, derived.value, `${derived.because}, but a modelplane engine has one Leader and at most ${MAX_WORKER_NODES} Worker pods: ${derived.remedy}`)];
}

/**
 * No CEL rule says so, but modelplane documents a ModelCache as required for an engine that spans
 * nodes: every pod of a Leader/Worker gang mounts it, so they all load the same weights from the
 * same place. `spanning` names what makes an engine span nodes (undefined when none does), and
 * `remedy` how to add the cache, both in the caller's terms.
 */
export function gangModelCacheErrors(spanning: string | undefined, hasModelCache: boolean, path: string, remedy: string): FieldError[] {
  if (spanning === undefined || hasModelCache) return [];
  return [required(path,
    `modelplane requires a ModelCache for an engine that spans nodes (${spanning}): every pod of its Leader/Worker gang mounts it ` +
      `and loads the same weights from it; ${remedy}`)];
}
