import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { admittedDeployment, disaggregatedOf, FixtureOptions } from '../../support/resolved-deployment';

export type { FixtureOptions };

/**
 * A ModelDeployment as it reaches the KubeRay translator after admission defaults and
 * selection: Qwen3-0.6B from Hugging Face, engine vllm (prefix caching on), aggregated, one
 * replica, one GPU, provider kuberay. Top-level `spec` fields given replace the baseline's,
 * except `model` and `engine`, which are merged field by field.
 */
export function kuberayDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return admittedDeployment('kuberay', options);
}

/**
 * The deployment KubeRay wins by its selection rule (more than one GPU): Llama 3.1 70B on two
 * replicas of four GPUs each, 256Gi of memory.
 */
export function multiGpuDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return kuberayDeployment({
    name: 'llama',
    ...options,
    spec: {
      resources: { gpu: { count: 4, type: 'nvidia.com/gpu' }, memory: '256Gi' },
      scaling: { replicas: 2 },
      ...options.spec,
      model: { id: 'meta-llama/Llama-3.1-70B-Instruct', ...options.spec?.model },
    },
  });
}

/** A disaggregated deployment: 1 prefill replica × 2 GPUs (64Gi), 3 decode replicas × 4 GPUs. */
export function disaggregatedDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return disaggregatedOf(kuberayDeployment, options, {
    prefill: { replicas: 1, gpu: { count: 2, type: 'nvidia.com/gpu' }, memory: '64Gi' },
    decode: { replicas: 3, gpu: { count: 4, type: 'nvidia.com/gpu' } },
  });
}
