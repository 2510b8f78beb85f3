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

/**
 * A ModelDeployment as it reaches the llm-d translator after admission defaults and selection:
 * Llama 3.1 8B Instruct from Hugging Face, engine vllm (prefix caching on), aggregated, one
 * replica, one GPU, provider llmd. Top-level `spec` fields given replace the baseline's, except
 * `model` and `engine`, which are merged field by field.
 */
export function llmdDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  const { model, engine, ...rest } = options.spec ?? {};
  const spec: ModelDeploymentSpec = {
    model: { id: 'meta-llama/Llama-3.1-8B-Instruct', source: 'huggingface', ...model },
    engine: { type: 'vllm', enablePrefixCaching: true, trustRemoteCode: false, enforceEager: false, ...engine },
    provider: { name: 'llmd' },
    serving: { mode: 'aggregated' },
    scaling: { replicas: 1 },
    resources: { gpu: { count: 1, type: 'nvidia.com/gpu' } },
    ...rest,
  };
  return {
    name: options.name ?? 'llama',
    namespace: options.namespace === null ? undefined : options.namespace ?? 'ml',
    labels: {},
    annotations: {},
    spec,
    engine: (spec.engine?.type ?? 'vllm') as EngineName,
    mode: spec.serving?.mode === 'disaggregated' ? 'disaggregated' : 'aggregated',
    provider: spec.provider?.name ?? 'llmd',
    engineReason: 'explicit engine selection',
    providerReason: 'explicit provider selection',
  };
}

/**
 * A prefill/decode deployment: 2 decode replicas × 4 GPUs (64Gi), 3 prefill replicas × 2 GPUs
 * (32Gi), so each component derives its own tensor parallel size.
 */
export function disaggregatedLlmdDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return llmdDeployment({
    ...options,
    spec: {
      serving: { mode: 'disaggregated' },
      resources: undefined,
      scaling: {
        decode: { replicas: 2, gpu: { count: 4, type: 'nvidia.com/gpu' }, memory: '64Gi' },
        prefill: { replicas: 3, gpu: { count: 2, type: 'nvidia.com/gpu' }, memory: '32Gi' },
      },
      ...options.spec,
    },
  });
}
