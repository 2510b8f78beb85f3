/**
 * Upstream objects' statuses as their operators write them, by lifecycle stage: what the status
 * tests, in memory and on the real API server, drive records through.
 *
 * Deployments (the deployment controller) and RayServices (KubeRay) are captured from the real
 * components on the simulated cluster (test/simcluster/controller.test.ts, which also checks the
 * capture is current) and read from test/fixtures/operator-statuses/real-statuses.json. The
 * others are hand-written from the operators' Go type definitions, each saying where from.
 */
import * as fs from 'fs';
import * as path from 'path';
import { crdCondition, statusCondition } from './status-conditions';

/** Upstream statuses of one kind of status source, by lifecycle stage. */
export interface UpstreamStatuses {
  readonly deploying: unknown;
  readonly running: unknown;
  readonly failed: unknown;
}

/** Where the statuses captured from the real components are committed. */
export const REAL_STATUSES_FILE = path.join(__dirname, '..', 'fixtures', 'operator-statuses', 'real-statuses.json');

/** The statuses the simulated cluster's components wrote (see test/simcluster/real-statuses.ts). */
export interface RealStatuses {
  /** Which components wrote them, and the command that captures them again. */
  readonly capturedWith: { readonly [component: string]: string };
  /** Deployment statuses by replica count, then stage. */
  readonly deployment: Record<string, UpstreamStatuses>;
  /**
   * RayService statuses by stage. No `running`: KubeRay reports Ready only once the Ray dashboard
   * of the head pod serves the application and its proxy answers health checks, and no Ray head
   * runs on the simulated cluster (KWOK's pods run nothing).
   */
  readonly rayService: Omit<UpstreamStatuses, 'running'>;
}

let realStatuses: RealStatuses | undefined;

export function readRealStatuses(): RealStatuses {
  return (realStatuses ??= JSON.parse(fs.readFileSync(REAL_STATUSES_FILE, 'utf8')));
}

/** The message of a status's condition of `type` (a failed stage's deciding one). */
export function conditionMessage(status: unknown, type: string): string {
  const c = statusCondition({ status }, type);
  if (!c) throw new Error(`no ${type} condition in ${JSON.stringify(status)}`);
  return c.message ?? '';
}

/** A copy, so a test that edits a status cannot change the next test's. */
const copy = <T>(v: T): T => structuredClone(v);

/**
 * An apps/v1 Deployment's status as the deployment controller writes it (`n` replicas, 1 to 3):
 * pods Pending (deploying), all available (running), and past a progress deadline (failed:
 * `ProgressDeadlineExceeded`). Captured from kube-controller-manager.
 */
export function deploymentStatuses(n: number): UpstreamStatuses {
  const captured = readRealStatuses().deployment[String(n)];
  if (!captured) throw new Error(`no Deployment statuses of ${n} replicas captured in ${REAL_STATUSES_FILE}`);
  return copy(captured);
}

/** The Serve deployment of `meta-llama/Llama-3.1-8B-Instruct`, as Ray Serve LLM names it. */
const RAY_LLM_DEPLOYMENT = 'meta-llama--Llama-3_1-8B-Instruct';

/**
 * A RayService's status as KubeRay v1.5.0 writes it: deploying (`Ready=False Initializing`, its
 * RayCluster's pods not yet ready) and failed (`Ready=False InitializingTimeout` after the
 * `ray.io/initializing-timeout` annotation's time) are captured from the real operator.
 *
 * The running stage is hand-written — it needs a Ray head that serves — from ray-project/kuberay
 * ray-operator/apis/ray/v1/rayservice_types.go at v1.5.0 (`RayServiceReady` = "Ready",
 * `NonZeroServeEndpoints` = "NonZeroServeEndpoints", `ServiceStatus` `Running` = "Running",
 * `ApplicationStatusEnum` `RUNNING`, `DeploymentStatusEnum` `HEALTHY`) and
 * controllers/ray/rayservice_controller.go's `calculateConditions` ("Number of serve endpoints is
 * greater than 0"). The application is named as our serve config names it; its LLM deployment as
 * Ray Serve LLM 2.55 names one (the model id, `/` → `--`, `.` → `_`: builder.py).
 */
