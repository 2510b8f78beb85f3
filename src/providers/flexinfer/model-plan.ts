import {
  annotationPath,
  CACHE_HOST_PATH_ANNOTATION,
  CACHE_STRATEGY_ANNOTATION,
  COLD_START_TIMEOUT_ANNOTATION,
  FlexInferAnnotations,
  GPU_PRIORITY_ANNOTATION,
  GPU_SHARED_ANNOTATION,
  GPU_SWAP_COOLDOWN_ANNOTATION,
  IDLE_TIMEOUT_ANNOTATION,
  LITELLM_ALIASES_ANNOTATION,
  LITELLM_COPILOT_ALIAS_ANNOTATION,
  readFlexInferAnnotations,
  SCALE_TO_ZERO_ANNOTATION,
  VRAM_ESTIMATE_ANNOTATION,
} from './annotations';
import { ENGINE_BACKENDS, engineConfig, GGUF_FILE_ARG } from './engine-config';
import { unsupportedField, unsupportedValue } from './feature-gaps';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { DEFAULT_MODEL_CACHE_MOUNT_PATH } from '../../core/defaults';
import { FieldError, forbidden, invalid, required } from '../../core/field-error';
import { TOLERATE_GPU_TAINT_ANNOTATION } from '../../core/gpu-taint-toleration';
import { gpuTypeOf, isMigGpuType } from '../../core/gpu-type';
import { imageOverride, resolvedClaimName } from '../../core/model-deployment-object';
import { checkDerivedObjectNames } from '../../core/object-names';
import { defaultImageRef } from '../../core/version-matrix';
import { modelDerivedObjects } from '../../flexinfer/derived-objects';
import {
  cacheStrategyFieldErrors,
  cpuVendorErrors,
  gpuCountErrors,
  gpuOnlyBackendErrors,
  minReplicasErrors,
  sharedGroupSettingErrors,
  vendorNodeSelectorErrors,
} from '../../flexinfer/model-field-rules';
import {
  GPU_VENDOR_NODE_LABEL,
  MAX_MIN_REPLICAS,
  ModelCacheJson,
  ModelGpuJson,
  ModelResourcesJson,
  ModelServerlessJson,
  ModelSpecJson,
  vendorOfGpuResource,
} from '../../flexinfer/model-spec-json';
import { podTolerations } from '../../provider-kit/gpu-tolerations';
import { BLOCKED_OVERRIDE_KEYS, PROVIDER_OVERRIDES_PATH, validateOverrideKeys } from '../../provider-kit/overrides';
import { isJsonObject } from '../../provider-kit/unstructured';
import { storageVolumesOf } from '../../storage/volume-mounts';

/** Settings of the FlexInfer target that hold for every deployment (the `FlexInferProvider` props). */
export interface FlexInferTargetOptions {
  /** Image of vllm Models whose deployment names none. */
  readonly vllmImage?: string;
  /** Image of llamacpp Models whose deployment names none. */
  readonly llamaCppImage?: string;
}

/** What a deployment becomes on FlexInfer: the Model's spec and what the user should know. */
export interface FlexInferModelPlan {
  readonly spec: ModelSpecJson;
  readonly warnings: string[];
}

/** Engines AI Runway knows that FlexInfer has no backend for, and the shipped targets that run them. */
const OTHER_ENGINE_TARGETS: Readonly<Record<string, readonly string[]>> = { sglang: ['dynamo'], trtllm: ['dynamo'] };

/** Shipped targets with disaggregated (prefill/decode) serving. */
const DISAGGREGATED_TARGETS: readonly string[] = ['dynamo', 'kuberay', 'llmd'];

interface Collector {
  readonly errors: FieldError[];
  readonly warnings: string[];
}

