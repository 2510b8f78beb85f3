import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { admittedDeployment, disaggregatedOf, FixtureOptions } from '../../support/resolved-deployment';

export type { FixtureOptions };

/**
 * A ModelDeployment as it reaches the llm-d translator after admission defaults and selection:
 * Llama 3.1 8B Instruct from Hugging Face, engine vllm (prefix caching on), aggregated, one
 * replica, one GPU, provider llmd. Top-level `spec` fields given replace the baseline's, except
 * `model` and `engine`, which are merged field by field.
 */
export function llmdDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return admittedDeployment('llmd', options, { name: 'llama', modelId: 'meta-llama/Llama-3.1-8B-Instruct' });
}

/**
 * A prefill/decode deployment: 2 decode replicas × 4 GPUs (64Gi), 3 prefill replicas × 2 GPUs
 * (32Gi), so each component derives its own tensor parallel size.
 */
export function disaggregatedLlmdDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return disaggregatedOf(llmdDeployment, options, {
    decode: { replicas: 2, gpu: { count: 4, type: 'nvidia.com/gpu' }, memory: '64Gi' },
    prefill: { replicas: 3, gpu: { count: 2, type: 'nvidia.com/gpu' }, memory: '32Gi' },
  });
}
