/**
 * Engine flags the default image's engine no longer takes (an error) or deprecates (a warning),
 * checked at synth time, through the public construct: a ProviderRegistry holding the provider
 * and a ModelDeployment naming it, as a user writes it.
 */
import { Chart, Testing } from 'cdk8s';
import { EngineType, ModelDeployment, ModelDeploymentProps, ProviderRegistry, Warnings } from '../../src';
import type { InferenceProvider } from '../../src/api/provider/inference-provider';
import { KthenaProvider } from '../../src/providers/kthena';
import { LlmdProvider } from '../../src/providers/llmd';
import { ModelplaneProvider } from '../../src/providers/modelplane';
import { DirectVllmProvider } from '../../src/providers/vllm';

const MODEL = { id: 'Qwen/Qwen3-0.6B' };
const GPU = { gpu: { count: 1 } };

/** The validation errors and recorded warnings of one ModelDeployment on `provider` alone. */
function synth(provider: InferenceProvider, props: ModelDeploymentProps) {
  const app = Testing.app();
  new ProviderRegistry(app, 'Providers', { includeShippedProviders: false, providers: [provider] });
  const chart = new Chart(app, 'llm', { namespace: 'ml' });
  const md = new ModelDeployment(chart, 'qwen', { provider: { name: provider.name }, resources: GPU, ...props });
  return {
    md,
    errors: app.node.findAll().flatMap((c) => c.node.validate()),
    warnings: Warnings.collect(chart).map((w) => w.message),
  };
}

const vllm = (props: ModelDeploymentProps['engine']) => synth(new DirectVllmProvider(), { model: MODEL, engine: props });

/** What the error says about --swap-space, gone from vLLM v0.33.0 with no option of the same destination. */
const SWAP_SPACE_GONE = '--swap-space is no longer an option of vLLM v0.33.0 (it was one of vllm-0.9.1-api-server, vllm-0.11.0-api-server), ' +
  'which would refuse to start with it: vLLM v0.33.0 has no replacement; remove it, or pin the image it belongs to (spec.engine.image)';

describe('removed engine flags', () => {
  test('Direct vLLM: an engine.args key vLLM v0.33.0 no longer has is a field error naming the releases that had it', () => {
    expect(vllm({ args: { 'swap-space': '4' } }).errors).toEqual([
      `spec.engine.args.swap-space: Invalid value: "swap-space": ${SWAP_SPACE_GONE}`,
    ]);
  });

  test('Direct vLLM: the key in its underscore spelling is the same option', () => {
    expect(vllm({ args: { swap_space: '4' } }).errors).toEqual([
      `spec.engine.args.swap_space: Invalid value: "swap_space": ${SWAP_SPACE_GONE}`,
    ]);
  });

  test('Direct vLLM: an extraArgs --key=value token is an error at its index, naming the token', () => {
    expect(vllm({ extraArgs: ['--max-num-seqs', '8', '--swap-space=4'] }).errors).toEqual([
      `spec.engine.extraArgs[2]: Invalid value: "--swap-space=4": ${SWAP_SPACE_GONE}`,
    ]);
    expect(vllm({ extraArgs: ['--swap-space=4'] }).errors).toEqual([
      `spec.engine.extraArgs[0]: Invalid value: "--swap-space=4": ${SWAP_SPACE_GONE}`,
    ]);
  });

  test('Direct vLLM: not an error when the deployment names its own image, which may be a release that has the flag', () => {
    expect(vllm({ image: 'vllm/vllm-openai:v0.11.0', args: { 'swap-space': '4' } }).errors).toEqual([]);
    expect(vllm({ image: 'registry.example/vllm:custom', extraArgs: ['--swap-space=4'] }).errors).toEqual([]);
  });

  test('Direct vLLM: a flag vLLM v0.33.0 still has is no error', () => {
    expect(vllm({ args: { 'max-num-seqs': '8' }, extraArgs: ['--gpu-memory-utilization=0.8'] }).errors).toEqual([]);
  });

  test.each([
    ['llm-d', () => new LlmdProvider()],
    ['Kthena', () => new KthenaProvider()],
    ['modelplane', () => new ModelplaneProvider()],
  ])('%s refuses the same removed vLLM flag', (_name, provider) => {
    expect(synth(provider(), { model: MODEL, engine: { args: { 'swap-space': '4' } } }).errors).toEqual([
      `spec.engine.args.swap-space: Invalid value: "swap-space": ${SWAP_SPACE_GONE}`,
    ]);
  });
});