function gpuBlock(md: ResolvedModelDeployment, a: FlexInferAnnotations, out: Collector): ModelGpuJson {
  const gpu = md.spec.resources?.gpu;
  const count = gpu?.count ?? 0;
  const gpuType = gpuTypeOf(gpu);
  const sharing: ModelGpuJson = {
    ...(a.gpuShared !== undefined && { shared: a.gpuShared }),
    ...(a.gpuPriority !== undefined && { priority: a.gpuPriority }),
    ...(a.vramEstimateMB !== undefined && { vramEstimateMB: a.vramEstimateMB }),
    ...(a.gpuSwapCooldown !== undefined && { swapCooldown: a.gpuSwapCooldown }),
  };
  out.errors.push(...sharedGroupSettingErrors(sharing,
    { priority: annotationPath(GPU_PRIORITY_ANNOTATION), swapCooldown: annotationPath(GPU_SWAP_COOLDOWN_ANNOTATION) },
    GPU_SHARED_ANNOTATION, { priority: a.gpuPriority === undefined ? undefined : String(a.gpuPriority) }));
  if (count <= 0) {
    // CPU only: the Model's vendor is cpu, so its CEL rules apply to the sharing annotations.
    out.errors.push(...cpuVendorErrors(sharing, (field) => ({
      path: annotationPath(field === 'shared' ? GPU_SHARED_ANNOTATION : VRAM_ESTIMATE_ANNOTATION),
      because: field === 'shared' ? 'this deployment requests no GPUs, so there is no GPU to share' : 'this deployment requests no GPUs',
    })));
    return { vendor: 'cpu' };
  }
  let vendor: string | undefined;
  if (isMigGpuType(gpuType)) {
    out.errors.push(unsupportedValue('spec.resources.gpu.type', gpuType, `MIG GPU profiles (${gpuType})`,
      'a Model requests whole GPUs of a vendor (nvidia.com/gpu or amd.com/gpu), never a GPU partition'));
  } else {
    vendor = vendorOfGpuResource(gpuType);
    if (vendor === undefined) {
      out.errors.push(unsupportedValue('spec.resources.gpu.type', gpuType, `GPU type ${gpuType}`,
        'a Model names a GPU vendor, nvidia (nvidia.com/gpu) or amd (amd.com/gpu), and FlexInfer requests that vendor\'s resource'));
    }
  }
  out.errors.push(...gpuCountErrors('spec.resources.gpu.count', count));
  if (md.engine === 'vllm' && count > 1) {
    out.warnings.push(`FlexInfer's vllm backend renders no --tensor-parallel-size and takes no raw flags, so vLLM serves from one of the ${count} GPUs (spec.resources.gpu.count) and the others stay idle`);
  }
  return { vendor: vendor ?? 'auto', count, ...sharing };
}

function serverlessBlock(md: ResolvedModelDeployment, a: FlexInferAnnotations, out: Collector): ModelServerlessJson {
  const configured = md.spec.scaling?.replicas ?? 0;
  // As on the other targets, an unset or zero replica count means one.
  const replicas = configured > 0 ? configured : 1;
  if (a.scaleToZero) {
    if (replicas > 1) {
      out.errors.push(invalid('spec.scaling.replicas', configured,
        `FlexInfer's scale-to-zero (${SCALE_TO_ZERO_ANNOTATION}) runs 0 or 1 replica: it activates one on demand and has no load-based scale-out; set scaling.replicas to 1, or drop the annotation to keep ${replicas} replicas running`));
    }
    if (md.spec.gateway?.enabled === true) {
      out.errors.push(invalid('spec.gateway.enabled', true,
        `a model scaled to zero (${SCALE_TO_ZERO_ANNOTATION}) is woken only by requests through flexinfer-proxy; requests the Gateway routes to its InferencePool would find no pods. Set gateway.enabled to false, or drop scale-to-zero`));
    }
    return {
      enabled: true,
      minReplicas: 0,
      ...(a.idleTimeout !== undefined && { idleTimeout: a.idleTimeout }),
      ...(a.coldStartTimeout !== undefined && { coldStartTimeout: a.coldStartTimeout }),
    };
  }
  for (const [key, value] of [[IDLE_TIMEOUT_ANNOTATION, a.idleTimeout], [COLD_START_TIMEOUT_ANNOTATION, a.coldStartTimeout]] as const) {
    if (value !== undefined) out.errors.push(invalid(annotationPath(key), value, `only applies with scale-to-zero; set ${SCALE_TO_ZERO_ANNOTATION}: "true"`));
  }
  out.errors.push(...minReplicasErrors('spec.scaling.replicas', replicas, configured, 'a fixed replica count'));
  if (replicas === 1) return { enabled: false };
  out.warnings.push(`FlexInfer places the ${replicas} replicas on ${replicas} different nodes (required pod anti-affinity on the hostname)`);
  // A fixed count above one is a serverless model that never goes below it.
  return { enabled: true, minReplicas: Math.min(replicas, MAX_MIN_REPLICAS) };
}

