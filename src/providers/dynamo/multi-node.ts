/**
 * Multi-node replicas on Dynamo (annotation `inference.cdk8s.io/multi-node`): a worker whose GPUs
 * exceed `gpusPerNode` becomes a service with `multinode.nodeCount` = the layout's group size and
 * `gpusPerNode` GPUs per pod (Dynamo reads its GPU count per node: the engine spans
 * `nodeCount × gpu` of them), and its engine gets the layout's tensor and pipeline parallel sizes
 * (`src/provider-kit/multi-node-layout.ts`). Dynamo's operator then launches the ranks over the nodes itself —
 * Ray for vLLM, `--nnodes`/`--node-rank` for SGLang, MPI for TensorRT-LLM — deciding from the
 * world size in the worker's arguments, which is why the sizes must be on its command line.
 *
 * Before the annotation, the only way was `multinode` in the overrides, where `gpu.count` is the
 * GPUs of one node. The two cannot be mixed: with the annotation `gpu.count` is the GPUs of a
 * whole replica, so a worker override that also sets `multinode` is refused.
 *
 * Pure, and free of cdk8s-plus-34 and the generated bindings, so the controller runs the checks.
 */
import { DECODE_WORKER_SERVICE, isMocker, PREFILL_WORKER_SERVICE, WORKER_SERVICE } from './services';
import { MULTI_NODE_ANNOTATION_PATH, multiNodeSettings } from '../../api/multi-node/multi-node-annotation';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { FieldError, invalid } from '../../core/field-error';
import type { ModelDeploymentSpec } from '../../core/generated/model-deployment-spec';
import { singleNodeVolumeErrors } from '../../multinode/vllm-checks';
import { deploymentMultiNode, DeploymentMultiNode, MultiNodeLayout, ServingComponent, servingComponents } from '../../provider-kit/multi-node-layout';
import { PROVIDER_OVERRIDES_PATH } from '../../provider-kit/overrides';
import { isParallelEngine, PARALLEL_FLAGS, userParallelism } from '../../provider-kit/parallelism';
import { isJsonObject } from '../../provider-kit/unstructured';

/** The Dynamo service that runs a serving component's pods. */
export function workerServiceOf(component: ServingComponent): string {
  if (component === 'prefill') return PREFILL_WORKER_SERVICE;
  if (component === 'decode') return DECODE_WORKER_SERVICE;
  return WORKER_SERVICE;
}

/**
 * The multi-node layouts of a Dynamo deployment's workers, with their errors and warnings;
 * undefined when it does not ask for multi-node replicas, and for the mocker (which runs no
 * engine, and which `DynamoProvider.supportsFeature` refuses) and engines without parallel flags
 * (refused by `validateDynamo`). Only `engine.args` reach a Dynamo worker, so only they are read.
 */
export function dynamoMultiNode(md: ResolvedModelDeployment): DeploymentMultiNode | undefined {
  if (isMocker(md) || !isParallelEngine(md.engine)) return undefined;
  return deploymentMultiNode(md, md.engine, { extraArgs: false });
}

/**
 * The `multinode` a worker's override sets, with its path: `spec.services.<name>.multinode`
 * (v1alpha1) or `spec.components.<name>.multinode` (v1beta1, by name). A `spec.components` list
 * replaces every component and is not looked into.
 */
function overrideMultinode(overrides: unknown, service: string): { path: string; value: unknown } | undefined {
  const spec = isJsonObject(overrides) ? overrides.spec : undefined;
  if (!isJsonObject(spec)) return undefined;
  for (const key of ['services', 'components']) {
    const map = spec[key];
    const entry = isJsonObject(map) ? map[service] : undefined;
    if (isJsonObject(entry) && entry.multinode !== undefined && entry.multinode !== null) {
      return { path: `${PROVIDER_OVERRIDES_PATH}.spec.${key}.${service}.multinode`, value: entry.multinode };
    }
  }
  return undefined;
}

/**
 * What refuses a multi-node Dynamo deployment:
 *
 * - the layout of each multi-node worker (`deploymentMultiNode`: sizes that do not divide the
 *   GPUs, a TP group straddling part of a node, data parallelism);
 * - a worker override that sets `multinode` while the annotation is present, whether or not that
 *   worker spans nodes: the annotation changes what `gpu.count` means (a replica's GPUs, not a
 *   node's), so the override's node count would multiply the wrong number;
 * - a volume bound to one node, when some worker spans nodes (every pod of the group mounts it).
 */
export function dynamoMultiNodeErrors(md: ResolvedModelDeployment): FieldError[] {
  const settings = multiNodeSettings(md.annotations);
  const multiNode = dynamoMultiNode(md);
  if (!settings || !multiNode) return [];
  const errors = [...multiNode.errors];
  for (const component of servingComponents(md.spec)) {
    const service = workerServiceOf(component);
    const override = overrideMultinode(md.spec.provider?.overrides, service);
    if (!override) continue;
    errors.push(invalid(override.path, override.value,
      `cannot be combined with ${MULTI_NODE_ANNOTATION_PATH}: with the annotation, gpu.count is the GPUs of one ${service} replica and ` +
        `Dynamo's multinode.nodeCount is derived from it (gpu.count / gpusPerNode ${settings.gpusPerNode}); remove this override, ` +
        'or remove the annotation and set gpu.count to the GPUs of one node to size the nodes by hand'));
  }
  const spans = Object.keys(multiNode.layouts).length > 0 || multiNode.errors.length > 0;
  if (spans) errors.push(...singleNodeVolumeErrors(md));
  return errors;
}

/**
 * The layout's `--tensor-parallel-size` and `--pipeline-parallel-size` (the spelling every Dynamo
 * engine accepts), each left out when the user sets that size in `engine.args`: the layout was
 * computed from the user's value, which the engine reads anyway.
 */
export function dynamoLayoutFlags(spec: ModelDeploymentSpec, engine: string, layout: MultiNodeLayout): string[] {
  if (!isParallelEngine(engine)) return [];
  const user = userParallelism(spec, engine, { extraArgs: false });
  const flags = PARALLEL_FLAGS[engine];
  const out: string[] = [];
  if (!user.tensorParallel) out.push(flags.tensorParallel[0], String(layout.tensorParallel));
  if (!user.pipelineParallel) out.push(flags.pipelineParallel[0], String(layout.pipelineParallel));
  return out;
}