export function rayServiceStatuses(serveEndpoints: number): UpstreamStatuses {
  const captured = readRealStatuses().rayService;
  return {
    deploying: copy(captured.deploying),
    running: {
      serviceStatus: 'Running',
      numServeEndpoints: serveEndpoints,
      conditions: [
        crdCondition('Ready', 'True', 'NonZeroServeEndpoints', 'Number of serve endpoints is greater than 0'),
        crdCondition('UpgradeInProgress', 'False', 'NoPendingCluster', 'Active Ray cluster exists and no pending Ray cluster'),
      ],
      activeServiceStatus: {
        rayClusterName: 'llama-x7k2p',
        applicationStatuses: { llm: { status: 'RUNNING', serveDeploymentStatuses: { [RAY_LLM_DEPLOYMENT]: { status: 'HEALTHY' } } } },
      },
      observedGeneration: 1,
    },
    failed: copy(captured.failed),
  };
}

/** The message of the Dynamo fixture's failed stage (the reconcile error, as the operator reports it). */
export const DYNAMO_FAILED_MESSAGE = 'failed to reconcile Dynamo components deployments: no multinode orchestrator available';

/**
 * One entry of a DynamoGraphDeployment's per-service counts: `ServiceReplicaStatus` (v1alpha1
 * `status.services`) or `ComponentReplicaStatus` (v1beta1 `status.components`, which drops the
 * deprecated `componentName`), for a Grove PodClique.
 */
function dgdComponent(apiVersion: 'v1alpha1' | 'v1beta1', componentName: string, replicas: number, ready: number): Record<string, unknown> {
  return {
    componentKind: 'PodClique',
    ...(apiVersion === 'v1alpha1' && { componentName }),
    componentNames: [componentName],
    replicas,
    updatedReplicas: replicas,
    readyReplicas: ready,
  };
}

/**
 * A DynamoGraphDeployment's status as the Dynamo operator writes it: `state`, the `Ready`
 * condition and the per-service counts (`services` in v1alpha1, `components` in v1beta1).
 *
 * Hand-written: the Dynamo operator cannot run here; values from ai-dynamo/dynamo
 * deploy/operator/api/v1beta1/dynamographdeployment_types.go (stored at 0fddc01b: `DGDState`
 * initializing|pending|successful|failed, `DGDReadyReasonAllResourcesReady` =
 * "all_resources_are_ready", `DGDReadyReasonSomeResourcesNotReady` =
 * "some_resources_are_not_ready"), deploy/operator/internal/controller/dgd_workload_result.go
 * (29cf5b7f: `checkResourcesReadiness`, "All resources are ready" / "Resources not ready: %s" of
 * "<resource>: <reason>", with state successful / pending) and
 * deploy/operator/internal/controller/dynamographdeployment_controller.go
 * (`reasonFailedToReconcileResources` = "failed_to_reconcile_the_resources", state failed, the
 * reconcile error as the message); state enum and status fields checked against the CRD in
 * ../shared/upstream/dynamo (2a6da14c). The not-ready reason after "<resource>:" is
 * illustrative (Grove's `CheckPodCliqueReady` wording); the failure is the error the controller
 * returns for a multinode service without Grove or LWS ("failed to reconcile Dynamo components
 * deployments: %w"; newer operators report that one case as `no_multinode_orchestrator_available`).
 * While resources come up the operator writes `pending` (`initializing` is only the CRD default).
 */
export function dynamoStatuses(name: string, apiVersion: 'v1alpha1' | 'v1beta1'): UpstreamStatuses {
  const perService = (workerReady: number) => ({
    [apiVersion === 'v1alpha1' ? 'services' : 'components']: {
      Frontend: dgdComponent(apiVersion, `${name}-0-frontend`, 1, 1),
      VllmWorker: dgdComponent(apiVersion, `${name}-0-vllmworker`, 1, workerReady),
    },
  });
  return {
    deploying: {
      state: 'pending',
      conditions: [crdCondition('Ready', 'False', 'some_resources_are_not_ready', `Resources not ready: ${name}-0-vllmworker: scheduled but ready=0/1`)],
      ...perService(0),
    },
    running: {
      state: 'successful',
      conditions: [crdCondition('Ready', 'True', 'all_resources_are_ready', 'All resources are ready')],
      ...perService(1),
    },
    failed: {
      state: 'failed',
      conditions: [crdCondition('Ready', 'False', 'failed_to_reconcile_the_resources', DYNAMO_FAILED_MESSAGE)],
      ...perService(0),
    },
  };
}

