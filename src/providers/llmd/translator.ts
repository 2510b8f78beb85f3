import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import {
  LLMD_KV_TRANSFER_CONFIG,
  LLMD_VLLM_PORT,
  renderLlmdArgs,
} from './args';
import { LLMD_DEFAULT_IMAGE } from './images';
import { LLMD_DISPLAY_NAME, LLMD_ROLE_LABEL } from './validation';
import { podSecurityLevelOf } from '../../api/pod-security-level';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { Warnings } from '../../api/warnings';
import { k8s } from '../../core/kube-api';
import { imageOverride } from '../../core/model-deployment-object';
import { loraPodParts } from '../../lora/adapter-pod';
import { loraEngineFlags } from '../../lora/engine-flags';
import { addLeaderWorkerSet } from '../../multinode/leader-worker-set';
import { NIXL_SIDE_CHANNEL_HOST_ENV, nixlSideChannelHostEnv } from '../../provider-kit/engine-flags';
import { modelServerEnv } from '../../provider-kit/env';
import { amdOnCudaImageWarning } from '../../provider-kit/gpu-image-warning';
import { podTolerations } from '../../provider-kit/gpu-tolerations';
import { LEADER_POD_LABELS } from '../../provider-kit/leader-worker-set-kind';
import { objectMeta } from '../../provider-kit/metadata';
import { secureModelServerPod } from '../../provider-kit/model-server-security';
import { addModelServerService } from '../../provider-kit/model-server-service';
import { deploymentMultiNode, MultiNodeLayout, ServingComponent } from '../../provider-kit/multi-node-layout';
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
import { aggregatedSizing, componentSizing, ContainerSizing, containerResources } from '../../provider-kit/resources';
import type { SpecComponentScaling } from '../../provider-kit/spec-types';
import { isJsonObject } from '../../provider-kit/unstructured';
import { VLLM_SERVE_COMMAND } from '../../provider-kit/vllm-serve';

/** Name of the serving container. */
export const LLMD_CONTAINER_NAME = 'vllm';
/** Path vLLM answers health checks on, which the probes call. */
export const LLMD_HEALTH_PATH = '/health';

/** Container image: image override (`engine.image`, then `spec.image`), else llm-d's default. */
export function llmdImage(md: ResolvedModelDeployment): string {
  return imageOverride(md.spec) ?? LLMD_DEFAULT_IMAGE;
}

/**
 * Container env, as Direct vLLM's (`modelServerEnv`). AI Runway's llm-d does not de-duplicate a
 * user `HF_TOKEN` (the pod lists it twice, which server-side apply rejects), keeps only
 * `secretKeyRef` sources and emits `value` and `valueFrom` together (which the API server
 * rejects); we do none of that.
 */
function llmdEnv(md: ResolvedModelDeployment, role: 'decode' | 'prefill' | undefined): k8s.EnvVar[] | undefined {
  const env = modelServerEnv(md.spec);
  // A prefill/decode engine advertises its pod IP to NIXL, unless the user sets the host.
  if (role && !env.some((e) => e.name === NIXL_SIDE_CHANNEL_HOST_ENV)) env.push(nixlSideChannelHostEnv());
  return env.length > 0 ? env : undefined;
}

/**
 * Startup, liveness and readiness probes on vLLM's `/health`, as Direct vLLM's: AI Runway's llm-d
 * has none, so a pod that is still loading the model receives traffic from the Service and a hung
 * server is never restarted. The startup probe allows 30 minutes (a download of large weights on
 * start) before liveness takes over.
 */
function llmdProbes(): Pick<k8s.Container, 'startupProbe' | 'livenessProbe' | 'readinessProbe'> {
  // No `initialDelaySeconds: 0`: the API server omits a zero, so the object would not read back as sent.
  const probe = (periodSeconds: number, failureThreshold: number, initialDelaySeconds?: number): k8s.Probe => ({
    httpGet: { path: LLMD_HEALTH_PATH, port: k8s.IntOrString.fromNumber(LLMD_VLLM_PORT) },
    ...(initialDelaySeconds !== undefined && { initialDelaySeconds }),
    periodSeconds,
    failureThreshold,
  });
  return { startupProbe: probe(10, 180, 15), livenessProbe: probe(10, 3), readinessProbe: probe(5, 3) };
}

/**
 * No storage volumes or `/dev/shm` mount: llm-d's container is `vllm serve` and its args.
 * LoRA adapters are the exception: their init containers and mounts (`loraPodParts`). The pod is
 * secured at the deployment's Pod Security level and mounts no service account token (vLLM calls
 * no Kubernetes API).
 */
