import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { KTHENA_ENGINE_PORT } from './args';
import { addKthenaAutoscalingPolicy } from './autoscaling-policy';
import { entryPodTemplate } from './entry-pod';
import { defaultEngineImage, KTHENA_DEFAULT_SGLANG_IMAGE, KTHENA_DEFAULT_VLLM_IMAGE, KthenaEngineImages } from './images';
import { kthenaRouteLoraAdapters } from './lora';
import { deploymentPodSelector, KTHENA_POD_ROLE_LABEL, kthenaRoles, servingGroupReplicas, servingRoleName } from './roles';
import { KTHENA_DISPLAY_NAME } from './validation';
import { workerPodTemplate } from './worker-pod';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { Warnings } from '../../api/warnings';
import { isAmdGpuType, servingGpuFields } from '../../core/gpu-type';
import { k8s } from '../../core/kube-api';
import { imageOverride } from '../../core/model-deployment-object';
import { routedModelName } from '../../gateway/model-name';
import type { ModelServing } from '../../imports/workload.serving.volcano.sh';
import { KthenaPodLabels } from '../../kthena/labels';
import { KthenaModelRoute } from '../../kthena/model-route';
import { KthenaInferenceEngine, KthenaKvConnectorType, KthenaModelServer } from '../../kthena/model-server';
import { addModelServingObject } from '../../kthena/model-serving-object';
import { KthenaRouteTarget } from '../../kthena/route-target';
import { amdOnCudaImageWarning } from '../../provider-kit/gpu-image-warning';
import { commonLabels, objectMeta } from '../../provider-kit/metadata';
import { mergeIntoFinalJson } from '../../provider-kit/overrides';
import { workloadLabels } from '../../provider-kit/pod-template';
import { isJsonObject } from '../../provider-kit/unstructured';
import { addManagedClaims } from '../../storage/managed-claim';

/** What the translator takes from the provider's settings. */
export interface KthenaTranslationSettings {
  /** `spec.schedulerName` of the ModelServing: the scheduler of every pod. */
  readonly schedulerName: string;
  /** The engine images used when the spec names none. */
  readonly images: KthenaEngineImages;
}

/*
 * The Kthena objects are built through Kthena's model in `src/kthena/`: the ModelServer and
 * ModelRoute with its constructs, whose props say all the provider needs; the ModelServing with
 * the function `KthenaModelServing` creates its own with (`addModelServingObject`), from a spec in
 * the CRD's shape, since the provider's pod templates are its own (see that file for why).
 */

/**
 * The ModelServing `<md>`: `spec.replicas` ServingGroups (`servingGroupReplicas`), each with the
 * roles of `kthenaRoles` — one entry pod per role instance, and for a multi-node role
 * `workerReplicas` worker pods (`workerPodTemplate`) — and a gang policy
 * naming every role with a minimum of one instance. A minimum of one (not the role's replicas)
 * because `minRoleReplicas` is immutable: with the full count, changing a prefill or decode
 * replica count would be an update the API server refuses; one instance of each role is also the
 * smallest group that can serve. Kthena gangs each counted instance with its worker pods
 * (a PodGroup's `minMember` counts `1 + workerReplicas` pods per instance), so a multi-node
 * instance is scheduled whole or not at all. `spec.provider.overrides` are deep-merged into the
 * final JSON.
 */
function addModelServing(scope: Construct, md: ResolvedModelDeployment, settings: KthenaTranslationSettings): ModelServing {
  const roles = kthenaRoles(md);
  const replicas = servingGroupReplicas(md);
  const spec = {
    ...(replicas !== undefined && { replicas }),
    schedulerName: settings.schedulerName,
    template: {
      gangPolicy: { minRoleReplicas: Object.fromEntries(roles.map((role) => [role.name, 1])) },
      roles: roles.map((role) => {
        const entry = entryPodTemplate(md, role, settings.images);
        return {
          name: role.name,
          replicas: role.replicas,
          workerReplicas: role.workerReplicas,
          entryTemplate: k8s.toJson_PodTemplateSpec(entry),
          ...(role.workerReplicas > 0 && { workerTemplate: k8s.toJson_PodTemplateSpec(workerPodTemplate(entry)) }),
        };
      }),
    },
  };
  const modelServing = addModelServingObject(scope, 'ModelServing', objectMeta(md, md.name, workloadLabels(md)), () => spec);
  const overrides = md.spec.provider?.overrides;
  if (isJsonObject(overrides)) mergeIntoFinalJson(modelServing, overrides);
  return modelServing;
}

/**
 * The ModelServer `<md>`: the model the engine serves (kthena-router rewrites a request's `model`
 * to it), the engine, port 8000, and the deployment's pods by our stable label. In prefill/decode
 * mode the router pairs pods of the same ServingGroup by the labels Kthena's controller puts on
 * them (group name as the key, role names prefill and decode); vLLM's roles transfer the KV cache
 * with NIXL, which the router's `nixl` connector drives. SGLang gets no `kvConnector`: the router
 * then uses its SGLang bootstrap protocol (an explicit type, even the CRD default `http`, would
 * replace it).
 */