/** The source URI and cache block of a deployment, from `model.source`, `model.id` and its storage. */
function sourceAndCache(md: ResolvedModelDeployment, a: FlexInferAnnotations, out: Collector): { source: string; cache: ModelCacheJson } {
  const spec = md.spec;
  const volumes = storageVolumesOf(spec);
  const cacheIndex = volumes.findIndex((v) => v.purpose === 'modelCache');
  const cacheVolume = cacheIndex >= 0 ? volumes[cacheIndex] : undefined;
  const volumePath = `spec.model.storage.volumes[${cacheIndex}]`;
  volumes.forEach((v, i) => {
    if (i === cacheIndex) return;
    out.errors.push(unsupportedField(`spec.model.storage.volumes[${i}]`, `storage volume "${v.name}" (purpose ${v.purpose ?? 'custom'})`,
      'a Model mounts only its model volume, at /models (the first modelCache volume); compilation caches are node-local (cache.compilationCache) and no other volume can be added'));
  });
  if (cacheVolume?.mountPath && cacheVolume.mountPath !== DEFAULT_MODEL_CACHE_MOUNT_PATH) {
    out.warnings.push(`FlexInfer mounts the model volume at /models; ${volumePath}.mountPath ${JSON.stringify(cacheVolume.mountPath)} is ignored`);
  }
  const strategyPath = annotationPath(CACHE_STRATEGY_ANNOTATION);
  const requested = a.cacheStrategy;
  const custom = spec.model.source === 'custom';
  let source: string;
  let strategy: string;
  let pvcName: string | undefined;

  if (!custom) {
    source = `HF://${spec.model.id ?? ''}`;
    if (!spec.model.id) out.errors.push(required('spec.model.id', 'model.id is required when source is huggingface'));
    if (cacheVolume) {
      if (cacheVolume.readOnly) {
        out.errors.push(unsupportedValue(`${volumePath}.readOnly`, true, 'a read-only Hugging Face model cache',
          "FlexInfer's prefetch Job downloads the weights into the cache claim; make the volume writable, or serve weights already on a claim with model.source custom (pvc://)"));
      }
      if (requested !== undefined && requested !== 'SharedPVC') {
        out.errors.push(invalid(strategyPath, requested,
          `the modelCache volume "${cacheVolume.name}" becomes FlexInfer's SharedPVC cache, which cache strategy ${requested} would leave unused; remove the volume or the annotation`));
      }
      strategy = 'SharedPVC';
      pvcName = resolvedClaimName(md.name, cacheVolume);
    } else {
      if (requested === 'SharedPVC') {
        out.errors.push(invalid(strategyPath, requested,
          'the SharedPVC cache needs a modelCache volume in spec.model.storage.volumes (its claim becomes cache.pvcName); without one FlexInfer would create a 50Gi claim of storage class "longhorn"'));
      }
      // Without a cache volume the deployment asked for no persistent cache: the server downloads on start.
      strategy = requested ?? 'None';
    }
    if (md.engine === 'llamacpp') {
      if (strategy !== 'SharedPVC' && strategy !== 'Local') {
        out.errors.push(required('spec.model.storage.volumes',
          `FlexInfer's llamacpp backend loads a GGUF file that its prefetch Job stages from Hugging Face: add a modelCache volume (the SharedPVC cache), or set ${CACHE_STRATEGY_ANNOTATION}: Local`));
      }
      if (!spec.engine?.args?.[GGUF_FILE_ARG]) {
        out.errors.push(required(`spec.engine.args.${GGUF_FILE_ARG}`,
          `name the GGUF file of the repository that FlexInfer's llamacpp backend loads, e.g. ${GGUF_FILE_ARG}: model-Q4_K_M.gguf`));
      }
    }
  } else {
    const id = spec.model.id ?? '';
    if (cacheVolume) {
      const subPath = id.replace(/^\/+/, '');
      if (subPath.split('/').includes('..')) {
        out.errors.push(invalid('spec.model.id', id, 'the path of the weights inside the modelCache volume may not contain ".."'));
      }
      source = `pvc://${resolvedClaimName(md.name, cacheVolume)}${subPath ? `/${subPath}` : ''}`;
      if (cacheVolume.size !== undefined && cacheVolume.size !== null) {
        out.warnings.push(`the managed claim of ${volumePath} starts empty, and FlexInfer serves ${source} from it as it is: fill it with the weights before the model starts`);
      }
    } else {
      if (!id.startsWith('/')) {
        out.errors.push(invalid('spec.model.id', id,
          'for model.source custom, FlexInfer needs the location of the weights: set model.id to their absolute path inside the container (file://), or add a modelCache volume holding them (pvc://<claim>/<model.id>)'));
      }
      source = `file://${id}`;
    }
    strategy = requested ?? 'None';
    if (requested === 'SharedPVC' || requested === 'Memory') {
      out.errors.push(invalid(strategyPath, requested, requested === 'Memory'
        ? 'a pvc:// or file:// source cannot use the Memory cache (the CRD allows SharedPVC, Local or None with pvc://); use None to mount the weights directly, or Local'
        : 'copying the weights into a SharedPVC cache needs a claim FlexInfer would create as 50Gi of storage class "longhorn"; use None to mount the weights directly, or Local'));
    }
  }

  out.errors.push(...cacheStrategyFieldErrors(annotationPath(CACHE_HOST_PATH_ANNOTATION), a.cacheHostPath, 'Local', strategy, CACHE_STRATEGY_ANNOTATION));
  const cache: ModelCacheJson = {
    strategy,
    ...(pvcName !== undefined && { pvcName }),
    ...(strategy === 'Local' && a.cacheHostPath !== undefined && { hostPath: a.cacheHostPath }),
  };
  return { source, cache };
}

