import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import { ENGINE_PREFERENCE, EngineName } from '../../src/core/model-deployment-object';
import {
  ENGINE_FLAG_TABLE,
  ENGINE_SETTINGS,
  engineFlag,
  engineFlagKey,
  engineFlagRule,
  EngineSetting,
  SPEC_ENGINE_SETTING_FIELDS,
  specEngineFlag,
  specEngineFlags,
  specEngineSetting,
  SpecEngineSetting,
  tensorParallelFlag,
} from '../../src/provider-kit/engine-flag-table';
import { explicitEngineFlagKeys } from '../../src/provider-kit/engine-flags';
import { engineArgumentTable } from '../../src/provider-kit/engine-switches';

/** What each setting renders to, per engine, with a sample value for value flags; [] = no flag (not expressible, or the engine's default). */
const EXPECTED: Record<EngineName, Record<EngineSetting, string[]>> = {
  vllm: {
    model: ['--model', 'VALUE'],
    servedModelName: ['--served-model-name', 'VALUE'],
    contextLength: ['--max-model-len', 'VALUE'],
    trustRemoteCode: ['--trust-remote-code'],
    prefixCachingOn: ['--enable-prefix-caching'],
    prefixCachingOff: ['--no-enable-prefix-caching'],
    enforceEager: ['--enforce-eager'],
    tensorParallelSize: ['--tensor-parallel-size', 'VALUE'],
  },
  sglang: {
    model: ['--model-path', 'VALUE'],
    servedModelName: ['--served-model-name', 'VALUE'],
    contextLength: ['--context-length', 'VALUE'],
    trustRemoteCode: ['--trust-remote-code'],
    prefixCachingOn: [],
    prefixCachingOff: ['--disable-radix-cache'],
    enforceEager: ['--cuda-graph-backend-decode', 'disabled', '--cuda-graph-backend-prefill', 'disabled'],
    tensorParallelSize: ['--tensor-parallel-size', 'VALUE'],
  },
  trtllm: {
    model: ['--model-path', 'VALUE'],
    servedModelName: ['--served-model-name', 'VALUE'],
    contextLength: ['--max-seq-len', 'VALUE'],
    trustRemoteCode: [],
    prefixCachingOn: [],
    prefixCachingOff: [],
    enforceEager: [],
    tensorParallelSize: ['--tensor-parallel-size', 'VALUE'],
  },
  llamacpp: {
    model: [],
    servedModelName: [],
    contextLength: [],
    trustRemoteCode: [],
    prefixCachingOn: [],
    prefixCachingOff: [],
    enforceEager: [],
    tensorParallelSize: [],
  },
};

const cases = ENGINE_PREFERENCE.flatMap((engine) => ENGINE_SETTINGS.map((setting) => [engine, setting] as const));

/** A spec whose engine block is `engine`, model `org/model`. */
function spec(engine: ModelDeploymentSpec['engine'] = {}, model: Partial<ModelDeploymentSpec['model']> = {}): ModelDeploymentSpec {
  return { model: { id: 'org/model', source: 'huggingface', ...model }, engine } as ModelDeploymentSpec;
}

