import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import { routedModelName } from '../../src/gateway/model-name';

function spec(model: ModelDeploymentSpec['model'], gateway?: ModelDeploymentSpec['gateway']): ModelDeploymentSpec {
  return { model, ...(gateway ? { gateway } : {}) };
}

describe('routedModelName', () => {
  const full = spec({ id: 'Qwen/Qwen3-0.6B', servedName: 'qwen3' }, { modelName: 'qwen-gw' });

  test('prefers gateway.modelName', () => {
    expect(routedModelName(full, false)).toBe('qwen-gw');
    expect(routedModelName(full, true)).toBe('qwen-gw');
  });

  test('then servedName', () => {
    expect(routedModelName(spec({ id: 'Qwen/Qwen3-0.6B', servedName: 'qwen3' }, { enabled: true }), false)).toBe('qwen3');
  });

  test('skips servedName when the provider ignores it, falling back to the model id', () => {
    expect(routedModelName(spec({ id: 'Qwen/Qwen3-0.6B', servedName: 'qwen3' }), true)).toBe('Qwen/Qwen3-0.6B');
  });

  test('then the model id (run-time /v1/models discovery is not attempted)', () => {
    expect(routedModelName(spec({ id: 'Qwen/Qwen3-0.6B' }), false)).toBe('Qwen/Qwen3-0.6B');
  });

  test('treats empty strings as unset', () => {
    expect(routedModelName(spec({ id: 'Qwen/Qwen3-0.6B', servedName: '' }, { modelName: '' }), false)).toBe('Qwen/Qwen3-0.6B');
  });

  test('routes on servedName for a custom source too, as AI Runway does', () => {
    expect(routedModelName(spec({ source: 'custom', servedName: 'my-model' }), false)).toBe('my-model');
  });

  test('is undefined when nothing names the model (custom source without names)', () => {
    expect(routedModelName(spec({ source: 'custom' }), false)).toBeUndefined();
    expect(routedModelName(spec({ source: 'custom', id: '' }), false)).toBeUndefined();
    expect(routedModelName(spec({ source: 'custom', servedName: 'ignored' }), true)).toBeUndefined();
  });
});
