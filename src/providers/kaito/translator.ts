import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { kaitoInstanceType, KaitoNodeProvisioning } from './node-provisioning';
import { KAITO_DISPLAY_NAME } from './validation';
import { KAITO_LLAMACPP_PORT } from './workspace-pods';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { Warnings } from '../../api/warnings';
import { k8s } from '../../core/kube-api';
import { LABEL_MODEL_DEPLOYMENT } from '../../core/labels';
import { imageOverride } from '../../core/model-deployment-object';
import { Workspace, WorkspaceInference, WorkspaceResource } from '../../imports/kaito.sh';
import { modelServerEnv } from '../../provider-kit/env';
import { commonLabels } from '../../provider-kit/metadata';
import { mergeIntoFinalJson, OverrideNullHandling } from '../../provider-kit/overrides';
import { userPodAnnotations } from '../../provider-kit/pod-template';
import { isJsonObject } from '../../provider-kit/unstructured';

/** Name of the llama.cpp serving container. */
export const KAITO_LLAMACPP_CONTAINER_NAME = 'model';
/** `engine.args` key holding the exact GGUF file to serve (llama.cpp); other keys are ignored. */
export const GGUF_URL_ARG = 'ggufUrl';
/** Scheme llama.cpp images (AIKit) use to fetch a model from Hugging Face. */
export const HUGGINGFACE_MODEL_SCHEME = 'huggingface://';

/** Node label every Workspace selects on. */
export const OS_LABEL = 'kubernetes.io/os';
/**
 * Node label forced into the selector when GPUs are requested, so that KAITO only considers GPU
 * nodes (it is set by NVIDIA GPU feature discovery; remove it through the overrides with
 * `{"resource": {"labelSelector": {"matchLabels": {"nvidia.com/gpu.present": null}}}}` when
 * GPU nodes are labelled differently).
 */
export const GPU_PRESENT_LABEL = 'nvidia.com/gpu.present';

function hasGpu(md: ResolvedModelDeployment): boolean {
  return (md.spec.resources?.gpu?.count ?? 0) > 0;
}

/**
 * Workspace labels: the common AI Runway labels and `airunway.ai/model-deployment: <md>`, with
 * the user's pod-template labels merged on top as AI Runway does, then ours re-applied. The
 * re-application is ours (as for the other providers): without ownerReferences these labels are
 * what ties the Workspace to its deployment, so a pod-template label must not replace them.
 */
export function kaitoWorkspaceLabels(md: ResolvedModelDeployment): Record<string, string> {
  const own = { ...commonLabels(md), [LABEL_MODEL_DEPLOYMENT]: md.name };
  return { ...own, ...(md.spec.podTemplate?.metadata?.labels ?? {}), ...own };
}

/**
 * `resource`: `count` from `scaling.replicas` (0 or unset → 1); a label selector of
 * `kubernetes.io/os: linux`, then `spec.nodeSelector`, then `nvidia.com/gpu.present: "true"`
 * when GPUs are requested (it wins over a user value, so GPU targeting cannot be switched off
 * by accident); `instanceType` only under node auto-provisioning. Tolerations have no place in
 * a Workspace and are ignored, as upstream.
 */
export function kaitoResource(md: ResolvedModelDeployment, provisioning: KaitoNodeProvisioning = {}): WorkspaceResource {
  const replicas = md.spec.scaling?.replicas ?? 0;
  const gpu = hasGpu(md);
  const matchLabels: Record<string, string> = {
    [OS_LABEL]: 'linux',
    ...(md.spec.nodeSelector ?? {}),
    ...(gpu ? { [GPU_PRESENT_LABEL]: 'true' } : {}),
  };
  const instanceType = kaitoInstanceType(provisioning, gpu);
  return {
    count: replicas > 0 ? replicas : 1,
    ...(instanceType ? { instanceType } : {}),
    // Emitted even with an instanceType: the v1beta1 schema requires it.
    labelSelector: { matchLabels },
  };
}

/**
 * The llama.cpp model argument: `engine.args.ggufUrl` when set (a specific GGUF file), else
 * `huggingface://<model.id>`; none for custom models or an empty id (the image brings its model).
 */
export function llamaCppModelArg(md: ResolvedModelDeployment): string | undefined {
  const model = md.spec.model;
  if (model.source === 'custom' || !model.id) return undefined;
  return md.spec.engine?.args?.[GGUF_URL_ARG] || `${HUGGINGFACE_MODEL_SCHEME}${model.id}`;
}

/**
 * Container env of the llama.cpp template: `spec.env`, then `HF_TOKEN` from the token Secret.
 *
 * Two deliberate differences from AI Runway, which copies only `value` and `secretKeyRef`: every
 * `valueFrom` source is kept (a configMapKeyRef or fieldRef would otherwise become an empty
 * variable) and `valueFrom` wins over `value` (Kubernetes rejects an entry with both). A user
 * `HF_TOKEN` is dropped when the token Secret is configured; upstream emits both and the later
 * one, the Secret's, wins in the container anyway.
 */
function llamaCppEnv(md: ResolvedModelDeployment): k8s.EnvVar[] | undefined {
  const env = modelServerEnv(md.spec);
  return env.length > 0 ? env : undefined;
}

/** Memory and CPU requests from `spec.resources`; GPUs are KAITO's to size and never requested. */
function llamaCppResources(md: ResolvedModelDeployment): k8s.ResourceRequirements | undefined {
  const requests: Record<string, k8s.Quantity> = {};
  const { memory, cpu } = md.spec.resources ?? {};
  if (memory) requests.memory = k8s.Quantity.fromString(memory);
  if (cpu) requests.cpu = k8s.Quantity.fromString(cpu);
  return Object.keys(requests).length > 0 ? { requests } : undefined;
}

