import { parse as parseYaml } from 'yaml';
import type { ProviderConfigEntry } from '../../src/api/provider/provider-config-entry';
import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import type { ModelDeploymentObject } from '../../src/core/model-deployment-object';
import { dynamoProviderConfig } from '../../src/providers/dynamo/config';
import { kaitoProviderConfig } from '../../src/providers/kaito/config';
import { kuberayProviderConfig } from '../../src/providers/kuberay/config';
import { LLMD_ENDPOINT_PICKER_CONFIG, llmdProviderConfig } from '../../src/providers/llmd/config';
import { vllmProviderConfig } from '../../src/providers/vllm/config';
import { compileRule } from '../../src/selection/cel-rules';
import { selectEngine } from '../../src/selection/engine-selection';
import { ProviderSelection, selectProvider } from '../../src/selection/provider-selection';
import { AIRUNWAY_PROVIDER_CONFIGS, SHIPPED_PROVIDER_CONFIGS } from '../support/shipped-configs';

function md(spec: ModelDeploymentSpec): ModelDeploymentObject {
  return { name: 'qwen', namespace: 'ml', spec };
}

function shippedExcept(...notReady: string[]): ProviderConfigEntry[] {
  return [
    dynamoProviderConfig(!notReady.includes('dynamo')),
    kaitoProviderConfig(!notReady.includes('kaito')),
    kuberayProviderConfig(!notReady.includes('kuberay')),
    llmdProviderConfig(!notReady.includes('llmd')),
    vllmProviderConfig(!notReady.includes('vllm')),
  ];
}

/** Engine then provider selection, as the reconciler runs them. */
function select(
  spec: ModelDeploymentSpec,
  configs: readonly ProviderConfigEntry[],
): { engine?: string; selection?: ProviderSelection; engineError?: string } {
  const engine = selectEngine(md(spec), configs);
  if (engine.engine === undefined) return { engineError: engine.error };
  return { engine: engine.engine, selection: selectProvider(md(spec), engine.engine, configs) };
}

function priorities(selection: ProviderSelection | undefined): Record<string, number> {
  return Object.fromEntries((selection?.candidates ?? []).map((c) => [c.name, c.priority]));
}

// Stored specs as they are after the mutating webhook and the API server's structural defaults.
const MODEL = { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' as const };
const ENGINE_DEFAULTS = { enablePrefixCaching: true, trustRemoteCode: false, enforceEager: false };
const AGGREGATED = { serving: { mode: 'aggregated' as const }, scaling: { replicas: 1 } };
const gpus = (count: number) => ({ gpu: { count, type: 'nvidia.com/gpu' } });
const disaggregated: ModelDeploymentSpec = {
  model: MODEL,
  engine: { type: 'vllm', ...ENGINE_DEFAULTS },
  serving: { mode: 'disaggregated' },
  scaling: { prefill: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/gpu' } }, decode: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/gpu' } } },
};