/**
 * Whether FlexInfer's vllm backend passes vLLM the weights' mount path as `--model` rather than
 * the model id: `/models/<model>` for a Hugging Face model in the SharedPVC cache (where the
 * prefetch Job put it), `/models/<path>` for a pvc:// source. vLLM then serves under that path
 * unless given a served name, so the plan names the model by `model.id` (`servedModelName`),
 * which is what the Gateway routes on and what vLLM serves under on every other target.
 */
function loadsFromMountPath(source: string, cache: ModelCacheJson): boolean {
  return source.startsWith('pvc://') || (source.startsWith('HF://') && cache.strategy === 'SharedPVC');
}

function resourcesBlock(md: ResolvedModelDeployment): ModelResourcesJson | undefined {
  // As the other targets size a serving container: memory as request and limit, CPU as request.
  const { cpu, memory } = md.spec.resources ?? {};
  const requests: Record<string, string> = {};
  const limits: Record<string, string> = {};
  if (cpu) requests.cpu = cpu;
  if (memory) {
    requests.memory = memory;
    limits.memory = memory;
  }
  if (Object.keys(requests).length === 0) return undefined;
  return { ...(Object.keys(limits).length > 0 && { limits }), requests };
}

function podLevelGaps(md: ResolvedModelDeployment, out: Collector): void {
  const spec = md.spec;
  if ((spec.env?.length ?? 0) > 0) {
    out.errors.push(unsupportedField('spec.env', 'environment variables (spec.env)',
      'a Model has no env field; FlexInfer sets the container env from the backend and its config'));
  }
  if (spec.secrets?.huggingFaceToken) {
    out.errors.push(unsupportedField('spec.secrets.huggingFaceToken', 'a Hugging Face token (secrets.huggingFaceToken)',
      "a Model has no env or secret field and FlexInfer's prefetch Job reads no token, so only public repositories download"));
  }
  const meta = spec.podTemplate?.metadata;
  const ignored = [
    ...(Object.keys(meta?.labels ?? {}).length > 0 ? ['spec.podTemplate.metadata.labels'] : []),
    ...(Object.keys(meta?.annotations ?? {}).length > 0 ? ['spec.podTemplate.metadata.annotations'] : []),
  ];
  if (ignored.length > 0) {
    out.warnings.push(`a FlexInfer Model has no pod labels or annotations; ${ignored.join(' and ')} are not passed to its pods`);
  }
}

function overrideErrors(md: ResolvedModelDeployment): FieldError[] {
  const overrides = md.spec.provider?.overrides;
  const errors = validateOverrideKeys(overrides);
  if (isJsonObject(overrides)) {
    for (const key of Object.keys(overrides)) {
      if (BLOCKED_OVERRIDE_KEYS.includes(key) || key === 'spec') continue;
      errors.push(forbidden(`${PROVIDER_OVERRIDES_PATH}.${key}`,
        `a FlexInfer Model has no root field ${JSON.stringify(key)} (its settings sit under spec); the API server would drop it`));
    }
    if (overrides.spec !== undefined && !isJsonObject(overrides.spec)) {
      errors.push(forbidden(`${PROVIDER_OVERRIDES_PATH}.spec`, 'overriding "spec" with a non-object is not allowed: it would replace the whole Model spec'));
    }
  }
  return errors;
}

