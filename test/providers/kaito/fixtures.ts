import type { ModelDeploymentSpec } from '../../../src/core/generated/model-deployment-spec';
import type { EngineName } from '../../../src/core/model-deployment-object';
import type { ResolvedModelDeployment } from '../../../src/core/resolved-model-deployment';

/** Options of a test ModelDeployment; `spec` parts are merged over an admitted baseline. */
export interface FixtureOptions {
  readonly name?: string;
  /** `null` for no namespace (the chart's applies). @default 'ml' */
  readonly namespace?: string | null;
  readonly spec?: Partial<Omit<ModelDeploymentSpec, 'model' | 'engine'>> & {
    readonly model?: Partial<ModelDeploymentSpec['model']>;
    readonly engine?: Partial<NonNullable<ModelDeploymentSpec['engine']>>;
  };
}

function resolved(name: string | undefined, namespace: string | null | undefined, spec: ModelDeploymentSpec): ResolvedModelDeployment {
  return {
    name: name ?? 'qwen',
    namespace: namespace === null ? undefined : namespace ?? 'ml',
    labels: {},
    annotations: {},
    spec,
    engine: (spec.engine?.type ?? 'vllm') as EngineName,
    mode: spec.serving?.mode === 'disaggregated' ? 'disaggregated' : 'aggregated',
    provider: spec.provider?.name ?? 'kaito',
    engineReason: 'explicit engine selection',
    providerReason: 'explicit provider selection',
  };
}

/**
 * A ModelDeployment as it reaches the KAITO translator after admission defaults and selection:
 * the vLLM preset path — Qwen3-0.6B from Hugging Face, engine vllm (prefix caching on),
 * aggregated, one replica, one GPU, provider kaito. Top-level `spec` fields given replace the
 * baseline's, except `model` and `engine`, which are merged field by field.
 */
export function kaitoVllmDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  const { model, engine, ...rest } = options.spec ?? {};
  return resolved(options.name, options.namespace, {
    model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface', ...model },
    engine: { type: 'vllm', enablePrefixCaching: true, trustRemoteCode: false, enforceEager: false, ...engine },
    provider: { name: 'kaito' },
    serving: { mode: 'aggregated' },
    scaling: { replicas: 1 },
    resources: { gpu: { count: 1, type: 'nvidia.com/gpu' } },
    ...rest,
  });
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
  return resolved(options.name ?? 'tinyllama', options.namespace, {
    model: { id: 'TheBloke/TinyLlama-1.1B-Chat-v1.0-GGUF', source: 'huggingface', ...model },
    engine: { type: 'llamacpp', enablePrefixCaching: true, trustRemoteCode: false, enforceEager: false, image: LLAMACPP_IMAGE, ...engine },
    provider: { name: 'kaito' },
    serving: { mode: 'aggregated' },
    scaling: { replicas: 1 },
    ...rest,
  });
}