function llmdPodSpec(md: ResolvedModelDeployment, plan: DeploymentPlan): k8s.PodSpec {
  const { args, sizing } = plan;
  const deviceClaims = podDeviceClaims(md, plan.role ?? 'resources');
  const resources = containerResources(sizing, deviceClaims);
  const env = llmdEnv(md, plan.role);
  const lora = loraPodParts(md);
  const container: k8s.Container = {
    name: LLMD_CONTAINER_NAME,
    image: llmdImage(md),
    command: [...VLLM_SERVE_COMMAND],
    args,
    ports: [{ name: 'http', containerPort: LLMD_VLLM_PORT, protocol: 'TCP' }],
    ...llmdProbes(),
    ...(lora ? { volumeMounts: lora.volumeMounts } : {}),
    ...(resources ? { resources } : {}),
    ...(env ? { env } : {}),
  };
  const nodeSelector = nodeSelectorOf(md);
  const tolerations = podTolerations(md, [{ count: sizing.gpuCount, gpuType: sizing.gpuType }]);
  return secureModelServerPod({
    ...(lora && lora.initContainers.length > 0 ? { initContainers: lora.initContainers } : {}),
    containers: [container],
    ...(lora ? { volumes: lora.volumes } : {}),
    ...(deviceClaims ? { resourceClaims: deviceClaims.resourceClaims } : {}),
    ...(nodeSelector ? { nodeSelector } : {}),
    ...(tolerations ? { tolerations } : {}),
  }, { level: podSecurityLevelOf(md.annotations) });
}

interface DeploymentPlan {
  readonly id: string;
  readonly name: string;
  /** Unset when an autoscaler owns the count. */
  readonly replicas: number | undefined;
  readonly sizing: ContainerSizing;
  readonly args: string[];
  /** Disaggregated component: its pods carry `llm-d.ai/role: <component>`. */
  readonly role?: 'decode' | 'prefill';
  /** A multi-node component: a LeaderWorkerSet of this layout replaces the Deployment (`sizing` is one pod's). */
  readonly layout?: MultiNodeLayout;
}

/**
 * The component's Deployment, or, for a multi-node component, a LeaderWorkerSet with the same
 * name, metadata, replicas and pod template (construct id `LeaderWorkerSet`, `DecodeLeaderWorkerSet`, ...).
 */
function addDeployment(scope: Construct, md: ResolvedModelDeployment, plan: DeploymentPlan): ApiObject {
  const overrides = md.spec.provider?.overrides;
  const annotations = userPodAnnotations(md);
  if (plan.layout) {
    return addLeaderWorkerSet(scope, plan.id.replace(/Deployment$/, 'LeaderWorkerSet'), {
      metadata: objectMeta(md, plan.name, workloadLabels(md), annotations),
      replicas: plan.replicas,
      layout: plan.layout,
      template: {
        metadata: {
          labels: { ...podTemplateLabels(md, plan.name), ...(plan.role ? { [LLMD_ROLE_LABEL]: plan.role } : {}) },
          ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
        },
        spec: llmdPodSpec(md, plan),
      },
      overrides,
    });
  }
  const deployment = new k8s.KubeDeployment(scope, plan.id, {
    metadata: objectMeta(md, plan.name, workloadLabels(md), annotations),
    spec: {
      ...(plan.replicas !== undefined && { replicas: plan.replicas }),
      selector: { matchLabels: selectorLabels(md, plan.name) },
      template: {
        metadata: {
          // The role label goes last: neither spec.podTemplate nor overrides may change it.
          labels: { ...podTemplateLabels(md, plan.name), ...(plan.role ? { [LLMD_ROLE_LABEL]: plan.role } : {}) },
          ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
        },
        spec: llmdPodSpec(md, plan),
      },
    },
  });
  if (isJsonObject(overrides)) mergeIntoFinalJson(deployment, overrides);
  return deployment;
}


/** The layout of a multi-node component, and the sizing of one of its pods (`gpusPerNode` GPUs). */
function multiNodeOf(
  md: ResolvedModelDeployment,
  component: ServingComponent,
  sizing: ContainerSizing,
): { layout?: MultiNodeLayout; sizing: ContainerSizing } {
  const layout = deploymentMultiNode(md, 'vllm', { extraArgs: true })?.layouts[component];
  return layout ? { layout, sizing: { ...sizing, gpuCount: layout.gpusPerNode } } : { sizing };
}

function addAggregated(scope: Construct, md: ResolvedModelDeployment): ApiObject[] {
  const { layout, sizing } = multiNodeOf(md, 'resources', aggregatedSizing(md.spec));
  return [
    addDeployment(scope, md, {
      id: 'Deployment',
      name: md.name,
      replicas: scalableReplicas(md),
      sizing,
      args: renderLlmdArgs(md.spec, { gpuCount: sizing.gpuCount, multiNode: layout, loraFlags: loraEngineFlags(md.annotations) }),
      layout,
    }),
    addModelServerService(scope, 'Service', md, md.name, LLMD_VLLM_PORT, layout ? LEADER_POD_LABELS : {}),
  ];
}

