/**
 * Upstream objects' statuses as their operators write them (the Kubernetes deployment controller,
 * Dynamo, KubeRay, KAITO), by lifecycle stage: what the status tests, in memory and on the real
 * API server, drive records through.
 */
import { crdCondition, deploymentCondition } from './status-conditions';

/** Upstream statuses of one kind of status source, by lifecycle stage. */
export interface UpstreamStatuses {
  readonly deploying: unknown;
  readonly running: unknown;
  readonly failed: unknown;
}

/** An apps/v1 Deployment's status as the deployment controller writes it (`n` replicas). */
export function deploymentStatuses(n: number): UpstreamStatuses {
  return {
    deploying: {
      observedGeneration: 1,
      replicas: n,
      updatedReplicas: n,
      unavailableReplicas: n,
      conditions: [deploymentCondition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "x-7d9f" is progressing.')],
    },
    running: {
      observedGeneration: 1,
      replicas: n,
      updatedReplicas: n,
      readyReplicas: n,
      availableReplicas: n,
      conditions: [
        deploymentCondition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'),
        deploymentCondition('Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "x-7d9f" has successfully progressed.'),
      ],
    },
    failed: {
      observedGeneration: 1,
      replicas: n,
      unavailableReplicas: n,
      conditions: [
        deploymentCondition('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'),
        deploymentCondition('Progressing', 'False', 'ProgressDeadlineExceeded', 'ReplicaSet "x-7d9f" has timed out progressing.'),
      ],
    },
  };
}

function dgdService(componentName: string, replicas: number, ready: number): Record<string, unknown> {
  return { componentKind: 'PodClique', componentName, componentNames: [componentName], replicas, updatedReplicas: replicas, readyReplicas: ready };
}

/** A DynamoGraphDeployment's status as the Dynamo operator writes it (v1alpha1 with `services`). */
export function dynamoStatuses(name: string, apiVersion: 'v1alpha1' | 'v1beta1'): UpstreamStatuses {
  const services = (workerReady: number) => ({ Frontend: dgdService(`${name}-0-frontend`, 1, 1), VllmWorker: dgdService(`${name}-0-vllmworker`, 1, workerReady) });
  const withServices = (s: Record<string, unknown>, ready: number) => (apiVersion === 'v1alpha1' ? { ...s, services: services(ready) } : s);
  return {
    deploying: withServices({ state: 'initializing', conditions: [crdCondition('Ready', 'False', 'SomeResourcesAreNotReady', `Resources not ready: ${name}-0-vllmworker: podclique 0/1 ready`)] }, 0),
    running: withServices({ state: 'successful', conditions: [crdCondition('Ready', 'True', 'AllResourcesAreReady', 'All resources are ready')] }, 1),
    failed: withServices({ state: 'failed', conditions: [crdCondition('Ready', 'False', 'Failed', 'VllmWorker: CrashLoopBackOff')] }, 0),
  };
}

function rayApp(status: string, message = ''): Record<string, unknown> {
  return {
    status,
    ...(message && { message }),
    serveDeploymentStatuses: { VLLMDeployment: { status: status === 'RUNNING' ? 'HEALTHY' : 'UNHEALTHY', ...(message && { message }) } },
  };
}

/** A RayService's status as KubeRay writes it, with `serveEndpoints` endpoints once running. */
export function rayServiceStatuses(serveEndpoints: number): UpstreamStatuses {
  return {
    deploying: {
      conditions: [crdCondition('Ready', 'False', 'Initializing', 'RayService is initializing')],
      activeServiceStatus: { applicationStatuses: { llm: rayApp('DEPLOYING') } },
    },
    running: {
      conditions: [crdCondition('Ready', 'True', 'NonZeroServeEndpoints', 'Number of serve endpoints is greater than 0')],
      activeServiceStatus: { applicationStatuses: { llm: rayApp('RUNNING') } },
      numServeEndpoints: serveEndpoints,
    },
    failed: {
      conditions: [crdCondition('Ready', 'False', 'ZeroServeEndpoints', 'Number of serve endpoints dropped to 0')],
      activeServiceStatus: { applicationStatuses: { llm: rayApp('DEPLOY_FAILED', 'CUDA out of memory') } },
    },
  };
}

/** A KAITO Workspace's status as the KAITO controller writes it. */
export const WORKSPACE_STATUSES: UpstreamStatuses = {
  deploying: {
    state: 'NotReady',
    conditions: [
      crdCondition('ResourceReady', 'True', 'WorkspaceResourceStatusSuccess', 'workspace resource is ready'),
      crdCondition('InferenceReady', 'False', 'WorkspaceInferenceStatusFailed', 'inference deployment has 0/1 ready replicas'),
    ],
  },
  running: {
    state: 'Ready',
    conditions: [
      crdCondition('ResourceReady', 'True', 'WorkspaceResourceStatusSuccess', 'workspace resource is ready'),
      crdCondition('InferenceReady', 'True', 'WorkspaceInferenceStatusSuccess', 'Inference has been deployed successfully'),
      crdCondition('WorkspaceSucceeded', 'True', 'WorkspaceSucceeded', 'workspace succeeds'),
    ],
  },
  failed: {
    conditions: [crdCondition('WorkspaceSucceeded', 'False', 'WorkspaceFailed', 'preset is not supported')],
  },
};

/**
 * A Kthena ModelServing's status as its controller writes it (`groups` ServingGroups). Kthena has
 * no failure condition — a crashing pod keeps its group Progressing while the controller recreates
 * it — so its "failed" stage is a group that stopped being available and is progressing again.
 */
export function modelServingStatuses(groups: number): UpstreamStatuses {
  return {
    deploying: {
      observedGeneration: 1,
      replicas: groups,
      currentReplicas: groups,
      availableReplicas: 0,
      conditions: [crdCondition('Progressing', 'True', 'GroupsProgressing', `0/${groups} ServingGroups are available`)],
    },
    running: {
      observedGeneration: 1,
      replicas: groups,
      currentReplicas: groups,
      updatedReplicas: groups,
      availableReplicas: groups,
      conditions: [crdCondition('Available', 'True', 'AllGroupsReady', 'all ServingGroups are available')],
    },
    failed: {
      observedGeneration: 1,
      replicas: groups,
      currentReplicas: groups,
      availableReplicas: 0,
      conditions: [crdCondition('Progressing', 'True', 'GroupRecreating', 'ServingGroup 0 is being recreated after a pod failure')],
    },
  };
}

/** A FlexInfer Model's status as its controller writes it (`phase`, conditions, endpoint). */
export function flexInferModelStatuses(name: string, namespace: string): UpstreamStatuses {
  return {
    deploying: {
      phase: 'Loading',
      conditions: [
        crdCondition('ConfigValid', 'True', 'Valid', 'spec is valid'),
        crdCondition('Loaded', 'False', 'Loading', 'loading the model'),
      ],
    },
    running: {
      phase: 'Ready',
      endpoint: `http://${name}.${namespace}.svc:8000`,
      conditions: [
        crdCondition('ConfigValid', 'True', 'Valid', 'spec is valid'),
        crdCondition('Loaded', 'True', 'Loaded', 'model loaded'),
        crdCondition('Ready', 'True', 'Serving', 'serving requests'),
      ],
    },
    failed: {
      phase: 'Failed',
      message: 'backend vllm exited: CUDA out of memory',
      conditions: [crdCondition('Ready', 'False', 'BackendCrashed', 'backend vllm exited: CUDA out of memory')],
    },
  };
}

/** A modelplane ModelDeployment's status as its composition function and Crossplane write it (`desired` ModelReplicas). */
export function modelplaneStatuses(desired: number): UpstreamStatuses {
  return {
    deploying: {
      replicas: { total: desired, ready: 0 },
      conditions: [
        crdCondition('ReplicasScheduled', 'True', 'ReplicasCreated', `${desired} replica(s) scheduled`),
        crdCondition('ReplicasReady', 'False', 'ModelStarting', `0/${desired} replicas ready`),
      ],
    },
    running: {
      replicas: { total: desired, ready: desired },
      conditions: [
        crdCondition('ReplicasScheduled', 'True', 'ReplicasCreated', `${desired} replica(s) scheduled`),
        crdCondition('ReplicasReady', 'True', 'AllReplicasReady', 'all replicas are ready'),
        crdCondition('Synced', 'True', 'ReconcileSuccess', ''),
        crdCondition('Ready', 'True', 'Available', ''),
      ],
    },
    failed: {
      replicas: { total: 0, ready: 0 },
      conditions: [
        crdCondition('ReplicasScheduled', 'False', 'InvalidNodeSelector', 'device selector of engine serving does not compile'),
        crdCondition('Synced', 'True', 'ReconcileSuccess', ''),
      ],
    },
  };
}
