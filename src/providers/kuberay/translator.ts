import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { kuberayEngineKwargs } from './args';
import { rayAutoscalingOf, serveAutoscalingConfig } from './autoscaling';
import { KUBERAY_DEFAULT_IMAGE } from './images';
import { kuberayLayout } from './multi-node';
import { kuberayPdServeConfig, kuberayServeConfig, LlmConfig, serveReplicas } from './serve-config';
import { KUBERAY_DISPLAY_NAME } from './validation';
import { kuberayGpusPerWorker, WorkerGroupPlan, workerGroupPlans } from './worker-groups';
import { podSecurityLevelOf } from '../../api/pod-security-level';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { Warnings } from '../../api/warnings';
import { k8s } from '../../core/kube-api';
import { LABEL_MODEL_DEPLOYMENT } from '../../core/labels';
import { imageOverride } from '../../core/model-deployment-object';
import {
  RayService,
  RayServiceSpecRayClusterConfigHeadGroupSpec,
  RayServiceSpecRayClusterConfigWorkerGroupSpecs,
} from '../../imports/ray.io';
import { HF_HOME_ENV, modelServerEnv } from '../../provider-kit/env';
import { amdOnCudaImageWarning } from '../../provider-kit/gpu-image-warning';
import { PodGpus, podTolerations } from '../../provider-kit/gpu-tolerations';
import { commonLabels, objectMeta } from '../../provider-kit/metadata';
import { modelServerContainerSecurityContext, RAY_NON_ROOT_IDENTITY, secureModelServerPod } from '../../provider-kit/model-server-security';
import { podDeviceClaims } from '../../provider-kit/pod-claims';
import { nodeSelectorOf, userPodAnnotations, workloadLabels } from '../../provider-kit/pod-template';
import { addManagedClaims } from '../../storage/managed-claim';
import { firstModelCacheVolume, storagePodVolumes, storageVolumeMounts, volumeMountPath } from '../../storage/volume-mounts';

/** Name of the Ray head container. */
export const RAY_HEAD_CONTAINER_NAME = 'ray-head';
/** Name of the Ray worker containers. */
export const RAY_WORKER_CONTAINER_NAME = 'ray-worker';
/** CPU limit of the head container. */
export const RAY_HEAD_CPU = '4';
/**
 * Memory limit of the head container. `spec.resources.memory` sizes the GPU workers, where the
 * model loads; AI Runway gives the head the same limit, so a 128Gi deployment's head (no GPU) fits
 * no CPU node of a cluster whose GPU nodes are tainted (the real scheduler, test/simcluster).
 */
export const RAY_HEAD_DEFAULT_MEMORY = '16Gi';

/** Head and worker image: the image override (`engine.image`, then `spec.image`), else the default. */
export function kuberayImage(md: ResolvedModelDeployment): string {
  return imageOverride(md.spec) ?? KUBERAY_DEFAULT_IMAGE;
}

/**
 * Container env shared by the head and every worker: `spec.env` in order, then `HF_TOKEN` from the
 * token Secret. The model and the engine's arguments are in the Serve config (`./serve-config`);
 * AI Runway's `MODEL_ID` and `VLLM_ENGINE_ARGS` were read by a Serve module no image ships.
 *
 * Differences from AI Runway, deliberate:
 * - workers get the env too, not only the head: Ray runs the vLLM replicas in worker processes,
 *   which inherit their pod's env, so without it a gated model could not be downloaded on the
 *   GPU workers and the user's `VLLM_*` tuning variables would not reach the engine;
 * - every `valueFrom` source is kept and wins over `value` (AI Runway keeps only `value` and
 *   `secretKeyRef`), as for the other providers; a user `HF_TOKEN` is dropped when the token
 *   Secret is configured.
 */
export function kuberayEnv(md: ResolvedModelDeployment): k8s.EnvVar[] {
  return modelServerEnv(md.spec);
}

/**
 * The Ray Serve LLM configs of a deployment: one (aggregated), or prefill then decode, each with
 * the engine arguments of its worker group's GPUs. Expects a deployment `validateKubeRay` accepted.
 */
