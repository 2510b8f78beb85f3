import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { engineCommand, EngineRole, renderEngineArgs } from './args';
import { componentDevices } from './component-devices';
import { engineEnv, HF_TOKEN_ENV } from './engine-env';
import { ModelCachePlan, modelCachePlan } from './model-cache-plan';
import { MODELPLANE_GROUP_ENV, MULTI_NODE_GROUP_SIZE_ENV } from './multi-node';
import type { ModelplaneSettings } from './settings';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { imageOverride } from '../../core/model-deployment-object';
import * as modelplane from '../../imports/modelplane.ai';
import { modelDeploymentSpec } from '../../modelplane/deployment-spec';
import { EngineParts, engineSpec, MemberParts } from '../../modelplane/engine-spec';
import type { EnvVarJson } from '../../modelplane/env-var';
import { modelCacheSpec } from '../../modelplane/model-cache-spec';
import { ModelplaneEnginePhase, ModelplaneServingMode } from '../../modelplane/serving';
import { leaderCommand, VLLM_SERVER_COMMAND, workerCommand } from '../../multinode/ray-launch';
import type { DeviceComponent } from '../../provider-kit/device-annotation';
import { commonLabels, objectMeta } from '../../provider-kit/metadata';
import { deploymentMultiNode, MultiNodeLayout } from '../../provider-kit/multi-node-layout';
import { mergeIntoFinalJson, OverrideNullHandling } from '../../provider-kit/overrides';

/** Engine names: fixed, so they are valid DNS labels whatever the deployment is called. */
export const SERVING_ENGINE_NAME = 'serving';
export const PREFILL_ENGINE_NAME = 'prefill';
export const DECODE_ENGINE_NAME = 'decode';

const ROLE_OF: Record<DeviceComponent, EngineRole> = { resources: 'serving', prefill: 'prefill', decode: 'decode' };
const PHASE_OF: Record<EngineRole, ModelplaneEnginePhase | undefined> = {
  serving: undefined,
  prefill: ModelplaneEnginePhase.PREFILL,
  decode: ModelplaneEnginePhase.DECODE,
};

/** What both members of an engine share: the component's devices and the pod template metadata. */
type PodParts = Omit<MemberParts, 'container'>;

/** Deployment replicas as engine copies: 0 or unset runs one, as AI Runway's providers do. */
function copiesOf(replicas: number | undefined): number {
  return replicas !== undefined && replicas > 0 ? replicas : 1;
}

/** The image: `engine.image`, then the legacy `spec.image`, then the provider's default for the engine. */
export function engineImage(md: ResolvedModelDeployment, settings: ModelplaneSettings): string {
  return imageOverride(md.spec) ?? (md.engine === 'sglang' ? settings.sglangImage : settings.vllmImage);
}

/**
 * One engine: a Standalone member whose devices are the component's requests; for a multi-node
 * component (`layout`) a Leader and a Worker member of `layout.groupSize - 1` nodes instead.
 */
function engine(
  md: ResolvedModelDeployment,
  settings: ModelplaneSettings,
  component: DeviceComponent,
  env: EnvVarJson[],
  cache: ModelCachePlan | undefined,
  layout: MultiNodeLayout | undefined,
): modelplane.ModelDeploymentSpecTemplateSpecEngines {
  const role = ROLE_OF[component];
  const scaling = component === 'resources' ? md.spec.scaling?.replicas : md.spec.scaling?.[component]?.replicas;
  const gpu = component === 'resources' ? md.spec.resources?.gpu : md.spec.scaling?.[component]?.gpu;
  const pod: PodParts = {
    devices: componentDevices(md, component).devices!.requests,
    labels: md.spec.podTemplate?.metadata?.labels,
    annotations: md.spec.podTemplate?.metadata?.annotations,
  };
  const image = engineImage(md, settings);
  const args = renderEngineArgs(md, { role, gpuCount: gpu?.count ?? 0, cached: cache !== undefined, multiNode: layout });
  return engineSpec({
    name: role === 'serving' ? SERVING_ENGINE_NAME : role === 'prefill' ? PREFILL_ENGINE_NAME : DECODE_ENGINE_NAME,
    copies: copiesOf(scaling),
    phase: PHASE_OF[role],
    ...(layout
      ? multiNodeMembers(layout, { image, args, env }, pod)
      : { leader: { ...pod, container: { image, command: engineCommand(md.engine), args, env } } }),
    imagePullSecrets: settings.imagePullSecrets,
  });
}

/**
 * The Leader and Worker members of a multi-node vLLM engine (only vLLM gets here: validation
 * refuses the others), both requesting the same per-pod devices (`gpusPerNode` GPUs each):
 *
 * - Leader: the Ray head, then vLLM's API server with the engine arguments as its argv (the server
 *   arguments never become shell text), and `MULTI_NODE_GROUP_SIZE`, the pods its script waits
 *   for. Its command also keeps modelplane from adding `--model=/mnt/models`, which
 *   `renderEngineArgs` renders itself when the deployment is cached.
 * - Worker: `worker.nodes` pods that join the Leader's Ray head at `MODELPLANE_LEADER_ADDRESS`;
 *   no arguments. Same env (the Hugging Face token, the user's variables): Ray runs the engine's
 *   ranks there.
 */