/** The message of the KAITO fixture's failed stage: the reconcile error, `context.DeadlineExceeded`. */
export const WORKSPACE_FAILED_MESSAGE = 'context deadline exceeded';

/**
 * A KAITO Workspace's status as the KAITO controller writes it.
 *
 * Hand-written: the KAITO controller cannot run here; values from kaito-project/kaito
 * api/v1beta1/condition_types.go (46dea37d: `ConditionTypeResourceStatus` = "ResourceReady",
 * `WorkspaceConditionTypeInferenceStatus` = "InferenceReady", `WorkspaceConditionTypeSucceeded` =
 * "WorkspaceSucceeded"), api/v1beta1/workspace_types.go (0228438b: `WorkspaceState`
 * Pending|Ready|NotReady|Running|Succeeded|Failed, json `state`) and
 * pkg/workspace/controllers/workspace_controller.go (main, stored versions; reason strings are
 * literals there: "workspaceResourceStatusSuccess", "WorkspaceInferenceStatusSuccess" /
 * "WorkspaceInferenceStatusPending", "workspaceSucceeded" / "workspacePending", and the messages
 * below); status fields checked against the CRD in ../shared/upstream/kaito (v0.12.0).
 *
 * Deploying and running are what the `state`-writing controller reports for a first rollout
 * (`Pending` until the Workspace was once Ready; `NotReady` after). That controller never fails an
 * inference Workspace (it stays Pending/NotReady while pods crash), so the failed stage is what
 * the older controller without `state` writes when a reconcile step errors — here
 * `CheckResourceStatus` timing out: `InferenceReady=False WorkspaceInferenceStatusFailed` and
 * `WorkspaceSucceeded=False workspaceFailed`, both with the error text.
 */
export const WORKSPACE_STATUSES: UpstreamStatuses = {
  deploying: {
    state: 'Pending',
    conditions: [
      crdCondition('ResourceReady', 'True', 'workspaceResourceStatusSuccess', 'workspace resource is ready'),
      crdCondition('InferenceReady', 'False', 'WorkspaceInferenceStatusPending', 'Inference workload is not ready'),
      crdCondition('WorkspaceSucceeded', 'False', 'workspacePending', 'workspace is waiting for inference workload readiness'),
    ],
  },
  running: {
    state: 'Ready',
    conditions: [
      crdCondition('ResourceReady', 'True', 'workspaceResourceStatusSuccess', 'workspace resource is ready'),
      crdCondition('InferenceReady', 'True', 'WorkspaceInferenceStatusSuccess', 'Inference has been deployed successfully'),
      crdCondition('WorkspaceSucceeded', 'True', 'workspaceSucceeded', 'workspace succeeds'),
    ],
  },
  failed: {
    conditions: [
      crdCondition('ResourceReady', 'True', 'workspaceResourceStatusSuccess', 'workspace resource is ready'),
      crdCondition('InferenceReady', 'False', 'WorkspaceInferenceStatusFailed', WORKSPACE_FAILED_MESSAGE),
      crdCondition('WorkspaceSucceeded', 'False', 'workspaceFailed', WORKSPACE_FAILED_MESSAGE),
    ],
  },
};

/** Go's `fmt.Sprintf("%v", []int{...})` of the first `n` group indexes: `[0 1 2]`. */
function groupList(n: number): string {
  return `[${Array.from({ length: n }, (_, i) => i).join(' ')}]`;
}