export function kuberayLlmConfigs(md: ResolvedModelDeployment): Array<LlmConfig & { readonly role?: 'prefill' | 'decode' }> {
  const id = md.spec.model.id ?? '';
  const model = { modelId: md.spec.model.servedName || id, modelSource: id };
  if (md.mode !== 'disaggregated') {
    const multiNode = kuberayLayout(md);
    const autoscaling = rayAutoscalingOf(md);
    const { kwargs } = kuberayEngineKwargs(md.spec, { gpusPerWorker: kuberayGpusPerWorker(md), ...(multiNode && { multiNode }) });
    const replicas = serveReplicas(md.spec.scaling?.replicas);
    return [{ ...model, engineKwargs: kwargs, replicas, ...(autoscaling && { autoscalingConfig: serveAutoscalingConfig(autoscaling) }) }];
  }
  return workerGroupPlans(md).map((plan) => {
    const role = plan.component === 'prefill' ? 'prefill' : 'decode';
    const { kwargs } = kuberayEngineKwargs(md.spec, { gpusPerWorker: plan.gpuCount, role });
    return { ...model, engineKwargs: kwargs, replicas: plan.replicas, role };
  });
}

/** `spec.serveConfigV2` of the deployment. */
export function kuberayServeConfigOf(md: ResolvedModelDeployment): string {
  const configs = kuberayLlmConfigs(md);
  if (md.mode !== 'disaggregated') return kuberayServeConfig(configs[0]);
  const prefill = configs.find((c) => c.role === 'prefill');
  const decode = configs.find((c) => c.role === 'decode');
  // Admission requires both components; a spec that bypassed it serves the one it has.
  return prefill && decode ? kuberayPdServeConfig(prefill, decode) : kuberayServeConfig(configs[0]);
}

/**
 * Pod-template metadata of the head and worker pods: `airunway.ai/model-deployment: <md>` (what
 * AI Runway sets), plus the user's `spec.podTemplate` labels and annotations. AI Runway puts
 * those only on the RayService, where they never reach a pod; a pod-template setting belongs on
 * the pods (scrape or sidecar annotations, team labels). The model-deployment label is applied
 * last, so the InferencePool selector cannot be broken.
 */
