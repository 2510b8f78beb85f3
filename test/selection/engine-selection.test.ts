import type { ProviderConfigEntry } from '../../src/api/provider/provider-config-entry';
import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import type { ModelDeploymentObject } from '../../src/core/model-deployment-object';
import { dynamoProviderConfig } from '../../src/providers/dynamo/config';
import { kaitoProviderConfig } from '../../src/providers/kaito/config';
import { kuberayProviderConfig } from '../../src/providers/kuberay/config';
import { llmdProviderConfig } from '../../src/providers/llmd/config';
import { vllmProviderConfig } from '../../src/providers/vllm/config';
import { compareNames, EngineSelection, NO_PROVIDERS_REGISTERED, selectEngine } from '../../src/selection/engine-selection';
import { AIRUNWAY_PROVIDER_CONFIGS, SHIPPED_PROVIDER_CONFIGS } from '../support/shipped-configs';

function md(spec: Omit<ModelDeploymentSpec, 'model'>): ModelDeploymentObject {
  return { name: 'qwen', namespace: 'ml', spec: { model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' }, ...spec } };
}

const GPU = { resources: { gpu: { count: 1, type: 'nvidia.com/gpu' } } };
const CPU_ONLY = { resources: { cpu: '4' } };

/** The shipped configs with the named ones not ready. */
function shippedExcept(...notReady: string[]): ProviderConfigEntry[] {
  return [
    dynamoProviderConfig(!notReady.includes('dynamo')),
    kaitoProviderConfig(!notReady.includes('kaito')),
    kuberayProviderConfig(!notReady.includes('kuberay')),
    llmdProviderConfig(!notReady.includes('llmd')),
    vllmProviderConfig(!notReady.includes('vllm')),
  ];
}

function expectEngine(selection: EngineSelection, engine: string, reason: string): void {
  expect(selection.error).toBeUndefined();
  expect(selection.engine).toBe(engine);
  expect(selection.reason).toBe(reason);
}

describe('selectEngine', () => {
  test('an explicit engine is taken as is', () => {
    const selection = selectEngine(md({ engine: { type: 'trtllm' }, ...GPU }), SHIPPED_PROVIDER_CONFIGS);
    expectEngine(selection, 'trtllm', 'explicit engine selection');
    expect(selection.explicit).toBe(true);
    expect(selection.trace).toEqual([]);
  });

  test('an explicit engine needs no providers at all', () => {
    expectEngine(selectEngine(md({ engine: { type: 'llamacpp' } }), []), 'llamacpp', 'explicit engine selection');
  });

  test('GPU deployments get vllm, attributed to the first provider by name that offers it', () => {
    const selection = selectEngine(md({ engine: { enablePrefixCaching: true }, ...GPU }), SHIPPED_PROVIDER_CONFIGS);
    expectEngine(selection, 'vllm', 'auto-selected from provider dynamo capabilities');
    expect(selection.explicit).toBe(false);
    expect(selection.hasGpu).toBe(true);
    expect(Object.fromEntries(selection.available)).toEqual({ vllm: 'dynamo', sglang: 'dynamo', trtllm: 'dynamo', llamacpp: 'kaito' });
  });

  test('the attribution does not depend on the order of the configs', () => {
    const reversed = [...SHIPPED_PROVIDER_CONFIGS].reverse();
    expectEngine(selectEngine(md(GPU), reversed), 'vllm', 'auto-selected from provider dynamo capabilities');
  });

  test('deployments without GPUs get llamacpp from kaito, the only CPU-capable engine', () => {
    const selection = selectEngine(md(CPU_ONLY), SHIPPED_PROVIDER_CONFIGS);
    expectEngine(selection, 'llamacpp', 'auto-selected from provider kaito capabilities');
    expect(selection.hasGpu).toBe(false);
  });

  test('no resources at all also means no GPUs', () => {
    expectEngine(selectEngine(md({}), SHIPPED_PROVIDER_CONFIGS), 'llamacpp', 'auto-selected from provider kaito capabilities');
  });

  test('an explicit gpu.count of 0 means no GPUs', () => {
    expectEngine(selectEngine(md({ resources: { gpu: { count: 0 } } }), SHIPPED_PROVIDER_CONFIGS), 'llamacpp', 'auto-selected from provider kaito capabilities');
  });

  test('disaggregated serving counts as GPU even without resources.gpu', () => {
    const selection = selectEngine(md({ serving: { mode: 'disaggregated' } }), SHIPPED_PROVIDER_CONFIGS);
    expectEngine(selection, 'vllm', 'auto-selected from provider dynamo capabilities');
    expect(selection.hasGpu).toBe(true);
    expect(selection.mode).toBe('disaggregated');
    // trtllm is aggregated-only on dynamo; llamacpp is aggregated-only on kaito.
    expect([...selection.available.keys()].sort()).toEqual(['sglang', 'vllm']);
  });

  test('spec.provider.name is not consulted', () => {
    const selection = selectEngine(md({ provider: { name: 'dynamo' }, ...CPU_ONLY }), SHIPPED_PROVIDER_CONFIGS);
    expectEngine(selection, 'llamacpp', 'auto-selected from provider kaito capabilities');
  });

  test('not-ready providers are skipped', () => {
    const selection = selectEngine(md(GPU), shippedExcept('dynamo'));
    expectEngine(selection, 'vllm', 'auto-selected from provider kaito capabilities');
    expect(selection.available.has('sglang')).toBe(false);
  });

  test('the preference order is vllm > sglang > trtllm > llamacpp', () => {
    const only = (engines: Array<'sglang' | 'trtllm' | 'llamacpp'>): ProviderConfigEntry => ({
      name: 'custom',
      ready: true,
      spec: { capabilities: { engines: engines.map((name) => ({ name, servingModes: ['aggregated'], gpuSupport: true })) } },
    });
    expect(selectEngine(md(GPU), [only(['llamacpp', 'trtllm', 'sglang'])]).engine).toBe('sglang');
    expect(selectEngine(md(GPU), [only(['llamacpp', 'trtllm'])]).engine).toBe('trtllm');
    expect(selectEngine(md(GPU), [only(['llamacpp'])]).engine).toBe('llamacpp');
  });

  test('fails when there are no providers', () => {
    const selection = selectEngine(md(GPU), []);
    expect(selection.engine).toBeUndefined();
    expect(selection.error).toBe('no providers registered (InferenceProviderConfig resources not found)');
    expect(selection.error).toBe(NO_PROVIDERS_REGISTERED);
  });

  test('fails when no ready provider has a suitable engine, listing what the ready ones advertise', () => {
    const selection = selectEngine(md(CPU_ONLY), shippedExcept('kaito'));
    expect(selection.error).toBe(
      'no engines available from registered providers (hasGPU=false, servingMode=aggregated, ' +
        'advertised=map[dynamo:[vllm sglang trtllm] kuberay:[vllm] llmd:[vllm] vllm:[vllm]])',
    );
  });

  test('fails with an empty advertised map when nothing is ready', () => {
    const selection = selectEngine(md(GPU), shippedExcept('dynamo', 'kaito', 'kuberay', 'llmd', 'vllm'));
    expect(selection.error).toBe('no engines available from registered providers (hasGPU=true, servingMode=aggregated, advertised=map[])');
  });

  test('the advertised map leaves out providers without capabilities and shows empty engine lists', () => {
    const configs: ProviderConfigEntry[] = [
      { name: 'zed', ready: true, spec: { capabilities: { engines: [{ name: 'vllm', servingModes: ['aggregated'], gpuSupport: true }] } } },
      { name: 'bare', ready: true, spec: {} },
      { name: 'empty', ready: true, spec: { capabilities: {} } },
    ];
    expect(selectEngine(md(CPU_ONLY), configs).error).toBe(
      'no engines available from registered providers (hasGPU=false, servingMode=aggregated, advertised=map[empty:[] zed:[vllm]])',
    );
  });

  test('the trace says why each provider and engine was or was not used', () => {
    const selection = selectEngine(md(CPU_ONLY), shippedExcept('vllm'));
    expect(selection.trace.map((t) => t.provider)).toEqual(['dynamo', 'kaito', 'kuberay', 'llmd', 'vllm']);
    expect(selection.trace[0].engines.map((e) => [e.engine, e.outcome])).toEqual([
      ['vllm', 'no-cpu-support'],
      ['sglang', 'no-cpu-support'],
      ['trtllm', 'no-cpu-support'],
    ]);
    expect(selection.trace[1].engines.map((e) => [e.engine, e.outcome])).toEqual([
      ['vllm', 'no-cpu-support'],
      ['llamacpp', 'available'],
    ]);
    expect(selection.trace[4]).toEqual({ provider: 'vllm', excluded: 'not-ready', engines: [] });

    // AI Runway's five: the trace positions are theirs.
    const gpu = selectEngine(md(GPU), AIRUNWAY_PROVIDER_CONFIGS);
    expect(gpu.trace[1].engines[0]).toEqual({ engine: 'vllm', outcome: 'already-available', detail: 'compatible; already offered by dynamo' });

    const disaggregated = selectEngine(md({ serving: { mode: 'disaggregated' } }), AIRUNWAY_PROVIDER_CONFIGS);
    expect(disaggregated.trace[0].engines[2]).toEqual({
      engine: 'trtllm',
      outcome: 'serving-mode-unsupported',
      detail: 'servingModes [aggregated] do not include disaggregated',
    });
    expect(disaggregated.trace[1].engines[1].outcome).toBe('serving-mode-unsupported');
  });
});

describe('compareNames', () => {
  test('orders byte-wise, like Go', () => {
    expect(['b', 'a', 'B', 'ab', 'a-b'].sort(compareNames)).toEqual(['B', 'a', 'a-b', 'ab', 'b']);
  });
});
