import { directVllmArgErrors } from './args';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { FieldError, invalid, required } from '../../core/field-error';
import { gpuTypeOf } from '../../core/gpu-type';
import { multiNodeParallelismTarget, vllmMultiNodeFindings } from '../../multinode/vllm-checks';
import { DeploymentOverrideRules, validateDeploymentOverrides } from '../../provider-kit/overrides';
import { checkParallelism, NO_PARALLELISM_FINDINGS, ParallelismFindings, userParallelism } from '../../provider-kit/parallelism';
import { isJsonObject } from '../../provider-kit/unstructured';

/*
 * What the Direct vLLM provider refuses: its checks of a deployment and their messages. Kept
 * apart from the translator so that the controller, which validates but never builds objects,
 * does not load cdk8s-plus-34.
 */

/** Human name of the provider in messages. */
export const VLLM_DISPLAY_NAME = 'vLLM';

/** The controller's rejection of disaggregated mode. */
export const DISAGGREGATED_NOT_SUPPORTED =
  'vLLM provider does not support disaggregated serving mode; use spec.serving.mode: aggregated';
/** The controller's rejection of a deployment without GPUs. */
export const GPU_REQUIRED = 'vLLM provider requires GPU resources (spec.resources.gpu.count > 0)';

/** How `validateDeploymentOverrides` checks Direct vLLM's overrides. */
const OVERRIDE_RULES: DeploymentOverrideRules = { displayName: VLLM_DISPLAY_NAME };

function engineNotSupported(engine: string): string {
  return `vLLM provider only supports vllm engine, got ${engine}`;
}

/**
 * The Direct vLLM controller's rejections, plus the ones its transformer would raise while
 * building objects, so they fail the synth with a field path instead of a failed pod:
 * engine must be vllm; disaggregated mode is refused; aggregated mode needs GPUs; overrides must
 * pass `validateDeploymentOverrides` (no root but `spec`, no apiVersion/kind/metadata/status, selector or
 * selector/ownership pod labels, nothing that would replace the spec, pod template, pod spec or
 * containers); launch flags must pass `directVllmArgErrors`.
 */
export function validateDirectVllm(md: ResolvedModelDeployment): FieldError[] {
  const errors: FieldError[] = [];
  if (md.engine !== 'vllm') {
    errors.push(invalid('spec.engine.type', md.engine, engineNotSupported(md.engine)));
  }
  if (md.mode === 'disaggregated') {
    errors.push(invalid('spec.serving.mode', md.mode, DISAGGREGATED_NOT_SUPPORTED));
  } else {
    const count = md.spec.resources?.gpu?.count;
    if (count === undefined || count === null) errors.push(required('spec.resources.gpu.count', GPU_REQUIRED));
    else if (!(count > 0)) errors.push(invalid('spec.resources.gpu.count', count, GPU_REQUIRED));
  }
  errors.push(...validateDeploymentOverrides(md.spec.provider?.overrides, OVERRIDE_RULES));
  errors.push(...directVllmArgErrors(md.spec));
  errors.push(...vllmMultiNodeFindings(md).errors);
  errors.push(...directVllmParallelism(md).errors);
  return errors;
}

/** Whether the overrides replace the Deployment's containers (their arguments and GPUs with them). */
function overridesReplaceContainers(overrides: unknown): boolean {
  const spec = isJsonObject(overrides) ? overrides.spec : undefined;
  const template = isJsonObject(spec) ? spec.template : undefined;
  const podSpec = isJsonObject(template) ? template.spec : undefined;
  return isJsonObject(podSpec) && podSpec.containers !== undefined;
}

/**
 * The parallelism checks (`common/parallelism`) of the one Direct vLLM container: its GPUs are
 * `spec.resources.gpu.count`, from which the provider derives `--tensor-parallel-size` when there
 * are several; `engine.args` and `engine.extraArgs` both reach vLLM. Not checked when the
 * overrides replace the containers (the command line and GPUs are then the user's).
 */
export function directVllmParallelism(md: ResolvedModelDeployment): ParallelismFindings {
  if (md.engine !== 'vllm' || md.mode !== 'aggregated' || overridesReplaceContainers(md.spec.provider?.overrides)) return NO_PARALLELISM_FINDINGS;
  const gpu = md.spec.resources?.gpu;
  const gpuCount = gpu?.count ?? 0;
  // A multi-node replica's engine spans the pods of its group (`multiNodeParallelismTarget`).
  const target = multiNodeParallelismTarget(md, vllmMultiNodeFindings(md), 'resources', {
    subject: 'Direct vLLM pods',
    gpuPath: 'spec.resources.gpu.count',
    gpuCount,
    gpuType: gpuTypeOf(gpu),
    ...(gpuCount > 1 && { derivedTensorParallel: gpuCount }),
  });
  return checkParallelism(md.engine, userParallelism(md.spec, md.engine, { extraArgs: true }), target ? [target] : []);
}

/**
 * Direct vLLM's warnings about a deployment it accepts: GPUs its layout leaves idle, and a
 * multi-node annotation that made no replica span nodes.
 */
export function directVllmWarnings(md: ResolvedModelDeployment): string[] {
  return [...vllmMultiNodeFindings(md).warnings, ...directVllmParallelism(md).warnings];
}
