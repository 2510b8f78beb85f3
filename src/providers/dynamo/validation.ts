import { dynamoArgKeyErrors } from './args';
import { DYNAMO_VERSION } from './images';
import { dynamoMultiNode, dynamoMultiNodeErrors } from './multi-node';
import { DgdShape, dynamoOverrideErrors, dynamoOverrideShapeErrors } from './overrides';
import { DYNAMO_V1BETA1_MIN_RUNTIME, isV1Beta1Runtime, parseRuntimeVersion, RuntimeVersion } from './runtime-version';
import { DECODE_WORKER_SERVICE, gatewayEnabled, generatedServiceNames, isMocker, PREFILL_WORKER_SERVICE, WORKER_SERVICE } from './services';
import { POD_SECURITY_PATH, PodSecurityLevel, podSecurityLevelOf } from '../../api/pod-security-level';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { FieldError, invalid, notSupported, required } from '../../core/field-error';
import type { GpuSpec } from '../../core/generated/model-deployment-spec';
import { gpuTypeOf } from '../../core/gpu-type';
import { multiNodeParallelismTarget } from '../../multinode/vllm-checks';
import type { ServingComponent } from '../../provider-kit/multi-node-layout';
import { PROVIDER_OVERRIDES_PATH } from '../../provider-kit/overrides';
import { checkParallelism, NO_PARALLELISM_FINDINGS, ParallelismFindings, ParallelismTarget, userParallelism } from '../../provider-kit/parallelism';
import { isJsonObject } from '../../provider-kit/unstructured';

/*
 * What the Dynamo provider refuses: its checks of a deployment and their messages, and the
 * DynamoGraphDeployment version a deployment asks for (which the checks depend on). Kept apart
 * from the translator so that the controller, which validates and maps status but never builds
 * objects, does not load cdk8s-plus-34 or the generated DynamoGraphDeployment bindings.
 */

/** Human name of the provider in messages. */
export const DYNAMO_DISPLAY_NAME = 'Dynamo';

/**
 * ModelDeployment annotation that picks the DynamoGraphDeployment version of one deployment,
 * over the provider's `apiVersion` setting.
 */
export const DYNAMO_API_VERSION_ANNOTATION = 'inference.cdk8s.io/dynamo-api-version';
/** `nvidia.com/v1alpha1`: the graphs of Dynamo before 1.5 (deprecated upstream, still served). */
export const DYNAMO_V1ALPHA1 = 'nvidia.com/v1alpha1';
/** `nvidia.com/v1beta1`: Dynamo's storage version since 1.5. */
export const DYNAMO_V1BETA1 = 'nvidia.com/v1beta1';
/** The DynamoGraphDeployment versions this provider emits. */
export const DYNAMO_API_VERSIONS: readonly string[] = [DYNAMO_V1ALPHA1, DYNAMO_V1BETA1];

/** Controller rejection of llama.cpp. */
export const DYNAMO_LLAMACPP_NOT_SUPPORTED = 'Dynamo does not support llamacpp engine';
/** Controller rejection of a deployment without GPUs. */
export const DYNAMO_GPU_REQUIRED = 'Dynamo requires GPU (set resources.gpu.count > 0)';
/** Controller rejection of a non-vLLM engine in mocker mode. */
export const DYNAMO_MOCKER_ENGINE = 'Dynamo mocker mode only supports the vllm engine';
/** Controller rejection of a disaggregated mocker deployment without both components. */
export const DYNAMO_MOCKER_DISAGGREGATED = 'Dynamo mocker disaggregated mode requires spec.scaling.prefill and spec.scaling.decode';

const ANNOTATION_PATH = `metadata.annotations[${JSON.stringify(DYNAMO_API_VERSION_ANNOTATION)}]`;

/** The version the annotation asks for: undefined when unset, the raw value when not supported. */
function annotatedApiVersion(md: ResolvedModelDeployment): string | undefined {
  return md.annotations[DYNAMO_API_VERSION_ANNOTATION];
}

/**
 * Settings of the Dynamo provider (its props, resolved).
 */
