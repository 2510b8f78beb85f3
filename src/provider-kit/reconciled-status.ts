import type { ConditionStatus, DeploymentPhase, ProviderStatusReport } from '../api/provider/provider-status';

/**
 * What a provider's status mapping reads from its upstream object, in the shape of the
 * ModelDeployment status fields it feeds (AI Runway providers spec §0.3 step 10). Pure data, so
 * the in-cluster reconciler and tests use it without a construct tree.
 */

/** Phases a provider's status mapping can report (`Terminating` is the reconciler's own). */
export type ProviderPhase = 'Pending' | 'Deploying' | 'Running' | 'Failed';

/** Replica counts (`status.replicas`). */
export interface ProviderReplicas {
  readonly desired: number;
  readonly ready: number;
  readonly available: number;
}

/** In-cluster endpoint of the model server (`status.endpoint`). */
export interface ProviderEndpoint {
  readonly service: string;
  readonly port: number;
}

/** The result of mapping one upstream object's status. */
export interface ProviderStatus {
  readonly phase: ProviderPhase;
  /** Empty when the upstream object has nothing to say. */
  readonly message: string;
  readonly replicas: ProviderReplicas;
  readonly endpoint: ProviderEndpoint;
}

/** A `metav1.Condition` without the bookkeeping the reconciler adds (times, generation). */
export interface ProviderCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
  readonly message: string;
}

/**
 * The `Ready` condition for a mapped status: Running → True/`DeploymentReady`
 * (`All replicas are ready`); Failed → False/`DeploymentFailed` with the mapped message;
 * anything else → False/`DeploymentInProgress` (`Deployment is in progress`).
 */
export function readyCondition(status: Pick<ProviderStatus, 'phase' | 'message'>): ProviderCondition {
  switch (status.phase) {
    case 'Running':
      return { type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' };
    case 'Failed':
      return { type: 'Ready', status: 'False', reason: 'DeploymentFailed', message: status.message };
    default:
      return { type: 'Ready', status: 'False', reason: 'DeploymentInProgress', message: 'Deployment is in progress' };
  }
}

/** What the reconciler writes after mapping: the final phase/message and the Ready condition. */
export interface ReconciledProviderStatus extends ProviderStatus {
  readonly ready: ProviderCondition;
}

/**
 * Applies the reconcile rules that follow the mapping (§0.3 steps 10–11): the Ready condition is
 * derived from the mapped phase; a Running status without a message says `<what> created, pods
 * are ready`; a phase that is neither Running nor Failed becomes `Deploying` with
 * `<what> created, waiting for pods to be ready`.
 *
 * @param createdWhat how the provider names what it created: `Deployments` (llm-d, Direct vLLM),
 * `DynamoGraphDeployment`, `RayService`, `Workspace`.
 */
export function reconcileProviderStatus(status: ProviderStatus, createdWhat: string): ReconciledProviderStatus {
  const ready = readyCondition(status);
  if (status.phase === 'Running') {
    return { ...status, message: status.message || `${createdWhat} created, pods are ready`, ready };
  }
  if (status.phase === 'Failed') return { ...status, ready };
  return { ...status, phase: 'Deploying', message: `${createdWhat} created, waiting for pods to be ready`, ready };
}

/** The public report of a reconciled status (the same values, as jsii types). */
export function toStatusReport(status: ReconciledProviderStatus): ProviderStatusReport {
  return {
    phase: status.phase as string as DeploymentPhase,
    message: status.message,
    replicas: status.replicas,
    endpoint: status.endpoint,
    ready: { ...status.ready, status: status.ready.status as string as ConditionStatus },
  };
}

/** One serving component's report, named for messages (`prefill`). */
export interface ComponentReport {
  readonly component: string;
  readonly report: ProviderStatusReport;
}

/**
 * The status of a deployment served by several workloads that must all run (llm-d's decode and
 * prefill Deployments): Failed when any is (its message, naming the component); Running only when
 * all are; otherwise the first component that is not Running decides, so a prefill side still
 * rolling out keeps the record Deploying. Replicas add up; the endpoint and, when all run, the
 * message are the first component's (the one that serves).
 */
export function combineComponentReports(parts: readonly ComponentReport[]): ProviderStatusReport {
  const [first] = parts;
  const deciding = parts.find((p) => p.report.phase === 'Failed') ?? parts.find((p) => p.report.phase !== 'Running') ?? first;
  const named = deciding === first || deciding.report.message === '' ? deciding.report.message : `${deciding.component}: ${deciding.report.message}`;
  const ready = deciding.report.ready;
  return {
    phase: deciding.report.phase,
    message: named,
    replicas: {
      desired: parts.reduce((n, p) => n + p.report.replicas.desired, 0),
      ready: parts.reduce((n, p) => n + p.report.replicas.ready, 0),
      available: parts.reduce((n, p) => n + p.report.replicas.available, 0),
    },
    ...(first.report.endpoint && { endpoint: first.report.endpoint }),
    ready: deciding === first ? ready : { ...ready, message: ready.message && `${deciding.component}: ${ready.message}` },
  };
}
