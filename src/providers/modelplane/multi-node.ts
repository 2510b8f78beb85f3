/**
 * Multi-node replicas on modelplane: an engine whose GPUs exceed the multi-node annotation's
 * `gpusPerNode` becomes a Leader member and a Worker member with `worker.nodes` pods (the layout's
 * group size less the Leader), each pod requesting `gpusPerNode` devices — modelplane's form of an
 * engine spanning nodes, which it composes as a LeaderWorkerSet on the workload cluster. modelplane
 * leaves the cross-node wiring to the container's command: it sets `MODELPLANE_LEADER_ADDRESS`
 * (and `MODELPLANE_RANK`) in both members' containers, so the Leader runs the Ray head and the vLLM
 * server on the Ray executor and the Workers join its head (`src/multinode/ray-launch.ts`).
 * modelplane gives the pods no group size, so the Leader's container carries our own
 * `MULTI_NODE_GROUP_SIZE`, which its script waits for.
 *
 * SGLang is refused: its multi-node launch (`--nnodes`, `--node-rank`, `--dist-init-addr`) is not
 * rendered, and `--nnodes` is a flag the parallelism checks leave unmodelled.
 *
 * Pure, so the controller's re-validation runs it.
 */
import { modelCachePlan } from './model-cache-plan';
import { MULTI_NODE_ANNOTATION_PATH } from '../../api/multi-node/multi-node-annotation';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { invalid } from '../../core/field-error';
import { gangModelCacheErrors, workerNodesErrors } from '../../modelplane/deployment-rules';
import { MAX_WORKER_NODES } from '../../modelplane/limits';
import type { RayGroupEnv } from '../../multinode/ray-launch';
import { executorBackendErrors } from '../../multinode/vllm-flags';
import { deploymentMultiNode, gpuCountPath, isMultiNodeComponent, MultiNodeFindings, servingComponents } from '../../provider-kit/multi-node-layout';

/** The Leader's variable holding the pods of its group, set by the translation (modelplane sets none). */
export const MULTI_NODE_GROUP_SIZE_ENV = 'MULTI_NODE_GROUP_SIZE';

/** What the scripts read in modelplane's Leader/Worker pods. */
export const MODELPLANE_GROUP_ENV: RayGroupEnv = { leaderAddress: 'MODELPLANE_LEADER_ADDRESS', groupSize: MULTI_NODE_GROUP_SIZE_ENV };

/** The engine modelplane runs multi-node replicas with: vLLM, on a Ray cluster per engine copy. */
export const MODELPLANE_MULTI_NODE_ENGINE = 'vllm';

/** Whether modelplane runs multi-node replicas of `engine` (`DeploymentFeature.MULTI_NODE`). */
export function modelplaneRunsMultiNode(engine: string): boolean {
  return engine === MODELPLANE_MULTI_NODE_ENGINE;
}

/**
 * The multi-node checks of a modelplane deployment: SGLang refused at `spec.engine.type`; for
 * vLLM, each multi-node engine's layout, the Ray executor, at most 63 Worker pods and a ModelCache
 * (modelplane's rules in src/modelplane/deployment-rules, which the typed `ModelplaneDeployment`
 * checks too, here blamed on the AI Runway fields), and no user variable of the name the Leader's
 * group size travels under.
 */
export function modelplaneMultiNodeFindings(md: ResolvedModelDeployment): MultiNodeFindings {
  const spanning = servingComponents(md.spec).filter((c) => isMultiNodeComponent(md, c));
  if (!modelplaneRunsMultiNode(md.engine)) {
    if (spanning.length === 0) return { errors: [], warnings: [] };
    return {
      errors: [invalid('spec.engine.type', md.engine,
        `modelplane runs a multi-node replica (${MULTI_NODE_ANNOTATION_PATH}) as a Leader/Worker engine whose command the translation writes: ` +
          `${MODELPLANE_MULTI_NODE_ENGINE} on a Ray cluster over the members' pods; ${md.engine}'s own multi-node launch is not rendered: ` +
          `set spec.engine.type to ${MODELPLANE_MULTI_NODE_ENGINE}, or keep every gpu.count within gpusPerNode`)],
      warnings: [],
    };
  }
  const multiNode = deploymentMultiNode(md, MODELPLANE_MULTI_NODE_ENGINE, { extraArgs: true });
  if (!multiNode) return { errors: [], warnings: [] };
  const errors = [...multiNode.errors];
  for (const component of spanning) {
    const layout = multiNode.layouts[component];
    if (!layout) continue;
    errors.push(...workerNodesErrors(layout.groupSize - 1, gpuCountPath(component), {
      value: layout.gpus,
      because: `spreads a replica over ${layout.groupSize} pods of ${layout.gpusPerNode} GPUs (${MULTI_NODE_ANNOTATION_PATH})`,
      remedy: `request at most ${(MAX_WORKER_NODES + 1) * layout.gpusPerNode} GPUs, or raise gpusPerNode`,
    }));
  }
  if (spanning.length > 0) {
    errors.push(...executorBackendErrors(md.spec));
    const cache = modelCachePlan(md);
    // A refused modelCache volume is reported by the cache plan itself.
    errors.push(...gangModelCacheErrors(MULTI_NODE_ANNOTATION_PATH, cache.plan !== undefined || cache.errors.length > 0,
      'spec.model.storage.volumes', 'add a modelCache volume with a size'));
    (md.spec.env ?? []).forEach((e, i) => {
      if (e.name !== MULTI_NODE_GROUP_SIZE_ENV) return;
      errors.push(invalid(`spec.env[${i}].name`, e.name,
        'is the variable the Leader of a multi-node engine reads its group size from, which the translation sets; use another name'));
    });
  }
  return { multiNode, errors, warnings: multiNode.warnings };
}
