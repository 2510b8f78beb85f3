import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { DIRECT_VLLM_PORT, renderDirectVllmArgs } from './args';
import { DIRECT_VLLM_DEFAULT_IMAGE } from './images';
import { VLLM_DISPLAY_NAME } from './validation';
import { podSecurityLevelOf } from '../../api/pod-security-level';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { Warnings } from '../../api/warnings';
import { k8s } from '../../core/kube-api';
import { imageOverride } from '../../core/model-deployment-object';
import { loraPodParts } from '../../lora/adapter-pod';
import { loraEngineFlags } from '../../lora/engine-flags';
import { addLeaderWorkerSet } from '../../multinode/leader-worker-set';
import { HF_HOME_ENV, modelServerEnv } from '../../provider-kit/env';
import { amdOnCudaImageWarning } from '../../provider-kit/gpu-image-warning';
import { podTolerations } from '../../provider-kit/gpu-tolerations';
import { LEADER_POD_LABELS } from '../../provider-kit/leader-worker-set-kind';
import { commonLabels, objectMeta } from '../../provider-kit/metadata';
import { secureModelServerPod } from '../../provider-kit/model-server-security';
import { addModelServerService } from '../../provider-kit/model-server-service';
import { deploymentMultiNode, MultiNodeLayout } from '../../provider-kit/multi-node-layout';
import { mergeIntoFinalJson } from '../../provider-kit/overrides';
import { podDeviceClaims } from '../../provider-kit/pod-claims';
import {
  nodeSelectorOf,
  podTemplateLabels,
  selectorLabels,
  userPodAnnotations,
  workloadLabels,
} from '../../provider-kit/pod-template';
import { scalableReplicas } from '../../provider-kit/replicas';
import { aggregatedSizing, ContainerSizing, containerResources } from '../../provider-kit/resources';
import { VLLM_SERVE_COMMAND } from '../../provider-kit/vllm-serve';
import { addManagedClaims } from '../../storage/managed-claim';
import { firstModelCacheVolume, storagePodVolumes, storageVolumeMounts, volumeMountPath } from '../../storage/volume-mounts';

/** Name of the serving container. */
export const VLLM_CONTAINER_NAME = 'vllm';
/** Name of the memory-backed `/dev/shm` volume added for multi-GPU (NCCL) containers. */
export const SHM_VOLUME_NAME = 'shm';
/** Size limit of the `/dev/shm` volume. */
export const SHM_SIZE_LIMIT = '20Gi';
/** Path all three probes call. */
export const HEALTH_PATH = '/health';

/** Container image: image override (`engine.image`, then `spec.image`), else the default. */
export function directVllmImage(md: ResolvedModelDeployment): string {
  return imageOverride(md.spec) ?? DIRECT_VLLM_DEFAULT_IMAGE;
}

function httpProbe(initialDelaySeconds: number, periodSeconds: number, failureThreshold: number): k8s.Probe {
  return {
    httpGet: { path: HEALTH_PATH, port: k8s.IntOrString.fromNumber(DIRECT_VLLM_PORT) },
    initialDelaySeconds,
    periodSeconds,
    failureThreshold,
  };
}

/**
 * Container env: `spec.env` in order (a user `HF_TOKEN` is dropped when the token Secret is
 * configured, so the pod does not carry two), then `HF_TOKEN` from that Secret, then `HF_HOME`.
 *
 * `HF_HOME` is our addition: AI Runway's Direct vLLM mounts the modelCache volume but never
 * points Hugging Face at it, so the weights are downloaded into the container filesystem on every
 * start and the cache is never used. It is set to the modelCache mount path unless the user set
 * `HF_HOME` themselves (Dynamo's provider does the same).
 */
function directVllmEnv(md: ResolvedModelDeployment): k8s.EnvVar[] | undefined {
  const userEnv = md.spec.env ?? [];
  const env = modelServerEnv(md.spec);
  const cache = firstModelCacheVolume(md.spec);
  const cachePath = cache ? volumeMountPath(cache) : undefined;
  if (cachePath !== undefined && !userEnv.some((e) => e.name === HF_HOME_ENV)) {
    env.push({ name: HF_HOME_ENV, value: cachePath });
  }
  return env.length > 0 ? env : undefined;
}

function directVllmPodSpec(md: ResolvedModelDeployment, args: string[], sizing: ContainerSizing): k8s.PodSpec {
  // Tensor parallelism across GPUs needs more shared memory than the runtime's 64Mi default.
  const sharedMemory = sizing.gpuCount > 1;
  const lora = loraPodParts(md);
  const volumes: k8s.Volume[] = [
    ...(sharedMemory ? [{ name: SHM_VOLUME_NAME, emptyDir: { medium: 'Memory', sizeLimit: k8s.Quantity.fromString(SHM_SIZE_LIMIT) } }] : []),
    ...storagePodVolumes(md.name, md.spec),
    ...(lora?.volumes ?? []),
  ];
  const volumeMounts: k8s.VolumeMount[] = [
    ...(sharedMemory ? [{ name: SHM_VOLUME_NAME, mountPath: '/dev/shm' }] : []),
    ...storageVolumeMounts(md.spec),
    ...(lora?.volumeMounts ?? []),
  ];
  const deviceClaims = podDeviceClaims(md, 'resources');
  const resources = containerResources(sizing, deviceClaims);
  const env = directVllmEnv(md);
  const container: k8s.Container = {
    name: VLLM_CONTAINER_NAME,
    image: directVllmImage(md),
    command: [...VLLM_SERVE_COMMAND],
    args,
    ports: [{ name: 'http', containerPort: DIRECT_VLLM_PORT, protocol: 'TCP' }],
    startupProbe: httpProbe(15, 10, 60),
    livenessProbe: httpProbe(15, 10, 3),
    readinessProbe: httpProbe(15, 5, 3),
    ...(volumeMounts.length > 0 ? { volumeMounts } : {}),
    ...(resources ? { resources } : {}),
    ...(env ? { env } : {}),
  };
  const nodeSelector = nodeSelectorOf(md);
  const tolerations = podTolerations(md, [{ count: sizing.gpuCount, gpuType: sizing.gpuType }]);
  // vLLM never calls the Kubernetes API: no service account token (see secureModelServerPod).
  return secureModelServerPod({
    ...(lora && lora.initContainers.length > 0 ? { initContainers: lora.initContainers } : {}),
    containers: [container],
    ...(deviceClaims ? { resourceClaims: deviceClaims.resourceClaims } : {}),
    ...(volumes.length > 0 ? { volumes } : {}),
    ...(nodeSelector ? { nodeSelector } : {}),
    ...(tolerations ? { tolerations } : {}),
  }, { level: podSecurityLevelOf(md.annotations) });
}

