import { FieldError, invalid, required } from '../../core/field-error';
import type { ResolvedModelDeployment } from '../../core/resolved-model-deployment';

/*
 * What the KubeRay provider refuses: its checks of a deployment and their messages. Kept apart
 * from the translator so that the controller, which validates but never builds objects, does not
 * load cdk8s-plus-34 or the generated RayService bindings.
 */

/** Human name of the provider in messages. */
export const KUBERAY_DISPLAY_NAME = 'KubeRay';

/** Controller rejection of a deployment without GPUs. */
export const KUBERAY_GPU_REQUIRED = 'KubeRay requires GPU (set resources.gpu.count > 0)';

/** Controller rejection of an engine other than vLLM. */
export function kuberayEngineNotSupported(engine: string): string {
  return `KubeRay only supports vllm engine, got ${engine}`;
}

/**
 * AI Runway's GPU rule for KubeRay (the same as Dynamo's): `resources.gpu.count > 0`, or, in
 * disaggregated mode, `scaling.prefill.gpu.count > 0`.
 */
function hasGpu(md: ResolvedModelDeployment): boolean {
  if ((md.spec.resources?.gpu?.count ?? 0) > 0) return true;
  return md.mode === 'disaggregated' && (md.spec.scaling?.prefill?.gpu?.count ?? 0) > 0;
}

/**
 * The KubeRay controller's rejections, as field errors with AI Runway's exact messages:
 *
 * - the resolved engine is not vllm → `spec.engine.type`;
 * - no GPU → `spec.resources.gpu.count` (aggregated), or `spec.scaling.prefill.gpu.count`
 *   (disaggregated, where admission forbids the top-level count and the prefill count is what
 *   the rule looks at); Required when the count is absent, Invalid when it is 0.
 *
 * Overrides are not validated: KubeRay does not apply them (see `translateKubeRay`).
 */
export function validateKubeRay(md: ResolvedModelDeployment): FieldError[] {
  const errors: FieldError[] = [];
  if (md.engine !== 'vllm') {
    errors.push(invalid('spec.engine.type', md.engine, kuberayEngineNotSupported(md.engine)));
  }
  if (!hasGpu(md)) {
    const path = md.mode === 'disaggregated' ? 'spec.scaling.prefill.gpu.count' : 'spec.resources.gpu.count';
    const count = md.mode === 'disaggregated' ? md.spec.scaling?.prefill?.gpu?.count : md.spec.resources?.gpu?.count;
    errors.push(count === undefined || count === null ? required(path, KUBERAY_GPU_REQUIRED) : invalid(path, count, KUBERAY_GPU_REQUIRED));
  }
  return errors;
}
