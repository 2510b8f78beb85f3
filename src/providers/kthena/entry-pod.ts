import { KTHENA_ENGINE_COMMANDS, KTHENA_ENGINE_PORT, renderKthenaArgs } from './args';
import { engineImage, KthenaEngineImages } from './images';
import { KTHENA_GROUP_ENV } from './multi-node';
import type { KthenaRolePlan } from './roles';
import { podSecurityLevelOf } from '../../api/pod-security-level';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { k8s } from '../../core/kube-api';
import { LABEL_DEPLOYMENT, LABEL_MODEL_DEPLOYMENT } from '../../core/labels';
import { KthenaPodLabels } from '../../kthena/labels';
import { loraPodParts } from '../../lora/adapter-pod';
import { leaderCommand } from '../../multinode/ray-launch';
import { NIXL_SIDE_CHANNEL_HOST_ENV, nixlSideChannelHostEnv } from '../../provider-kit/engine-flags';
import { HF_HOME_ENV, modelServerEnv } from '../../provider-kit/env';
import { podTolerations } from '../../provider-kit/gpu-tolerations';
import { secureModelServerPod } from '../../provider-kit/model-server-security';
import { podDeviceClaims } from '../../provider-kit/pod-claims';
import { nodeSelectorOf, userPodAnnotations } from '../../provider-kit/pod-template';
import { aggregatedSizing, componentSizing, containerResources } from '../../provider-kit/resources';
import { firstModelCacheVolume, storagePodVolumes, storageVolumeMounts, volumeMountPath } from '../../storage/volume-mounts';

/*
 * The entry pod of one role: the pod of a role instance that runs the engine's OpenAI-compatible
 * server — the only pod, or for a multi-node role the Ray head beside the worker pods
 * (./worker-pod.ts).
 */

/** Name of the memory-backed `/dev/shm` volume of pods with several GPUs (NCCL needs more than the runtime's 64Mi). */
export const KTHENA_SHM_VOLUME_NAME = 'shm';
/** Size limit of the `/dev/shm` volume. */
export const KTHENA_SHM_SIZE_LIMIT = '20Gi';
/** Path the engines answer health checks on (vLLM and SGLang alike). */
export const KTHENA_HEALTH_PATH = '/health';

function httpProbe(initialDelaySeconds: number, periodSeconds: number, failureThreshold: number): k8s.Probe {
  return {
    httpGet: { path: KTHENA_HEALTH_PATH, port: k8s.IntOrString.fromNumber(KTHENA_ENGINE_PORT) },
    initialDelaySeconds,
    periodSeconds,
    failureThreshold,
  };
}

/**
 * Entry pod labels: the user's pod-template labels, then ours, which select the pods and cannot
 * be replaced: `airunway.ai/deployment` and `airunway.ai/model-deployment` (the ModelServer's and
 * an InferencePool's selector) and the role label (our Service's selector). Kthena's controller
 * adds its own (`modelserving.volcano.sh/*`) when it creates the pods.
 */
export function entryPodLabels(md: ResolvedModelDeployment, role: KthenaRolePlan): Record<string, string> {
  return {
    ...(md.spec.podTemplate?.metadata?.labels ?? {}),
    [LABEL_DEPLOYMENT]: md.name,
    [LABEL_MODEL_DEPLOYMENT]: md.name,
    [KthenaPodLabels.ROLE]: role.name,
  };
}

/**
 * Engine env: `spec.env` and the Hugging Face token (`modelServerEnv`); `HF_HOME` on the first
 * modelCache volume's mount, so downloaded weights land on the cache (unless the user sets it);
 * for vLLM prefill/decode pods, the NIXL side-channel host from the pod IP (unless the user sets it).
 */
function engineEnv(md: ResolvedModelDeployment): k8s.EnvVar[] {
  const userSets = (name: string) => (md.spec.env ?? []).some((e) => e.name === name);
  const env = modelServerEnv(md.spec);
  const cache = firstModelCacheVolume(md.spec);
  const cachePath = cache ? volumeMountPath(cache) : undefined;
  if (cachePath !== undefined && !userSets(HF_HOME_ENV)) env.push({ name: HF_HOME_ENV, value: cachePath });
  if (md.engine === 'vllm' && md.mode === 'disaggregated' && !userSets(NIXL_SIDE_CHANNEL_HOST_ENV)) {
    env.push(nixlSideChannelHostEnv());
  }
  return env;
}

