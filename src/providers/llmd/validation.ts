import { llmdArgErrors } from './args';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { FieldError, forbidden, invalid, required } from '../../core/field-error';
import { gpuTypeOf } from '../../core/gpu-type';
import type { ServingModeName } from '../../core/model-deployment-object';
import { multiNodeParallelismTarget, vllmMultiNodeFindings } from '../../multinode/vllm-checks';
import type { ServingComponent } from '../../provider-kit/multi-node-layout';
import { PROVIDER_OVERRIDES_PATH, validateDeploymentOverrides } from '../../provider-kit/overrides';
import { checkParallelism, NO_PARALLELISM_FINDINGS, ParallelismFindings, ParallelismTarget, userParallelism } from '../../provider-kit/parallelism';
import type { SpecComponentScaling } from '../../provider-kit/spec-types';
import { isJsonObject } from '../../provider-kit/unstructured';

/*
 * What the llm-d provider refuses: its checks of a deployment and their messages. Kept apart
 * from the translator so that the controller, which validates but never builds objects, does not
 * load cdk8s-plus-34.
 */

/** Human name of the provider in messages. */
export const LLMD_DISPLAY_NAME = 'llm-d';

/** The controller's rejection of a deployment without GPUs (aggregated mode). */
export const LLMD_GPU_REQUIRED = 'llm-d provider requires GPU resources (spec.resources.gpu.count > 0)';

/** The controller's and transformer's rejection of an engine other than vLLM. */
export function llmdEngineNotSupported(engine: string): string {
  return `llm-d provider only supports vllm engine, got ${engine}`;
}

/** The controller's rejection of a disaggregated component without GPUs. */
export function llmdComponentGpuRequired(component: 'prefill' | 'decode'): string {
  return `llm-d provider requires GPU resources for ${component} (spec.scaling.${component}.gpu.count > 0)`;
}

/** The controller's and transformer's rejection of a missing disaggregated component. */
export function llmdComponentRequired(component: 'prefill' | 'decode'): string {
  return `spec.scaling.${component} is required for disaggregated serving mode`;
}

/** llm-d's exact rejection of an override that reaches the pod spec. */
export const LLMD_TEMPLATE_SPEC_OVERRIDE_BLOCKED = 'overriding "spec.template.spec" is not allowed';

/**
 * Pod label by which llm-d's endpoint picker tells prefill pods (`prefill`) from decode pods
 * (`decode`) in disaggregated mode (its `prefill-filter` and `decode-filter`).
 */
export const LLMD_ROLE_LABEL = 'llm-d.ai/role';

/**
 * llm-d's checks of `spec.provider.overrides`, which are deep-merged into each Deployment:
 *
 * - the ones of every Deployment-based provider (`validateDeploymentOverrides`): an object; no
 *   `apiVersion`/`kind`/`metadata`/`status` at the root (`overriding "<key>" is not allowed`);
 *   no `spec.selector`; no non-object `spec`, `spec.template`, `spec.template.metadata` or
 *   `.labels`; no pod label `airunway.ai/deployment`, `app` or `airunway.ai/model-deployment`;
 *   no other root key than `spec` (a Deployment has none, the API server would drop it);
 * - llm-d's own: no `spec.template.spec` at all, whatever its value (AI Runway's
 *   `overriding "spec.template.spec" is not allowed`: llm-d keeps the pod spec to itself);
 *   in disaggregated mode no pod label `llm-d.ai/role` (the endpoint picker routes by it).
 */
export function validateLlmdOverrides(overrides: unknown, mode: ServingModeName = 'aggregated'): FieldError[] {
  const errors = validateDeploymentOverrides(overrides, {
    displayName: LLMD_DISPLAY_NAME,
    podSpecBlockedMessage: LLMD_TEMPLATE_SPEC_OVERRIDE_BLOCKED,
    protectedPodLabels: mode === 'disaggregated'
      ? { [LLMD_ROLE_LABEL]: 'llm-d\'s endpoint picker tells prefill from decode pods by it' }
      : {},
  });
  if (!isJsonObject(overrides)) return errors;
  const spec = overrides.spec;
  if (isJsonObject(spec) && isJsonObject(spec.template) && Object.prototype.hasOwnProperty.call(spec.template, 'spec')) {
    errors.push(forbidden(`${PROVIDER_OVERRIDES_PATH}.spec.template.spec`, LLMD_TEMPLATE_SPEC_OVERRIDE_BLOCKED));
  }
  return errors;
}

