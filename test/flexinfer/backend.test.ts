import { canonicalBackendName, FlexInferBackend } from '../../src/flexinfer/backend';

describe('FlexInferBackend', () => {
  test.each([
    [FlexInferBackend.VLLM, 'vllm', 8000, false],
    [FlexInferBackend.VLLM_OMNI, 'vllm-omni', 8000, false],
    [FlexInferBackend.LLAMA_CPP, 'llamacpp', 8080, true],
    [FlexInferBackend.OLLAMA, 'ollama', 11434, false],
    [FlexInferBackend.MLC_LLM, 'mlc-llm', 8000, false],
    [FlexInferBackend.DIFFUSERS, 'diffusers', 8000, false],
    [FlexInferBackend.COMFYUI, 'comfyui', 8188, false],
  ])('%j: name, port and CPU support of the built-in backends', (backend, name, port, cpu) => {
    expect([backend.name, backend.canonicalName, backend.port, backend.supportsCpu]).toEqual([name, name, port, cpu]);
  });

  test("an alias keeps its spelling in spec.backend and resolves like FlexInfer's registry", () => {
    const alias = FlexInferBackend.of('Llama.CPP');
    expect([alias.name, alias.canonicalName, alias.port, alias.supportsCpu]).toEqual(['Llama.CPP', 'llamacpp', 8080, true]);
    expect(['llama-cpp', 'llama_cpp', 'mlc', 'mlc_llm', 'mlc-llm-chat', 'comfy', 'comfy-ui', 'comfy_ui', 'vllm-diffusion', 'vllm_omni'].map(canonicalBackendName))
      .toEqual(['llamacpp', 'llamacpp', 'mlc-llm', 'mlc-llm', 'mlc-llm', 'comfyui', 'comfyui', 'comfyui', 'vllm-omni', 'vllm-omni']);
  });

  test('an unknown backend is accepted, with nothing known about it', () => {
    const custom = FlexInferBackend.of('tgi');
    expect([custom.name, custom.port, custom.supportsCpu]).toEqual(['tgi', undefined, undefined]);
  });
});