export interface DynamoSettings {
  /**
   * DynamoGraphDeployment version for deployments without the version annotation.
   * @default DYNAMO_V1BETA1 when the runtime (`dynamoVersion`) is 1.5.0 or later or no version, else DYNAMO_V1ALPHA1
   */
  readonly apiVersion?: string;
  /**
   * Tag of the default Dynamo images (worker runtimes, endpoint picker, mocker), and the
   * runtime version the graph is rendered for when it is a semantic version.
   * @default DYNAMO_VERSION (the version matrix's Dynamo release, '1.6.1')
   */
  readonly dynamoVersion?: string;
  /**
   * Image of the model download Job (the Dynamo shim's `--download-job-image`).
   * @default DEFAULT_MODEL_DOWNLOAD_IMAGE
   */
  readonly modelDownloadImage?: string;
  /**
   * Seconds a finished model download Job is kept (`ttlSecondsAfterFinished`).
   * @default DEFAULT_MODEL_DOWNLOAD_TTL_SECONDS
   */
  readonly modelDownloadJobTtlSeconds?: number;
}

/**
 * The Dynamo runtime version the provider renders for: `dynamoVersion` (else the default
 * release) when it is a semantic version, undefined for any other tag.
 */
export function dynamoRuntimeOf(settings: DynamoSettings = {}): RuntimeVersion | undefined {
  return parseRuntimeVersion(settings.dynamoVersion ?? DYNAMO_VERSION);
}

/**
 * The DynamoGraphDeployment version of a deployment: its annotation (which `validateDynamo` has
 * checked), else the provider's setting, else by the runtime (AI Runway's rule): v1beta1 from
 * Dynamo 1.5.0 (and for a runtime tag that is no version), v1alpha1 below.
 */
export function dynamoApiVersionOf(md: ResolvedModelDeployment, settings: DynamoSettings = {}): string {
  return annotatedApiVersion(md) ?? settings.apiVersion ?? (isV1Beta1Runtime(dynamoRuntimeOf(settings)) ? DYNAMO_V1BETA1 : DYNAMO_V1ALPHA1);
}

/** Why v1beta1 cannot be rendered for the runtime `dynamoVersion`, or undefined when it can. */
function v1beta1RuntimeProblem(settings: DynamoSettings): string | undefined {
  if (isV1Beta1Runtime(dynamoRuntimeOf(settings))) return undefined;
  return `${DYNAMO_V1BETA1} needs a Dynamo runtime of ${DYNAMO_V1BETA1_MIN_RUNTIME} or later, and dynamoVersion is ` +
    `${JSON.stringify(settings.dynamoVersion ?? DYNAMO_VERSION)}: use ${DYNAMO_V1ALPHA1}, or a dynamoVersion of ${DYNAMO_V1BETA1_MIN_RUNTIME} or later`;
}

/**
 * Errors in the provider's own settings, at the prop's name: an `apiVersion` it does not emit,
 * and v1beta1 for a runtime before Dynamo 1.5.0.
 */
export function dynamoSettingsErrors(settings: DynamoSettings): FieldError[] {
  const { apiVersion } = settings;
  if (apiVersion === undefined) return [];
  if (!DYNAMO_API_VERSIONS.includes(apiVersion)) return [notSupported('apiVersion', apiVersion, DYNAMO_API_VERSIONS)];
  const problem = apiVersion === DYNAMO_V1BETA1 ? v1beta1RuntimeProblem(settings) : undefined;
  return problem ? [invalid('apiVersion', apiVersion, problem)] : [];
}

function apiVersionAnnotationError(value: string): FieldError {
  return notSupported(ANNOTATION_PATH, value, DYNAMO_API_VERSIONS);
}

/** The DynamoGraphDeployment shape (`spec.services` or `spec.components`) of an API version. */
export function shapeOf(apiVersion: string): DgdShape {
  return apiVersion === DYNAMO_V1BETA1 ? 'v1beta1' : 'v1alpha1';
}