function checkGpuCount(path: string, count: number | undefined | null, message: string): FieldError[] {
  if (count === undefined || count === null) return [required(path, message)];
  return count > 0 ? [] : [invalid(path, count, message)];
}

/**
 * The llm-d controller's rejections, plus the ones its transformer would raise while building
 * objects, so that they fail the synth with a field path instead of a failed ModelDeployment:
 *
 * - engine must be vllm (`spec.engine.type`);
 * - disaggregated: `spec.scaling.prefill` and `spec.scaling.decode` present, each with
 *   `gpu.count > 0` (`spec.scaling.<c>.gpu.count`); aggregated: `spec.resources.gpu.count > 0`;
 * - overrides: `validateLlmdOverrides`; launch flags: `llmdArgErrors`.
 *
 * Every problem is reported, where the controller stops at the first.
 */
export function validateLlmd(md: ResolvedModelDeployment): FieldError[] {
  const errors: FieldError[] = [];
  if (md.engine !== 'vllm') errors.push(invalid('spec.engine.type', md.engine, llmdEngineNotSupported(md.engine)));
  if (md.mode === 'disaggregated') {
    const prefill = md.spec.scaling?.prefill;
    const decode = md.spec.scaling?.decode;
    // The controller's order: presence of prefill, of decode, then their GPUs.
    if (!prefill) errors.push(required('spec.scaling.prefill', llmdComponentRequired('prefill')));
    if (!decode) errors.push(required('spec.scaling.decode', llmdComponentRequired('decode')));
    if (prefill) errors.push(...checkGpuCount('spec.scaling.prefill.gpu.count', prefill.gpu?.count, llmdComponentGpuRequired('prefill')));
    if (decode) errors.push(...checkGpuCount('spec.scaling.decode.gpu.count', decode.gpu?.count, llmdComponentGpuRequired('decode')));
  } else {
    errors.push(...checkGpuCount('spec.resources.gpu.count', md.spec.resources?.gpu?.count, LLMD_GPU_REQUIRED));
  }
  errors.push(...validateLlmdOverrides(md.spec.provider?.overrides, md.mode));
  errors.push(...llmdArgErrors(md.spec));
  errors.push(...vllmMultiNodeFindings(md).errors);
  errors.push(...llmdParallelism(md).errors);
  return errors;
}

function llmdTarget(subject: string, gpuPath: string, gpu: SpecComponentScaling['gpu']): ParallelismTarget {
  const gpuCount = gpu?.count ?? 0;
  return { subject, gpuPath, gpuCount, gpuType: gpuTypeOf(gpu), ...(gpuCount > 1 && { derivedTensorParallel: gpuCount }) };
}

/**
 * The parallelism checks (`common/parallelism`) of each llm-d Deployment's vLLM container: the
 * aggregated one, or the prefill and the decode one, each with its own GPU count, from which llm-d
 * derives `--tensor-parallel-size` when there are several. `engine.args` and `engine.extraArgs`
 * come after it and win. Overrides cannot reach the pod spec, so they change nothing here.
 */
export function llmdParallelism(md: ResolvedModelDeployment): ParallelismFindings {
  if (md.engine !== 'vllm') return NO_PARALLELISM_FINDINGS;
  const scaling = md.spec.scaling;
  const components: Array<[ServingComponent, ParallelismTarget]> = md.mode === 'disaggregated'
    ? [
      ['prefill', llmdTarget(`${LLMD_DISPLAY_NAME} prefill pods`, 'spec.scaling.prefill.gpu.count', scaling?.prefill?.gpu)],
      ['decode', llmdTarget(`${LLMD_DISPLAY_NAME} decode pods`, 'spec.scaling.decode.gpu.count', scaling?.decode?.gpu)],
    ]
    : [['resources', llmdTarget(`${LLMD_DISPLAY_NAME} pods`, 'spec.resources.gpu.count', md.spec.resources?.gpu)]];
  // A multi-node component's engine spans the pods of its group (`multiNodeParallelismTarget`).
  const multiNode = vllmMultiNodeFindings(md);
  const targets = components
    .map(([component, target]) => multiNodeParallelismTarget(md, multiNode, component, target))
    .filter((t): t is ParallelismTarget => t !== undefined);
  return checkParallelism(md.engine, userParallelism(md.spec, md.engine, { extraArgs: true }), targets);
}

/**
 * llm-d's warnings about a deployment it accepts: GPUs a component's layout leaves idle, and a
 * multi-node annotation that made no component span nodes.
 */
export function llmdWarnings(md: ResolvedModelDeployment): string[] {
  return [...vllmMultiNodeFindings(md).warnings, ...llmdParallelism(md).warnings];
}
