import { modelplaneArgErrors } from './args';
import { componentDevices, gpuPathOf } from './component-devices';
import { engineEnv } from './engine-env';
import {
  CPU_MEMORY_REQUESTS,
  ENGINE_TARGETS,
  GATEWAY_ROUTING,
  lacking,
  NODE_SELECTOR,
  POD_TOLERATIONS,
  SGLANG_DISAGGREGATED,
} from './features';
import { modelCachePlan } from './model-cache-plan';
import { modelplaneMultiNodeFindings } from './multi-node';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { FieldError, forbidden, invalid } from '../../core/field-error';
import { gpuTypeOf } from '../../core/gpu-type';
import { labelValueErrors } from '../../core/kubernetes-names';
import { annotationErrors, entriesAt, labelErrors } from '../../modelplane/metadata-rules';
import { multiNodeParallelismTarget } from '../../multinode/vllm-checks';
import { componentsOf, DEVICES_ANNOTATION_PATH, deviceRequestsOf } from '../../provider-kit/device-annotation';
import { PROVIDER_OVERRIDES_PATH, validateOverrideKeys } from '../../provider-kit/overrides';
import { checkParallelism, NO_PARALLELISM_FINDINGS, ParallelismFindings, ParallelismTarget, userParallelism } from '../../provider-kit/parallelism';
import { isJsonObject } from '../../provider-kit/unstructured';

/*
 * What the modelplane provider refuses, and why, as field errors on the AI Runway field that
 * causes each. Kept apart from the translator so that the controller, which validates but never
 * builds objects, loads neither cdk8s-plus-34 nor the generated bindings.
 */

/** Human name of the provider in messages. */
export const MODELPLANE_DISPLAY_NAME = 'modelplane';

/** The engines the translation renders (see ./config). */
const ENGINES = ['vllm', 'sglang'];

/** Root keys of the modelplane ModelDeployment that `spec.provider.overrides` may merge into. */
export const OVERRIDABLE_ROOT_KEYS: readonly string[] = ['spec'];

/** The pods of each engine, in messages. */
function subjectOf(component: string): string {
  return component === 'resources' ? 'modelplane serving engine pods' : `modelplane ${component} engine pods`;
}

/**
 * Every check of a deployment that selected modelplane:
 *
 * - engine vllm or sglang, disaggregated only with vllm (admission refuses these first from the
 *   capabilities; repeated here so the provider is safe on its own);
 * - each engine's device requests (./component-devices): modelplane's limits on given requests,
 *   or a mappable `gpu` block, or an error — it places nothing without devices;
 * - storage (./model-cache-plan): one managed modelCache volume becomes a ModelCache, no other
 *   volume can be mounted;
 * - features modelplane's engine pods cannot have (./features): `spec.nodeSelector`,
 *   `spec.tolerations`, CPU and memory requests, our gateway routing;
 * - labels and annotations it copies onto what it composes: the pod template's (reserved
 *   `modelplane.ai/` prefix, syntax, at most 32, value lengths) and the deployment-name label on
 *   its ModelReplicas (a label value of at most 63 characters);
 * - env sources (./engine-env), launch flags (./args) and the parallel layout of each engine;
 * - multi-node replicas (./multi-node): vLLM only, a layout per engine that spans nodes, a ModelCache;
 * - overrides: a JSON object merged into the modelplane ModelDeployment, under `spec` only.
 */
export function validateModelplane(md: ResolvedModelDeployment): FieldError[] {
  const errors: FieldError[] = [];
  const engine: string = md.engine;
  if (!ENGINES.includes(engine)) {
    const targets = ENGINE_TARGETS[engine] ?? [];
    errors.push(invalid('spec.engine.type', engine,
      `target modelplane does not support engine ${engine}: its translation knows the command lines of ${ENGINES.join(' and ')}` +
        (targets.length > 0 ? `; targets that have it: ${targets.join(', ')}` : '')));
  } else if (md.mode === 'disaggregated' && engine !== 'vllm') {
    errors.push(lacking('spec.serving.mode', md.mode, SGLANG_DISAGGREGATED,
      "modelplane's PrefillDecode routing is llm-d's vLLM sidecar with NIXL KV transfer"));
  }
  for (const component of componentsOf(md.mode)) errors.push(...componentDevices(md, component).errors);
  errors.push(...modelCachePlan(md).errors);
  errors.push(...unsupportedFeatureErrors(md));
  errors.push(...metadataErrors(md));
  errors.push(...engineEnv(md).errors);
  errors.push(...modelplaneArgErrors(md.spec));
  errors.push(...modelplaneMultiNodeFindings(md).errors);
  errors.push(...overrideErrors(md.spec.provider?.overrides));
  errors.push(...modelplaneParallelism(md).errors);
  return errors;
}

