import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { admittedDeployment, disaggregatedOf, FixtureOptions } from '../../support/resolved-deployment';

export type { FixtureOptions };

/**
 * A ModelDeployment as it reaches the Direct vLLM translator after admission defaults and
 * selection: Qwen3-0.6B from Hugging Face, engine vllm (prefix caching on), aggregated, one
 * replica, one GPU, provider vllm. Top-level `spec` fields given replace the baseline's, except
 * `model` and `engine`, which are merged field by field.
 */
export function vllmDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return admittedDeployment('vllm', options);
}

/** A disaggregated deployment (which Direct vLLM refuses): 2 decode replicas × 2 GPUs, 1 prefill replica × 1 GPU. */
export function disaggregatedDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return disaggregatedOf(vllmDeployment, options);
}