describe('selection with all five shipped providers ready (§4.5.4)', () => {
  test.each<[string, string, ModelDeploymentSpec, readonly ProviderConfigEntry[], string, Record<string, number>]>([
    [
      'engine.type vllm (webhook adds gpu.count 1)',
      'dynamo',
      { model: MODEL, engine: { type: 'vllm', ...ENGINE_DEFAULTS }, ...AGGREGATED, resources: gpus(1) },
      SHIPPED_PROVIDER_CONFIGS,
      'vllm',
      { dynamo: 50, kaito: 0, kuberay: 0, llmd: 0, vllm: 0 },
    ],
    [
      'no engine, resources.gpu.count 1',
      'dynamo',
      { model: MODEL, engine: ENGINE_DEFAULTS, ...AGGREGATED, resources: gpus(1) },
      SHIPPED_PROVIDER_CONFIGS,
      'vllm',
      { dynamo: 50, kaito: 0, kuberay: 0, llmd: 0, vllm: 0 },
    ],
    [
      'gpu.count 4, vllm',
      'kuberay',
      { model: MODEL, engine: { type: 'vllm', ...ENGINE_DEFAULTS }, ...AGGREGATED, resources: gpus(4) },
      SHIPPED_PROVIDER_CONFIGS,
      'vllm',
      { kuberay: 80, dynamo: 50, kaito: 0, llmd: 0, vllm: 0 },
    ],
    [
      'serving.mode disaggregated with prefill/decode GPUs, vllm',
      'dynamo',
      disaggregated,
      SHIPPED_PROVIDER_CONFIGS,
      'vllm',
      { dynamo: 90, kuberay: 0, llmd: 0 },
    ],
    [
      'engine.type sglang with GPU',
      'dynamo',
      { model: MODEL, engine: { type: 'sglang', ...ENGINE_DEFAULTS }, ...AGGREGATED, resources: gpus(1) },
      SHIPPED_PROVIDER_CONFIGS,
      'sglang',
      { dynamo: 100 },
    ],
    [
      'engine.type trtllm with GPU',
      'dynamo',
      { model: MODEL, engine: { type: 'trtllm', ...ENGINE_DEFAULTS }, ...AGGREGATED, resources: gpus(2) },
      SHIPPED_PROVIDER_CONFIGS,
      'trtllm',
      { dynamo: 100 },
    ],
    [
      'no engine, no GPU (resources: {cpu: "4"})',
      'kaito',
      { model: MODEL, engine: ENGINE_DEFAULTS, ...AGGREGATED, resources: { cpu: '4' } },
      SHIPPED_PROVIDER_CONFIGS,
      'llamacpp',
      { kaito: 100 },
    ],
    [
      'no engine, no resources',
      'kaito',
      { model: MODEL, engine: ENGINE_DEFAULTS, ...AGGREGATED },
      SHIPPED_PROVIDER_CONFIGS,
      'llamacpp',
      { kaito: 100 },
    ],
    [
      'engine.type llamacpp (no GPU default for llamacpp)',
      'kaito',
      { model: MODEL, engine: { type: 'llamacpp', ...ENGINE_DEFAULTS }, ...AGGREGATED },
      SHIPPED_PROVIDER_CONFIGS,
      'llamacpp',
      { kaito: 100 },
    ],
    [
      'vllm + GPU 1, dynamo not ready (alphabetical tie-break)',
      'kaito',
      { model: MODEL, engine: { type: 'vllm', ...ENGINE_DEFAULTS }, ...AGGREGATED, resources: gpus(1) },
      shippedExcept('dynamo'),
      'vllm',
      { kaito: 0, kuberay: 0, llmd: 0, vllm: 0 },
    ],
  ])('%s → %s', (_, winner, spec, configs, engine, candidates) => {
    const result = select(spec, configs);
    expect(result.engine).toBe(engine);
    expect(result.selection?.error).toBeUndefined();
    expect(priorities(result.selection)).toEqual(candidates);
    expect(result.selection?.provider).toBe(winner);
  });

  test('engine.type vllm with gpu.count 0 explicitly has no candidate (validation rejects it first: "vllm engine requires GPU")', () => {
    const spec: ModelDeploymentSpec = { model: MODEL, engine: { type: 'vllm', ...ENGINE_DEFAULTS }, ...AGGREGATED, resources: gpus(0) };
    const result = select(spec, SHIPPED_PROVIDER_CONFIGS);
    expect(result.selection?.error).toBe('no compatible provider found for this configuration');
  });

  test('the reason names the engine, the GPU flag and the mode', () => {
    expect(select({ model: MODEL, engine: { type: 'vllm' }, ...AGGREGATED, resources: gpus(1) }, SHIPPED_PROVIDER_CONFIGS).selection?.reason)
      .toBe('matched capabilities: engine=vllm, gpu=true, mode=aggregated');
    expect(select({ model: MODEL, ...AGGREGATED }, SHIPPED_PROVIDER_CONFIGS).selection?.reason)
      .toBe('matched capabilities: engine=llamacpp, gpu=false, mode=aggregated');
    expect(select(disaggregated, SHIPPED_PROVIDER_CONFIGS).selection?.reason)
      .toBe('matched capabilities: engine=vllm, gpu=true, mode=disaggregated');
  });
});

