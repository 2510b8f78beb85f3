/**
 * LoRA adapters through the construct: the flags, download init containers and mounts each
 * provider that carries them renders, the routes by adapter name, and the errors of deployments
 * that cannot have them. Every synthesized object is checked against its upstream schema.
 */
import { stringify } from 'yaml';
import { loraAnnotations, podSpecOf, synthLora, TWO_ADAPTERS } from './support';
import { EngineType, LoraSource, ServingMode } from '../../src';
import { LORA_ANNOTATION } from '../../src/api/lora/lora-annotation';

const AT = 'metadata.annotations["inference.cdk8s.io/lora"]';

/** The vLLM flags of TWO_ADAPTERS. */
const TWO_ADAPTER_FLAGS = ['--enable-lora', '--lora-modules', 'sql=/lora-adapters/sql', 'support.v2=/lora-adapters/support.v2', '--max-loras', '2'];

/** Where `sub` starts in `list`, or -1. */
function indexOfRun(list: string[], sub: string[]): number {
  for (let i = 0; i + sub.length <= list.length; i++) if (sub.every((s, j) => list[i + j] === s)) return i;
  return -1;
}

function expectAdapterPod(spec: any, engineContainer: string): void {
  const engine = spec.containers.find((c: any) => c.name === engineContainer);
  expect(indexOfRun(engine.args, TWO_ADAPTER_FLAGS)).toBeGreaterThanOrEqual(0);
  expect(engine.volumeMounts).toEqual(expect.arrayContaining([
    { name: 'lora-adapters', mountPath: '/lora-adapters/sql', subPath: 'sql', readOnly: true },
    { name: 'lora-pvc-0', mountPath: '/lora-adapters/support.v2', subPath: 'support/v2', readOnly: true },
  ]));
  expect(spec.initContainers.map((c: any) => [c.name, c.args])).toEqual([
    ['lora-download-0', ['download', 'acme/sql-lora', '--revision', 'v1', '--local-dir', '/lora-adapters/sql']],
  ]);
  expect(spec.volumes).toEqual(expect.arrayContaining([
    { name: 'lora-adapters', emptyDir: {} },
    { name: 'lora-pvc-0', persistentVolumeClaim: { claimName: 'adapters', readOnly: true } },
  ]));
}

