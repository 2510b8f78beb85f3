import { rayAutoscalingOf } from './autoscaling';
import { serveReplicas } from './serve-config';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { gpuTypeOf } from '../../core/gpu-type';
import type { DeviceComponent } from '../../provider-kit/device-annotation';
import { podGpuCount, podsPerReplica } from '../../provider-kit/multi-node-layout';
import type { SpecComponentScaling } from '../../provider-kit/spec-types';

/*
 * The Ray worker groups of a deployment: how many pods, with how many GPUs each. The translator
 * renders them and the validation checks the engine's parallelism against them, so they stay
 * free of cdk8s-plus-34.
 */

/** Memory limit of a worker container when its memory is unset. */
export const RAY_WORKER_DEFAULT_MEMORY = '32Gi';

/** Worker group of an aggregated deployment. */
export const AGGREGATED_WORKER_GROUP = 'gpu-workers';
/** Worker group of the disaggregated prefill component. */
export const PREFILL_WORKER_GROUP = 'prefill-workers';
/** Worker group of the disaggregated decode component. */
export const DECODE_WORKER_GROUP = 'decode-workers';

/** One worker group before it becomes a pod template. */
export interface WorkerGroupPlan {
  readonly groupName: string;
  /** Which pods of the deployment the group runs, as the DRA device requests name them. */
  readonly component: DeviceComponent;
  readonly replicas: number;
  /** The Ray autoscaler's bounds of the group (both `replicas` when Ray does not autoscale). */
  readonly minReplicas: number;
  readonly maxReplicas: number;
  readonly gpuCount: number;
  readonly gpuResource: string;
  readonly memory: string;
  readonly cpu?: string;
}

/**
 * The worker groups of a deployment, in output order:
 *
 * - aggregated: `gpu-workers` with `scaling.replicas` (0 or unset → 1) pods, or from minReplicas
 *   to maxReplicas pods when Ray autoscales (`rayAutoscalingOf`), each with
 *   `resources.gpu.count` GPUs and `resources.memory` (default 32Gi). A multi-node replica
 *   (`./multi-node`) is a group of pods of `gpusPerNode` GPUs each, so every count of pods is
 *   the count of Serve replicas times the group size;
 * - disaggregated: `prefill-workers` then `decode-workers`, each only when the component is
 *   set, with the component's replicas (unset → 1, the CRD default), GPUs and memory.
 *
 * GPUs are requested under `gpu.type` (default `nvidia.com/gpu`), as AI Runway's KubeRay does.
 */
export function workerGroupPlans(md: ResolvedModelDeployment): WorkerGroupPlan[] {
  if (md.mode === 'disaggregated') {
    const plans: WorkerGroupPlan[] = [];
    const component = (groupName: string, name: DeviceComponent, c: SpecComponentScaling | undefined) => {
      if (!c) return;
      const replicas = c.replicas ?? 1;
      plans.push({
        groupName,
        component: name,
        replicas,
        minReplicas: replicas,
        maxReplicas: replicas,
        gpuCount: c.gpu?.count ?? 0,
        gpuResource: gpuTypeOf(c.gpu),
        memory: c.memory || RAY_WORKER_DEFAULT_MEMORY,
      });
    };
    component(PREFILL_WORKER_GROUP, 'prefill', md.spec.scaling?.prefill);
    component(DECODE_WORKER_GROUP, 'decode', md.spec.scaling?.decode);
    return plans;
  }
  const resources = md.spec.resources;
  // One worker pod per Serve replica (one group of pods when it spans nodes): the same
  // positive-or-1 rule, or the autoscaler's bounds (starting at the lower one).
  const autoscaling = rayAutoscalingOf(md);
  const group = podsPerReplica(md, 'resources');
  const replicas = (autoscaling ? autoscaling.minReplicas : serveReplicas(md.spec.scaling?.replicas)) * group;
  return [{
    groupName: AGGREGATED_WORKER_GROUP,
    component: 'resources',
    replicas,
    minReplicas: replicas,
    maxReplicas: autoscaling ? autoscaling.maxReplicas * group : replicas,
    gpuCount: podGpuCount(md, 'resources'),
    gpuResource: gpuTypeOf(resources?.gpu),
    memory: resources?.memory || RAY_WORKER_DEFAULT_MEMORY,
    cpu: resources?.cpu || undefined,
  }];
}

/**
 * GPUs of one worker pod, for `--tensor-parallel-size`: the aggregated GPU count, or in
 * disaggregated mode the smaller of the two components' counts. The single Serve deployment
 * has no prefill/decode roles and Ray may place a replica in either group, so the tensor
 * parallel group must fit in the smaller pod.
 */
export function kuberayGpusPerWorker(md: ResolvedModelDeployment): number {
  const counts = workerGroupPlans(md).map((p) => p.gpuCount);
  return counts.length > 0 ? Math.min(...counts) : 0;
}
