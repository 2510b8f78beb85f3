/**
 * The LeaderWorkerSet (`leaderworkerset.x-k8s.io/v1`, kubernetes-sigs/lws) as the providers that
 * render multi-node replicas with it name it: its kind, and the label by which its leader pods are
 * told from their workers. Free of the generated bindings, for the controller.
 */
import type { ScaleTargetRef } from '../api/provider/inference-provider';
import type { UpstreamKind, UpstreamObjectRef } from '../api/provider/provider-status';

/** API version of the LeaderWorkerSet. */
export const LEADER_WORKER_SET_API_VERSION = 'leaderworkerset.x-k8s.io/v1';

/** The LeaderWorkerSet kind, for `emittedKinds()` (RBAC and the controller's watches). */
export const LEADER_WORKER_SET_KIND: UpstreamKind = {
  apiVersion: LEADER_WORKER_SET_API_VERSION,
  kind: 'LeaderWorkerSet',
  resource: 'leaderworkersets',
};

/**
 * Label the LeaderWorkerSet controller puts on every pod of a group: its index in the group,
 * `"0"` for the leader.
 */
export const LWS_WORKER_INDEX_LABEL = 'leaderworkerset.sigs.k8s.io/worker-index';

/**
 * Labels only leader pods carry: a Service or InferencePool selecting them sends requests to the
 * pod that runs the HTTP server, never to a worker that only holds GPUs for it.
 */
export const LEADER_POD_LABELS: Readonly<Record<string, string>> = { [LWS_WORKER_INDEX_LABEL]: '0' };

/** A reference to the LeaderWorkerSet `name` (status source, scale target). */
export function leaderWorkerSetRef(name: string): UpstreamObjectRef & ScaleTargetRef {
  return { apiVersion: LEADER_WORKER_SET_API_VERSION, kind: LEADER_WORKER_SET_KIND.kind, name };
}