describe('LoRA adapters on Direct vLLM', () => {
  test('flags after the derived flags and before engine.args; a download init container per hf:// adapter; a read-only mount per adapter', () => {
    const { errors, manifests } = synthLora({
      provider: { name: 'vllm' },
      engine: { args: { 'max-num-seqs': '64' } },
      metadata: { annotations: loraAnnotations(TWO_ADAPTERS) },
    });
    expect(errors).toEqual([]);
    const spec = podSpecOf(manifests);
    expectAdapterPod(spec, 'vllm');
    const args: string[] = spec.containers[0].args;
    expect(args.indexOf('--enable-lora')).toBeGreaterThan(args.indexOf('--enable-prefix-caching'));
    expect(args.indexOf('--max-num-seqs')).toBeGreaterThan(args.indexOf('--max-loras'));
    expect(args).not.toContain('--max-lora-rank');
  });

  test('the download container runs as non-root with a read-only root, without privileges, with bounded memory', () => {
    const { manifests } = synthLora({ provider: { name: 'vllm' }, metadata: { annotations: loraAnnotations(TWO_ADAPTERS) } });
    const download = podSpecOf(manifests).initContainers[0];
    expect(download.image).toBe('ghcr.io/ai-runway/airunway/model-downloader:0.3.0');
    expect(download.command).toBeUndefined();
    expect(download.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      runAsUser: 65532,
    });
    expect(download.resources).toEqual({ requests: { cpu: '250m', memory: '512Mi' }, limits: { memory: '2Gi' } });
    expect(download.volumeMounts).toEqual([{ name: 'lora-adapters', mountPath: '/lora-adapters' }]);
  });

  test('the download container gets the token Secret and the Hub settings of spec.env, and nothing else of it', () => {
    const { manifests } = synthLora({
      provider: { name: 'vllm' },
      huggingFaceTokenSecret: 'hf-token',
      env: [{ name: 'HF_ENDPOINT', value: 'https://mirror.example' }, { name: 'HF_TOKEN', value: 'plain' }, { name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' }],
      metadata: { annotations: loraAnnotations(TWO_ADAPTERS) },
    });
    expect(podSpecOf(manifests).initContainers[0].env).toEqual([
      { name: 'HF_HOME', value: '/lora-adapters/.hf-home' },
      { name: 'HF_ENDPOINT', value: 'https://mirror.example' },
      { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf-token', key: 'HF_TOKEN' } } },
    ]);
  });

  test('adapters from the same claim share one volume; a claim root has no subPath; maxRank and maxLoras are rendered', () => {
    const value = stringify({
      adapters: [{ name: 'a', source: 'pvc://shared/a' }, { name: 'b', source: 'pvc://other' }, { name: 'c', source: 'pvc://shared/c' }],
      maxRank: 64,
      maxLoras: 2,
    });
    const { errors, manifests } = synthLora({ provider: { name: 'vllm' }, metadata: { annotations: loraAnnotations(value) } });
    expect(errors).toEqual([]);
    const spec = podSpecOf(manifests);
    expect(spec.initContainers).toBeUndefined();
    expect(spec.volumes).toEqual([
      { name: 'lora-pvc-0', persistentVolumeClaim: { claimName: 'shared', readOnly: true } },
      { name: 'lora-pvc-1', persistentVolumeClaim: { claimName: 'other', readOnly: true } },
    ]);
    expect(spec.containers[0].volumeMounts).toEqual([
      { name: 'lora-pvc-0', mountPath: '/lora-adapters/a', subPath: 'a', readOnly: true },
      { name: 'lora-pvc-1', mountPath: '/lora-adapters/b', readOnly: true },
      { name: 'lora-pvc-0', mountPath: '/lora-adapters/c', subPath: 'c', readOnly: true },
    ]);
    const args: string[] = spec.containers[0].args;
    expect(args.slice(args.indexOf('--enable-lora'))).toEqual([
      '--enable-lora', '--lora-modules', 'a=/lora-adapters/a', 'b=/lora-adapters/b', 'c=/lora-adapters/c', '--max-loras', '2', '--max-lora-rank', '64',
    ]);
  });

  test('the record carries the annotation, so the controller sees the adapters too', () => {
    const { manifests } = synthLora({ provider: { name: 'vllm' }, metadata: { annotations: loraAnnotations(TWO_ADAPTERS) } });
    const record = manifests.find((m) => m.kind === 'ModelDeployment');
    expect(record.metadata.annotations[LORA_ANNOTATION]).toBe(TWO_ADAPTERS);
  });
});

describe('LoRA adapters on llm-d', () => {
  test('aggregated: the Deployment loads the adapters', () => {
    const { errors, manifests } = synthLora({ provider: { name: 'llmd' }, metadata: { annotations: loraAnnotations(TWO_ADAPTERS) } });
    expect(errors).toEqual([]);
    expectAdapterPod(podSpecOf(manifests), 'vllm');
  });

  test('disaggregated: prefill and decode pods both load them (the prefill computes the KV cache with the adapter)', () => {
    const { errors, manifests } = synthLora({
      provider: { name: 'llmd' },
      servingMode: ServingMode.DISAGGREGATED,
      resources: undefined,
      scaling: { prefill: { replicas: 1, gpu: { count: 1 } }, decode: { replicas: 1, gpu: { count: 1 } } },
      metadata: { annotations: loraAnnotations(TWO_ADAPTERS) },
    });
    expect(errors).toEqual([]);
    expectAdapterPod(podSpecOf(manifests, 'Deployment', 'qwen-decode'), 'vllm');
    expectAdapterPod(podSpecOf(manifests, 'Deployment', 'qwen-prefill'), 'vllm');
  });
});

describe('LoRA adapters on Kthena', () => {
  test('the entry pod loads them and the ModelRoute lists their names, sorted', () => {
    const { errors, manifests } = synthLora({
      provider: { name: 'kthena' },
      engine: { engineType: EngineType.VLLM },
      metadata: { annotations: loraAnnotations(TWO_ADAPTERS.replace('name: sql', 'name: zeta-sql')) },
    });
    expect(errors).toEqual([]);
    const route = manifests.find((m) => m.kind === 'ModelRoute');
    expect(route.spec.modelName).toBe('Qwen/Qwen3-0.6B');
    expect(route.spec.loraAdapters).toEqual(['support.v2', 'zeta-sql']);
    const spec = podSpecOf(manifests, 'ModelServing');
    expect(spec.initContainers.map((c: any) => c.name)).toEqual(['lora-download-0']);
    expect(spec.containers[0].args).toEqual(expect.arrayContaining(['--enable-lora', 'zeta-sql=/lora-adapters/zeta-sql']));
  });

  test('without adapters the ModelRoute has no loraAdapters', () => {
    const { manifests } = synthLora({ provider: { name: 'kthena' }, engine: { engineType: EngineType.VLLM } });
    expect(manifests.find((m) => m.kind === 'ModelRoute').spec.loraAdapters).toBeUndefined();
  });

  test('fails with more adapters than a ModelRoute lists', () => {
    const value = stringify({ adapters: Array.from({ length: 11 }, (_, i) => ({ name: `a${i}`, source: `pvc://adapters/a${i}` })) });
    const { errors } = synthLora({ provider: { name: 'kthena' }, engine: { engineType: EngineType.VLLM }, metadata: { annotations: loraAnnotations(value) } });
    expect(errors).toEqual([expect.stringContaining(`${AT}.adapters: Invalid value: "11 adapters": Kthena's ModelRoute routes at most 10 LoRA adapters`)]);
  });

  test('fails with SGLang, which does not answer to adapter names', () => {
    const { errors } = synthLora({ provider: { name: 'kthena' }, engine: { engineType: EngineType.SGLANG }, metadata: { annotations: loraAnnotations(TWO_ADAPTERS) } });
    expect(errors).toEqual([expect.stringMatching(/spec\.engine\.type: Invalid value: "sglang": cannot serve the LoRA adapters of .*they are served by vllm/)]);
  });
});

describe('routing by adapter name', () => {
  test('the HTTPRoute has one match per adapter beside the model name, in the same rule and to the same pool', () => {
    const { errors, manifests } = synthLora(
      { provider: { name: 'vllm' }, model: { id: 'Qwen/Qwen3-0.6B', servedName: 'qwen' }, metadata: { annotations: loraAnnotations(TWO_ADAPTERS) } },
      { gateway: true },
    );
    expect(errors).toEqual([]);
    const route = manifests.find((m) => m.kind === 'HTTPRoute');
    expect(route.spec.rules).toHaveLength(1);
    expect(route.spec.rules[0].matches.map((m: any) => m.headers[0].value)).toEqual(['qwen', 'sql', 'support.v2']);
    expect(route.spec.rules[0].matches.every((m: any) => m.path.value === '/' && m.headers[0].name === 'X-Gateway-Model-Name')).toBe(true);
    expect(route.spec.rules[0].backendRefs).toEqual([expect.objectContaining({ kind: 'InferencePool', name: 'qwen' })]);
  });

  test('Kthena behind the gateway: the HTTPRoute and the ModelRoute both route the adapters', () => {
    const { errors, manifests } = synthLora(
      { provider: { name: 'kthena' }, engine: { engineType: EngineType.VLLM }, metadata: { annotations: loraAnnotations(TWO_ADAPTERS) } },
      { gateway: true },
    );
    expect(errors).toEqual([]);
    const route = manifests.find((m) => m.kind === 'HTTPRoute');
    expect(route.spec.rules[0].matches.map((m: any) => m.headers[0].value)).toEqual(['Qwen/Qwen3-0.6B', 'sql', 'support.v2']);
  });
});

describe('deployments that cannot have the adapters', () => {
  test.each(['dynamo', 'kuberay', 'kaito', 'modelplane', 'flexinfer'])('fails on %s, naming the targets that carry them', (provider) => {
    const { errors } = synthLora({
      provider: { name: provider },
      engine: { engineType: EngineType.VLLM },
      metadata: { annotations: loraAnnotations(TWO_ADAPTERS) },
    });
    const forbidden = errors.filter((e) => e.includes(`${AT}: Forbidden: `));
    expect(forbidden).toEqual([expect.stringMatching(
      /: Forbidden: provider \S+ \(explicit provider selection\) does not support lora-adapters; targets that support it: kthena, llmd, vllm$/,
    )]);
  });

  test('fails on engine flags the adapters set, in every spelling', () => {
    const { errors } = synthLora({
      provider: { name: 'vllm' },
      engine: { args: { max_lora_rank: '64' }, extraArgs: ['--enable-lora', '--max-loras=4', '--max-num-seqs=8'] },
      metadata: { annotations: loraAnnotations(TWO_ADAPTERS) },
    });
    const remedy = `remove it and set ${AT}.maxRank or ${AT}.maxLoras instead`;
    expect(errors).toEqual([
      expect.stringContaining(`spec.engine.args.max_lora_rank: Invalid value: "64": sets --max-lora-rank, which the LoRA adapters (${AT}) set from their annotation; ${remedy}`),
      expect.stringContaining('spec.engine.extraArgs[0]: Invalid value: "--enable-lora": sets --enable-lora'),
      expect.stringContaining('spec.engine.extraArgs[1]: Invalid value: "--max-loras=4": sets --max-loras'),
    ]);
  });

  test('fails on an adapter named like the base model', () => {
    const value = stringify({ adapters: [{ name: 'qwen', source: 'hf://o/a' }, { name: 'Qwen3-0.6B', source: 'hf://o/b' }] });
    const { errors } = synthLora({
      provider: { name: 'vllm' },
      model: { id: 'Qwen/Qwen3-0.6B', servedName: 'qwen' },
      metadata: { annotations: loraAnnotations(value) },
    });
    expect(errors).toEqual([expect.stringContaining(
      `${AT}.adapters[0].name: Invalid value: "qwen": is the base model's name (spec.model.servedName); an adapter needs a model name of its own`,
    )]);
  });

  test('fails on storage volumes in the adapters\' place', () => {
    const { errors } = synthLora({
      provider: { name: 'vllm' },
      metadata: { annotations: loraAnnotations(TWO_ADAPTERS) },
      storage: [{ name: 'lora-pvc-0', claimName: 'mine', mountPath: '/data' }, { name: 'cache', claimName: 'c', mountPath: '/lora-adapters/x' }],
    } as any);
    expect(errors).toEqual([
      expect.stringContaining('spec.model.storage.volumes[0].name: Invalid value: "lora-pvc-0": is the name of a pod volume the LoRA adapters use'),
      expect.stringContaining('spec.model.storage.volumes[1].mountPath: Invalid value: "/lora-adapters/x": is where the LoRA adapters are mounted'),
    ]);
  });
});

describe('the typed face', () => {
  const typed = {
    adapters: [
      { name: 'sql', source: LoraSource.huggingFace('acme/sql-lora', 'v1') },
      { name: 'support.v2', source: LoraSource.persistentVolumeClaim('adapters', 'support/v2') },
    ],
  };

  test('ModelDeploymentProps.lora writes the annotation a YAML user writes, with the same objects', () => {
    const fromProps = synthLora({ provider: { name: 'vllm' }, lora: typed });
    const fromYaml = synthLora({ provider: { name: 'vllm' }, metadata: { annotations: loraAnnotations(TWO_ADAPTERS) } });
    expect(fromProps.errors).toEqual([]);
    const record = fromProps.manifests.find((m) => m.kind === 'ModelDeployment');
    expect(record.metadata.annotations[LORA_ANNOTATION]).toBe(stringify({
      adapters: [{ name: 'sql', source: 'hf://acme/sql-lora@v1' }, { name: 'support.v2', source: 'pvc://adapters/support/v2' }],
    }));
    const workloads = (r: typeof fromProps) => r.manifests.filter((m) => m.kind !== 'ModelDeployment');
    expect(workloads(fromProps)).toEqual(workloads(fromYaml));
  });

  test('LoraSource factories write the URIs of the annotation', () => {
    expect(LoraSource.huggingFace('o/r').uri).toBe('hf://o/r');
    expect(LoraSource.persistentVolumeClaim('claim').uri).toBe('pvc://claim');
    expect(LoraSource.fromUri('pvc://c/p').uri).toBe('pvc://c/p');
  });

  test('maxRank and maxLoras reach the flags', () => {
    const { manifests } = synthLora({ provider: { name: 'vllm' }, lora: { ...typed, maxRank: 32, maxLoras: 1 } });
    const args: string[] = podSpecOf(manifests).containers[0].args;
    expect(args.slice(args.indexOf('--max-loras'))).toEqual(['--max-loras', '1', '--max-lora-rank', '32']);
  });

  test('fails when a typed source is malformed, naming the adapter', () => {
    const { errors } = synthLora({ provider: { name: 'vllm' }, lora: { adapters: [{ name: 'a', source: LoraSource.huggingFace('no-org') }] } });
    expect(errors).toEqual([expect.stringContaining(`${AT}.adapters[0].source: Invalid value: "hf://no-org": must name a Hugging Face repository`)]);
  });

  test('fails when the annotation is also written by hand', () => {
    const { errors } = synthLora({ provider: { name: 'vllm' }, lora: typed, metadata: { annotations: loraAnnotations(TWO_ADAPTERS) } });
    expect(errors).toEqual([expect.stringContaining(`${AT}: Forbidden: is set in metadata.annotations and by lora; set only one of them`)]);
  });
});