function podMetadata(md: ResolvedModelDeployment): k8s.ObjectMeta {
  const annotations = userPodAnnotations(md);
  return {
    labels: { ...(md.spec.podTemplate?.metadata?.labels ?? {}), [LABEL_MODEL_DEPLOYMENT]: md.name },
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
}

/**
 * nodeSelector and tolerations of a Ray pod that requests `gpus` (the head none): the GPU taint
 * toleration is added only where GPUs are requested (see `podTolerations`).
 */
function scheduling(md: ResolvedModelDeployment, gpus: readonly PodGpus[]): Pick<k8s.PodSpec, 'nodeSelector' | 'tolerations'> {
  const nodeSelector = nodeSelectorOf(md);
  const tolerations = podTolerations(md, gpus);
  return {
    ...(nodeSelector ? { nodeSelector } : {}),
    ...(tolerations ? { tolerations } : {}),
  };
}

/**
 * `headGroupSpec`: dashboard on all interfaces, one `ray-head` container with the image, limits
 * of 4 CPUs and 16Gi (`RAY_HEAD_DEFAULT_MEMORY`), no GPU, and the shared env. The head gets
 * `spec.nodeSelector` and `spec.tolerations` like the workers (AI Runway sets neither): a
 * selector is often a hard placement rule of the cluster (node pool, architecture, tenancy) and
 * a toleration only permits. No storage: the head runs no engine.
 */
export function kuberayHeadGroupSpec(md: ResolvedModelDeployment): RayServiceSpecRayClusterConfigHeadGroupSpec {
  const headEnv = kuberayEnv(md);
  const template: k8s.PodTemplateSpec = {
    metadata: podMetadata(md),
    spec: {
      containers: [{
        name: RAY_HEAD_CONTAINER_NAME,
        image: kuberayImage(md),
        resources: {
          limits: {
            cpu: k8s.Quantity.fromString(RAY_HEAD_CPU),
            memory: k8s.Quantity.fromString(RAY_HEAD_DEFAULT_MEMORY),
          },
        },
        ...(headEnv.length > 0 && { env: headEnv }),
      }],
      ...scheduling(md, []),
    },
  };
  // The in-tree autoscaler is a sidecar KubeRay adds to this pod; it scales the workers through
  // the API with the head's service account, so the token stays mounted when Ray autoscales.
  const secured = secureModelServerPod(template.spec!, {
    level: podSecurityLevelOf(md.annotations),
    identity: RAY_NON_ROOT_IDENTITY,
    callsKubernetesApi: rayAutoscalingOf(md) !== undefined,
  });
  return {
    rayStartParams: { 'dashboard-host': '0.0.0.0' },
    template: k8s.toJson_PodTemplateSpec({ ...template, spec: secured }),
  };
}

/**
 * Worker env: the shared env plus `HF_HOME` pointing at the first modelCache volume's mount,
 * unless the user sets `HF_HOME` (as Direct vLLM and Dynamo do): the weights then land on the
 * cache volume instead of the container filesystem.
 */
function workerEnv(md: ResolvedModelDeployment): k8s.EnvVar[] {
  const env = kuberayEnv(md);
  const cache = firstModelCacheVolume(md.spec);
  const cachePath = cache ? volumeMountPath(cache) : undefined;
  if (cachePath !== undefined && !(md.spec.env ?? []).some((e) => e.name === HF_HOME_ENV)) {
    env.push({ name: HF_HOME_ENV, value: cachePath });
  }
  return env;
}

/**
 * `rayStartParams` of a worker group. KubeRay tells Ray how many GPUs a worker has (`num-gpus`)
 * from the first container limit whose name ends in "gpu" (`nvidia.com/gpu`, `amd.com/gpu`); for
 * any other GPU type (MIG profiles such as `nvidia.com/mig-1g.10gb`, `gpu.intel.com/i915`), and
 * for GPUs claimed through DRA (no limit at all), Ray would see none and never place a vLLM
 * replica, so the count is passed explicitly.
 */
function workerRayStartParams(plan: WorkerGroupPlan, claimed: boolean): Record<string, string> {
  const inferable = plan.gpuResource.endsWith('gpu') && !claimed;
  return plan.gpuCount > 0 && !inferable ? { 'num-gpus': String(plan.gpuCount) } : {};
}

function workerGroupSpec(md: ResolvedModelDeployment, plan: WorkerGroupPlan): RayServiceSpecRayClusterConfigWorkerGroupSpecs {
  const deviceClaims = podDeviceClaims(md, plan.component);
  // Limits only: Kubernetes defaults the requests to them, so GPU requests equal limits.
  const limits: Record<string, k8s.Quantity> = { memory: k8s.Quantity.fromString(plan.memory) };
  if (plan.gpuCount > 0 && !deviceClaims) limits[plan.gpuResource] = k8s.Quantity.fromString(String(plan.gpuCount));
  if (plan.cpu) limits.cpu = k8s.Quantity.fromString(plan.cpu);
  const volumes = storagePodVolumes(md.name, md.spec);
  const volumeMounts = storageVolumeMounts(md.spec);
  const env = workerEnv(md);
  const template: k8s.PodTemplateSpec = {
    metadata: podMetadata(md),
    spec: {
      containers: [{
        name: RAY_WORKER_CONTAINER_NAME,
        image: kuberayImage(md),
        resources: { ...(deviceClaims && { claims: deviceClaims.containerClaims }), limits },
        ...(env.length > 0 && { env }),
        ...(volumeMounts.length > 0 ? { volumeMounts } : {}),
      }],
      ...(deviceClaims ? { resourceClaims: deviceClaims.resourceClaims } : {}),
      ...(volumes.length > 0 ? { volumes } : {}),
      ...scheduling(md, [{ count: plan.gpuCount, gpuType: plan.gpuResource }]),
    },
  };
  // Workers run Ray and vLLM only: no Kubernetes API, no service account token.
  const secured = secureModelServerPod(template.spec!, { level: podSecurityLevelOf(md.annotations), identity: RAY_NON_ROOT_IDENTITY });
  return {
    groupName: plan.groupName,
    replicas: plan.replicas,
    minReplicas: plan.minReplicas,
    maxReplicas: plan.maxReplicas,
    rayStartParams: workerRayStartParams(plan, deviceClaims !== undefined),
    template: k8s.toJson_PodTemplateSpec({ ...template, spec: secured }),
  };
}

/**
 * `workerGroupSpecs`: one group per {@link workerGroupPlans} entry, a fixed size (replicas =
 * min = max) unless Ray autoscales it, one `ray-worker` container with memory and GPU limits (and `resources.cpu` as a
 * CPU limit in aggregated mode, which Ray reads as the worker's CPU count; AI Runway drops it),
 * the shared env plus `HF_HOME`, the storage volumes mounted, and the scheduling constraints
 * (with the GPU taint toleration when asked for, see `podTolerations`). GPUs are limited under
 * `gpu.type`, as AI Runway's KubeRay does, with `num-gpus` where KubeRay cannot infer it.
 */
export function kuberayWorkerGroupSpecs(md: ResolvedModelDeployment): RayServiceSpecRayClusterConfigWorkerGroupSpecs[] {
  return workerGroupPlans(md).map((plan) => workerGroupSpec(md, plan));
}

/**
 * Creates the RayService for `md` as the child `RayService` of `scope` (named and namespaced
 * like the deployment), then one PVC per managed storage volume, and returns them in that order.
 *
 * Decisions that differ from AI Runway's KubeRay provider (each also documented where it is
 * implemented):
 * - no ownerReferences: the ModelDeployment's uid is unknown at build time; the common labels
 *   (`airunway.ai/managed-by`, `deployment`, `model-source`, `engine-type`) tie the RayService to
 *   it instead, re-applied after the user's pod-template labels so they cannot be replaced;
 * - storage volumes are mounted on the workers (with `HF_HOME` on the modelCache path) and
 *   managed volumes get a PVC, as for Direct vLLM; upstream ignores storage;
 * - `spec.nodeSelector` / `spec.tolerations` apply to the head and workers; upstream ignores them;
 * - `engine.extraArgs`, `enforceEager`, a disabled prefix cache and the tensor parallel size
 *   derived from the worker GPUs reach vLLM (see `kuberayEngineTokens`);
 * - env on the head and the workers (see {@link kuberayEnv});
 * - `spec.provider.overrides` stay unsupported, as upstream, but not silently: the provider's
 *   warnings name them (`./overrides`; the RayService's final JSON remains reachable with
 *   `addJsonPatch`). They are not rejected, so a spec AI Runway accepts still synthesizes;
 * - the Serve application is Ray Serve LLM's (`./serve-config`): upstream names a module no image
 *   ships; disaggregated mode serves prefill and decode engines with NIXL KV transfer behind Ray
 *   Serve LLM's P/D router, on the two worker groups upstream renders (upstream serves one
 *   aggregated deployment there).
 */
export function translateKubeRay(scope: Construct, md: ResolvedModelDeployment): ApiObject[] {
  const autoscaling = rayAutoscalingOf(md);
  const rayService = new RayService(scope, 'RayService', {
    metadata: objectMeta(md, md.name, workloadLabels(md), userPodAnnotations(md)),
    spec: {
      serveConfigV2: kuberayServeConfigOf(md),
      rayClusterConfig: {
        // Ray Serve asks for replicas; the in-tree autoscaler adds the worker pods they need.
        ...(autoscaling && { enableInTreeAutoscaling: true }),
        // The autoscaler sidecar takes its securityContext from here, not from the head's container.
        ...(autoscaling && { autoscalerOptions: { securityContext: modelServerContainerSecurityContext(podSecurityLevelOf(md.annotations)) } }),
        headGroupSpec: kuberayHeadGroupSpec(md),
        workerGroupSpecs: kuberayWorkerGroupSpecs(md),
      },
    },
  });
  const imageWarning = amdOnCudaImageWarning(KUBERAY_DISPLAY_NAME, KUBERAY_DEFAULT_IMAGE, md);
  if (imageWarning) Warnings.add(rayService, imageWarning);
  return [rayService, ...addManagedClaims(scope, md, commonLabels(md))];
}