function unsupportedFeatureErrors(md: ResolvedModelDeployment): FieldError[] {
  const errors: FieldError[] = [];
  const spec = md.spec;
  if (spec.nodeSelector && Object.keys(spec.nodeSelector).length > 0) {
    errors.push(lacking('spec.nodeSelector', spec.nodeSelector, NODE_SELECTOR,
      'modelplane pins engine pods to the node pool its scheduler chose; select hardware with DRA device requests and clusters with ModelplaneProvider clusterSelector'));
  }
  if (spec.tolerations && spec.tolerations.length > 0) {
    errors.push(lacking('spec.tolerations', `${spec.tolerations.length} toleration(s)`, POD_TOLERATIONS,
      "modelplane's engine pods tolerate the nvidia.com/gpu taint only, and its own tolerations match InferenceCluster taints (ModelplaneProvider clusterTolerations)"));
  }
  const sizing = md.mode === 'aggregated'
    ? [['spec.resources.cpu', spec.resources?.cpu], ['spec.resources.memory', spec.resources?.memory]]
    : [['spec.scaling.prefill.memory', spec.scaling?.prefill?.memory], ['spec.scaling.decode.memory', spec.scaling?.decode?.memory]];
  for (const [path, value] of sizing) {
    if (value) {
      errors.push(lacking(path!, value, CPU_MEMORY_REQUESTS,
        "modelplane's pod template has no container resources; its composition sizes the engine pods by their device claims"));
    }
  }
  if (spec.gateway?.enabled === true) {
    errors.push(lacking('spec.gateway.enabled', true, GATEWAY_ROUTING,
      'modelplane routes to its engines through an InferencePool and gateway of its own on each workload cluster; set gateway.enabled to false'));
  }
  return errors;
}

function metadataErrors(md: ResolvedModelDeployment): FieldError[] {
  const errors: FieldError[] = [];
  const pod = md.spec.podTemplate?.metadata;
  errors.push(...labelErrors(entriesAt(pod?.labels, 'spec.podTemplate.metadata.labels'), 'spec.podTemplate.metadata.labels'));
  errors.push(...annotationErrors(entriesAt(pod?.annotations, 'spec.podTemplate.metadata.annotations'), 'spec.podTemplate.metadata.annotations'));
  // The translation labels the ModelReplicas with the deployment (airunway.ai/deployment: <name>).
  const nameProblems = labelValueErrors(md.name);
  if (nameProblems.length > 0) {
    errors.push(invalid('metadata.name', md.name,
      `modelplane copies the deployment's labels, its name among them, onto its ModelReplicas and ModelEndpoints: ${nameProblems.join('; ')}`));
  }
  return errors;
}

/** Overrides are a JSON object merged into the modelplane ModelDeployment, under `spec` only. */
function overrideErrors(overrides: unknown): FieldError[] {
  const errors = validateOverrideKeys(overrides);
  if (!isJsonObject(overrides)) return errors;
  for (const key of Object.keys(overrides)) {
    if (['apiVersion', 'kind', 'metadata', 'status', ...OVERRIDABLE_ROOT_KEYS].includes(key)) continue;
    errors.push(forbidden(`${PROVIDER_OVERRIDES_PATH}.${key}`,
      `a modelplane ModelDeployment has no root field ${JSON.stringify(key)}; overrides merge into ${OVERRIDABLE_ROOT_KEYS.join(', ')}`));
  }
  if (overrides.spec !== undefined && !isJsonObject(overrides.spec)) {
    errors.push(forbidden(`${PROVIDER_OVERRIDES_PATH}.spec`, 'overriding "spec" with a non-object is not allowed: it would replace the whole spec'));
  }
  return errors;
}

/**
 * The parallel layout of each engine (../common/parallelism): its pod's GPUs are the component's
 * `gpu.count`, from which the translation derives `--tensor-parallel-size` when there are
 * several; `engine.args` and `extraArgs` both reach the engine. A multi-node engine spans its
 * Leader and Worker pods (`multiNodeParallelismTarget`).
 */
export function modelplaneParallelism(md: ResolvedModelDeployment): ParallelismFindings {
  if (!ENGINES.includes(md.engine)) return NO_PARALLELISM_FINDINGS;
  const multiNode = modelplaneMultiNodeFindings(md);
  const targets = componentsOf(md.mode).map((component) => {
    const gpu = component === 'resources' ? md.spec.resources?.gpu : md.spec.scaling?.[component]?.gpu;
    const gpuCount = gpu?.count ?? 0;
    return multiNodeParallelismTarget(md, multiNode, component, {
      subject: subjectOf(component),
      gpuPath: `${gpuPathOf(component)}.count`,
      gpuCount,
      gpuType: gpuTypeOf(gpu),
      ...(gpuCount > 1 && { derivedTensorParallel: gpuCount }),
    });
  }).filter((t): t is ParallelismTarget => t !== undefined);
  return checkParallelism(md.engine, userParallelism(md.spec, md.engine as 'vllm' | 'sglang', { extraArgs: true }), targets);
}

/**
 * What modelplane accepts but the user may not expect: a multi-node annotation that made no engine
 * span nodes; GPUs the layout leaves idle; cache volume
 * settings it ignores; and, for DRA device requests, that the device class is the
 * InferenceClass's (the requests' `deviceClassName` is not part of a modelplane request).
 */
export function modelplaneWarnings(md: ResolvedModelDeployment): string[] {
  const warnings = [...modelplaneMultiNodeFindings(md).warnings, ...modelplaneParallelism(md).warnings, ...modelCachePlan(md).warnings];
  const classes = new Set(componentsOf(md.mode).flatMap((c) => deviceRequestsOf(md.annotations, c).map((r) => r.deviceClassName)));
  if (classes.size > 0) {
    warnings.push(`${DEVICES_ANNOTATION_PATH}: modelplane matches device requests by their selectors against InferenceClass devices and claims ` +
      `the matched device's class; deviceClassName ${[...classes].map((c) => JSON.stringify(c)).join(', ')} is not written`);
  }
  return warnings;
}