describe('engine flag table', () => {
  test('covers every engine and every setting', () => {
    expect(Object.keys(ENGINE_FLAG_TABLE).sort()).toEqual([...ENGINE_PREFERENCE].sort());
    for (const engine of ENGINE_PREFERENCE) {
      expect(Object.keys(ENGINE_FLAG_TABLE[engine]).sort()).toEqual([...ENGINE_SETTINGS].sort());
    }
  });

  test.each(cases)('%s renders %s as expected', (engine, setting) => {
    expect(engineFlag(engine, setting, 'VALUE')).toEqual(EXPECTED[engine][setting]);
  });

  test.each(cases)('%s %s: a flag key exactly when expressible, a reason otherwise', (engine, setting) => {
    const rule = engineFlagRule(engine, setting);
    const expected = EXPECTED[engine][setting];
    if (expected.length === 0) {
      expect(['notExpressible', 'engineDefault']).toContain(rule.kind);
      expect((rule.kind === 'notExpressible' || rule.kind === 'engineDefault') && rule.reason).toMatch(/\S/);
      expect(engineFlagKey(engine, setting)).toBeUndefined();
    } else {
      // A value flag renders two tokens, a switch one, fixed option pairs (SGLang's eager mode) four.
      expect(rule.kind).toBe(({ 1: 'switch', 2: 'value', 4: 'options' } as Record<number, string>)[expected.length]);
      expect(engineFlagKey(engine, setting)).toBe(expected[0].slice(2));
    }
  });

  test('SGLang eager mode falls back to --disable-cuda-graph for a release whose parser has no --cuda-graph-backend-decode', () => {
    const current = engineArgumentTable('sglang-0.5.23');
    const older = engineArgumentTable('dynamo-1.1.1-sglang');
    // The tables themselves: the fallback is only right if the older parser really lacks the options.
    expect(current?.options['--cuda-graph-backend-decode']).toBeDefined();
    expect(older?.options['--cuda-graph-backend-decode']).toBeUndefined();
    expect(older?.options['--disable-cuda-graph']).toBeDefined();
    expect(engineFlag('sglang', 'enforceEager', undefined, current)).toEqual(EXPECTED.sglang.enforceEager);
    expect(engineFlag('sglang', 'enforceEager', undefined, older)).toEqual(['--disable-cuda-graph']);
    expect(specEngineFlag(spec({ enforceEager: true }), 'sglang', 'enforceEager', older)).toEqual(['--disable-cuda-graph']);
  });

  test('values are stringified, 0 included; a switch ignores any value', () => {
    expect(engineFlag('vllm', 'contextLength', 0)).toEqual(['--max-model-len', '0']);
    expect(engineFlag('sglang', 'contextLength', 32768)).toEqual(['--context-length', '32768']);
    expect(engineFlag('vllm', 'model', '')).toEqual(['--model', '']);
    expect(engineFlag('vllm', 'enforceEager', 'ignored')).toEqual(['--enforce-eager']);
  });

  test('a value flag without a value is a programming error', () => {
    expect(() => engineFlag('vllm', 'contextLength')).toThrow('vllm flag --max-model-len (contextLength) needs a value');
    // ...but a setting the engine cannot express never needs one.
    expect(engineFlag('trtllm', 'enforceEager')).toEqual([]);
  });

  test('SGLang caches prefixes by default: "on" is no flag, with the reason', () => {
    expect(engineFlagRule('sglang', 'prefixCachingOn')).toEqual({ kind: 'engineDefault', reason: expect.stringContaining('radix cache') });
    expect(engineFlagKey('sglang', 'prefixCachingOn')).toBeUndefined();
  });

  test('what TensorRT-LLM and llama.cpp cannot express, and why', () => {
    for (const setting of ['trustRemoteCode', 'prefixCachingOn', 'prefixCachingOff', 'enforceEager'] as const) {
      expect(engineFlagRule('trtllm', setting)).toEqual({ kind: 'notExpressible', reason: expect.stringContaining('only applicable for vllm and sglang') });
    }
    for (const setting of ENGINE_SETTINGS) {
      expect(engineFlagRule('llamacpp', setting)).toEqual({ kind: 'notExpressible', reason: expect.stringContaining("KAITO's llama.cpp runtime") });
    }
  });
});

