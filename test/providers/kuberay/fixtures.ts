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
 * A ModelDeployment as it reaches the KubeRay translator after admission defaults and
 * selection: Qwen3-0.6B from Hugging Face, engine vllm (prefix caching on), aggregated, one
 * replica, one GPU, provider kuberay. Top-level `spec` fields given replace the baseline's,
 * except `model` and `engine`, which are merged field by field.
 */
export function kuberayDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  const { model, engine, ...rest } = options.spec ?? {};
  const spec: ModelDeploymentSpec = {
    model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface', ...model },
    engine: { type: 'vllm', enablePrefixCaching: true, trustRemoteCode: false, enforceEager: false, ...engine },
    provider: { name: 'kuberay' },
    serving: { mode: 'aggregated' },
    scaling: { replicas: 1 },
    resources: { gpu: { count: 1, type: 'nvidia.com/gpu' } },
    ...rest,
  };
  return {
    name: options.name ?? 'qwen',
    namespace: options.namespace === null ? undefined : options.namespace ?? 'ml',
    labels: {},
    annotations: {},
    spec,
    engine: (spec.engine?.type ?? 'vllm') as EngineName,
    mode: spec.serving?.mode === 'disaggregated' ? 'disaggregated' : 'aggregated',
    provider: spec.provider?.name ?? 'kuberay',
    engineReason: 'explicit engine selection',
    providerReason: 'explicit provider selection',
  };
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
  return kuberayDeployment({
    ...options,
    spec: {
      serving: { mode: 'disaggregated' },
      resources: undefined,
      scaling: {
        prefill: { replicas: 1, gpu: { count: 2, type: 'nvidia.com/gpu' }, memory: '64Gi' },
        decode: { replicas: 3, gpu: { count: 4, type: 'nvidia.com/gpu' } },
      },
      ...options.spec,
    },
  });
}