/**
 * The pod template of a llama.cpp Workspace: one container `model` running the image override
 * with `[<model arg>, --address=:5000]`, port 5000, memory/CPU requests and env. `validateKaito`
 * guarantees the image.
 */
export function llamaCppTemplate(md: ResolvedModelDeployment): k8s.PodTemplateSpec {
  const image = imageOverride(md.spec)!;
  const modelArg = llamaCppModelArg(md);
  const resources = llamaCppResources(md);
  const env = llamaCppEnv(md);
  return {
    metadata: { labels: { [LABEL_MODEL_DEPLOYMENT]: md.name } },
    spec: {
      containers: [{
        name: KAITO_LLAMACPP_CONTAINER_NAME,
        image,
        // The served name is not passed: llama.cpp Workspaces serve under their model file.
        args: [...(modelArg ? [modelArg] : []), `--address=:${KAITO_LLAMACPP_PORT}`],
        ports: [{ containerPort: KAITO_LLAMACPP_PORT }],
        ...(resources ? { resources } : {}),
        ...(env ? { env } : {}),
      }],
    },
  };
}

/**
 * `inference`: the vLLM preset named by the model id (KAITO picks image, flags and sizing itself,
 * so no engine setting is passed), or the llama.cpp pod template.
 */
export function kaitoInference(md: ResolvedModelDeployment): WorkspaceInference {
  // validateKaito admits only these two engines.
  if (md.engine === 'vllm') return { preset: { name: md.spec.model.id ?? '' } };
  // The template field is untyped in the binding (a core PodTemplateSpec the CRD keeps as free
  // JSON); it is built typed and rendered with the core mapper.
  return { template: k8s.toJson_PodTemplateSpec(llamaCppTemplate(md)) };
}

/**
 * Spec fields KAITO does not pass to the Workspace on this deployment's path (set to something
 * other than their default). Reported as a warning so that a setting does not vanish silently.
 */
export function kaitoIgnoredFields(md: ResolvedModelDeployment): string[] {
  const spec = md.spec;
  const engine = spec.engine ?? {};
  const preset = md.engine === 'vllm';
  const out: string[] = [];
  const note = (path: string, isSet: boolean) => {
    if (isSet) out.push(path);
  };
  note('spec.model.servedName', !!spec.model.servedName);
  note('spec.model.storage.volumes', (spec.model.storage?.volumes?.length ?? 0) > 0);
  note('spec.engine.contextLength', engine.contextLength !== undefined && engine.contextLength !== null);
  note('spec.engine.trustRemoteCode', engine.trustRemoteCode === true);
  note('spec.engine.enforceEager', engine.enforceEager === true);
  note('spec.engine.enablePrefixCaching', engine.enablePrefixCaching === false);
  const argKeys = Object.keys(engine.args ?? {});
  note('spec.engine.args', preset ? argKeys.length > 0 : argKeys.some((k) => k !== GGUF_URL_ARG));
  note('spec.engine.extraArgs', (engine.extraArgs?.length ?? 0) > 0);
  if (preset) {
    note('spec.engine.image', !!engine.image);
    note('spec.image', !!spec.image);
    note('spec.env', (spec.env?.length ?? 0) > 0);
    note('spec.secrets.huggingFaceToken', !!spec.secrets?.huggingFaceToken);
    note('spec.resources.memory', !!spec.resources?.memory);
    note('spec.resources.cpu', !!spec.resources?.cpu);
  }
  note('spec.tolerations', (spec.tolerations?.length ?? 0) > 0);
  return out;
}

/**
 * Creates the KAITO Workspace for `md` as the child `Workspace` of `scope`, named and
 * namespaced like the deployment, and returns it (the only object KAITO needs).
 *
 * What AI Runway's KAITO controller does at run time and we do not:
 * - ownerReferences: the ModelDeployment's uid is unknown at build time; the labels tie the
 *   Workspace to its deployment instead;
 * - the `airunway.ai/kaito-last-applied` annotation: it records what the controller wrote for its
 *   own drift detection; GitOps tools track applied state themselves;
 * - the upstream health probe (is the KAITO CRD installed, is its controller ready): a property
 *   of the live cluster, which the in-cluster reconciler reports, not the synth.
 *
 * `spec.provider.overrides` are deep-merged into the final Workspace JSON (after any JSON
 * patches); a `null` value deletes the key, e.g. `{"resource": {"instanceType": null}}`.
 */
export function translateKaito(scope: Construct, md: ResolvedModelDeployment, provisioning: KaitoNodeProvisioning = {}): ApiObject[] {
  const overrides = md.spec.provider?.overrides;
  const annotations = userPodAnnotations(md);
  const workspace = new Workspace(scope, 'Workspace', {
    metadata: {
      name: md.name,
      ...(md.namespace !== undefined ? { namespace: md.namespace } : {}),
      labels: kaitoWorkspaceLabels(md),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
    resource: kaitoResource(md, provisioning),
    inference: kaitoInference(md),
  });
  if (isJsonObject(overrides)) {
    mergeIntoFinalJson(workspace, overrides, OverrideNullHandling.DELETE);
  }
  const ignored = kaitoIgnoredFields(md);
  if (ignored.length > 0) {
    const target = md.engine === 'vllm' ? 'the vLLM preset, whose image, flags and sizing KAITO chooses' : 'the llama.cpp Workspace';
    Warnings.add(workspace, `${KAITO_DISPLAY_NAME} ignores ${ignored.join(', ')} (not passed to ${target})`);
  }
  return [workspace];
}
