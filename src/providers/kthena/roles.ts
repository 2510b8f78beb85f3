import { autoscalingOf } from '../../api/autoscaling/autoscaling-annotation';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { gpuTypeOf } from '../../core/gpu-type';
import { LABEL_MODEL_DEPLOYMENT } from '../../core/labels';
import type { DeviceComponent } from '../../provider-kit/device-annotation';
import { deploymentMultiNode, MultiNodeLayout, podGpuCount, podsPerReplica } from '../../provider-kit/multi-node-layout';
import { scalableReplicas } from '../../provider-kit/replicas';

/*
 * The roles of the one ServingGroup template our ModelServing declares, and the pod labels that
 * tell them apart. Plain data, shared by validation, the translator and the provider's routing
 * facts, so that none of them loads cdk8s-plus-34.
 */

/** A role of our ServingGroup: `server` when aggregated, `prefill` and `decode` when disaggregated. */
export type KthenaRoleName = 'server' | 'prefill' | 'decode';

/**
 * Label the ModelServing controller puts on every pod it creates: the role's name. The
 * ModelServer's prefill/decode grouping reads it, with the ServingGroup's name
 * (`KthenaPodLabels.KTHENA_SERVING_GROUP`): a prefill pod is paired only with decode pods of the
 * same ServingGroup. (Our own role label, `KthenaPodLabels.ROLE`, is in the pod template, known at
 * build time; our Service selects the serving role by it.)
 */
export const KTHENA_POD_ROLE_LABEL = 'modelserving.volcano.sh/role';

/** One role of the ServingGroup template, as the deployment sizes it. */
export interface KthenaRolePlan {
  readonly name: KthenaRoleName;
  /** The disaggregated component (`spec.scaling.<component>`) that sizes the role; unset for `server`. */
  readonly component?: 'prefill' | 'decode';
  /** Instances of the role in each ServingGroup (`roles[].replicas`). */
  readonly replicas: number;
  /** Where the spec sets the replicas, for messages. */
  readonly replicasPath: string;
  /** The DRA component whose claims its pods carry. */
  readonly deviceComponent: DeviceComponent;
  /** The spec's `gpu` block of the role, for messages. */
  readonly gpuPath: string;
  /** GPUs of one role instance: the engine's world size. */
  readonly gpuCount: number;
  readonly gpuType: string;
  /** GPUs of each pod: `gpusPerNode` for a multi-node role, else `gpuCount`. */
  readonly podGpuCount: number;
  /**
   * Worker pods per role instance (`roles[].workerReplicas`): the pods of a multi-node replica
   * besides the entry pod, else 0.
   */
  readonly workerReplicas: number;
  /** The layout of a multi-node vLLM role (`src/provider-kit/multi-node-layout.ts`); unset otherwise or when it has errors. */
  readonly layout?: MultiNodeLayout;
}

/**
 * `spec.replicas`, the number of ServingGroups: aggregated, `scaling.replicas` (0 included: scale
 * to zero), unset when Kthena's autoscaler owns it (annotation `inference.cdk8s.io/autoscaling`);
 * disaggregated, one group holding all prefill and decode instances, so that the router can pair
 * any prefill pod with any decode pod of the deployment.
 */
export function servingGroupReplicas(md: ResolvedModelDeployment): number | undefined {
  return md.mode === 'disaggregated' ? 1 : scalableReplicas(md);
}

/** The most ServingGroups the deployment can run (the autoscaler's bound), for checks of generated names. */
export function servingGroupCount(md: ResolvedModelDeployment): number {
  if (md.mode === 'disaggregated') return 1;
  return Math.max(autoscalingOf(md.annotations)?.maxReplicas ?? md.spec.scaling?.replicas ?? 1, 1);
}

/**
 * The roles of the ServingGroup: aggregated, one `server` instance per group (groups scale the
 * deployment); disaggregated, `prefill` then `decode`, each with its component's replicas
 * (the CRD default of 1 when unset) and GPUs. A role whose GPUs exceed the multi-node
 * annotation's `gpusPerNode` spreads each instance over an entry pod and `workerReplicas` worker
 * pods of `gpusPerNode` GPUs each.
 */
export function kthenaRoles(md: ResolvedModelDeployment): KthenaRolePlan[] {
  // Only vLLM runs multi-node on Kthena (`./multi-node.ts`); the worker count is engine-free.
  const layouts = md.engine === 'vllm' ? deploymentMultiNode(md, 'vllm', { extraArgs: true })?.layouts ?? {} : {};
  const podsOf = (component: DeviceComponent) => ({
    podGpuCount: podGpuCount(md, component),
    workerReplicas: podsPerReplica(md, component) - 1,
    ...(layouts[component] && { layout: layouts[component] }),
  });
  if (md.mode !== 'disaggregated') {
    const gpu = md.spec.resources?.gpu;
    return [{
      name: 'server',
      replicas: 1,
      replicasPath: 'spec.scaling.replicas',
      deviceComponent: 'resources',
      gpuPath: 'spec.resources.gpu',
      gpuCount: gpu?.count ?? 0,
      gpuType: gpuTypeOf(gpu),
      ...podsOf('resources'),
    }];
  }
  return (['prefill', 'decode'] as const).map((component) => {
    const scaling = md.spec.scaling?.[component];
    return {
      name: component,
      component,
      replicas: scaling?.replicas ?? 1,
      replicasPath: `spec.scaling.${component}.replicas`,
      deviceComponent: component,
      gpuPath: `spec.scaling.${component}.gpu`,
      gpuCount: scaling?.gpu?.count ?? 0,
      gpuType: gpuTypeOf(scaling?.gpu),
      ...podsOf(component),
    };
  });
}

/** The role whose pods answer clients directly: `server`, or `decode` (it streams the output). */
export function servingRoleName(md: ResolvedModelDeployment): KthenaRoleName {
  return md.mode === 'disaggregated' ? 'decode' : 'server';
}

/** Labels of the pods of the deployment (all roles) that our selectors and the ModelServer match. */
export function deploymentPodSelector(md: Pick<ResolvedModelDeployment, 'name'>): Record<string, string> {
  return { [LABEL_MODEL_DEPLOYMENT]: md.name };
}
