import { applyDefaults } from '../../src/admission/defaulting';
import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import type { ModelDeploymentObject } from '../../src/core/model-deployment-object';

function md(spec: ModelDeploymentSpec, name = 'qwen'): ModelDeploymentObject {
  return { name, namespace: 'team-a', spec };
}

const ENGINE_DEFAULTS = { enablePrefixCaching: true, trustRemoteCode: false, enforceEager: false };

describe('applyDefaults', () => {
  test('the minimal GPU deployment of §10.1 is stored with every default', () => {
    const out = applyDefaults(md({ model: { id: 'Qwen/Qwen3-0.6B' }, engine: { type: 'vllm' } }));
    expect(out.spec).toEqual({
      model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
      engine: { type: 'vllm', ...ENGINE_DEFAULTS },
      serving: { mode: 'aggregated' },
      scaling: { replicas: 1 },
      resources: { gpu: { count: 1, type: 'nvidia.com/gpu' } },
    });
  });

  test('keeps the metadata and never mutates its input', () => {
    const input = md({
      model: { id: 'm', storage: { volumes: [{ name: 'w', purpose: 'modelCache', size: '1Gi' }] } },
      engine: { type: 'vllm' },
      scaling: { prefill: {} },
    });
    const before = JSON.parse(JSON.stringify(input));
    const out = applyDefaults({ ...input, labels: { a: 'b' }, annotations: { c: 'd' } });
    expect(input).toEqual(before);
    expect(out.spec).not.toBe(input.spec);
    expect(out.name).toBe('qwen');
    expect(out.namespace).toBe('team-a');
    expect(out.labels).toEqual({ a: 'b' });
    expect(out.annotations).toEqual({ c: 'd' });
  });

  test('is idempotent', () => {
    const once = applyDefaults(md({ model: { id: 'm' }, engine: { type: 'sglang' }, scaling: { prefill: {} } }));
    expect(applyDefaults(once)).toEqual(once);
  });

  describe('model source', () => {
    test('defaults an absent or empty source to huggingface', () => {
      expect(applyDefaults(md({ model: { id: 'm' } })).spec.model.source).toBe('huggingface');
      expect(applyDefaults(md({ model: { id: 'm', source: '' as never } })).spec.model.source).toBe('huggingface');
    });

    test('keeps custom', () => {
      expect(applyDefaults(md({ model: { source: 'custom' } })).spec.model.source).toBe('custom');
    });
  });

  describe('serving mode', () => {
    test('creates serving when absent and fills an empty mode', () => {
      expect(applyDefaults(md({ model: { id: 'm' } })).spec.serving).toEqual({ mode: 'aggregated' });
      expect(applyDefaults(md({ model: { id: 'm' }, serving: {} })).spec.serving).toEqual({ mode: 'aggregated' });
      expect(applyDefaults(md({ model: { id: 'm' }, serving: { mode: '' as never } })).spec.serving).toEqual({ mode: 'aggregated' });
    });

    test('keeps disaggregated', () => {
      expect(applyDefaults(md({ model: { id: 'm' }, serving: { mode: 'disaggregated' } })).spec.serving).toEqual({ mode: 'disaggregated' });
    });
  });

  describe('scaling', () => {
    test('adds one replica only in aggregated mode', () => {
      expect(applyDefaults(md({ model: { id: 'm' } })).spec.scaling).toEqual({ replicas: 1 });
      expect(applyDefaults(md({ model: { id: 'm' }, serving: { mode: 'disaggregated' } })).spec.scaling).toBeUndefined();
    });

    test('keeps an explicit replicas: 0 (scale to zero)', () => {
      expect(applyDefaults(md({ model: { id: 'm' }, scaling: { replicas: 0 } })).spec.scaling).toEqual({ replicas: 0 });
    });

    test('fills replicas inside present scaling, prefill and decode objects (CRD defaults)', () => {
      const out = applyDefaults(
        md({
          model: { id: 'm' },
          serving: { mode: 'disaggregated' },
          scaling: { prefill: { gpu: { count: 2 } }, decode: { replicas: 0, gpu: {} } },
        }),
      );
      expect(out.spec.scaling).toEqual({
        replicas: 1,
        prefill: { replicas: 1, gpu: { count: 2, type: 'nvidia.com/gpu' } },
        decode: { replicas: 0, gpu: { count: 0, type: 'nvidia.com/gpu' } },
      });
    });

    test('leaves an absent component absent', () => {
      const out = applyDefaults(md({ model: { id: 'm' }, scaling: { replicas: 3 } }));
      expect(out.spec.scaling).toEqual({ replicas: 3 });
    });
  });

  describe('GPU default', () => {
    test.each(['vllm', 'sglang', 'trtllm'] as const)('adds one GPU for an explicit %s engine', (type) => {
      expect(applyDefaults(md({ model: { id: 'm' }, engine: { type } })).spec.resources).toEqual({
        gpu: { count: 1, type: 'nvidia.com/gpu' },
      });
    });

    test('adds no GPU for llamacpp', () => {
      expect(applyDefaults(md({ model: { id: 'm' }, engine: { type: 'llamacpp' } })).spec.resources).toBeUndefined();
    });

    test('adds no GPU when the engine is left to auto-selection', () => {
      expect(applyDefaults(md({ model: { id: 'm' } })).spec.resources).toBeUndefined();
      expect(applyDefaults(md({ model: { id: 'm' }, engine: { contextLength: 4096 } })).spec.resources).toBeUndefined();
    });

    test('adds no GPU when any resources block is present', () => {
      const out = applyDefaults(md({ model: { id: 'm' }, engine: { type: 'vllm' }, resources: { cpu: '4', memory: '8Gi' } }));
      expect(out.spec.resources).toEqual({ cpu: '4', memory: '8Gi' });
    });

    test('adds no GPU when the legacy spec.image is set', () => {
      expect(applyDefaults(md({ model: { id: 'm' }, engine: { type: 'vllm' }, image: 'vllm/vllm-openai:v1' })).spec.resources).toBeUndefined();
    });

    test('still adds the GPU when only spec.engine.image is set', () => {
      const out = applyDefaults(md({ model: { id: 'm' }, engine: { type: 'vllm', image: 'vllm/vllm-openai:v1' } }));
      expect(out.spec.resources).toEqual({ gpu: { count: 1, type: 'nvidia.com/gpu' } });
    });

    test('adds no GPU in disaggregated mode', () => {
      const out = applyDefaults(md({ model: { id: 'm' }, engine: { type: 'vllm' }, serving: { mode: 'disaggregated' } }));
      expect(out.spec.resources).toBeUndefined();
    });

    test('keeps an explicit gpu.count: 0 and fills its type', () => {
      const out = applyDefaults(md({ model: { id: 'm' }, engine: { type: 'vllm' }, resources: { gpu: { count: 0 } } }));
      expect(out.spec.resources).toEqual({ gpu: { count: 0, type: 'nvidia.com/gpu' } });
    });

    test('fills count 0 and the type inside a present empty gpu', () => {
      expect(applyDefaults(md({ model: { id: 'm' }, resources: { gpu: {} } })).spec.resources).toEqual({
        gpu: { count: 0, type: 'nvidia.com/gpu' },
      });
      expect(applyDefaults(md({ model: { id: 'm' }, resources: { gpu: { count: 2, type: '' } } })).spec.resources).toEqual({
        gpu: { count: 2, type: 'nvidia.com/gpu' },
      });
    });

    test('keeps a non-NVIDIA GPU resource name', () => {
      const out = applyDefaults(md({ model: { id: 'm' }, resources: { gpu: { count: 1, type: 'amd.com/gpu' } } }));
      expect(out.spec.resources?.gpu).toEqual({ count: 1, type: 'amd.com/gpu' });
    });
  });

  describe('engine (always materialised)', () => {
    test('adds spec.engine with the CRD defaults when omitted', () => {
      expect(applyDefaults(md({ model: { id: 'm' } })).spec.engine).toEqual(ENGINE_DEFAULTS);
    });

    test('materialises engine even when no webhook default fires', () => {
      const out = applyDefaults(
        md({ model: { id: 'm', source: 'huggingface' }, serving: { mode: 'aggregated' }, scaling: { replicas: 1 }, resources: { cpu: '2' } }),
      );
      expect(out.spec.engine).toEqual(ENGINE_DEFAULTS);
    });

    test('keeps explicit false and true values', () => {
      const out = applyDefaults(md({ model: { id: 'm' }, engine: { enablePrefixCaching: false, trustRemoteCode: true, enforceEager: true } }));
      expect(out.spec.engine).toEqual({ enablePrefixCaching: false, trustRemoteCode: true, enforceEager: true });
    });

    test('keeps an explicit contextLength: 0', () => {
      expect(applyDefaults(md({ model: { id: 'm' }, engine: { contextLength: 0 } })).spec.engine?.contextLength).toBe(0);
    });
  });

  describe('storage volumes', () => {
    test('defaults purpose, mountPath, readOnly, and claimName/accessMode for managed volumes (§10.4)', () => {
      const out = applyDefaults(
        md(
          {
            model: {
              id: 'meta-llama/Llama-3.1-8B-Instruct',
              storage: {
                volumes: [
                  { name: 'weights', purpose: 'modelCache', size: '200Gi', storageClassName: 'fast-rwx' },
                  { name: 'scratch', claimName: 'shared-scratch', mountPath: '/scratch', readOnly: true },
                ],
              },
            },
          },
          'llama',
        ),
      );
      expect(out.spec.model.storage?.volumes).toEqual([
        {
          name: 'weights',
          purpose: 'modelCache',
          size: '200Gi',
          storageClassName: 'fast-rwx',
          claimName: 'llama-weights',
          accessMode: 'ReadWriteMany',
          mountPath: '/model-cache',
          readOnly: false,
        },
        { name: 'scratch', claimName: 'shared-scratch', mountPath: '/scratch', readOnly: true, purpose: 'custom' },
      ]);
    });

    test('defaults the compilation cache mount path', () => {
      const out = applyDefaults(md({ model: { id: 'm', storage: { volumes: [{ name: 'cc', purpose: 'compilationCache', claimName: 'cc' }] } } }));
      expect(out.spec.model.storage?.volumes?.[0].mountPath).toBe('/compilation-cache');
    });

    test('gives a custom volume no mount path', () => {
      const out = applyDefaults(md({ model: { id: 'm', storage: { volumes: [{ name: 'x', claimName: 'x' }] } } }));
      expect(out.spec.model.storage?.volumes?.[0]).toEqual({ name: 'x', claimName: 'x', purpose: 'custom', readOnly: false });
    });

    test('sets claimName and accessMode only when size is set', () => {
      const out = applyDefaults(md({ model: { id: 'm', storage: { volumes: [{ name: 'w', purpose: 'modelCache' }] } } }));
      const volume = out.spec.model.storage?.volumes?.[0];
      expect(volume?.claimName).toBeUndefined();
      expect(volume?.accessMode).toBeUndefined();
    });

    test('treats a numeric size of 0 as set', () => {
      const out = applyDefaults(md({ model: { id: 'm', storage: { volumes: [{ name: 'w', size: 0, mountPath: '/w' }] } } }));
      expect(out.spec.model.storage?.volumes?.[0]).toMatchObject({ claimName: 'qwen-w', accessMode: 'ReadWriteMany' });
    });

    test('treats an empty size string as unset', () => {
      const out = applyDefaults(md({ model: { id: 'm', storage: { volumes: [{ name: 'w', size: '', mountPath: '/w' }] } } }));
      const volume = out.spec.model.storage?.volumes?.[0];
      expect(volume?.claimName).toBeUndefined();
      expect(volume?.accessMode).toBeUndefined();
    });

    test('keeps user-set claimName, accessMode and mountPath', () => {
      const out = applyDefaults(
        md({
          model: {
            id: 'm',
            storage: { volumes: [{ name: 'w', purpose: 'modelCache', size: '1Gi', claimName: 'mine', accessMode: 'ReadWriteOnce', mountPath: '/hf' }] },
          },
        }),
      );
      expect(out.spec.model.storage?.volumes?.[0]).toMatchObject({ claimName: 'mine', accessMode: 'ReadWriteOnce', mountPath: '/hf' });
    });
  });

  test('treats null like absent', () => {
    const out = applyDefaults(md({ model: { id: 'm' }, engine: { type: 'vllm', enablePrefixCaching: null }, resources: null, scaling: null } as never));
    expect(out.spec.engine?.enablePrefixCaching).toBe(true);
    expect(out.spec.resources).toEqual({ gpu: { count: 1, type: 'nvidia.com/gpu' } });
    expect(out.spec.scaling).toEqual({ replicas: 1 });
  });
});
