import { directVllmArgErrors } from './args';
import { FieldError, invalid, required } from '../../core/field-error';
import type { ResolvedModelDeployment } from '../../core/resolved-model-deployment';
import { DeploymentOverrideRules, validateDeploymentOverrides } from '../common/overrides';

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
 * pass `validateDeploymentOverrides` (no apiVersion/kind/metadata/status, selector or
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
  return errors;
}
