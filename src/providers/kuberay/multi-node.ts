/**
 * Multi-node replicas on KubeRay (annotation `inference.cdk8s.io/multi-node`, aggregated only): a
 * Ray cluster already spans nodes, so a replica of `gpu.count` GPUs becomes `gpu.count /
 * gpusPerNode` worker pods of `gpusPerNode` GPUs each (`./worker-groups`), and its vLLM engine
 * gets the layout's tensor and pipeline parallel sizes and the Ray executor in
 * `VLLM_ENGINE_ARGS` (`./args`). vLLM then reserves a placement group of one GPU per rank from
 * the cluster, which Ray fills across the worker pods; nothing else launches the ranks.
 *
 * Disaggregated KubeRay runs one Serve deployment over two worker groups, with no roles, so a
 * component's group of pods has no meaning there: `KubeRayProvider.supportsFeature` refuses it.
 *
 * Pure, and free of cdk8s-plus-34 and the generated bindings, so the controller runs the checks.
 */
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import type { FieldError } from '../../core/field-error';
import { singleNodeVolumeErrors } from '../../multinode/vllm-checks';
import { executorBackendErrors } from '../../multinode/vllm-flags';
import { deploymentMultiNode, DeploymentMultiNode, MultiNodeLayout } from '../../provider-kit/multi-node-layout';

/**
 * The multi-node layout of an aggregated vLLM deployment on KubeRay, with its errors and
 * warnings (`engine.args` and `engine.extraArgs` both reach vLLM); undefined when it does not ask
 * for multi-node replicas, or is not one KubeRay runs them for.
 */
export function kuberayMultiNode(md: ResolvedModelDeployment): DeploymentMultiNode | undefined {
  if (md.engine !== 'vllm' || md.mode !== 'aggregated') return undefined;
  return deploymentMultiNode(md, 'vllm', { extraArgs: true });
}

/** The layout of a replica that spans worker pods; undefined when it fits one pod or has none. */
export function kuberayLayout(md: ResolvedModelDeployment): MultiNodeLayout | undefined {
  return kuberayMultiNode(md)?.layouts.resources;
}

/**
 * What refuses a multi-node KubeRay deployment: the layout (`deploymentMultiNode`), and, when the
 * replica spans pods, an executor other than Ray (vLLM's others keep every rank on the pod that
 * runs the engine, `executorBackendErrors`) and a volume bound to one node (every worker pod
 * mounts it).
 */
export function kuberayMultiNodeErrors(md: ResolvedModelDeployment): FieldError[] {
  const multiNode = kuberayMultiNode(md);
  if (!multiNode) return [];
  const errors = [...multiNode.errors];
  const spans = Object.keys(multiNode.layouts).length > 0 || multiNode.errors.length > 0;
  if (spans) errors.push(...executorBackendErrors(md.spec), ...singleNodeVolumeErrors(md));
  return errors;
}