/**
 * The FlexInfer Model a resolved deployment becomes (one `ai.flexinfer/v1alpha2` Model named like
 * the deployment), with every reason it cannot become one as a field error at the field or
 * annotation that asks for it. Pure: the provider's validation, warnings and translation all
 * read this one plan.
 *
 * - backend: the engine (vllm → vllm, llamacpp → llamacpp); any other engine, and disaggregated
 *   serving, are refused;
 * - source: `HF://<model.id>`; for `model.source: custom`, `pvc://<claim>/<model.id>` when a
 *   modelCache volume holds the weights, else `file://<model.id>` (an absolute path);
 * - cache: the first modelCache volume becomes the SharedPVC cache (`pvcName` = its claim), no
 *   volume means None (the server downloads on start), a pvc:// source is mounted directly (None);
 *   annotation `cache-strategy` picks Memory or Local instead where that fits; other volumes are
 *   refused (a Model mounts one);
 * - gpu: vendor from `gpu.type` (nvidia.com/gpu → nvidia, amd.com/gpu → amd), `count` 1–8;
 *   no GPUs → vendor cpu; MIG profiles and other types are refused; sharing, priority, VRAM
 *   estimate and swap cooldown from annotations;
 * - replicas: 1 → `serverless.enabled: false` (always on, like every other target); N (2–10) →
 *   `serverless.minReplicas: N`; annotation `scale-to-zero` → `minReplicas: 0` with the idle and
 *   cold-start timeouts (one replica at most, and not behind the Gateway);
 * - engine settings and args → `spec.config` (`./engine-config`), with `servedModelName: <model.id>`
 *   when vllm would load the weights from their mount path and no served name is set (vLLM
 *   would otherwise serve under `/models/...`); image: `engine.image`, then
 *   `spec.image`, then the provider's default for the backend, else FlexInfer's own choice;
 * - memory (request and limit) and CPU (request) → `resources`; `nodeSelector`; tolerations
 *   (with the GPU-taint toleration the deployment asks for);
 * - LiteLLM and service labels from annotations;
 * - env, the Hugging Face token and raw flags are refused: a Model has no field for them.
 */
/**
 * The vLLM image of a Model that names none, by GPU vendor: on NVIDIA the version matrix's vLLM
 * release, since FlexInfer's own choice there is the moving `vllm/vllm-openai:latest`; otherwise
 * none, so FlexInfer keeps choosing by the vendor and architecture it detects (the CUDA image
 * would not run on an AMD node, and `auto` may be one).
 */
function defaultVllmImage(vendor: string | undefined): string | undefined {
  return vendor === 'nvidia' ? defaultImageRef('flexinfer', 'vllm') : undefined;
}