function addDeployment(
  scope: Construct,
  md: ResolvedModelDeployment,
  replicas: number | undefined,
  sizing: ContainerSizing,
  args: string[],
): k8s.KubeDeployment {
  const annotations = userPodAnnotations(md);
  const deployment = new k8s.KubeDeployment(scope, 'Deployment', {
    metadata: objectMeta(md, md.name, workloadLabels(md), annotations),
    spec: {
      ...(replicas !== undefined && { replicas }),
      selector: { matchLabels: selectorLabels(md, md.name) },
      template: {
        metadata: {
          labels: podTemplateLabels(md, md.name),
          ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
        },
        spec: directVllmPodSpec(md, args, sizing),
      },
    },
  });
  const overrides = md.spec.provider?.overrides;
  if (overrides !== undefined && overrides !== null) mergeIntoFinalJson(deployment, overrides as Record<string, unknown>);
  return deployment;
}

/**
 * The LeaderWorkerSet `<md>` (id `LeaderWorkerSet`) of a multi-node deployment: the Deployment's
 * metadata, replicas and pod template, split into a leader and `layout.groupSize - 1` workers
 * per replica, each pod with `gpusPerNode` GPUs (`sizing`).
 */
function addLeaderWorkerSetOf(
  scope: Construct,
  md: ResolvedModelDeployment,
  replicas: number | undefined,
  sizing: ContainerSizing,
  args: string[],
  layout: MultiNodeLayout,
): ApiObject {
  const annotations = userPodAnnotations(md);
  return addLeaderWorkerSet(scope, 'LeaderWorkerSet', {
    metadata: objectMeta(md, md.name, workloadLabels(md), annotations),
    replicas,
    layout,
    template: {
      metadata: {
        labels: podTemplateLabels(md, md.name),
        ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      },
      spec: directVllmPodSpec(md, args, sizing),
    },
    overrides: md.spec.provider?.overrides,
  });
}

/**
 * Creates the Direct vLLM objects under `scope` and returns them, primary Deployment first:
 * Deployment `<md>` and Service `<md>` (ids `Deployment`, `Service`), then one PVC per managed
 * storage volume. AI Runway's Direct vLLM mounts those claims but never creates them; we
 * synthesize them so the Deployment does not wait for a claim nobody makes.
 *
 * Expects a deployment `validateDirectVllm` accepted (vLLM, aggregated). No download Job: only
 * Dynamo downloads in AI Runway (vLLM downloads on start into HF_HOME). No ownerReferences: the ModelDeployment uid is unknown at
 * build time; the common labels tie the objects to it instead. GPUs are requested under
 * `gpu.type` (AI Runway's Direct vLLM always requests `nvidia.com/gpu`, whatever the type says);
 * a warning is recorded on the Deployment when AMD GPUs would run the default CUDA image.
 *
 * Multi-node replicas (annotation `inference.cdk8s.io/multi-node`, `spec.resources.gpu.count`
 * above its `gpusPerNode`): a LeaderWorkerSet `<md>` (id `LeaderWorkerSet`) takes the
 * Deployment's place, its pods request `gpusPerNode` GPUs each, vLLM runs with the layout's
 * tensor and pipeline parallel sizes on the Ray executor, and the Service selects the leaders.
 */
export function translateDirectVllm(scope: Construct, md: ResolvedModelDeployment): ApiObject[] {
  const layout = deploymentMultiNode(md, 'vllm', { extraArgs: true })?.layouts.resources;
  const sizing = layout ? { ...aggregatedSizing(md.spec), gpuCount: layout.gpusPerNode } : aggregatedSizing(md.spec);
  const args = renderDirectVllmArgs(md.spec, { gpuCount: sizing.gpuCount, multiNode: layout, loraFlags: loraEngineFlags(md.annotations) });
  const deployment = layout
    ? addLeaderWorkerSetOf(scope, md, scalableReplicas(md), sizing, args, layout)
    : addDeployment(scope, md, scalableReplicas(md), sizing, args);
  const imageWarning = amdOnCudaImageWarning(VLLM_DISPLAY_NAME, DIRECT_VLLM_DEFAULT_IMAGE, md);
  if (imageWarning) Warnings.add(deployment, imageWarning);
  return [
    deployment,
    addModelServerService(scope, 'Service', md, md.name, DIRECT_VLLM_PORT, layout ? LEADER_POD_LABELS : {}),
    ...addManagedClaims(scope, md, commonLabels(md)),
  ];
}