describe('deprecated engine flags', () => {
  const DISABLE_CUDA_GRAPH = 'spec.engine.args.disable-cuda-graph: --disable-cuda-graph is deprecated in SGLang v0.5.23; ' +
    'use --cuda-graph-backend-{decode,prefill}=disabled instead';

  test.each([
    ['Kthena', () => new KthenaProvider()],
    ['modelplane', () => new ModelplaneProvider()],
  ])('%s with SGLang: a deprecated engine.args key is a warning naming the replacement, not an error', (_name, provider) => {
    const { md, errors, warnings } = synth(provider(), { model: MODEL, engine: { engineType: EngineType.SGLANG, args: { 'disable-cuda-graph': '' } } });
    expect(errors).toEqual([]);
    expect(warnings).toContain(DISABLE_CUDA_GRAPH);
    expect(md.warnings).toContain(DISABLE_CUDA_GRAPH);
  });

  test('Direct vLLM: a deprecated flag without a named replacement is a warning that names none', () => {
    const { errors, warnings } = vllm({ args: { 'log-config-file': '/etc/vllm/log.json' } });
    expect(errors).toEqual([]);
    expect(warnings).toContain('spec.engine.args.log-config-file: --log-config-file is deprecated in vLLM v0.33.0');
  });

  test('no warning without the deprecated flag, nor when the deployment names its own image', () => {
    const kthena = () => new KthenaProvider();
    expect(synth(kthena(), { model: MODEL, engine: { engineType: EngineType.SGLANG } }).warnings.filter((w) => w.includes('deprecated'))).toEqual([]);
    const own = synth(kthena(), { model: MODEL, engine: { engineType: EngineType.SGLANG, image: 'lmsysorg/sglang:v0.5.4', args: { 'disable-cuda-graph': '' } } });
    expect(own.errors).toEqual([]);
    expect(own.warnings.filter((w) => w.includes('deprecated'))).toEqual([]);
  });
});

describe('a provider pinned to its own image (README, "Pinning images")', () => {
  /** The image and args of the vLLM container a pinned provider renders. */
  function pinned(provider: InferenceProvider, engine: ModelDeploymentProps['engine']) {
    const out = synth(provider, { model: MODEL, engine });
    const deployment = Testing.synth(out.md.node.scope as Chart).find((o) => o.kind === 'Deployment');
    const container = deployment?.spec.template.spec.containers[0];
    return { errors: out.errors, image: container?.image, command: container?.command, args: container?.args };
  }

  test.each([
    ['Direct vLLM', () => new DirectVllmProvider({ image: 'vllm/vllm-openai:v0.11.0' }), 'vllm/vllm-openai:v0.11.0'],
    ['llm-d', () => new LlmdProvider({ image: 'vllm/vllm-openai:v0.9.1' }), 'vllm/vllm-openai:v0.9.1'],
  ])('%s: deployments that name no image run the pinned one, as if they named it (no removed-flag check)', (_, provider, image) => {
    const out = pinned(provider(), { engineType: EngineType.VLLM, args: { 'swap-space': '4' } });
    expect(out).toMatchObject({ errors: [], image, command: ['vllm', 'serve'] });
    expect(out.args).toEqual(expect.arrayContaining([MODEL.id, '--swap-space', '4']));
    expect(out.args[0]).toBe(MODEL.id);
  });

  test('a deployment\'s own image still wins over the provider\'s', () => {
    const out = pinned(new DirectVllmProvider({ image: 'vllm/vllm-openai:v0.11.0' }), { engineType: EngineType.VLLM, image: 'vllm/vllm-openai:v0.9.1' });
    expect(out.image).toBe('vllm/vllm-openai:v0.9.1');
  });

  test('without a pin, the same flag is refused for the default image (and nothing is synthesized)', () => {
    const out = synth(new DirectVllmProvider(), { model: MODEL, engine: { engineType: EngineType.VLLM, args: { 'swap-space': '4' } } });
    expect(out.errors).toEqual([`spec.engine.args.swap-space: Invalid value: "swap-space": ${SWAP_SPACE_GONE}`]);
    expect(() => Testing.synth(out.md.node.scope as Chart)).toThrow(/--swap-space is no longer an option of vLLM v0\.33\.0/);
  });
});
