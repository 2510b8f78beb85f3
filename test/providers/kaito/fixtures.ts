import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { admittedDeployment, ENGINE_CRD_DEFAULTS, FixtureOptions, resolvedDeployment } from '../../support/resolved-deployment';

export type { FixtureOptions };

/**
 * A ModelDeployment as it reaches the KAITO translator after admission defaults and selection:
 * the vLLM preset path — Qwen3-0.6B from Hugging Face, engine vllm (prefix caching on),
 * aggregated, one replica, one GPU, provider kaito. Top-level `spec` fields given replace the
 * baseline's, except `model` and `engine`, which are merged field by field.
 */
export function kaitoVllmDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return admittedDeployment('kaito', options);
}

/** A llama.cpp image (AIKit) used by the llama.cpp fixtures. */
export const LLAMACPP_IMAGE = 'ghcr.io/kaito-project/aikit/llama-cpp:0.0.1';

/**
 * The llama.cpp template path on CPU: a GGUF model from Hugging Face, engine llamacpp with
 * `engine.image`, no `resources` (admission adds no GPU for llama.cpp), one replica, provider
 * kaito.
 */
export function kaitoLlamaCppDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  const { model, engine, ...rest } = options.spec ?? {};
  return resolvedDeployment({
    model: { id: 'TheBloke/TinyLlama-1.1B-Chat-v1.0-GGUF', source: 'huggingface', ...model },
    engine: { type: 'llamacpp', ...ENGINE_CRD_DEFAULTS, image: LLAMACPP_IMAGE, ...engine },
    provider: { name: 'kaito' },
    serving: { mode: 'aggregated' },
    scaling: { replicas: 1 },
    ...rest,
  }, { ...options, name: options.name ?? 'tinyllama' }, 'kaito');
}