function componentPlan(
  md: ResolvedModelDeployment,
  component: 'decode' | 'prefill',
  scaling: SpecComponentScaling,
  kvTransferConfig: string,
): DeploymentPlan {
  const { layout, sizing } = multiNodeOf(md, component, componentSizing(scaling));
  const id = component === 'decode' ? 'Decode' : 'Prefill';
  return {
    id: `${id}Deployment`,
    name: `${md.name}-${component}`,
    // Used as given (the CRD defaults component replicas to 1).
    replicas: scaling.replicas ?? 1,
    sizing,
    args: renderLlmdArgs(md.spec, {
      gpuCount: sizing.gpuCount,
      kvTransferConfig,
      multiNode: layout,
      loraFlags: loraEngineFlags(md.annotations),
    }),
    role: component,
    layout,
  };
}

function addDisaggregated(scope: Construct, md: ResolvedModelDeployment): ApiObject[] {
  // validateLlmd guarantees both components, each with GPUs.
  const scaling = md.spec.scaling!;
  const decode = componentPlan(md, 'decode', scaling.decode!, LLMD_KV_TRANSFER_CONFIG);
  const prefill = componentPlan(md, 'prefill', scaling.prefill!, LLMD_KV_TRANSFER_CONFIG);
  return [
    addDeployment(scope, md, decode),
    addDeployment(scope, md, prefill),
    // The decode Service is the serving endpoint; the prefill Service is internal.
    addModelServerService(scope, 'DecodeService', md, decode.name, LLMD_VLLM_PORT, decode.layout ? LEADER_POD_LABELS : {}),
    addModelServerService(scope, 'PrefillService', md, prefill.name, LLMD_VLLM_PORT, prefill.layout ? LEADER_POD_LABELS : {}),
  ];
}

/** What llm-d silently drops from this spec, and AMD GPUs on its CUDA image, for warnings. */
function translationWarnings(md: ResolvedModelDeployment): string[] {
  const warnings: string[] = [];
  if ((md.spec.model.storage?.volumes ?? []).length > 0) {
    warnings.push(
      `${LLMD_DISPLAY_NAME} ignores spec.model.storage.volumes: its Deployments mount no volumes, so vLLM downloads the model ` +
        'into the container on every start (the vllm and dynamo providers mount a model cache)',
    );
  }
  const imageWarning = amdOnCudaImageWarning(LLMD_DISPLAY_NAME, LLMD_DEFAULT_IMAGE, md);
  if (imageWarning) warnings.push(imageWarning);
  return warnings;
}

/**
 * Creates the llm-d objects under `scope` and returns them, primary Deployment first:
 *
 * - aggregated: Deployment `<md>` and Service `<md>` (construct ids `Deployment`, `Service`);
 * - disaggregated: Deployments `<md>-decode` and `<md>-prefill` (`DecodeDeployment`,
 *   `PrefillDeployment`), then Services `<md>-decode` and `<md>-prefill` (`DecodeService`,
 *   `PrefillService`). Each component gets its own GPUs, memory, replicas, tensor parallelism
 *   and NIXL KV transfer (with `VLLM_NIXL_SIDE_CHANNEL_HOST` from the pod IP), and its pods the label
 *   `llm-d.ai/role: decode|prefill` that llm-d's P/D endpoint picker selects them by (not in
 *   the Deployment selector, so adding it changes no selector).
 *
 * Same object set, names, labels and selectors as Direct vLLM, with llm-d's own image
 * (`vllm/vllm-openai:v0.33.0`), arguments (`renderLlmdArgs`) and env, Direct vLLM's probes on
 * `/health` (AI Runway's llm-d has none), and none of its volumes or `/dev/shm`. No ownerReferences: the ModelDeployment uid is unknown at
 * build time; the common labels tie the objects to it instead. `spec.provider.overrides` are
 * deep-merged into each Deployment (not the Services) after everything else; a `null` sets the
 * key to JSON null.
 *
 * GPUs are requested under each component's `gpu.type` (AI Runway's llm-d always requests
 * `nvidia.com/gpu`). Warnings are recorded on the primary Deployment for what llm-d ignores
 * (storage volumes) and for AMD GPUs on the default CUDA image.
 *
 * A multi-node component (annotation `inference.cdk8s.io/multi-node`, its `gpu.count` above
 * `gpusPerNode`) is a LeaderWorkerSet of the same name instead of a Deployment (ids
 * `LeaderWorkerSet`, `DecodeLeaderWorkerSet`, `PrefillLeaderWorkerSet`): pods of `gpusPerNode`
 * GPUs, vLLM with the layout's tensor and pipeline parallel sizes on the Ray executor, and its
 * Service selecting the leaders.
 */
export function translateLlmd(scope: Construct, md: ResolvedModelDeployment): ApiObject[] {
  const objects = md.mode === 'disaggregated' ? addDisaggregated(scope, md) : addAggregated(scope, md);
  for (const warning of translationWarnings(md)) Warnings.add(objects[0], warning);
  return objects;
}
