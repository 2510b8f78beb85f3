import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { admittedDeployment, disaggregatedOf, FixtureOptions } from '../../support/resolved-deployment';

export type { FixtureOptions };

/**
 * A ModelDeployment as it reaches the FlexInfer translator after admission defaults and explicit
 * selection of `flexinfer`: Qwen3-0.6B from Hugging Face, engine vllm (prefix caching on),
 * aggregated, one replica, one NVIDIA GPU. Top-level `spec` fields given replace the baseline's,
 * except `model` and `engine`, which are merged field by field.
 */
export function flexInferDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return admittedDeployment('flexinfer', options);
}

/**
 * A GGUF model on llama.cpp with CPUs only, cached on a managed modelCache volume. `model` and
 * `engine` given are merged over these field by field, other `spec` fields replace them.
 */
export function llamaCppCpuDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  const { spec, ...rest } = options;
  const { model, engine, ...others } = spec ?? {};
  return flexInferDeployment({
    ...rest,
    spec: {
      model: {
        id: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF',
        storage: { volumes: [{ name: 'model-cache', purpose: 'modelCache', size: '20Gi', claimName: 'qwen-model-cache', accessMode: 'ReadWriteMany', mountPath: '/model-cache' }] },
        ...model,
      },
      engine: { type: 'llamacpp', args: { 'hf-file': 'qwen2.5-0.5b-instruct-q4_k_m.gguf' }, ...engine },
      resources: { cpu: '4', memory: '8Gi' },
      ...others,
    },
  });
}

/** A disaggregated deployment (which FlexInfer refuses). */
export function disaggregatedDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return disaggregatedOf(flexInferDeployment, options);
}