function addModelServer(scope: Construct, md: ResolvedModelDeployment): KthenaModelServer {
  const disaggregated = md.mode === 'disaggregated';
  const sglang = md.engine === 'sglang';
  return new KthenaModelServer(scope, 'ModelServer', {
    metadata: objectMeta(md, md.name, commonLabels(md)),
    // validateKthena guarantees a model id.
    model: md.spec.model.servedName || md.spec.model.id!,
    engine: sglang ? KthenaInferenceEngine.SGLANG : KthenaInferenceEngine.VLLM,
    matchLabels: deploymentPodSelector(md),
    // Paired by the role label Kthena's controller sets, not ours: the pods are not a
    // `KthenaModelServing`'s, so `prefillRole`/`decodeRole` do not apply.
    ...(disaggregated && {
      pdGroup: {
        groupKey: KthenaPodLabels.KTHENA_SERVING_GROUP,
        prefillLabels: { [KTHENA_POD_ROLE_LABEL]: 'prefill' },
        decodeLabels: { [KTHENA_POD_ROLE_LABEL]: 'decode' },
      },
    }),
    port: KTHENA_ENGINE_PORT,
    ...(disaggregated && !sglang && { kvConnector: KthenaKvConnectorType.NIXL }),
  });
}

/**
 * The ModelRoute `<md>`: requests whose `model` is the deployment's routed name (the one the
 * gateway integration uses: `gateway.modelName`, else the served name, else the model id; see
 * `routedModelName`) go to the ModelServer, through one rule. No parentRefs: the route attaches
 * to every Gateway of the namespace, kthena-router's default. The LoRA adapters' names are its
 * `loraAdapters` (sorted), so a request for an adapter by name reaches the same ModelServer.
 */
function addModelRoute(scope: Construct, md: ResolvedModelDeployment, server: KthenaModelServer): KthenaModelRoute {
  const adapters = kthenaRouteLoraAdapters(md);
  return new KthenaModelRoute(scope, 'ModelRoute', {
    metadata: objectMeta(md, md.name, commonLabels(md)),
    // validateKthena guarantees a model id, so there is always a name.
    modelName: routedModelName(md.spec, false)!,
    ...(adapters.length > 0 && { loraAdapters: adapters }),
    rules: [{ name: 'default', targets: [KthenaRouteTarget.modelServer(server)] }],
  });
}

/**
 * The ClusterIP Service `<md>` in front of the pods that answer clients (aggregated: every
 * server pod; prefill/decode: the decode pods): the in-cluster endpoint the deployment's status
 * reports, for clients that do not go through kthena-router. Kthena itself creates no Service for
 * single-pod roles.
 */
function addService(scope: Construct, md: ResolvedModelDeployment): k8s.KubeService {
  return new k8s.KubeService(scope, 'Service', {
    metadata: objectMeta(md, md.name, commonLabels(md)),
    spec: {
      type: 'ClusterIP',
      selector: { ...deploymentPodSelector(md), [KthenaPodLabels.ROLE]: servingRoleName(md) },
      ports: [{ name: 'http', port: KTHENA_ENGINE_PORT, targetPort: k8s.IntOrString.fromNumber(KTHENA_ENGINE_PORT), protocol: 'TCP' }],
    },
  });
}

/**
 * AMD GPUs on a default image, which is a CUDA build of the engine; only for the images we ship
 * (a default set in the provider's props may well be a ROCm build).
 */
function amdImageWarning(md: ResolvedModelDeployment, images: KthenaEngineImages): string | undefined {
  const image = defaultEngineImage(md, images);
  if (md.engine !== 'sglang') return image === KTHENA_DEFAULT_VLLM_IMAGE ? amdOnCudaImageWarning(KTHENA_DISPLAY_NAME, image, md) : undefined;
  if (image !== KTHENA_DEFAULT_SGLANG_IMAGE || imageOverride(md.spec) !== undefined) return undefined;
  const amd = servingGpuFields(md.spec, md.mode).filter((f) => f.count > 0 && isAmdGpuType(f.gpuType));
  if (amd.length === 0) return undefined;
  return `${KTHENA_DISPLAY_NAME} requests AMD GPUs (${amd.map((f) => `${f.path}.type ${JSON.stringify(f.gpuType)}`).join(', ')}) ` +
    `but runs its default image ${image}, a CUDA build of SGLang; set spec.engine.image to a ROCm build of SGLang`;
}

/**
 * Creates the Kthena objects of a validated deployment under `scope` and returns them, the
 * ModelServing (the status source) first: ModelServing, ModelServer and ModelRoute `<md>` (ids
 * `ModelServing`, `ModelServer`, `ModelRoute`), the Service `<md>` (`Service`), then one PVC per
 * managed storage volume (Kthena mounts claims but creates none).
 *
 * What is ours rather than Kthena's ModelBooster's (§2.6 of the seed notes): the pods are selected
 * by labels fixed at build time (`airunway.ai/model-deployment`, the role label) instead of the
 * booster's UID label, which only exists once the booster does; there is no downloader init
 * container or runtime sidecar — the engine downloads the model itself, into the modelCache
 * volume when there is one (`HF_HOME`); the engine command line comes from the shared flag table.
 * No ownerReferences: the ModelDeployment's uid is unknown at build time; the common labels tie the
 * objects to it instead.
 */
export function translateKthena(scope: Construct, md: ResolvedModelDeployment, settings: KthenaTranslationSettings): ApiObject[] {
  const modelServing = addModelServing(scope, md, settings);
  const warning = amdImageWarning(md, settings.images);
  if (warning) Warnings.add(modelServing, warning);
  const server = addModelServer(scope, md);
  return [
    modelServing,
    server.apiObject,
    addModelRoute(scope, md, server).apiObject,
    addService(scope, md),
    ...addKthenaAutoscalingPolicy(scope, md, modelServing),
    ...addManagedClaims(scope, md, commonLabels(md)),
  ];
}