function multiNodeMembers(
  layout: MultiNodeLayout,
  container: { image: string; args: string[]; env: EnvVarJson[] },
  pod: PodParts,
): Pick<EngineParts, 'leader' | 'workers'> {
  const { image, args, env } = container;
  const leaderEnv = [...env, { name: MULTI_NODE_GROUP_SIZE_ENV, value: String(layout.groupSize) }];
  return {
    leader: { ...pod, container: { image, command: leaderCommand(MODELPLANE_GROUP_ENV, VLLM_SERVER_COMMAND), args, env: leaderEnv } },
    workers: { nodes: layout.groupSize - 1, member: { ...pod, container: { image, command: workerCommand(MODELPLANE_GROUP_ENV), env } } },
  };
}

/**
 * Creates the modelplane objects under `scope` and returns them, the ModelDeployment first:
 *
 * - `modelplane.ai/v1alpha1` ModelDeployment `<md>` (id `ModelDeployment`): `replicas` from the
 *   provider's `modelReplicas`; the ModelReplicas labelled with the deployment's common labels;
 *   the provider's cluster selector, tolerations and pull Secrets; `modelCacheRef` when cached.
 *   Aggregated: one engine `serving` with `copies` = `spec.scaling.replicas`. Disaggregated:
 *   `serving.mode: PrefillDecode` and engines `prefill` and `decode` (phases Prefill and Decode,
 *   copies from their component's replicas). Each engine is one Standalone member whose
 *   `nodeSelector.devices` are the component's device requests (./component-devices) and whose
 *   pod template carries the engine container (image, command, `renderEngineArgs`, env) and the
 *   `spec.podTemplate` labels and annotations; an engine with multi-node replicas is a Leader
 *   and a Worker member instead (`multiNodeMembers`). `spec.provider.overrides` are merged into
 *   its final JSON (a `null` removes a key).
 * - `modelplane.ai/v1alpha1` ModelCache (id `ModelCache`) when a modelCache volume asks for one
 *   (./model-cache-plan), staging `spec.model.id` on the clusters of the provider's selector.
 *
 * Both specs are built by src/modelplane's `modelDeploymentSpec`, `engineSpec` and
 * `modelCacheSpec`, the builders the typed `ModelplaneDeployment` and `ModelplaneModelCache` use.
 * Nothing else: modelplane composes the workloads, ResourceClaimTemplates, InferencePool and
 * routes on its workload clusters. Expects a deployment `validateModelplane` accepted.
 */
export function translateModelplane(scope: Construct, md: ResolvedModelDeployment, settings: ModelplaneSettings): ApiObject[] {
  const labels = commonLabels(md);
  const cache = modelCachePlan(md).plan;
  const env = engineEnv(md).env;
  const components: DeviceComponent[] = md.mode === 'disaggregated' ? ['prefill', 'decode'] : ['resources'];
  const layouts = md.engine === 'vllm' ? deploymentMultiNode(md, 'vllm', { extraArgs: true })?.layouts ?? {} : {};
  // Left out when empty: the provider's default, every cluster, is what the field's absence says.
  const clusterSelector = Object.keys(settings.clusterSelector).length > 0 ? settings.clusterSelector : undefined;

  const deployment = new modelplane.ModelDeployment(scope, 'ModelDeployment', {
    metadata: objectMeta(md, md.name, labels),
    spec: modelDeploymentSpec({
      replicas: settings.modelReplicas,
      replicaLabels: labels,
      clusterSelector,
      modelCacheName: cache?.name,
      servingMode: md.mode === 'disaggregated' ? ModelplaneServingMode.PREFILL_DECODE : undefined,
      tolerations: settings.clusterTolerations,
      engines: components.map((c) => engine(md, settings, c, env, cache, layouts[c])),
    }),
  });
  const overrides = md.spec.provider?.overrides;
  if (overrides !== undefined && overrides !== null) {
    mergeIntoFinalJson(deployment, overrides as Record<string, unknown>, OverrideNullHandling.DELETE);
  }
  const objects: ApiObject[] = [deployment];
  if (cache) {
    objects.push(new modelplane.ModelCache(scope, 'ModelCache', {
      metadata: objectMeta(md, cache.name, labels),
      // The cache is staged where the deployment may be placed; modelplane intersects the two.
      spec: modelCacheSpec({ repo: cache.repo, ...(cache.authSecretName && { authSecretName: cache.authSecretName, authSecretKey: HF_TOKEN_ENV }) },
        cache.sizeGiB, clusterSelector),
    }));
  }
  return objects;
}