export function planFlexInferModel(
  md: ResolvedModelDeployment,
  options: FlexInferTargetOptions = {},
): { plan?: FlexInferModelPlan; errors: FieldError[] } {
  const out: Collector = { errors: [], warnings: [] };
  const spec = md.spec;
  const backend = ENGINE_BACKENDS[md.engine];
  if (!backend) {
    out.errors.push(unsupportedValue('spec.engine.type', md.engine, `engine ${md.engine}`,
      'FlexInfer has no backend for it (it runs vllm and llamacpp)', OTHER_ENGINE_TARGETS[md.engine] ?? []));
  }
  if (md.mode === 'disaggregated') {
    out.errors.push(unsupportedValue('spec.serving.mode', md.mode, 'disaggregated (prefill/decode) serving',
      'a Model is one pod template serving whole requests', DISAGGREGATED_TARGETS));
  }
  const { settings, errors: annotationErrors } = readFlexInferAnnotations(md.annotations);
  out.errors.push(...annotationErrors);

  const gpu = gpuBlock(md, settings, out);
  if (backend?.supportsCpu === false && gpu.vendor === 'cpu' && md.mode === 'aggregated') {
    out.errors.push(...gpuOnlyBackendErrors(backend.name,
      { path: 'spec.resources.gpu.count', value: spec.resources?.gpu?.count ?? 0, advice: 'request GPUs, or use engine llamacpp to run on CPU' }));
  }
  const serverless = serverlessBlock(md, settings, out);
  const { source, cache } = sourceAndCache(md, settings, out);
  const engine = engineConfig(md);
  if (md.engine === 'vllm' && engine.config.servedModelName === undefined && spec.model.id && loadsFromMountPath(source, cache)) {
    engine.config.servedModelName = spec.model.id;
  }
  out.errors.push(...engine.errors);
  out.warnings.push(...engine.warnings);
  podLevelGaps(md, out);
  out.errors.push(...overrideErrors(md));

  if (settings.liteLlm === false) {
    if (settings.liteLlmAliases.length > 0) {
      out.errors.push(invalid(annotationPath(LITELLM_ALIASES_ANNOTATION), settings.liteLlmAliases.join(','), 'LiteLLM aliases are written only with LiteLLM discovery; set inference.cdk8s.io/flexinfer-litellm: "true"'));
    }
    if (settings.liteLlmCopilotAlias !== undefined) {
      out.errors.push(invalid(annotationPath(LITELLM_COPILOT_ALIAS_ANNOTATION), settings.liteLlmCopilotAlias, 'the Copilot alias is written only with LiteLLM discovery; set inference.cdk8s.io/flexinfer-litellm: "true"'));
    }
  }

  const nodeSelector = spec.nodeSelector && Object.keys(spec.nodeSelector).length > 0 ? { ...spec.nodeSelector } : undefined;
  out.errors.push(...vendorNodeSelectorErrors(`spec.nodeSelector[${JSON.stringify(GPU_VENDOR_NODE_LABEL)}]`, nodeSelector?.[GPU_VENDOR_NODE_LABEL],
    gpu.vendor ?? 'auto', `the deployment (${gpu.vendor}, from spec.resources.gpu)`));
  const tolerations = podTolerations(md, [{ count: gpu.count ?? 0, gpuType: gpuTypeOf(spec.resources?.gpu) }]);
  // Said only when the user asked for tolerations: the default GPU taint toleration is written for
  // the controllers that apply it, and FlexInfer's pods carry a GPU toleration of their own.
  const asked = (spec.tolerations ?? []).length > 0 || md.annotations[TOLERATE_GPU_TAINT_ANNOTATION] === 'true';
  if (tolerations && asked) {
    out.warnings.push("FlexInfer's controller does not apply a Model's tolerations to its pods yet (it adds only dedicated=gpu:NoSchedule for GPU pods); they are written to the Model for controllers that do");
  }
  if (settings.gpuShared !== undefined && spec.gateway?.enabled === true) {
    out.warnings.push('requests routed by the Gateway do not count as demand in a shared GPU group (only flexinfer-proxy records activity), so they do not bring this model back when another member holds the GPU');
  }

  const image = imageOverride(spec) ?? (md.engine === 'llamacpp' ? options.llamaCppImage : options.vllmImage ?? defaultVllmImage(gpu.vendor));
  if (!image && md.engine === 'vllm' && gpu.vendor === 'amd') {
    out.warnings.push("FlexInfer's built-in vLLM images for AMD gfx110x and gfx906 GPUs point at a private registry (registry.harbor.lan); set engine.image, or the FlexInferProvider vllmImage");
  }

  const nameErrors = checkDerivedObjectNames(md.name, modelDerivedObjects(md.name, { source, cache, nodeSelector }));
  out.errors.push(...nameErrors);
  if (out.errors.length > 0 || !backend) return { errors: out.errors };

  const liteLlmAliases = settings.liteLlmAliases;
  const modelSpec: ModelSpecJson = {
    backend: backend.name,
    source,
    ...(image && { image }),
    gpu,
    serverless,
    cache,
    ...(Object.keys(engine.config).length > 0 && { config: engine.config }),
    ...(resourcesBlock(md) && { resources: resourcesBlock(md) }),
    ...(nodeSelector && { nodeSelector }),
    ...(tolerations && { tolerations: tolerations.map((t) => JSON.parse(JSON.stringify(t))) }),
    ...(settings.liteLlm && {
      litellm: {
        ...(spec.model.servedName && { servedModelName: spec.model.servedName }),
        ...(liteLlmAliases.length > 0 && { aliases: liteLlmAliases }),
        ...(settings.liteLlmCopilotAlias !== undefined && { copilotAlias: settings.liteLlmCopilotAlias }),
      },
    }),
    ...(settings.serviceLabels.length > 0 && { serviceLabels: settings.serviceLabels }),
  };
  return { plan: { spec: modelSpec, warnings: out.warnings }, errors: [] };
}
