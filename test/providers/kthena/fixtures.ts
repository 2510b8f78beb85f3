import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { admittedDeployment, ComponentScaling, disaggregatedOf, FixtureOptions, PREFILL_DECODE_SCALING } from '../../support/resolved-deployment';

export type { FixtureOptions };

/**
 * A ModelDeployment as it reaches the Kthena translator after admission defaults and selection:
 * Qwen3-0.6B from Hugging Face, engine vllm (prefix caching on), aggregated, one replica, one
 * GPU, provider kthena. Top-level `spec` fields given replace the baseline's, except `model` and
 * `engine`, which are merged field by field.
 */
export function kthenaDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return admittedDeployment('kthena', options);
}

/** The same deployment with the SGLang engine. */
export function sglangDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return kthenaDeployment({ ...options, spec: { ...options.spec, engine: { type: 'sglang', ...options.spec?.engine } } });
}

/** Prefill/decode on Kthena: 2 decode replicas × 2 GPUs (64Gi), 1 prefill replica × 1 GPU (32Gi). */
export function disaggregatedDeployment(options: FixtureOptions = {}, scaling: ComponentScaling = PREFILL_DECODE_SCALING): ResolvedModelDeployment {
  return disaggregatedOf(kthenaDeployment, options, scaling);
}

/** Prefill/decode with SGLang. */
export function sglangDisaggregatedDeployment(
  options: FixtureOptions = {},
  scaling: ComponentScaling = PREFILL_DECODE_SCALING,
): ResolvedModelDeployment {
  return disaggregatedOf(sglangDeployment, options, scaling);
}