/**
 * The entry pod template of `role`: one container named after the engine (`vllm`, `sglang`)
 * running its module entry point with `renderKthenaArgs`, port `http` 8000 with startup (up to
 * 30 minutes, the engine downloads the model on start), liveness and readiness probes on
 * `/health`; the GPUs of one pod under their `gpu.type` (or its DRA claim, see `podDeviceClaims`),
 * memory and CPU; the storage volumes mounted, `/dev/shm` for several GPUs; the user's node
 * selector, tolerations (with the GPU taint's when asked for) and pod annotations; the LoRA
 * adapters' download init containers, volumes and mounts (`loraPodParts`); the deployment's Pod
 * Security level (`secureModelServerPod`), without a service account token. A multi-node role's
 * entry pod has `gpusPerNode` GPUs and runs the module entry point behind the Ray leader script
 * (`leaderCommand` with Kthena's `ENTRY_ADDRESS`/`GROUP_SIZE`), the server arguments as its argv.
 */
export function entryPodTemplate(md: ResolvedModelDeployment, role: KthenaRolePlan, images: KthenaEngineImages): k8s.PodTemplateSpec {
  const engine = md.engine === 'sglang' ? 'sglang' : 'vllm';
  const sharedMemory = role.podGpuCount > 1;
  const lora = loraPodParts(md);
  const volumes: k8s.Volume[] = [
    ...(sharedMemory ? [{ name: KTHENA_SHM_VOLUME_NAME, emptyDir: { medium: 'Memory', sizeLimit: k8s.Quantity.fromString(KTHENA_SHM_SIZE_LIMIT) } }] : []),
    ...storagePodVolumes(md.name, md.spec),
    ...(lora?.volumes ?? []),
  ];
  const volumeMounts: k8s.VolumeMount[] = [
    ...(sharedMemory ? [{ name: KTHENA_SHM_VOLUME_NAME, mountPath: '/dev/shm' }] : []),
    ...storageVolumeMounts(md.spec),
    ...(lora?.volumeMounts ?? []),
  ];
  const deviceClaims = podDeviceClaims(md, role.deviceComponent);
  const component = role.component ? md.spec.scaling?.[role.component] : undefined;
  const sizing = component ? componentSizing(component) : aggregatedSizing(md.spec);
  const resources = containerResources({ ...sizing, gpuCount: role.podGpuCount }, deviceClaims);
  const env = engineEnv(md);
  const container: k8s.Container = {
    name: engine,
    image: engineImage(md, images),
    command: role.layout ? leaderCommand(KTHENA_GROUP_ENV, KTHENA_ENGINE_COMMANDS[engine]) : [...KTHENA_ENGINE_COMMANDS[engine]],
    args: renderKthenaArgs(md, role),
    ports: [{ name: 'http', containerPort: KTHENA_ENGINE_PORT, protocol: 'TCP' }],
    startupProbe: httpProbe(15, 10, 180),
    livenessProbe: httpProbe(0, 10, 3),
    readinessProbe: httpProbe(0, 5, 3),
    ...(volumeMounts.length > 0 ? { volumeMounts } : {}),
    ...(resources ? { resources } : {}),
    ...(env.length > 0 ? { env } : {}),
  };
  const nodeSelector = nodeSelectorOf(md);
  const tolerations = podTolerations(md, [{ count: role.podGpuCount, gpuType: role.gpuType }]);
  const annotations = userPodAnnotations(md);
  return {
    metadata: {
      labels: entryPodLabels(md, role),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
    // The engines call no Kubernetes API: no service account token. Workers inherit all of it.
    spec: secureModelServerPod({
      ...(lora && lora.initContainers.length > 0 ? { initContainers: lora.initContainers } : {}),
      containers: [container],
      ...(deviceClaims ? { resourceClaims: deviceClaims.resourceClaims } : {}),
      ...(volumes.length > 0 ? { volumes } : {}),
      ...(nodeSelector ? { nodeSelector } : {}),
      ...(tolerations ? { tolerations } : {}),
    }, { level: podSecurityLevelOf(md.annotations) }),
  };
}
