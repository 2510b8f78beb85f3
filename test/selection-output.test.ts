import { Chart, Testing } from 'cdk8s';
import { ModelDeployment, ProviderRegistry } from '../src';
import { expectValidManifests } from './support/schema-validator';

/**
 * The provider-selection table of AI Runway (all five shipped providers ready), each row taken
 * through the construct to the upstream objects it synthesizes. The CEL-level table lives in
 * test/selection/provider-selection.test.ts; this one proves every row ends in real, schema-valid
 * output (or, for the row AI Runway rejects, in the same rejection).
 */

const LLAMACPP_IMAGE = 'ghcr.io/kaito-project/aikit/llama3.2:1b';

interface Row {
  readonly row: string;
  readonly spec: Record<string, unknown>;
  readonly notReady?: string[];
  readonly engine: string;
  readonly provider: string;
  readonly kinds: string[];
}

const ROWS: Row[] = [
  { row: 'engine vllm (GPU defaulted to 1)', spec: { engine: { type: 'vllm' } }, engine: 'vllm', provider: 'dynamo', kinds: ['DynamoGraphDeployment'] },
  { row: 'no engine, 1 GPU', spec: { resources: { gpu: { count: 1 } } }, engine: 'vllm', provider: 'dynamo', kinds: ['DynamoGraphDeployment'] },
  { row: '4 GPUs, vllm', spec: { engine: { type: 'vllm' }, resources: { gpu: { count: 4 } } }, engine: 'vllm', provider: 'kuberay', kinds: ['RayService'] },
  {
    row: 'disaggregated with prefill/decode GPUs',
    spec: { engine: { type: 'vllm' }, serving: { mode: 'disaggregated' }, scaling: { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 1 } } } },
    engine: 'vllm',
    provider: 'dynamo',
    kinds: ['DynamoGraphDeployment'],
  },
  { row: 'sglang with GPU', spec: { engine: { type: 'sglang' }, resources: { gpu: { count: 1 } } }, engine: 'sglang', provider: 'dynamo', kinds: ['DynamoGraphDeployment'] },
  { row: 'trtllm with GPU', spec: { engine: { type: 'trtllm' }, resources: { gpu: { count: 1 } } }, engine: 'trtllm', provider: 'dynamo', kinds: ['DynamoGraphDeployment'] },
  {
    row: 'no engine, no GPU (CPU only)',
    spec: { engine: { image: LLAMACPP_IMAGE }, resources: { cpu: '4' } },
    engine: 'llamacpp',
    provider: 'kaito',
    kinds: ['Workspace'],
  },
  { row: 'engine llamacpp', spec: { engine: { type: 'llamacpp', image: LLAMACPP_IMAGE } }, engine: 'llamacpp', provider: 'kaito', kinds: ['Workspace'] },
  {
    row: 'vllm with 1 GPU, dynamo not ready',
    spec: { engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } },
    notReady: ['dynamo'],
    engine: 'vllm',
    provider: 'kaito',
    kinds: ['Workspace'],
  },
  {
    row: 'vllm with 1 GPU, only Direct vLLM and llm-d ready',
    spec: { engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } },
    notReady: ['dynamo', 'kaito', 'kuberay'],
    engine: 'vllm',
    provider: 'llmd',
    kinds: ['Deployment', 'Service'],
  },
];

function deploy(spec: Record<string, unknown>, notReady: string[] = []): { chart: Chart; md: ModelDeployment } {
  const app = Testing.app();
  const registry = new ProviderRegistry(app, 'Providers');
  for (const p of notReady) registry.setReady(p, false);
  const chart = new Chart(app, 'table', { namespace: 'team-a' });
  const md = ModelDeployment.fromManifest(chart, 'md', {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'qwen' },
    spec: { model: { id: 'Qwen/Qwen3-0.6B' }, ...spec },
  });
  return { chart, md };
}

describe('selection table to upstream objects', () => {
  test.each(ROWS)('$row -> $provider ($engine)', ({ spec, notReady, engine, provider, kinds }) => {
    const { chart, md } = deploy(spec, notReady);
    expect(chart.node.findAll().flatMap((c) => c.node.validate())).toEqual([]);
    expect(md.engineType).toBe(engine);
    expect(md.providerName).toBe(provider);
    const manifests = Testing.synth(chart);
    expect(manifests.map((m) => m.kind)).toEqual([...kinds, 'ModelDeployment']);
    expectValidManifests(manifests);
    const record = manifests[manifests.length - 1];
    expect(record.spec.provider.name).toBe(provider);
    expect(record.spec.engine.type).toBe(engine);
  });

  test('fails like AI Runway when vllm is asked for with zero GPUs and no provider', () => {
    const { chart, md } = deploy({ engine: { type: 'vllm' }, resources: { gpu: { count: 0 } } });
    expect(chart.node.findAll().flatMap((c) => c.node.validate())).toEqual([
      'spec.resources.gpu.count: Invalid value: 0: vllm engine requires GPU (set resources.gpu.count > 0)',
    ]);
    expect(md.apiObjects).toEqual([]);
  });

  test('fails when the CPU row has no llama.cpp image (KAITO needs one)', () => {
    const { chart } = deploy({ resources: { cpu: '4' } });
    expect(chart.node.findAll().flatMap((c) => c.node.validate())).toEqual([
      'spec.image: Required value: llamacpp engine requires spec.image to be set',
    ]);
  });
});