/** Engine and GPU checks (the controller's `validateCompatibility`, mocker rules included). */
function compatibilityErrors(md: ResolvedModelDeployment): FieldError[] {
  const errors: FieldError[] = [];
  const engine: string = md.engine;
  const scaling = md.spec.scaling;
  const disaggregated = md.mode === 'disaggregated';
  if (isMocker(md)) {
    if (engine !== 'vllm') errors.push(invalid('spec.engine.type', engine, DYNAMO_MOCKER_ENGINE));
    if (disaggregated) {
      if (!scaling?.prefill) errors.push(required('spec.scaling.prefill', DYNAMO_MOCKER_DISAGGREGATED));
      if (!scaling?.decode) errors.push(required('spec.scaling.decode', DYNAMO_MOCKER_DISAGGREGATED));
    }
    return errors;
  }
  if (engine === 'llamacpp') errors.push(invalid('spec.engine.type', engine, DYNAMO_LLAMACPP_NOT_SUPPORTED));
  if (disaggregated) {
    // The transformer's messages; admission normally guarantees both components.
    if (!scaling) {
      errors.push(required('spec.scaling', 'spec.scaling is required for disaggregated serving mode'));
      return errors;
    }
    if (!scaling.prefill) errors.push(required('spec.scaling.prefill', 'spec.scaling.prefill is required for disaggregated serving mode'));
    if (!scaling.decode) errors.push(required('spec.scaling.decode', 'spec.scaling.decode is required for disaggregated serving mode'));
  }
  const topLevelGpus = md.spec.resources?.gpu?.count ?? 0;
  const prefillGpus = scaling?.prefill?.gpu?.count ?? 0;
  const hasGpu = topLevelGpus > 0 || (disaggregated && prefillGpus > 0);
  if (!hasGpu && !(disaggregated && !scaling?.prefill)) {
    // The path of the count the rule reads: the prefill component's in disaggregated mode.
    const path = disaggregated ? 'spec.scaling.prefill.gpu.count' : 'spec.resources.gpu.count';
    const count = disaggregated ? scaling?.prefill?.gpu?.count : md.spec.resources?.gpu?.count;
    errors.push(count === undefined || count === null ? required(path, DYNAMO_GPU_REQUIRED) : invalid(path, count, DYNAMO_GPU_REQUIRED));
  }
  return errors;
}

/**
 * The Dynamo controller's rejections and the errors its transformer would raise, as field
 * errors, so they fail the synth at their path:
 *
 * - an annotation `inference.cdk8s.io/dynamo-api-version` that names no supported version, or
 *   v1beta1 when the provider's runtime (`dynamoVersion`) is older than Dynamo 1.5.0;
 * - llama.cpp (`Dynamo does not support llamacpp engine`); no GPU, i.e. neither
 *   `resources.gpu.count > 0` nor, disaggregated, `scaling.prefill.gpu.count > 0`
 *   (`Dynamo requires GPU (set resources.gpu.count > 0)`); disaggregated without `scaling`,
 *   `scaling.prefill` or `scaling.decode`. In mocker mode instead: the engine must be vLLM and a
 *   disaggregated mocker needs both components; no GPU is needed;
 * - every invalid `engine.args` key;
 * - overrides: a JSON object without apiVersion/kind/metadata/status, typed settings of the right
 *   type, only root fields a DynamoGraphDeployment has, no service added without an image, and
 *   no `spec` field of the other version (the version from the annotation, else the registry);
 * - multi-node replicas (`dynamoMultiNodeErrors`): layouts, `multinode` overrides next to the
 *   annotation, volumes bound to one node.
 *
 * No GPU type is refused: v1alpha1 carries one as the services' `resources.*.gpuType`, v1beta1 as
 * the resource name in the pod template, so both versions can request any type admission accepts.
 */
