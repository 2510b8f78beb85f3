/**
 * Multi-node replicas on Kthena: a role whose GPUs exceed the multi-node annotation's
 * `gpusPerNode` runs each role instance as one entry pod and `workerReplicas` worker pods, the
 * form a ModelServing role has for it. The entry pod starts a Ray head and the vLLM server on the
 * Ray executor; the workers join its head (`src/multinode/ray-launch.ts`). Kthena's controller
 * gives every container of a role instance `ENTRY_ADDRESS` (the entry pod's name and namespace,
 * which the headless Service it creates for the instance resolves) and `GROUP_SIZE`
 * (`workerReplicas + 1`), which the scripts read.
 *
 * SGLang is refused: its multi-node launch (`--nnodes`, `--node-rank`, `--dist-init-addr`) is a
 * different protocol from Ray's, which neither Kthena's documentation nor our parallelism checks
 * describe (`--nnodes` is a flag the checks leave unmodelled).
 *
 * Pure, so the controller's re-validation runs it.
 */
import { MULTI_NODE_ANNOTATION_PATH } from '../../api/multi-node/multi-node-annotation';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { FieldError, invalid } from '../../core/field-error';
import { KthenaRecoveryPolicy } from '../../kthena/recovery-policy';
import type { RayGroupEnv } from '../../multinode/ray-launch';
import { singleNodeVolumeErrors } from '../../multinode/vllm-checks';
import { executorBackendErrors } from '../../multinode/vllm-flags';
import { deploymentMultiNode, isMultiNodeComponent, MultiNodeFindings, servingComponents } from '../../provider-kit/multi-node-layout';
import { PROVIDER_OVERRIDES_PATH } from '../../provider-kit/overrides';
import { isJsonObject } from '../../provider-kit/unstructured';

/** The variables Kthena's controller sets in every container of a role instance. */
export const KTHENA_GROUP_ENV: RayGroupEnv = { leaderAddress: 'ENTRY_ADDRESS', groupSize: 'GROUP_SIZE' };

/** The engine Kthena runs multi-node replicas with: vLLM, on a Ray cluster per role instance. */
export const KTHENA_MULTI_NODE_ENGINE = 'vllm';

/** Whether Kthena runs multi-node replicas of `engine` (`DeploymentFeature.MULTI_NODE`). */
export function kthenaRunsMultiNode(engine: string): boolean {
  return engine === KTHENA_MULTI_NODE_ENGINE;
}

/**
 * The multi-node checks of a Kthena deployment: SGLang refused at `spec.engine.type`; for vLLM,
 * each multi-node role's layout, the Ray executor, volumes every pod of the instance can mount
 * (`singleNodeVolumeErrors`), and no `recoveryPolicy: None` override, under which a restarted entry
 * pod would find its workers attached to a Ray head that no longer exists (Kthena's default,
 * `RoleRecreate`, recreates the whole role instance together).
 */
export function kthenaMultiNodeFindings(md: ResolvedModelDeployment): MultiNodeFindings {
  const spanning = servingComponents(md.spec).filter((c) => isMultiNodeComponent(md, c));
  if (!kthenaRunsMultiNode(md.engine)) {
    if (spanning.length === 0) return { errors: [], warnings: [] };
    return {
      errors: [invalid('spec.engine.type', md.engine,
        `Kthena runs a multi-node replica (${MULTI_NODE_ANNOTATION_PATH}) as ${KTHENA_MULTI_NODE_ENGINE} on a Ray cluster over the entry and worker pods ` +
          `of a role instance; ${md.engine}'s own multi-node launch is not rendered: set spec.engine.type to ${KTHENA_MULTI_NODE_ENGINE}, ` +
          'or keep every gpu.count within gpusPerNode')],
      warnings: [],
    };
  }
  const multiNode = deploymentMultiNode(md, KTHENA_MULTI_NODE_ENGINE, { extraArgs: true });
  if (!multiNode) return { errors: [], warnings: [] };
  const errors = [...multiNode.errors];
  if (spanning.length > 0) {
    errors.push(...executorBackendErrors(md.spec));
    errors.push(...singleNodeVolumeErrors(md));
    errors.push(...recoveryPolicyErrors(md.spec.provider?.overrides));
  }
  return { multiNode, errors, warnings: multiNode.warnings };
}

function recoveryPolicyErrors(overrides: unknown): FieldError[] {
  const spec = isJsonObject(overrides) ? overrides.spec : undefined;
  // `None` leaves the other pods of a role instance running when one restarts.
  if (!isJsonObject(spec) || spec.recoveryPolicy !== KthenaRecoveryPolicy.NONE) return [];
  return [invalid(`${PROVIDER_OVERRIDES_PATH}.spec.recoveryPolicy`, KthenaRecoveryPolicy.NONE,
    `the pods of a multi-node role instance (${MULTI_NODE_ANNOTATION_PATH}) are one engine: when one restarts the others must restart with it, ` +
      'which recoveryPolicy None prevents; use RoleRecreate (the default) or ServingGroupRecreate')];
}
