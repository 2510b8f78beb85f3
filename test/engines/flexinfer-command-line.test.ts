/**
 * The emulation of FlexInfer's vllm backend (./flexinfer-command-line): the command line, image,
 * parser and GPUs a FlexInfer Model would run with, and that engineCommandLines finds it.
 */
import { parseArgs } from './argparse';
import { parserDefinition } from './conformance';
import { engineCommandLines } from './engine-command-lines';
import { flexInferVllmArgs } from './flexinfer-command-line';

type Json = any;

function model(spec: Json, name = 'm'): Json {
  return {
    apiVersion: 'ai.flexinfer/v1alpha2',
    kind: 'Model',
    metadata: { name, namespace: 'ml', labels: { 'airunway.ai/deployment': name } },
    spec: { backend: 'vllm', source: 'HF://Qwen/Qwen3-8B', gpu: { vendor: 'nvidia', count: 1 }, cache: { strategy: 'None' }, ...spec },
  };
}

const HEAD = ['--host', '0.0.0.0', '--port', '8000'];

describe('FlexInfer vllm backend emulation', () => {
  test('the default image runs `vllm serve`, judged by the nearest parser definition, with the Model\'s GPUs', () => {
    expect(engineCommandLines([model({ gpu: { vendor: 'nvidia', count: 2 } })], 'x')).toEqual([{
      source: 'x: Model ml/m .spec (FlexInfer vllm backend)',
      deployment: 'm',
      namespace: 'ml',
      image: 'vllm/vllm-openai:latest',
      program: ['vllm', 'serve'],
      argv: [...HEAD, '--model', 'Qwen/Qwen3-8B'],
      parser: 'vllm-0.33.0-serve',
      gpus: 2,
      nodes: 1,
    }]);
  });

  test('config keys become flags in the backend\'s order; only the JSON type each key is read as counts', () => {
    const argv = flexInferVllmArgs(model({
      config: {
        servedModelName: 'chat',
        maxModelLen: 8192,
        enforceEager: true,
        trustRemoteCode: true,
        enablePrefixCaching: false,
        gpuMemoryUtilization: '0.85',
        maxNumSeqs: 64,
        quantization: 'fp8',
        enableToolCalling: true,
        disableLogStats: true,
        // Read as a string (ConfigString) or a number (ConfigInt) only: these are dropped.
        dtype: 1,
        maxNumBatchedTokens: '8192',
        kvCacheDtype: true,
      },
    }));
    expect(argv).toEqual([
      ...HEAD, '--model', 'Qwen/Qwen3-8B', '--max-model-len', '8192', '--gpu-memory-utilization', '0.85', '--trust-remote-code',
      '--max-num-seqs', '64', '--enforce-eager', '--quantization', 'fp8', '--served-model-name', 'chat', '--no-enable-prefix-caching',
      '--enable-auto-tool-choice', '--tool-call-parser', 'hermes', '--disable-log-stats',
    ]);
    expect(parseArgs(parserDefinition('vllm-0.33.0-serve'), argv)).toMatchObject({ accepted: true });
  });

  test('prefix caching "on" renders nothing; the attention backend is rendered twice', () => {
    expect(flexInferVllmArgs(model({ config: { enablePrefixCaching: true } }))).toEqual([...HEAD, '--model', 'Qwen/Qwen3-8B']);
    expect(flexInferVllmArgs(model({ config: { attentionBackend: 'FLASH_ATTN' } })))
      .toEqual([...HEAD, '--model', 'Qwen/Qwen3-8B', '--attention-backend', 'FLASH_ATTN', '--attention-backend', 'FLASH_ATTN']);
  });

  test('--model is the mount path where FlexInfer mounts the weights, else the model id', () => {
    const modelArg = (spec: Json) => {
      const argv = flexInferVllmArgs(model(spec));
      return argv[argv.indexOf('--model') + 1];
    };
    expect(modelArg({ cache: { strategy: 'SharedPVC', pvcName: 'c' } })).toBe('/models/m');
    expect(modelArg({ cache: undefined })).toBe('/models/m'); // SharedPVC is the default strategy
    expect(modelArg({ cache: { strategy: 'Local' } })).toBe('Qwen/Qwen3-8B');
    expect(modelArg({ cache: { strategy: 'Memory' } })).toBe('Qwen/Qwen3-8B');
    expect(modelArg({ source: 'pvc://weights/qwen3', cache: { strategy: 'None' } })).toBe('/models/qwen3');
    expect(modelArg({ source: 'pvc://weights', cache: { strategy: 'None' } })).toBe('/models');
    expect(modelArg({ source: 'pvc://weights/qwen3', cache: { strategy: 'Local' } })).toBe('/models/qwen3');
    expect(modelArg({ source: 'file:///opt/qwen3' })).toBe('/opt/qwen3');
  });

  test('an explicit image is run by its entrypoint; images whose program is unknown are unchecked, never dropped', () => {
    // vLLM's images run the API server module up to v0.19, `vllm serve` from v0.20 on.
    const [pinned] = engineCommandLines([model({ image: 'vllm/vllm-openai:v0.11.0' })], 'x');
    expect(pinned).toMatchObject({ program: ['python3', '-m', 'vllm.entrypoints.openai.api_server'], parser: 'vllm-0.11.0-api-server' });
    const [current] = engineCommandLines([model({ image: 'vllm/vllm-openai:v0.33.0' })], 'x');
    expect(current).toMatchObject({ program: ['vllm', 'serve'], parser: 'vllm-0.33.0-serve' });
    const [custom] = engineCommandLines([model({ image: 'example.com/vllm:1' })], 'x');
    expect(custom.parser).toEqual({ unchecked: expect.stringMatching(/^image example.com\/vllm:1: /) });
    const [amd] = engineCommandLines([model({ gpu: { vendor: 'amd', count: 1 } })], 'x');
    expect(amd.parser).toEqual({ unchecked: expect.stringMatching(/AMD vLLM image by the GPU architecture/) });
  });

  test('other backends, and other kinds named Model, give no line', () => {
    expect(engineCommandLines([model({ backend: 'llamacpp' })], 'x')).toEqual([]);
    expect(engineCommandLines([{ ...model({}), apiVersion: 'example.com/v1' }], 'x')).toEqual([]);
  });

  test('KV-cache settings append --block-size and --swap-space (GiB, one decimal)', () => {
    expect(flexInferVllmArgs(model({ kvCache: { maxBlockSize: 32, swapSpace: '4' } })).slice(-4)).toEqual(['--block-size', '32', '--swap-space', '4.0']);
  });
});