export function validateDynamo(md: ResolvedModelDeployment, settings: DynamoSettings = {}): FieldError[] {
  const errors: FieldError[] = [];
  const annotated = annotatedApiVersion(md);
  const annotationValid = annotated === undefined || DYNAMO_API_VERSIONS.includes(annotated);
  if (!annotationValid) errors.push(apiVersionAnnotationError(annotated!));
  const runtimeProblem = annotated === DYNAMO_V1BETA1 ? v1beta1RuntimeProblem(settings) : undefined;
  if (runtimeProblem) errors.push(invalid(ANNOTATION_PATH, annotated, runtimeProblem));
  errors.push(...compatibilityErrors(md));
  errors.push(...dynamoArgKeyErrors(md.spec, settings.dynamoVersion));
  const overrides = md.spec.provider?.overrides;
  errors.push(...dynamoOverrideErrors(overrides, { names: generatedServiceNames(md) }));
  if (annotationValid) errors.push(...dynamoOverrideShapeErrors(overrides, shapeOf(dynamoApiVersionOf(md, settings))));
  if (annotationValid) errors.push(...restrictedSidecarErrors(md, shapeOf(dynamoApiVersionOf(md, settings))));
  errors.push(...dynamoMultiNodeErrors(md));
  errors.push(...dynamoParallelism(md).errors);
  return errors;
}

/**
 * "restricted" cannot hold for a v1alpha1 graph behind a Gateway: the workers' frontend sidecar
 * (`frontendSidecar`) has no securityContext field in v1alpha1, so that container runs with the
 * pod's settings alone, which a namespace enforcing "restricted" refuses. v1beta1 declares the
 * sidecar as a container of `podTemplate`, which carries the settings.
 */
function restrictedSidecarErrors(md: ResolvedModelDeployment, shape: DgdShape): FieldError[] {
  if (shape !== 'v1alpha1' || !gatewayEnabled(md) || podSecurityLevelOf(md.annotations) !== PodSecurityLevel.RESTRICTED) return [];
  return [invalid(POD_SECURITY_PATH, PodSecurityLevel.RESTRICTED,
    `${DYNAMO_DISPLAY_NAME} ${DYNAMO_V1ALPHA1} behind a Gateway cannot meet "restricted": its frontendSidecar has no securityContext field, ` +
    `so the sidecar container would be refused by a namespace enforcing "restricted". Use ${DYNAMO_V1BETA1} ` +
    `(annotation ${DYNAMO_API_VERSION_ANNOTATION}: ${DYNAMO_V1BETA1}) or the "baseline" level`)];
}

/**
 * What the overrides do to one worker, as far as its parallelism goes: `replaced` when they take
 * its command line or GPUs out of our hands (a `spec.components` list, which replaces every
 * component; the service's `resources`; v1alpha1 `extraPodSpec.mainContainer.args`/`command`;
 * v1beta1 `podTemplate.spec.containers`), else its multi-node setting, if any (`multinode`; an
 * empty one means Dynamo's default of 2 nodes).
 */
function workerOverride(overrides: unknown, service: string): { replaced: true } | { replaced: false; nodes?: ParallelismTarget['nodes'] } {
  const spec = isJsonObject(overrides) ? overrides.spec : undefined;
  if (!isJsonObject(spec)) return { replaced: false };
  if (Array.isArray(spec.components)) return { replaced: true };
  const found = [['services', spec.services], ['components', spec.components]]
    .map(([key, map]) => ({ key, entry: isJsonObject(map) ? map[service] : undefined }))
    .find((e) => isJsonObject(e.entry));
  if (!found) return { replaced: false };
  const entry = found.entry as Record<string, unknown>;
  const mainContainer = isJsonObject(entry.extraPodSpec) ? entry.extraPodSpec.mainContainer : undefined;
  const podSpec = isJsonObject(entry.podTemplate) ? entry.podTemplate.spec : undefined;
  if (entry.resources !== undefined
    || (isJsonObject(mainContainer) && (mainContainer.args !== undefined || mainContainer.command !== undefined))
    || (isJsonObject(podSpec) && podSpec.containers !== undefined)) {
    return { replaced: true };
  }
  const multinode = entry.multinode;
  if (!isJsonObject(multinode)) return { replaced: false };
  const path = `${PROVIDER_OVERRIDES_PATH}.spec.${found.key}.${service}.multinode`;
  const nodeCount = multinode.nodeCount;
  if (nodeCount === undefined || nodeCount === null) return { replaced: false, nodes: { count: 2, description: `${path} (nodeCount 2 by default)` } };
  // The CRD requires an integer of at least 2: anything else fails at the API server, not here.
  if (typeof nodeCount !== 'number' || !Number.isInteger(nodeCount) || nodeCount < 2) return { replaced: true };
  return { replaced: false, nodes: { count: nodeCount, description: `${path}.nodeCount ${nodeCount}` } };
}