describe('selectProvider', () => {
  const GPU_VLLM: ModelDeploymentSpec = { model: MODEL, engine: { type: 'vllm', ...ENGINE_DEFAULTS }, ...AGGREGATED, resources: gpus(1) };

  test('not-ready providers are excluded', () => {
    const selection = selectProvider(md(GPU_VLLM), 'vllm', shippedExcept('dynamo', 'kaito'));
    expect(priorities(selection)).toEqual({ kuberay: 0, llmd: 0, vllm: 0 });
    expect(selection.trace.find((t) => t.provider === 'dynamo')).toEqual({ provider: 'dynamo', excluded: 'not-ready', detail: 'not ready', rules: [] });
  });

  test('providers without rules can win at priority 0: llmd when dynamo, kaito and kuberay are not ready', () => {
    expect(selectProvider(md(GPU_VLLM), 'vllm', shippedExcept('dynamo', 'kaito', 'kuberay')).provider).toBe('llmd');
    expect(selectProvider(md(GPU_VLLM), 'vllm', shippedExcept('dynamo', 'kaito', 'kuberay', 'llmd')).provider).toBe('vllm');
  });

  test('ties go to the byte-wise smallest name, whatever the input order', () => {
    const plain = (name: string): ProviderConfigEntry => ({
      name,
      ready: true,
      spec: { capabilities: { engines: [{ name: 'vllm', servingModes: ['aggregated'], gpuSupport: true }] } },
    });
    const configs = [plain('zeta'), plain('alpha'), plain('Beta'), plain('alpha-2')];
    expect(selectProvider(md(GPU_VLLM), 'vllm', configs).provider).toBe('Beta');
    expect(selectProvider(md(GPU_VLLM), 'vllm', [...configs].reverse()).provider).toBe('Beta');
    expect(selectProvider(md(GPU_VLLM), 'vllm', configs).candidates.map((c) => c.name)).toEqual(['Beta', 'alpha', 'alpha-2', 'zeta']);
  });

  test('a user-registered config with a higher-priority rule beats the shipped ones', () => {
    const acme: ProviderConfigEntry = {
      name: 'acme',
      ready: true,
      spec: {
        capabilities: { engines: [{ name: 'vllm', servingModes: ['aggregated'], gpuSupport: true }] },
        selectionRules: [{ condition: "has(spec.model.servedName) || spec.model.id.startsWith('Qwen/')", priority: 200 }],
      },
    };
    const selection = selectProvider(md(GPU_VLLM), 'vllm', [...SHIPPED_PROVIDER_CONFIGS, acme]);
    expect(selection.provider).toBe('acme');
    expect(priorities(selection)).toEqual({ acme: 200, dynamo: 50, kaito: 0, kuberay: 0, llmd: 0, vllm: 0 });
    expect(selection.candidates[0]).toEqual({ name: 'acme', priority: 200 });
  });

  test('a rule that errors is skipped; every rule is evaluated and the highest match counts', () => {
    const picky: ProviderConfigEntry = {
      name: 'picky',
      ready: true,
      spec: {
        capabilities: { engines: [{ name: 'vllm', servingModes: ['aggregated'], gpuSupport: true }] },
        selectionRules: [
          { condition: 'spec.serving.nothing == 1', priority: 500 },
          { condition: 'spec.engine.type ==', priority: 400 },
          { condition: "'yes'", priority: 300 },
          { condition: 'true', priority: 10 },
          { condition: 'spec.resources.gpu.count == 1', priority: 60 },
          { condition: 'true' },
          { condition: 'spec.resources.gpu.count == 1', priority: 20 },
        ],
      },
    };
    const selection = selectProvider(md(GPU_VLLM), 'vllm', [...SHIPPED_PROVIDER_CONFIGS, picky]);
    expect(selection.provider).toBe('picky');
    const trace = selection.trace.find((t) => t.provider === 'picky')!;
    expect(trace.priority).toBe(60);
    expect(trace.rules.map((r) => [r.priority, r.outcome])).toEqual([
      [500, 'runtime-error'],
      [400, 'compile-error'],
      [300, 'non-bool'],
      [10, 'matched'],
      [60, 'matched'],
      [0, 'matched'],
      [20, 'matched'],
    ]);
    expect(trace.rules[0].message).toMatch(/serving|nothing|field/);
    expect(trace.detail).toBe('candidate; 4 of 7 rules matched');
  });

  test('the trace says why each shipped provider is in or out', () => {
    const selection = selectProvider(md(disaggregated), 'vllm', SHIPPED_PROVIDER_CONFIGS);
    const byName = Object.fromEntries(selection.trace.map((t) => [t.provider, t]));
    expect(byName.kaito).toMatchObject({ excluded: 'serving-mode-unsupported', detail: 'vllm: servingModes [aggregated] do not include disaggregated', rules: [] });
    expect(byName.vllm).toMatchObject({ excluded: 'serving-mode-unsupported' });
    expect(byName.dynamo.priority).toBe(90);
    expect(byName.dynamo.rules.map((r) => r.outcome)).toEqual(['false', 'false', 'matched', 'runtime-error']);
    expect(byName.llmd).toMatchObject({ priority: 0, rules: [], detail: 'candidate without selection rules' });

    const cpu = selectProvider(md({ model: MODEL, ...AGGREGATED, resources: { cpu: '4' } }), 'llamacpp', SHIPPED_PROVIDER_CONFIGS);
    expect(cpu.trace.map((t) => [t.provider, t.excluded])).toEqual([
      ['dynamo', 'no-engine-capability'],
      ['flexinfer', 'explicit-selection-only'],
      ['kaito', undefined],
      ['kthena', 'explicit-selection-only'],
      ['kuberay', 'no-engine-capability'],
      ['llmd', 'no-engine-capability'],
      ['modelplane', 'explicit-selection-only'],
      ['vllm', 'no-engine-capability'],
    ]);

    const cpuVllm = selectProvider(md({ model: MODEL, ...AGGREGATED, resources: { cpu: '4' } }), 'vllm', SHIPPED_PROVIDER_CONFIGS);
    expect(cpuVllm.trace.every((t) => t.excluded === 'no-cpu-support' || t.excluded === 'explicit-selection-only')).toBe(true);

    const gpuLlamacpp = selectProvider(md(GPU_VLLM), 'llamacpp', [...SHIPPED_PROVIDER_CONFIGS, { name: 'cpu-only', ready: true, spec: { capabilities: { engines: [{ name: 'llamacpp', servingModes: ['aggregated'], cpuSupport: true }] } } }]);
    expect(gpuLlamacpp.trace.find((t) => t.provider === 'cpu-only')?.excluded).toBe('no-gpu-support');
    expect(gpuLlamacpp.provider).toBe('kaito');

    const bare = selectProvider(md(GPU_VLLM), 'vllm', [{ name: 'bare', ready: true, spec: {} }]);
    expect(bare.trace).toEqual([{ provider: 'bare', excluded: 'no-capabilities', detail: 'declares no capabilities', rules: [] }]);
  });

  test('an explicit provider bypasses selection', () => {
    const spec: ModelDeploymentSpec = { ...GPU_VLLM, provider: { name: 'kuberay' } };
    const selection = selectProvider(md(spec), 'vllm', SHIPPED_PROVIDER_CONFIGS);
    expect(selection).toMatchObject({ provider: 'kuberay', reason: 'explicit provider selection', explicit: true, trace: [], candidates: [] });
    // Neither readiness nor existence is checked here.
    expect(selectProvider(md({ ...spec, provider: { name: 'nowhere' } }), 'vllm', []).provider).toBe('nowhere');
    expect(selectProvider(md(spec), 'vllm', shippedExcept('kuberay')).provider).toBe('kuberay');
  });

  test('an empty provider name does not count as explicit', () => {
    expect(selectProvider(md({ ...GPU_VLLM, provider: { name: '' } }), 'vllm', SHIPPED_PROVIDER_CONFIGS).provider).toBe('dynamo');
  });

  test('fails when no provider is registered', () => {
    expect(selectProvider(md(GPU_VLLM), 'vllm', []).error).toBe('no providers registered (InferenceProviderConfig resources not found)');
  });

  test('fails when no provider is ready', () => {
    const selection = selectProvider(md(GPU_VLLM), 'vllm', shippedExcept('dynamo', 'kaito', 'kuberay', 'llmd', 'vllm'));
    expect(selection.provider).toBeUndefined();
    expect(selection.error).toBe('no healthy providers available');
  });

  test('fails when no ready provider is compatible', () => {
    expect(selectProvider(md(GPU_VLLM), 'sglang', shippedExcept('dynamo')).error).toBe('no compatible provider found for this configuration');
  });

  test('fails when the spec cannot be converted for CEL', () => {
    const bad = { ...GPU_VLLM, model: { ...MODEL, storage: { volumes: [{ name: 'cache', size: 'lots' }] } } } as ModelDeploymentSpec;
    expect(selectProvider(md(bad), 'vllm', SHIPPED_PROVIDER_CONFIGS).error).toMatch(
      /^provider selection failed: failed to convert spec for CEL evaluation: spec\.model\.storage\.volumes\[0\]\.size: quantities must match/,
    );
  });
});

