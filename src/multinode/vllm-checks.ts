/**
 * The multi-node checks of a provider that runs vLLM replicas as LeaderWorkerSets (Direct vLLM,
 * llm-d): each multi-node component's layout, the Ray executor, the overrides a LeaderWorkerSet
 * can take; and the parallelism target of a multi-node component, whose engine sees the GPUs of
 * every pod of its group rather than one pod's. Pure, so the controller runs them.
 */
import { leaderWorkerSetOverrideErrors } from './overrides';
import { executorBackendErrors } from './vllm-flags';
import { GPUS_PER_NODE_PATH, MULTI_NODE_ANNOTATION_PATH } from '../api/multi-node/multi-node-annotation';
import type { ResolvedModelDeployment } from '../api/resolved-model-deployment';
import { FieldError, invalid } from '../core/field-error';
import { deploymentMultiNode, DeploymentMultiNode, isMultiNodeComponent, ServingComponent } from '../provider-kit/multi-node-layout';
import type { ParallelismTarget } from '../provider-kit/parallelism';

/** What the multi-node checks of a vLLM deployment found. */
export interface VllmMultiNodeFindings {
  /** Unset when the deployment does not ask for multi-node replicas. */
  readonly multiNode?: DeploymentMultiNode;
  readonly errors: FieldError[];
  readonly warnings: string[];
}

/**
 * The multi-node findings of a vLLM deployment whose `engine.args` and `engine.extraArgs` both
 * reach the engine. The executor and override checks apply only when some component is multi-node.
 */
export function vllmMultiNodeFindings(md: ResolvedModelDeployment): VllmMultiNodeFindings {
  if (md.engine !== 'vllm') return { errors: [], warnings: [] };
  const multiNode = deploymentMultiNode(md, 'vllm', { extraArgs: true });
  if (!multiNode) return { errors: [], warnings: [] };
  const errors = [...multiNode.errors];
  const spans = Object.keys(multiNode.layouts).length > 0 || multiNode.errors.length > 0;
  if (spans) {
    errors.push(...executorBackendErrors(md.spec));
    errors.push(...leaderWorkerSetOverrideErrors(md.spec.provider?.overrides));
    errors.push(...singleNodeVolumeErrors(md));
  }
  return { multiNode, errors, warnings: multiNode.warnings };
}

/**
 * Volumes the pods of a group cannot all mount: a claim whose access mode binds it to one node
 * (`ReadWriteOnce`, `ReadWriteOncePod`), while every pod of a multi-node replica runs on a node of
 * its own and each of them loads its shard of the weights. Shared with the providers whose
 * multi-node replicas are not LeaderWorkerSets (Dynamo, KubeRay).
 */
export function singleNodeVolumeErrors(md: ResolvedModelDeployment): FieldError[] {
  const errors: FieldError[] = [];
  (md.spec.model.storage?.volumes ?? []).forEach((volume, i) => {
    const mode = volume.accessMode;
    if (mode !== 'ReadWriteOnce' && mode !== 'ReadWriteOncePod') return;
    errors.push(invalid(`spec.model.storage.volumes[${i}].accessMode`, mode,
      `the pods of a multi-node replica (${MULTI_NODE_ANNOTATION_PATH}) run on different nodes and each mounts the volume; ` +
        `${mode} binds it to one node: use ReadWriteMany (or ReadOnlyMany for a pre-filled cache)`));
  });
  return errors;
}

/**
 * The parallelism target of `component`: `base` for a single-pod component; for a multi-node one
 * the group's pods, each with `gpusPerNode` GPUs, and the layout's sizes as what the provider
 * renders; undefined when the component is multi-node without a layout (its layout errors say why).
 */
export function multiNodeParallelismTarget(
  md: ResolvedModelDeployment,
  findings: Pick<VllmMultiNodeFindings, 'multiNode'>,
  component: ServingComponent,
  base: ParallelismTarget,
): ParallelismTarget | undefined {
  const layout = findings.multiNode?.layouts[component];
  if (!layout) return isMultiNodeComponent(md, component) ? undefined : base;
  return {
    ...base,
    gpuPath: GPUS_PER_NODE_PATH,
    gpuCount: layout.gpusPerNode,
    nodes: { count: layout.groupSize, description: `${layout.groupSize} pods of a multi-node replica (${MULTI_NODE_ANNOTATION_PATH})` },
    derivedTensorParallel: layout.tensorParallel,
    derivedPipelineParallel: layout.pipelineParallel,
  };
}