describe('spec fields', () => {
  test('each spec-read setting names its field', () => {
    expect(SPEC_ENGINE_SETTING_FIELDS).toEqual({
      model: 'spec.model.id',
      servedModelName: 'spec.model.servedName',
      contextLength: 'spec.engine.contextLength',
      trustRemoteCode: 'spec.engine.trustRemoteCode',
      prefixCachingOn: 'spec.engine.enablePrefixCaching',
      prefixCachingOff: 'spec.engine.enablePrefixCaching',
      enforceEager: 'spec.engine.enforceEager',
    });
  });

  test('the model id is always set, even empty (AI Runway passes it; the engine reports it)', () => {
    expect(specEngineSetting(spec(), 'model')).toBe('org/model');
    expect(specEngineSetting(spec({}, { id: '' }), 'model')).toBe('');
    expect(specEngineSetting(spec({}, { id: undefined }), 'model')).toBe('');
    expect(specEngineFlag(spec({}, { id: undefined }), 'sglang', 'model')).toEqual(['--model-path', '']);
  });

  test('an empty served name is unset', () => {
    expect(specEngineSetting(spec({}, { servedName: '' }), 'servedModelName')).toBeUndefined();
    expect(specEngineFlag(spec({}, { servedName: 'chat' }), 'trtllm', 'servedModelName')).toEqual(['--served-model-name', 'chat']);
  });

  test('contextLength is a pointer: 0 is set, null and absent are not', () => {
    expect(specEngineFlag(spec({ contextLength: 0 }), 'vllm', 'contextLength')).toEqual(['--max-model-len', '0']);
    expect(specEngineFlag(spec({ contextLength: null as unknown as number }), 'vllm', 'contextLength')).toEqual([]);
    expect(specEngineFlag(spec(), 'vllm', 'contextLength')).toEqual([]);
    expect(specEngineFlag(spec({ contextLength: 4096 }), 'trtllm', 'contextLength')).toEqual(['--max-seq-len', '4096']);
  });

  test.each([
    [undefined, [], []],
    [true, ['--enable-prefix-caching'], []],
    [false, [], ['--no-enable-prefix-caching']],
  ])('enablePrefixCaching %s: on renders %j, off renders %j', (value, on, off) => {
    const s = spec(value === undefined ? {} : { enablePrefixCaching: value });
    expect(specEngineFlag(s, 'vllm', 'prefixCachingOn')).toEqual(on);
    expect(specEngineFlag(s, 'vllm', 'prefixCachingOff')).toEqual(off);
  });

  test.each(['trustRemoteCode', 'enforceEager'] as const)('%s renders only when true', (field) => {
    const flag = EXPECTED.vllm[field];
    expect(specEngineFlag(spec({ [field]: true }), 'vllm', field)).toEqual(flag);
    expect(specEngineFlag(spec({ [field]: false }), 'vllm', field)).toEqual([]);
    expect(specEngineFlag(spec(), 'vllm', field)).toEqual([]);
  });

  test('a fully set spec, per engine, in the given order', () => {
    const full = spec(
      { contextLength: 8192, trustRemoteCode: true, enablePrefixCaching: true, enforceEager: true },
      { servedName: 'chat' },
    );
    const order: SpecEngineSetting[] = ['model', 'servedModelName', 'contextLength', 'trustRemoteCode', 'prefixCachingOn', 'prefixCachingOff', 'enforceEager'];
    expect(specEngineFlags(full, 'vllm', order)).toEqual([
      '--model', 'org/model', '--served-model-name', 'chat', '--max-model-len', '8192',
      '--trust-remote-code', '--enable-prefix-caching', '--enforce-eager',
    ]);
    expect(specEngineFlags(full, 'sglang', order)).toEqual([
      '--model-path', 'org/model', '--served-model-name', 'chat', '--context-length', '8192',
      '--trust-remote-code', '--cuda-graph-backend-decode', 'disabled', '--cuda-graph-backend-prefill', 'disabled',
    ]);
    expect(specEngineFlags({ ...full, engine: { ...full.engine, enablePrefixCaching: false } }, 'sglang', ['prefixCachingOn', 'prefixCachingOff'])).toEqual(['--disable-radix-cache']);
    expect(specEngineFlags(full, 'trtllm', order)).toEqual(['--model-path', 'org/model', '--served-model-name', 'chat', '--max-seq-len', '8192']);
    expect(specEngineFlags(full, 'llamacpp', order)).toEqual([]);
    // The order is the caller's.
    expect(specEngineFlags(full, 'vllm', ['enforceEager', 'model'])).toEqual(['--enforce-eager', '--model', 'org/model']);
  });

  test('settings whose flag the user sets by hand are skipped', () => {
    const s = spec(
      { contextLength: 8192, enforceEager: true, args: { 'max-model-len': '4096' }, extraArgs: ['--enforce-eager', '--model=other'] },
    );
    const explicit = explicitEngineFlagKeys(s);
    expect([...explicit].sort()).toEqual(['enforce-eager', 'max-model-len', 'model']);
    expect(specEngineFlags(s, 'vllm', ['model', 'contextLength', 'enforceEager'], explicit)).toEqual([]);
    // The key is the engine's: sglang's context flag is a different one, so it is not skipped.
    expect(specEngineFlags(s, 'sglang', ['model', 'contextLength'], explicit)).toEqual(['--model-path', 'org/model', '--context-length', '8192']);
  });
});

describe('tensor parallelism', () => {
  test.each([
    [0, []],
    [1, []],
    [Number.NaN, []],
    [2, ['--tensor-parallel-size', '2']],
    [8, ['--tensor-parallel-size', '8']],
  ])('vllm with %s GPUs renders %j', (gpus, expected) => {
    expect(tensorParallelFlag('vllm', gpus)).toEqual(expected);
  });

  test('skipped when the user sets it; nothing for llama.cpp', () => {
    expect(tensorParallelFlag('vllm', 4, new Set(['tensor-parallel-size']))).toEqual([]);
    expect(tensorParallelFlag('vllm', 4, new Set(['tp-size']))).toEqual(['--tensor-parallel-size', '4']);
    expect(tensorParallelFlag('sglang', 4)).toEqual(['--tensor-parallel-size', '4']);
    expect(tensorParallelFlag('trtllm', 4)).toEqual(['--tensor-parallel-size', '4']);
    expect(tensorParallelFlag('llamacpp', 4)).toEqual([]);
  });
});