/**
 * A Kthena ModelServing's status as its controller writes it (`groups` ServingGroups). Kthena has
 * no failure condition — a crashing pod keeps its group Progressing while the controller recreates
 * it — so its "failed" stage is a group that stopped being available and is progressing again.
 * The controller keeps every condition it ever set and flips the others to False (status only,
 * reason and message left as they were), so later stages carry the earlier ones; zero counts are
 * left out (`omitempty`).
 *
 * Hand-written: the Kthena controller cannot run here; values from volcano-sh/kthena
 * pkg/apis/workload/v1alpha1/model_serving_types.go (192a22d6: `ModelServingAvailable` =
 * "Available", `ModelServingProgressing` = "Progressing", `ModelServingUpdateInProgress` =
 * "UpdateInProgress", the `ModelServingStatus` json tags) and
 * pkg/model-serving-controller/utils/utils.go (064ff525: `newCondition` reasons "AllGroupsReady" /
 * "GroupProgressing" / "GroupsUpdating", messages `AllGroupsIsReady` = "All Serving groups are
 * ready" and `SomeGroupsAreProgressing` = "Some groups is progressing" + ": [<groups>]",
 * `SetCondition`); fields checked against the CRD in ../shared/upstream/kthena (3cc05728).
 */
export function modelServingStatuses(groups: number): UpstreamStatuses {
  const progressingMessage = `Some groups is progressing: ${groupList(groups)}`;
  return {
    deploying: {
      observedGeneration: 1,
      replicas: groups,
      currentReplicas: groups,
      updatedReplicas: groups,
      conditions: [crdCondition('Progressing', 'True', 'GroupProgressing', progressingMessage)],
    },
    running: {
      observedGeneration: 1,
      replicas: groups,
      currentReplicas: groups,
      updatedReplicas: groups,
      availableReplicas: groups,
      conditions: [
        crdCondition('Progressing', 'False', 'GroupProgressing', progressingMessage),
        crdCondition('Available', 'True', 'AllGroupsReady', 'All Serving groups are ready'),
      ],
    },
    failed: {
      observedGeneration: 1,
      replicas: groups,
      currentReplicas: groups,
      updatedReplicas: groups,
      conditions: [
        crdCondition('Progressing', 'True', 'GroupProgressing', `Some groups is progressing: ${groupList(1)}`),
        crdCondition('Available', 'False', 'AllGroupsReady', 'All Serving groups are ready'),
      ],
    },
  };
}

/**
 * A FlexInfer Model's status as its controller writes it (`phase`, conditions, endpoint), for a
 * Model without LiteLLM settings on NVIDIA GPUs. It fails before any pod exists when no node
 * matches (GPU detection); a crashing backend keeps the Model `Loading`. No `status.message`:
 * the controller sets it only while Loading.
 *
 * Hand-written: the FlexInfer controller cannot run here; values from flexinfer/flexinfer
 * api/v1alpha2/model_types.go (74967997: `ModelPhase` Idle|Pending|Loading|Ready|Preempted|Failed,
 * `ConditionConfigValid` = "ConfigValid", `ConditionModelReady` = "Ready",
 * `ConditionModelSchedulable` = "Schedulable", `ReasonConfigValid` = "ConfigValid",
 * `ReasonStartingBackend` = "StartingBackend", `ReasonBackendReady` = "BackendReady",
 * `ReasonNoMatchingNodes` = "NoMatchingNodes") and controllers/ (stored versions:
 * `checkAliasConflicts` "No litellm config to validate", `updateStatusFromDeployment` "Backend
 * container is starting" / "Backend is ready to serve requests", GPU detection "no NVIDIA GPU
 * nodes match selector for model %s"); fields checked against the transcribed CRD in
 * ../shared/upstream/flexinfer (dd5279be) and spec/other-seed-systems.md §3.2.
 */
export function flexInferModelStatuses(name: string, namespace: string): UpstreamStatuses {
  const configValid = crdCondition('ConfigValid', 'True', 'ConfigValid', 'No litellm config to validate');
  return {
    deploying: {
      phase: 'Loading',
      endpoint: `http://${name}.${namespace}.svc:8000`,
      conditions: [configValid, crdCondition('Ready', 'False', 'StartingBackend', 'Backend container is starting')],
    },
    running: {
      phase: 'Ready',
      endpoint: `http://${name}.${namespace}.svc:8000`,
      conditions: [configValid, crdCondition('Ready', 'True', 'BackendReady', 'Backend is ready to serve requests')],
    },
    failed: {
      phase: 'Failed',
      conditions: [configValid, crdCondition('Schedulable', 'False', 'NoMatchingNodes', `no NVIDIA GPU nodes match selector for model ${name}`)],
    },
  };
}