describe('shipped provider configs (§2.6)', () => {
  test("are AI Runway's five and the other seed systems' targets, all ready, in name order; only the latter are explicit-selection only", () => {
    expect(SHIPPED_PROVIDER_CONFIGS.map((c) => [c.name, c.ready, c.explicitSelectionOnly ?? false])).toEqual([
      ['dynamo', true, false],
      ['flexinfer', true, true],
      ['kaito', true, false],
      ['kthena', true, true],
      ['kuberay', true, false],
      ['llmd', true, false],
      ['modelplane', true, true],
      ['vllm', true, false],
    ]);
    expect(AIRUNWAY_PROVIDER_CONFIGS.map((c) => c.name)).toEqual(['dynamo', 'kaito', 'kuberay', 'llmd', 'vllm']);
  });

  test('the builders return fresh copies, so one provider instance cannot change another', () => {
    const copy = dynamoProviderConfig();
    copy.spec.selectionRules!.push({ condition: 'true', priority: 1 });
    expect(dynamoProviderConfig().spec.selectionRules).toHaveLength(4);
    expect(dynamoProviderConfig(false).ready).toBe(false);
  });

  test('selection rules', () => {
    const rules = Object.fromEntries(AIRUNWAY_PROVIDER_CONFIGS.map((c) => [c.name, c.spec.selectionRules]));
    expect(rules).toEqual({
      dynamo: [
        { condition: "spec.engine.type == 'trtllm'", priority: 100 },
        { condition: "spec.engine.type == 'sglang'", priority: 100 },
        { condition: "has(spec.serving) && spec.serving.mode == 'disaggregated'", priority: 90 },
        { condition: "has(spec.resources.gpu) && spec.resources.gpu.count > 0 && spec.engine.type == 'vllm'", priority: 50 },
      ],
      kaito: [
        { condition: '!has(spec.resources.gpu) || spec.resources.gpu.count == 0', priority: 100 },
        { condition: "spec.engine.type == 'llamacpp'", priority: 100 },
      ],
      kuberay: [{ condition: "has(spec.resources.gpu) && spec.resources.gpu.count > 1 && spec.engine.type == 'vllm'", priority: 80 }],
      llmd: undefined,
      vllm: undefined,
    });
  });

  test('engine capabilities', () => {
    const engines = Object.fromEntries(AIRUNWAY_PROVIDER_CONFIGS.map((c) => [
      c.name,
      c.spec.capabilities!.engines!.map((e) => [e.name, e.servingModes, e.apiFormats, e.gpuSupport ?? false, e.cpuSupport ?? false, e.requiresCRD]),
    ]));
    const ALL = ['openai-chat', 'openai-responses', 'anthropic-messages'];
    expect(engines).toEqual({
      dynamo: [
        ['vllm', ['aggregated', 'disaggregated'], ALL, true, false, undefined],
        ['sglang', ['aggregated', 'disaggregated'], ['openai-chat', 'anthropic-messages'], true, false, undefined],
        ['trtllm', ['aggregated'], ['openai-chat', 'openai-responses'], true, false, undefined],
      ],
      kaito: [
        ['vllm', ['aggregated'], ALL, true, false, undefined],
        ['llamacpp', ['aggregated'], ['openai-chat'], true, true, undefined],
      ],
      kuberay: [['vllm', ['aggregated', 'disaggregated'], ['openai-chat'], true, false, undefined]],
      llmd: [['vllm', ['aggregated', 'disaggregated'], ALL, true, false, false]],
      vllm: [['vllm', ['aggregated'], ALL, true, false, undefined]],
    });
  });

  test('gateway capabilities', () => {
    const gateways = Object.fromEntries(AIRUNWAY_PROVIDER_CONFIGS.map((c) => [c.name, c.spec.capabilities!.engines!.map((e) => e.gateway)]));
    const dynamoPool = { managesInferencePool: true, inferencePoolNamePattern: '{name}-pool', inferencePoolNamespace: '{namespace}' };
    expect(gateways).toEqual({
      dynamo: [dynamoPool, dynamoPool, dynamoPool],
      kaito: [undefined, { ignoresServedName: true }],
      kuberay: [undefined],
      llmd: [{ endpointPicker: { image: 'ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0', configData: LLMD_ENDPOINT_PICKER_CONFIG } }],
      vllm: [undefined],
    });
  });

  test("llm-d's endpoint picker config", () => {
    expect(parseYaml(LLMD_ENDPOINT_PICKER_CONFIG)).toEqual({
      apiVersion: 'llm-d.ai/v1alpha1',
      kind: 'EndpointPickerConfig',
      plugins: [
        { type: 'prefix-cache-scorer' },
        { type: 'decode-filter' },
        { type: 'max-score-picker' },
        { type: 'single-profile-handler' },
      ],
      schedulingProfiles: [
        {
          name: 'default',
          plugins: [{ pluginRef: 'decode-filter' }, { pluginRef: 'max-score-picker' }, { pluginRef: 'prefix-cache-scorer', weight: 2 }],
        },
      ],
    });
  });

  test('every shipped rule compiles', () => {
    for (const config of SHIPPED_PROVIDER_CONFIGS) {
      for (const rule of config.spec.selectionRules ?? []) expect(compileRule(rule.condition).compileError).toBeUndefined();
    }
  });
});

