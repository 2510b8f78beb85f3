/**
 * Test builders of `ResolvedModelDeployment`s: a ModelDeployment as it reaches a provider's
 * translator after admission defaults and engine/provider selection.
 */
import type { ResolvedModelDeployment } from '../../src/api/resolved-model-deployment';
import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import type { EngineName } from '../../src/core/model-deployment-object';

/** Options of a test ModelDeployment; `spec` parts are merged over an admitted baseline. */
export interface FixtureOptions {
  readonly name?: string;
  /** `null` for no namespace (the chart's applies). @default 'ml' */
  readonly namespace?: string | null;
  /** @default {} */
  readonly annotations?: Record<string, string>;
  readonly spec?: Partial<Omit<ModelDeploymentSpec, 'model' | 'engine'>> & {
    readonly model?: Partial<ModelDeploymentSpec['model']>;
    readonly engine?: Partial<NonNullable<ModelDeploymentSpec['engine']>>;
  };
}

/** What differs between providers' admitted baselines. */
export interface Baseline {
  /** @default 'qwen' */
  readonly name?: string;
  /** @default 'Qwen/Qwen3-0.6B' */
  readonly modelId?: string;
}

/** The engine fields the CRD defaults (besides `type`). */
export const ENGINE_CRD_DEFAULTS = { enablePrefixCaching: true, trustRemoteCode: false, enforceEager: false } as const;

/**
 * A ModelDeployment after admission defaults and selection: the baseline model from Hugging
 * Face, engine vllm (with the CRD's defaults), aggregated, one replica, one GPU, provider
 * `provider`. Top-level `spec` fields given replace the baseline's, except `model` and `engine`,
 * which are merged field by field.
 */
export function admittedDeployment(provider: string, options: FixtureOptions = {}, baseline: Baseline = {}): ResolvedModelDeployment {
  const { model, engine, ...rest } = options.spec ?? {};
  return resolvedDeployment({
    model: { id: baseline.modelId ?? 'Qwen/Qwen3-0.6B', source: 'huggingface', ...model },
    engine: { type: 'vllm', ...ENGINE_CRD_DEFAULTS, ...engine },
    provider: { name: provider },
    serving: { mode: 'aggregated' },
    scaling: { replicas: 1 },
    resources: { gpu: { count: 1, type: 'nvidia.com/gpu' } },
    ...rest,
  }, { ...options, name: options.name ?? baseline.name }, provider);
}

/**
 * `spec` (taken as is) as a resolved deployment of `options.name` (default 'qwen') in
 * `options.namespace`, engine and provider explicitly selected (`provider` unless the spec names
 * one). `options.spec` is ignored.
 */
export function resolvedDeployment(spec: ModelDeploymentSpec, options: FixtureOptions, provider: string): ResolvedModelDeployment {
  return {
    name: options.name ?? 'qwen',
    namespace: options.namespace === null ? undefined : options.namespace ?? 'ml',
    labels: {},
    annotations: { ...options.annotations },
    spec,
    engine: (spec.engine?.type ?? 'vllm') as EngineName,
    mode: spec.serving?.mode === 'disaggregated' ? 'disaggregated' : 'aggregated',
    provider: spec.provider?.name ?? provider,
    engineReason: 'explicit engine selection',
    providerReason: 'explicit provider selection',
  };
}

/** The per-component scaling of a disaggregated deployment. */
export type ComponentScaling = NonNullable<ModelDeploymentSpec['scaling']>;

/** 2 decode replicas × 2 GPUs (64Gi), 1 prefill replica × 1 GPU (32Gi). */
export const PREFILL_DECODE_SCALING: ComponentScaling = {
  decode: { replicas: 2, gpu: { count: 2, type: 'nvidia.com/gpu' }, memory: '64Gi' },
  prefill: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/gpu' }, memory: '32Gi' },
};

/**
 * `fixture`'s deployment in disaggregated serving mode: no `spec.resources`, the GPUs given per
 * component by `scaling`. Top-level `spec` fields of `options` replace these.
 */
export function disaggregatedOf(
  fixture: (options: FixtureOptions) => ResolvedModelDeployment,
  options: FixtureOptions = {},
  scaling: ComponentScaling = PREFILL_DECODE_SCALING,
): ResolvedModelDeployment {
  return fixture({
    ...options,
    spec: {
      serving: { mode: 'disaggregated' },
      resources: undefined,
      scaling: structuredClone(scaling),
      ...options.spec,
    },
  });
}

/**
 * Fixture options that set every structured engine flag (served name, context length, remote
 * code, eager mode), unsorted engine args and extraArgs, on 4 GPUs: for the order in which a
 * provider renders them.
 */
export function everyEngineFlag(servedName: string): FixtureOptions {
  return {
    spec: {
      model: { servedName },
      engine: {
        contextLength: 8192,
        trustRemoteCode: true,
        enforceEager: true,
        args: { 'max-num-seqs': '64', 'disable-log-stats': '', 'dtype': 'bfloat16' },
        extraArgs: ['--swap-space', '4', '-q', 'awq'],
      },
      resources: { gpu: { count: 4, type: 'nvidia.com/gpu' } },
    },
  };
}