/** A condition of a Crossplane composite resource: Crossplane's `Condition` leaves an empty message out. */
function xrCondition(type: string, status: 'True' | 'False', reason: string, message = ''): Record<string, unknown> {
  const condition = crdCondition(type, status, reason, message);
  if (message === '') delete condition.message;
  return condition;
}

/** crossplane-runtime's `StableNAndSomeMore(3, names)`: sorted, the first three, then ", and <k> more". */
function stableNAndSomeMore(names: readonly string[], n = 3): string {
  const sorted = [...names].sort();
  if (sorted.length > n) return `${sorted.slice(0, n).join(', ')}, and ${sorted.length - n} more`;
  if (sorted.length === n) return `${sorted.slice(0, n - 1).join(', ')}, and ${sorted[n - 1]}`;
  return sorted.join(', ');
}

/**
 * A modelplane ModelDeployment's status as its composition function and Crossplane write it
 * (`desired` ModelReplicas, all placed on one InferenceCluster, `gpu-a`). The failed stage is a
 * device selector that does not compile: the function stops before placing anything, so no
 * `status.replicas`, and marks the XR not ready (Crossplane's `Creating`, without a message).
 *
 * Hand-written: modelplane's composition function and Crossplane cannot run here; values from
 * modelplaneai/modelplane functions/compose-model-deployment/function/fn.py (6dc20e36:
 * `CONDITION_TYPE_REPLICAS_SCHEDULED` = "ReplicasScheduled", `CONDITION_TYPE_REPLICAS_READY` =
 * "ReplicasReady", reasons "ReplicasCreated", "ModelStarting", "AllReplicasReady",
 * "InvalidNodeSelector", messages "Scheduled {n} of {desired} replicas", "{ready} of {n} ready",
 * "Invalid nodeSelector CEL expression: {e}" — the part after the colon is celpy's error text,
 * illustrative — and the composed-resource names `replica-<cluster>-<index>`), crossplane-runtime
 * (`ReasonReconcileSuccess` = "ReconcileSuccess", `ReasonAvailable` = "Available",
 * `ReasonCreating` = "Creating", "Unready resources: %s" of `StableNAndSomeMore`), the XRD in
 * ../shared/upstream/modelplane (90ba117d = v0.3.1) and spec/other-seed-systems.md §1.10. The
 * stored fn.py predates the XRD's `engines` API; the spec, written from the newer function, lists
 * the same condition types and reasons.
 */
export function modelplaneStatuses(desired: number): UpstreamStatuses {
  const replicaKeys = Array.from({ length: desired }, (_, i) => `replica-gpu-a-${i}`);
  const scheduled = xrCondition('ReplicasScheduled', 'True', 'ReplicasCreated', `Scheduled ${desired} of ${desired} replicas`);
  const synced = xrCondition('Synced', 'True', 'ReconcileSuccess');
  return {
    deploying: {
      replicas: { total: desired, ready: 0 },
      conditions: [
        scheduled,
        xrCondition('ReplicasReady', 'False', 'ModelStarting', `0 of ${desired} ready`),
        synced,
        xrCondition('Ready', 'False', 'Creating', `Unready resources: ${stableNAndSomeMore(replicaKeys)}`),
      ],
    },
    running: {
      replicas: { total: desired, ready: desired },
      conditions: [
        scheduled,
        xrCondition('ReplicasReady', 'True', 'AllReplicasReady', `${desired} of ${desired} ready`),
        synced,
        xrCondition('Ready', 'True', 'Available'),
      ],
    },
    failed: {
      conditions: [
        xrCondition('ReplicasScheduled', 'False', 'InvalidNodeSelector', 'Invalid nodeSelector CEL expression: unexpected end of input'),
        synced,
        xrCondition('Ready', 'False', 'Creating'),
      ],
    },
  };
}