describe('explicit-selection-only providers (ours, not AI Runway)', () => {
  // A provider that would win every tie by name and offers the engine llama.cpp alone.
  const eager: ProviderConfigEntry = {
    name: 'aaa',
    ready: true,
    explicitSelectionOnly: true,
    spec: { capabilities: { engines: [{ name: 'vllm', servingModes: ['aggregated'], gpuSupport: true }, { name: 'llamacpp', servingModes: ['aggregated'], cpuSupport: true }] } },
  };
  const GPU = { model: MODEL, engine: ENGINE_DEFAULTS, ...AGGREGATED, resources: { gpu: { count: 1 } } };

  test('is never auto-selected, and says why', () => {
    const { selection } = select(GPU, [eager, vllmProviderConfig()]);
    expect(selection?.provider).toBe('vllm');
    expect(selection?.trace.find((t) => t.provider === 'aaa')).toEqual({
      provider: 'aaa', excluded: 'explicit-selection-only', detail: 'selected only when spec.provider.name names it', rules: [],
    });
    // Without it the name would win the tie.
    expect(select(GPU, [{ ...eager, explicitSelectionOnly: false }, vllmProviderConfig()]).selection?.provider).toBe('aaa');
  });

  test('its engines count for engine auto-selection only when the deployment names it', () => {
    const cpu = { model: MODEL, engine: ENGINE_DEFAULTS, ...AGGREGATED };
    const unnamed = selectEngine(md(cpu), [eager, vllmProviderConfig()]);
    expect(unnamed.engine).toBeUndefined();
    expect(unnamed.trace[0]).toEqual({ provider: 'aaa', excluded: 'explicit-selection-only', engines: [] });
    const named = selectEngine(md({ ...cpu, provider: { name: 'aaa' } }), [eager, vllmProviderConfig()]);
    expect(named.engine).toBe('llamacpp');
    expect(select({ ...cpu, provider: { name: 'aaa' } }, [eager, vllmProviderConfig()]).selection).toMatchObject({ provider: 'aaa', explicit: true });
  });
});
