import { Chart, Duration, JsonPatch, Size, Testing } from 'cdk8s';
import { Cpu, TaintEffect } from 'cdk8s-plus-34';
import {
  FlexInferBackend,
  FlexInferCacheStrategy,
  FlexInferGpuVendor,
  FlexInferKvCachePressurePolicy,
  FlexInferKvCacheReconfigureStrategy,
  FlexInferModel,
  FlexInferModelProps,
  FlexInferModelSource,
  FlexInferTolerationOperator,
} from '../../src/flexinfer';
import { expectValidManifests, validateManifests } from '../support/schema-validator';

const QWEN = FlexInferModelSource.huggingFace('Qwen/Qwen3-0.6B');

/** A chart with one FlexInferModel named `qwen`; returns the construct and the synthesized Model. */
function synth(props: Partial<FlexInferModelProps> = {}, name = 'qwen') {
  const chart = Testing.chart();
  const model = new FlexInferModel(chart, 'Qwen', {
    metadata: { name },
    backend: FlexInferBackend.VLLM,
    source: QWEN,
    gpu: { vendor: FlexInferGpuVendor.NVIDIA },
    ...props,
  });
  return { chart, model, errors: () => model.node.validate() };
}

function manifestOf(props: Partial<FlexInferModelProps> = {}): any {
  const { chart } = synth(props);
  const manifests = Testing.synth(chart);
  expectValidManifests(manifests);
  return manifests[0];
}