/**
 * The tensor parallel size a single-pod Dynamo worker gets from its GPU count (`--tensor-parallel-size
 * <gpus>`, unless `engine.args` sets it), undefined for one GPU, the mocker, an engine without a
 * worker, and a worker whose command line, GPUs or node count the overrides take over. AI Runway
 * derives none, so its 4-GPU worker shards a 70B model over one GPU (README, "Where we differ").
 */
export function dynamoDerivedTensorParallel(md: ResolvedModelDeployment, service: string, gpuCount: number): number | undefined {
  if (gpuCount <= 1 || isMocker(md)) return undefined;
  if (md.engine !== 'vllm' && md.engine !== 'sglang' && md.engine !== 'trtllm') return undefined;
  const override = workerOverride(md.spec.provider?.overrides, service);
  return override.replaced || override.nodes ? undefined : gpuCount;
}

/**
 * The parallelism checks (`common/parallelism`) of each Dynamo worker: `VllmWorker`, or
 * `VllmPrefillWorker` and `VllmDecodeWorker`, each with its own GPU count and the tensor parallel
 * size derived from it (`dynamoDerivedTensorParallel`; Dynamo's workers get `engine.args` only,
 * and drop `extraArgs`). A multi-node worker runs one engine over
 * `nodeCount` pods, whose GPUs add up: from the multi-node annotation (the layout's group of
 * `gpusPerNode`-GPU pods, with the sizes the provider renders), or from `multinode` in the
 * overrides (pods of `gpu.count` GPUs). Not checked: the mocker (no engine, no GPUs), a worker
 * whose command line or GPUs the overrides replace, and a multi-node worker without a layout
 * (its layout errors say why).
 */
export function dynamoParallelism(md: ResolvedModelDeployment): ParallelismFindings {
  if (isMocker(md)) return NO_PARALLELISM_FINDINGS;
  const engine = md.engine;
  if (engine !== 'vllm' && engine !== 'sglang' && engine !== 'trtllm') return NO_PARALLELISM_FINDINGS;
  const overrides = md.spec.provider?.overrides;
  const multiNode = { multiNode: dynamoMultiNode(md) };
  const targets: ParallelismTarget[] = [];
  const worker = (role: string, service: string, component: ServingComponent, gpuPath: string, gpu: GpuSpec | undefined) => {
    const override = workerOverride(overrides, service);
    if (override.replaced) return;
    const derived = dynamoDerivedTensorParallel(md, service, gpu?.count ?? 0);
    const target = multiNodeParallelismTarget(md, multiNode, component, {
      subject: `${DYNAMO_DISPLAY_NAME} ${role} (${service})`,
      gpuPath,
      gpuCount: gpu?.count ?? 0,
      gpuType: gpuTypeOf(gpu),
      ...(override.nodes && { nodes: override.nodes }),
      ...(derived !== undefined && { derivedTensorParallel: derived }),
    });
    if (target) targets.push(target);
  };
  if (md.mode === 'disaggregated') {
    worker('prefill worker', PREFILL_WORKER_SERVICE, 'prefill', 'spec.scaling.prefill.gpu.count', md.spec.scaling?.prefill?.gpu);
    worker('decode worker', DECODE_WORKER_SERVICE, 'decode', 'spec.scaling.decode.gpu.count', md.spec.scaling?.decode?.gpu);
  } else {
    worker('worker', WORKER_SERVICE, 'resources', 'spec.resources.gpu.count', md.spec.resources?.gpu);
  }
  return checkParallelism(engine, userParallelism(md.spec, engine, { extraArgs: false }), targets);
}

/**
 * Dynamo's warnings about a deployment it accepts: a multi-node annotation that made no worker
 * span nodes, and GPUs a worker's layout leaves idle.
 */
export function dynamoWarnings(md: ResolvedModelDeployment): string[] {
  return [...dynamoMultiNode(md)?.warnings ?? [], ...dynamoParallelism(md).warnings];
}
