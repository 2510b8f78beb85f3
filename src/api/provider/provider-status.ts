/**
 * Lifecycle phase of a ModelDeployment (`status.phase`) as a provider's status mapping reports it.
 * (`Terminating` is the controller's own and never comes from a provider.)
 */
export enum DeploymentPhase {
  /** Nothing observed yet. */
  PENDING = 'Pending',
  /** The upstream objects exist; pods are not ready yet. */
  DEPLOYING = 'Deploying',
  /** The model is served. */
  RUNNING = 'Running',
  /** The upstream objects report a failure. */
  FAILED = 'Failed',
}

/**
 * Status of a Kubernetes condition (`metav1.ConditionStatus`).
 */
export enum ConditionStatus {
  /** The condition holds. */
  TRUE = 'True',
  /** The condition does not hold. */
  FALSE = 'False',
  /** Not known. */
  UNKNOWN = 'Unknown',
}

/**
 * Replica counts of a deployment (`status.replicas`).
 */
export interface ReplicaCounts {
  /** Replicas asked for. */
  readonly desired: number;
  /** Replicas whose pods are ready. */
  readonly ready: number;
  /** Replicas available to serve. */
  readonly available: number;
}

/**
 * In-cluster endpoint of the model server (`status.endpoint`).
 */
export interface ServiceEndpoint {
  /** Name of the Service in the deployment's namespace. */
  readonly service: string;
  /** Port of the OpenAI-compatible API on that Service. */
  readonly port: number;
}

/**
 * A condition without the bookkeeping the controller adds (transition time, generation).
 */
export interface StatusCondition {
  /** Condition type, e.g. `Ready`. */
  readonly type: string;
  /** Whether it holds. */
  readonly status: ConditionStatus;
  /** One-word CamelCase reason. */
  readonly reason: string;
  /** Human-readable detail. */
  readonly message: string;
}

/**
 * What a provider's status mapping reads from its upstream objects, after AI Runway's reconcile
 * rules (a phase that is neither Running nor Failed is reported as Deploying, with a message
 * saying what was created).
 */
export interface ProviderStatusReport {
  /** Phase of the deployment. */
  readonly phase: DeploymentPhase;
  /** What the phase means here; empty when there is nothing to say. */
  readonly message: string;
  /** Replica counts. */
  readonly replicas: ReplicaCounts;
  /**
   * Where the model is served.
   * @default - not known yet
   */
  readonly endpoint?: ServiceEndpoint;
  /** The `Ready` condition that goes with the phase. */
  readonly ready: StatusCondition;
}

/**
 * A kind of upstream object a provider creates: what the controller's RBAC grants read access
 * to, and what it watches.
 */
export interface UpstreamKind {
  /** `apiVersion` of the objects, e.g. `apps/v1`. */
  readonly apiVersion: string;
  /** Kind, e.g. `Deployment`. */
  readonly kind: string;
  /** The plural resource name RBAC rules use, e.g. `deployments`. */
  readonly resource: string;
}

/**
 * An upstream object a provider's status mapping reads (the controller watches and fetches it).
 */
export interface UpstreamObjectRef {
  /** `apiVersion` of the object, e.g. `apps/v1`. */
  readonly apiVersion: string;
  /** Kind of the object, e.g. `Deployment`. */
  readonly kind: string;
  /** Name of the object (in the deployment's namespace). */
  readonly name: string;
}