describe('FlexInferModel', () => {
  test('minimal Model: backend, source and GPU vendor', () => {
    const m = manifestOf();
    expect(m).toEqual({
      apiVersion: 'ai.flexinfer/v1alpha2',
      kind: 'Model',
      metadata: { name: 'qwen' },
      spec: { backend: 'vllm', source: 'HF://Qwen/Qwen3-0.6B', gpu: { vendor: 'nvidia' } },
    });
  });

  test('every setting, matching the snapshot', () => {
    const m = manifestOf({
      image: 'rocm/vllm:v0.11',
      gpu: { vendor: FlexInferGpuVendor.AMD, count: 2, shared: 'gfx1100', priority: 700, vramEstimateMb: 20000, swapCooldown: Duration.minutes(10) },
      serverless: { minReplicas: 1, idleTimeout: Duration.minutes(15), coldStartTimeout: Duration.seconds(150) },
      cache: { strategy: FlexInferCacheStrategy.SHARED_PVC, pvcName: 'models', storageClass: 'nfs', size: Size.gibibytes(200) },
      config: { maxModelLen: 32768 },
      resources: {
        cpu: { request: Cpu.units(4), limit: Cpu.units(8) },
        memory: { request: Size.gibibytes(32), limit: Size.gibibytes(48) },
        ephemeralStorage: { request: Size.gibibytes(1), limit: Size.gibibytes(2) },
      },
      nodeSelector: { 'node.flexstack.io/gpu-vendor': 'amd' },
      tolerations: [{ key: 'amd.com/gpu', matchOperator: FlexInferTolerationOperator.EXISTS, effect: TaintEffect.NO_SCHEDULE }, { key: 'spot', value: 'true', effect: TaintEffect.NO_EXECUTE, tolerationSeconds: Duration.minutes(2) }],
      liteLlm: { servedModelName: 'qwen3', aliases: ['qwen'], copilotAlias: 'gpt-4o' },
      serviceLabels: ['textgen'],
      capabilities: { toolCalling: true, vision: false },
      kvCache: {
        pressurePolicy: FlexInferKvCachePressurePolicy.RECONFIGURE,
        highWatermark: 0.9,
        lowWatermark: 0.5,
        maxBlockSize: 16,
        swapSpaceGib: 4,
        reconfigureCooldown: Duration.minutes(3),
        reconfigureStrategy: FlexInferKvCacheReconfigureStrategy.BOTH,
      },
    });
    expect(m).toMatchSnapshot();
    expect(m.spec.gpu).toEqual({ vendor: 'amd', count: 2, shared: 'gfx1100', priority: 700, vramEstimateMB: 20000, swapCooldown: '10m' });
    expect(m.spec.serverless).toEqual({ minReplicas: 1, idleTimeout: '15m', coldStartTimeout: '2m30s' });
    expect(m.spec.kvCache.highWatermark).toBe('0.9');
  });

  test('a gpu block without settings is written (it is what makes the Model a GPU model)', () => {
    expect(manifestOf({ gpu: {} }).spec.gpu).toEqual({});
    expect(manifestOf({ liteLlm: {} }).spec.litellm).toEqual({});
  });

  test('addConfig and addServiceLabel apply after construction', () => {
    const { chart, model } = synth({ config: { dtype: 'bfloat16' }, serviceLabels: ['a'] });
    model.addConfig('maxModelLen', 8192);
    model.addConfig('dtype', 'float16');
    model.addServiceLabel('b');
    expect(Testing.synth(chart)[0].spec).toMatchObject({ config: { dtype: 'float16', maxModelLen: 8192 }, serviceLabels: ['a', 'b'] });
  });

  test('exposes its name, backend, source and port', () => {
    const { model } = synth();
    expect([model.name, model.backend.name, model.source.uri, model.port]).toEqual(['qwen', 'vllm', 'HF://Qwen/Qwen3-0.6B', 8000]);
    expect(synth({ backend: FlexInferBackend.of('my-backend'), gpu: {} }).model.port).toBeUndefined();
  });

  test('llama.cpp on CPU', () => {
    const m = manifestOf({ backend: FlexInferBackend.LLAMA_CPP, gpu: { vendor: FlexInferGpuVendor.CPU }, cache: { strategy: FlexInferCacheStrategy.LOCAL, hostPath: '/mnt/nvme' }, config: { ggufFile: 'q4.gguf' } });
    expect(m.spec).toMatchObject({ backend: 'llamacpp', gpu: { vendor: 'cpu' }, cache: { strategy: 'Local', hostPath: '/mnt/nvme' } });
    expect(manifestOf({ backend: FlexInferBackend.LLAMA_CPP, gpu: undefined, config: { ggufFile: 'q4.gguf' } }).spec.gpu).toBeUndefined();
  });

  test('the escape hatch reaches the final JSON', () => {
    const { chart, model } = synth();
    model.apiObject.addJsonPatch(JsonPatch.add('/spec/quantize', { format: 'AWQ' }));
    expect(Testing.synth(chart)[0].spec.quantize).toEqual({ format: 'AWQ' });
  });

  describe('validation at synth', () => {
    test('a valid Model has no errors', () => {
      expect(synth().errors()).toEqual([]);
    });

    test('fails when vendor cpu is combined with a count, a VRAM estimate or a shared group (CRD CEL rules)', () => {
      const { errors } = synth({ backend: FlexInferBackend.LLAMA_CPP, gpu: { vendor: FlexInferGpuVendor.CPU, count: 1, vramEstimateMb: 100, shared: 'g' } });
      expect(errors()).toEqual([
        'spec.gpu.count: Forbidden: gpu.count must be omitted when gpu.vendor is cpu',
        'spec.gpu.vramEstimateMB: Forbidden: gpu.vramEstimateMB must be omitted when gpu.vendor is cpu',
        'spec.gpu.shared: Forbidden: gpu.shared must be empty when gpu.vendor is cpu',
      ]);
    });

    test('fails when a GPU-only backend runs on CPU, or without a gpu block (the seed: CPU-only)', () => {
      expect(synth({ gpu: { vendor: FlexInferGpuVendor.CPU } }).errors()).toEqual([
        'spec.gpu.vendor: Invalid value: "cpu": FlexInfer\'s vllm backend runs on NVIDIA or AMD GPUs only; set gpu.vendor to auto, nvidia or amd, or use backend llamacpp',
      ]);
      expect(synth({ gpu: undefined }).errors()).toEqual([
        'spec.gpu: Required value: FlexInfer\'s vllm backend runs on NVIDIA or AMD GPUs only; a Model without spec.gpu runs CPU-only: set gpu.vendor (auto, nvidia or amd)',
      ]);
    });

    test('fails when numbers are out of the CRD bounds', () => {
      const { errors } = synth({ gpu: { count: 9, priority: 1001, shared: 'g', vramEstimateMb: 0.5 }, serverless: { minReplicas: 11 } });
      expect(errors()).toEqual([
        'spec.gpu.count: Invalid value: 9: a FlexInfer Model takes 1 to 8 GPUs per replica',
        'spec.gpu.priority: Invalid value: 1001: must be a whole number from 0 to 1000',
        'spec.gpu.vramEstimateMB: Invalid value: 0.5: must be a whole number of megabytes, at least 1',
        'spec.serverless.minReplicas: Invalid value: 11: must be a whole number from 0 to 10',
      ]);
    });

    test('fails when priority or swap cooldown are set outside a shared group', () => {
      expect(synth({ gpu: { priority: 5, swapCooldown: Duration.minutes(6) } }).errors()).toEqual([
        'spec.gpu.priority: Invalid value: 5: priority only orders the models of a shared GPU group; set gpu.shared too',
        'spec.gpu.swapCooldown: Invalid value: "6m": the swap cooldown belongs to a shared GPU group; set gpu.shared too',
      ]);
    });

    test('fails when serverless settings are given with serverless off, or a timeout is zero', () => {
      expect(synth({ serverless: { enabled: false, minReplicas: 1, idleTimeout: Duration.seconds(0) } }).errors()).toEqual([
        'spec.serverless.idleTimeout: Invalid value: "0s": must be a positive Go duration such as "90s", "5m" or "1h30m"',
        'spec.serverless.minReplicas: Invalid value: 1: has no effect when serverless.enabled is false (the model then runs exactly one replica)',
        'spec.serverless.idleTimeout: Invalid value: "0s": has no effect when serverless.enabled is false (the model then runs exactly one replica)',
      ]);
    });

    test('fails when the node selector names another vendor (CRD CEL rule)', () => {
      expect(synth({ nodeSelector: { 'node.flexstack.io/gpu-vendor': 'amd' } }).errors()).toEqual([
        'spec.nodeSelector["node.flexstack.io/gpu-vendor"]: Invalid value: "amd": must match the GPU vendor of the Model (nvidia, from spec.gpu.vendor): the Model\'s CRD requires the two to agree',
      ]);
      expect(synth({ gpu: {}, nodeSelector: { 'node.flexstack.io/gpu-vendor': 'amd' } }).errors()).toEqual([]);
    });

    test('fails when a pvc:// source uses the Memory cache (CRD CEL rule)', () => {
      expect(synth({ source: FlexInferModelSource.persistentVolumeClaim('weights', 'qwen'), cache: { strategy: FlexInferCacheStrategy.MEMORY } }).errors()).toEqual([
        expect.stringMatching(/^spec\.cache\.strategy: Invalid value: "Memory": spec\.cache\.strategy must be SharedPVC, Local, or None when spec\.source is pvc:\/\//),
      ]);
    });

    test('fails when cache fields belong to another strategy', () => {
      expect(synth({ cache: { strategy: FlexInferCacheStrategy.NONE, pvcName: 'x', size: Size.gibibytes(1), hostPath: '/x' } }).errors()).toEqual([
        'spec.cache.pvcName: Invalid value: "x": only applies to the SharedPVC cache strategy (here: None); set cache.strategy: SharedPVC',
        'spec.cache.size: Invalid value: "1Gi": only applies to the SharedPVC cache strategy (here: None); set cache.strategy: SharedPVC',
        'spec.cache.hostPath: Invalid value: "/x": only applies to the Local cache strategy (here: None); set cache.strategy: Local',
      ]);
      expect(synth({ gpu: { shared: 'g' }, cache: { pvcName: 'x' } }).errors()).toEqual([
        'spec.cache.pvcName: Invalid value: "x": only applies to the SharedPVC cache strategy (here: Memory); set cache.strategy: SharedPVC',
      ]);
      expect(synth({ cache: { strategy: FlexInferCacheStrategy.LOCAL, hostPath: 'relative' } }).errors()).toEqual([
        'spec.cache.hostPath: Invalid value: "relative": must be an absolute path on the node',
      ]);
      expect(synth({ cache: { pvcName: 'Bad_Name' } }).errors()).toEqual([expect.stringMatching(/^spec\.cache\.pvcName: Invalid value: "Bad_Name": must be a claim name/)]);
    });

    test('fails when GPUs are set through resources (CRD CEL rule)', () => {
      const { chart, model } = synth();
      model.apiObject.addJsonPatch(JsonPatch.add('/spec/resources', { limits: { 'nvidia.com/gpu': 1 } }));
      expect(validateManifests(Testing.synth(chart)).map((v) => v.message)).toEqual([expect.stringContaining('Do not set GPU limits')]);
    });

    test.each([
      ['hf://Qwen/Qwen3', 'must start with HF:// (in capitals), ollama://, file:// or pvc://; FlexInfer matches the scheme exactly'],
      ['HF://', 'a Hugging Face source names a repository: HF://<org>/<model>'],
      ['HF://a/b/c', 'a Hugging Face source names a repository: HF://<org>/<model>'],
      ['ollama://llama3:8b', 'only the ollama backend pulls ollama:// models; backend "vllm" cannot'],
      ['ollama://', 'an Ollama source names a model: ollama://<model>:<tag>'],
      ['file://models/x', 'a file source is an absolute path inside the container: file:///<path>'],
      ['pvc://', 'a PVC source is pvc://<claim>[/<path>] with a valid claim name'],
      ['pvc://weights/../x', 'the path inside the claim may not contain ".."'],
    ])('fails when the source is %j', (uri, message) => {
      expect(synth({ source: FlexInferModelSource.fromUri(uri) }).errors()[0]).toContain(`spec.source: Invalid value: ${JSON.stringify(uri)}: ${message}`);
    });

    test('fails when backend or source is empty', () => {
      expect(synth({ backend: FlexInferBackend.of(''), source: FlexInferModelSource.fromUri(''), gpu: {} }).errors()).toEqual([
        'spec.backend: Required value: a Model needs a backend, e.g. vllm or llamacpp',
        'spec.source: Required value: a Model needs a source: HF://org/model, ollama://model:tag, file:///path or pvc://claim/path',
      ]);
    });

    test('accepts the ollama backend with an ollama:// source', () => {
      expect(synth({ backend: FlexInferBackend.OLLAMA, source: FlexInferModelSource.ollama('llama3:8b') }).errors()).toEqual([]);
    });

    test('fails when lists break FlexInfer\'s comma-joined annotations or exceed 10 labels', () => {
      const { errors } = synth({ serviceLabels: ['a,b', ...'cdefghijk'.split('')], liteLlm: { aliases: [''] } });
      expect(errors()).toEqual([
        'spec.serviceLabels[0]: Invalid value: "a,b": must be a non-empty label without commas (FlexInfer joins them with commas)',
        'spec.litellm.aliases[0]: Invalid value: "": must be a non-empty model name without commas (FlexInfer joins them with commas)',
      ]);
      expect(synth({ serviceLabels: 'abcdefghijk'.split('') }).errors()).toEqual(['spec.serviceLabels: Invalid value: ["a","b","c","d","e","f","g","h","i","j","k"]: lists 11 names; a FlexInfer Model takes at most 10']);
    });

    test('fails when KV-cache settings are out of range', () => {
      const { errors } = synth({ kvCache: { highWatermark: 1.5, lowWatermark: 0.5, maxBlockSize: 0, swapSpaceGib: -1 } });
      expect(errors()).toEqual([
        'spec.kvCache.highWatermark: Invalid value: "1.5": must be a utilization ratio above 0 and at most 1, such as "0.85"',
        'spec.kvCache.maxBlockSize: Invalid value: 0: must be a whole number of tokens, at least 1',
        'spec.kvCache.swapSpace: Invalid value: "-1": must be a non-negative number of GiB',
      ]);
      expect(synth({ kvCache: { highWatermark: 0.5, lowWatermark: 0.7 } }).errors()).toEqual(['spec.kvCache.lowWatermark: Invalid value: "0.7": must be below highWatermark (0.5)']);
    });

    test('fails when tolerations are malformed', () => {
      expect(synth({ tolerations: [{ matchOperator: FlexInferTolerationOperator.EXISTS, value: 'x' }, { value: 'y' }] }).errors()).toEqual([
        'spec.tolerations[0].value: Invalid value: "x": must be empty when operator is Exists',
        'spec.tolerations[1].key: Required value: a toleration without a key must use operator Exists',
      ]);
    });

    test('fails when the name cannot name FlexInfer\'s Service', () => {
      expect(synth({}, '1qwen').errors()[0]).toMatch(/^metadata\.name: Invalid value: "1qwen": FlexInfer names the Model's Service after it, so it must be a DNS-1035 label/);
    });

    test('App.synth() reports the errors with the construct path', () => {
      const app = Testing.app();
      const chart = new Chart(app, 'c');
      new FlexInferModel(chart, 'Bad', { metadata: { name: 'bad' }, backend: FlexInferBackend.VLLM, source: QWEN, gpu: { count: 0 } });
      expect(() => app.synth()).toThrow(/\[c\/Bad\] spec\.gpu\.count: Invalid value: 0: a FlexInfer Model takes 1 to 8 GPUs per replica/);
    });
  });
});
