import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { ModelDeployment } from '../../src';
import type { InferenceProvider } from '../../src/api/provider/inference-provider';
import type { ResolvedModelDeployment } from '../../src/api/resolved-model-deployment';
import { toResolvedDeployment } from '../../src/api/resolved-model-deployment';
import { main } from '../../src/cli/main';
import { readRecord } from '../../src/controller/status/record-deployment';
import { formatFieldError } from '../../src/core/field-error';
import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import { defaultProviderCatalog } from '../../src/pipeline/shipped-providers';
import {
  checkParallelism,
  effectiveParallelism,
  PARALLEL_FLAGS,
  ParallelEngine,
  parseParallelSize,
  userParallelism,
} from '../../src/provider-kit/parallelism';
import { DynamoApiVersion, DynamoProvider } from '../../src/providers/dynamo';
import { dynamoEngineArgs } from '../../src/providers/dynamo/args';
import { KaitoProvider } from '../../src/providers/kaito';
import { KubeRayProvider } from '../../src/providers/kuberay';
import { kuberayEngineTokens } from '../../src/providers/kuberay/args';
import { LlmdProvider } from '../../src/providers/llmd';
import { renderLlmdArgs } from '../../src/providers/llmd/args';
import { DirectVllmProvider } from '../../src/providers/vllm';
import { renderDirectVllmArgs } from '../../src/providers/vllm/args';
import { recordOf } from '../controller/status/support';
import { disaggregatedDeployment as dynamoDisaggregated, dynamoDeployment, mockerDeployment, multinodeDeployment } from '../providers/dynamo/fixtures';
import { kaitoVllmDeployment } from '../providers/kaito/fixtures';
import { disaggregatedDeployment as kuberayDisaggregated, multiGpuDeployment } from '../providers/kuberay/fixtures';
import { disaggregatedLlmdDeployment, llmdDeployment } from '../providers/llmd/fixtures';
import { vllmDeployment } from '../providers/vllm/fixtures';
import { admittedDeployment, FixtureOptions } from '../support/resolved-deployment';
import { translatorHarness } from '../support/translator-harness';

const vllm = new DirectVllmProvider();
const llmd = new LlmdProvider();
// v1alpha1 (on request since Dynamo 1.6.1's v1beta1 default): the overrides below use its spec.services shape.
const dynamo = new DynamoProvider({ apiVersion: DynamoApiVersion.V1ALPHA1 });
const kuberay = new KubeRayProvider();
const kaito = new KaitoProvider();

/** What the pipeline learns from `provider` about `md`: its formatted field errors and its warnings. */
function findings(provider: InferenceProvider, md: ResolvedModelDeployment): { errors: string[]; warnings: string[] } {
  const deployment = toResolvedDeployment(md);
  return { errors: provider.validate(deployment).map(formatFieldError), warnings: provider.warnings(deployment) };
}

/** Accepted with `warnings`: and the objects it synthesizes stay schema-valid. */
function expectAccepted(provider: InferenceProvider, md: ResolvedModelDeployment, warnings: string[]): void {
  expect(findings(provider, md)).toEqual({ errors: [], warnings });
  translatorHarness(provider, () => md).synth(md);
}

/** Engine fields merged over the fixture's. */
function engine(e: NonNullable<FixtureOptions['spec']>['engine']): FixtureOptions {
  return { spec: { engine: e } };
}

function gpus(count: number, type = 'nvidia.com/gpu'): Pick<ModelDeploymentSpec, 'resources'> {
  return { resources: { gpu: { count, type } } };
}

describe('parseParallelSize (what argparse type=int reads, at least 1)', () => {
  test.each([['1', 1], ['4', 4], ['04', 4], [' 8 ', 8], ['+2', 2], ['1_6', 16]])('reads %j as %d', (raw, size) => {
    expect(parseParallelSize(raw)).toBe(size);
  });

  test.each(['', '0', '-1', '2.0', '1e1', 'two', '0x4', '_4', '4_', undefined])('refuses %j', (raw) => {
    expect(parseParallelSize(raw)).toBeUndefined();
  });
});

describe('userParallelism', () => {
  const spec = (e: Partial<NonNullable<ModelDeploymentSpec['engine']>>): ModelDeploymentSpec =>
    ({ model: { id: 'm' }, engine: { type: 'vllm', ...e } }) as ModelDeploymentSpec;

  test('reads engine.args keys as --<key>, and vLLM underscores as dashes', () => {
    const user = userParallelism(spec({ args: { 'tensor_parallel_size': '2', 'pipeline-parallel-size': '3' } }), 'vllm', { extraArgs: true });
    expect(user.tensorParallel).toEqual({
      kind: 'tensorParallel', written: 'tensor_parallel_size', inArgs: true, path: 'spec.engine.args.tensor_parallel_size', pathValue: '2', raw: '2', size: 2,
    });
    expect(user.pipelineParallel?.size).toBe(3);
    expect(user.errors).toEqual([]);
  });

  test('reads every extraArgs spelling, the last occurrence winning', () => {
    const user = userParallelism(spec({ extraArgs: ['--tensor-parallel-size', '8', '-q', 'awq', '-tp=2', '-pp', '2'] }), 'vllm', { extraArgs: true });
    expect(user.tensorParallel).toMatchObject({ written: '-tp', path: 'spec.engine.extraArgs[4]', pathValue: '-tp=2', size: 2 });
    expect(user.pipelineParallel).toMatchObject({ written: '-pp', path: 'spec.engine.extraArgs[6]', pathValue: '2', size: 2 });
  });

  test('reads extraArgs after engine.args (the order every provider renders them in)', () => {
    const user = userParallelism(spec({ args: { 'tensor-parallel-size': '4' }, extraArgs: ['-tp', '2'] }), 'vllm', { extraArgs: true });
    expect(user.tensorParallel?.size).toBe(2);
    expect(userParallelism(spec({ args: { 'tensor-parallel-size': '4' }, extraArgs: ['-tp', '2'] }), 'vllm', { extraArgs: false }).tensorParallel?.size).toBe(4);
  });

  test('knows each engine\'s own spellings only', () => {
    const sizes = (e: ParallelEngine, args: Record<string, string>) => {
      const user = userParallelism(spec({ type: e, args }), e, { extraArgs: true });
      return [user.tensorParallel?.size, user.pipelineParallel?.size];
    };
    expect(sizes('sglang', { 'tp-size': '2', 'pp-size': '2' })).toEqual([2, 2]);
    expect(sizes('sglang', { tp: '4' })).toEqual([4, undefined]);
    expect(sizes('sglang', { tp_size: '4' })).toEqual([undefined, undefined]);
    expect(sizes('vllm', { 'tp-size': '2' })).toEqual([undefined, undefined]);
    expect(sizes('trtllm', { 'tensor-parallel-size': '2', 'pipeline-parallel-size': '2' })).toEqual([2, 2]);
    expect(sizes('trtllm', { 'tp-size': '2' })).toEqual([undefined, undefined]);
  });

  test('notes the first option it does not model (data parallelism, node counts, option files)', () => {
    expect(userParallelism(spec({ extraArgs: ['-dpl', '2', '--config', 'c.yaml'] }), 'vllm', { extraArgs: true }).unmodelled)
      .toEqual({ written: '-dpl', path: 'spec.engine.extraArgs[0]' });
    // vLLM's data parallel size is modelled: it multiplies the ranks.
    const dp = userParallelism(spec({ extraArgs: ['-dp', '2'] }), 'vllm', { extraArgs: true });
    expect([dp.unmodelled, dp.dataParallel?.size]).toEqual([undefined, 2]);
    expect(userParallelism(spec({ type: 'sglang', args: { 'dp-size': '2' } }), 'sglang', { extraArgs: true }).unmodelled)
      .toEqual({ written: 'dp-size', path: 'spec.engine.args.dp-size' });
    expect(userParallelism(spec({ type: 'trtllm', args: { 'extra-engine-args': '/e.yaml' } }), 'trtllm', { extraArgs: false }).unmodelled)
      .toEqual({ written: 'extra-engine-args', path: 'spec.engine.args.extra-engine-args' });
  });

  test('fails on every value that is not a positive integer, at the value', () => {
    const user = userParallelism(
      spec({ args: { 'tensor-parallel-size': '' }, extraArgs: ['--pipeline-parallel-size=0', '-tp', 'two', '-pp'] }),
      'vllm',
      { extraArgs: true },
    );
    expect(user.errors.map(formatFieldError)).toEqual([
      'spec.engine.args.tensor-parallel-size: Invalid value: "": --tensor-parallel-size needs a value: vLLM takes a positive integer (a number of GPUs) and does not start without one',
      'spec.engine.extraArgs[0]: Invalid value: "--pipeline-parallel-size=0": --pipeline-parallel-size takes a positive integer (a number of GPUs); vLLM does not start with this value',
      'spec.engine.extraArgs[2]: Invalid value: "two": -tp takes a positive integer (a number of GPUs); vLLM does not start with this value',
      'spec.engine.extraArgs[3]: Invalid value: "-pp": -pp needs a value: vLLM takes a positive integer (a number of GPUs) and does not start without one',
    ]);
  });

  test('reads a negative number as a value (argparse does), which then fails', () => {
    const user = userParallelism(spec({ extraArgs: ['-tp', '-2'] }), 'vllm', { extraArgs: true });
    expect(user.errors.map(formatFieldError)).toEqual([
      'spec.engine.extraArgs[1]: Invalid value: "-2": -tp takes a positive integer (a number of GPUs); vLLM does not start with this value',
    ]);
  });
});

describe('checkParallelism', () => {
  const user = userParallelism({ model: { id: 'm' }, engine: { type: 'vllm' } } as ModelDeploymentSpec, 'vllm', { extraArgs: true });
  const target = { subject: 'S', gpuPath: 'spec.resources.gpu.count', gpuCount: 4, gpuType: 'nvidia.com/gpu' };

  test('checks nothing for llama.cpp, or for a target without GPUs', () => {
    expect(checkParallelism('llamacpp', user, [target])).toEqual({ errors: [], warnings: [] });
    expect(checkParallelism('vllm', user, [{ ...target, gpuCount: 0 }])).toEqual({ errors: [], warnings: [] });
  });

  test('suggests a tensor parallel size only when the pipeline parallel size divides the GPUs', () => {
    const pp3 = userParallelism({ model: { id: 'm' }, engine: { type: 'vllm', args: { 'pipeline-parallel-size': '3' } } } as ModelDeploymentSpec, 'vllm', { extraArgs: true });
    expect(checkParallelism('vllm', pp3, [target]).warnings).toEqual([
      'S: vLLM uses 3 of the 4 GPUs of each pod (spec.resources.gpu.count) with tensor-parallel-size 1 (unset) × pipeline-parallel-size 3; ' +
        '1 stays idle: make the tensor parallel size × pipeline-parallel-size equal 4',
    ]);
    expect(checkParallelism('vllm', pp3, [{ ...target, gpuCount: 2 }]).errors.map(formatFieldError)).toEqual([
      'spec.engine.args.pipeline-parallel-size: Invalid value: "3": S: vLLM needs 3 GPUs for tensor-parallel-size 1 (unset) × pipeline-parallel-size 3, ' +
        'but each pod has 2 (spec.resources.gpu.count); vLLM cannot start with more ranks than GPUs it sees: lower the parallel sizes or raise spec.resources.gpu.count',
    ]);
  });
});

describe('Direct vLLM (derives --tensor-parallel-size from the GPU count; engine.args and extraArgs reach vLLM)', () => {
  const md = (options: FixtureOptions) => vllmDeployment(options);

  test('accepts the derived layout on one and on four GPUs', () => {
    expectAccepted(vllm, md({}), []);
    expectAccepted(vllm, md({ spec: gpus(4) }), []);
  });

  test('warns when engine.args use fewer GPUs than the pod has, naming the flag', () => {
    expectAccepted(vllm, md({ spec: { ...gpus(4), engine: { args: { 'tensor-parallel-size': '2' } } } }), [
      'Direct vLLM pods: vLLM uses 2 of the 4 GPUs of each pod (spec.resources.gpu.count) with tensor-parallel-size 2; 2 stay idle: ' +
        'set spec.engine.args.tensor-parallel-size to "4"',
    ]);
  });

  test('accepts tensor × pipeline parallelism that uses every GPU', () => {
    expectAccepted(vllm, md({ spec: { ...gpus(4), engine: { args: { 'tensor-parallel-size': '2', 'pipeline-parallel-size': '2' } } } }), []);
  });

  test('fails when an extraArgs size needs more GPUs than the pod has', () => {
    expect(findings(vllm, md({ spec: { ...gpus(2), engine: { extraArgs: ['-q', 'awq', '-tp', '4'] } } })).errors).toEqual([
      'spec.engine.extraArgs[3]: Invalid value: "4": Direct vLLM pods: vLLM needs 4 GPUs for -tp 4, but each pod has 2 (spec.resources.gpu.count); ' +
        'vLLM cannot start with more ranks than GPUs it sees: set the -tp value (spec.engine.extraArgs[3]) to 2, or raise spec.resources.gpu.count',
    ]);
  });

  test('fails when a pipeline parallel size multiplies the derived tensor parallel size past the GPUs', () => {
    expect(findings(vllm, md({ spec: { ...gpus(4), engine: { args: { 'pipeline-parallel-size': '2' } } } })).errors).toEqual([
      'spec.engine.args.pipeline-parallel-size: Invalid value: "2": Direct vLLM pods: vLLM needs 8 GPUs for tensor-parallel-size 4 (derived from spec.resources.gpu.count) ' +
        '× pipeline-parallel-size 2, but each pod has 4 (spec.resources.gpu.count); vLLM cannot start with more ranks than GPUs it sees: ' +
        'set spec.engine.args.tensor-parallel-size to "2", or raise spec.resources.gpu.count',
    ]);
  });

  test('fails when a size is not a positive integer', () => {
    expect(findings(vllm, md({ spec: { ...gpus(2), engine: { args: { 'tensor-parallel-size': 'two' } } } })).errors).toEqual([
      'spec.engine.args.tensor-parallel-size: Invalid value: "two": --tensor-parallel-size takes a positive integer (a number of GPUs); vLLM does not start with this value',
    ]);
  });

  test('fails when MIG devices would be tensor-parallel (a CUDA process sees one), at the GPU count', () => {
    expect(findings(vllm, md({ spec: gpus(2, 'nvidia.com/mig-1g.10gb') })).errors).toEqual([
      'spec.resources.gpu.count: Invalid value: 2: Direct vLLM pods: vLLM needs 2 GPUs for tensor-parallel-size 2 (derived from spec.resources.gpu.count), ' +
        'but each pod has 2 nvidia.com/mig-1g.10gb devices (spec.resources.gpu.count) and a CUDA process sees only one MIG device; ' +
        'vLLM cannot start with more ranks than GPUs it sees: set the parallel sizes to 1 or request whole GPUs',
    ]);
  });

  test('warns about MIG devices beyond the one vLLM sees, naming the GPU count', () => {
    expectAccepted(vllm, md({ spec: { ...gpus(2, 'nvidia.com/mig-1g.10gb'), engine: { args: { 'tensor-parallel-size': '1' } } } }), [
      'Direct vLLM pods: vLLM uses 1 of the 2 MIG devices of each pod (spec.resources.gpu.count) with tensor-parallel-size 1; 1 stays idle: ' +
        'a CUDA process sees only one MIG device: set spec.resources.gpu.count to 1',
    ]);
  });

  test('checks nothing with data parallelism', () => {
    expectAccepted(vllm, md({ spec: { ...gpus(4), engine: { args: { 'tensor-parallel-size': '2', 'data-parallel-size': '2' } } } }), []);
  });

  test('checks nothing when the overrides replace the containers', () => {
    const overrides = { spec: { template: { spec: { containers: [{ name: 'vllm', image: 'vllm/vllm-openai:v0.10.0', args: ['--tensor-parallel-size', '8'] }] } } } };
    expect(findings(vllm, md({ spec: { ...gpus(2), engine: { args: { 'tensor-parallel-size': '8' } }, provider: { name: 'vllm', overrides } } }))).toEqual({ errors: [], warnings: [] });
  });
});

describe('llm-d (derives --tensor-parallel-size per component; engine.args and extraArgs win)', () => {
  test('aggregated: warns when tensor-parallel-size leaves GPUs idle', () => {
    expectAccepted(llmd, llmdDeployment({ spec: { ...gpus(4), engine: { args: { 'tensor-parallel-size': '1' } } } }), [
      'llm-d pods: vLLM uses 1 of the 4 GPUs of each pod (spec.resources.gpu.count) with tensor-parallel-size 1; 3 stay idle: ' +
        'set spec.engine.args.tensor-parallel-size to "4"',
    ]);
  });

  test('prefill/decode: accepts each component\'s derived size (2 and 4 GPUs)', () => {
    expectAccepted(llmd, disaggregatedLlmdDeployment(), []);
  });

  test('prefill/decode: an explicit size applies to both, failing the smaller prefill pods', () => {
    expect(findings(llmd, disaggregatedLlmdDeployment(engine({ args: { 'tensor-parallel-size': '4' } })))).toEqual({
      errors: [
        'spec.engine.args.tensor-parallel-size: Invalid value: "4": llm-d prefill pods: vLLM needs 4 GPUs for tensor-parallel-size 4, ' +
          'but each pod has 2 (spec.scaling.prefill.gpu.count); vLLM cannot start with more ranks than GPUs it sees: ' +
          'set spec.engine.args.tensor-parallel-size to "2", or raise spec.scaling.prefill.gpu.count',
      ],
      warnings: [],
    });
  });

  test('prefill/decode: warns about the decode pods an explicit extraArgs size leaves half idle', () => {
    expectAccepted(llmd, disaggregatedLlmdDeployment(engine({ extraArgs: ['--tensor-parallel-size=2'] })), [
      'llm-d decode pods: vLLM uses 2 of the 4 GPUs of each pod (spec.scaling.decode.gpu.count) with --tensor-parallel-size 2; 2 stay idle: ' +
        'set the --tensor-parallel-size value (spec.engine.extraArgs[0]) to 4',
    ]);
  });

  test('prefill/decode: a pipeline parallel size on top of the derived sizes fails both components', () => {
    expect(findings(llmd, disaggregatedLlmdDeployment(engine({ args: { 'pipeline-parallel-size': '2' } }))).errors).toEqual([
      'spec.engine.args.pipeline-parallel-size: Invalid value: "2": llm-d prefill pods: vLLM needs 4 GPUs for tensor-parallel-size 2 (derived from spec.scaling.prefill.gpu.count) ' +
        '× pipeline-parallel-size 2, but each pod has 2 (spec.scaling.prefill.gpu.count); vLLM cannot start with more ranks than GPUs it sees: ' +
        'set spec.engine.args.tensor-parallel-size to "1", or raise spec.scaling.prefill.gpu.count',
      'spec.engine.args.pipeline-parallel-size: Invalid value: "2": llm-d decode pods: vLLM needs 8 GPUs for tensor-parallel-size 4 (derived from spec.scaling.decode.gpu.count) ' +
        '× pipeline-parallel-size 2, but each pod has 4 (spec.scaling.decode.gpu.count); vLLM cannot start with more ranks than GPUs it sees: ' +
        'set spec.engine.args.tensor-parallel-size to "2", or raise spec.scaling.decode.gpu.count',
    ]);
  });

  test('fails on a bare size flag (an empty engine.args value)', () => {
    expect(findings(llmd, llmdDeployment(engine({ args: { 'pipeline-parallel-size': '' } }))).errors).toEqual([
      'spec.engine.args.pipeline-parallel-size: Invalid value: "": --pipeline-parallel-size needs a value: vLLM takes a positive integer (a number of GPUs) and does not start without one',
    ]);
  });
});

describe('Dynamo (derives the tensor parallel size from the GPUs; workers get engine.args only, extraArgs are dropped)', () => {
  test('a 4-GPU worker gets tensor parallel size 4 (AI Runway derives none, leaving 3 idle)', () => {
    expectAccepted(dynamo, dynamoDeployment({ spec: gpus(4) }), []);
  });

  test('a user\'s data parallel size on top of the derived tensor parallel size fails: twice the ranks of the GPUs', () => {
    expect(findings(dynamo, dynamoDeployment({ spec: { ...gpus(4), engine: { args: { 'data-parallel-size': '2' } } } })).errors).toEqual([
      'spec.engine.args.data-parallel-size: Invalid value: "2": Dynamo worker (VllmWorker): vLLM needs 8 GPUs for tensor-parallel-size 4 (derived from ' +
        'spec.resources.gpu.count) × data-parallel-size 2, but each pod has 4 (spec.resources.gpu.count); vLLM cannot start with more ranks than GPUs it sees: ' +
        'set spec.engine.args.tensor-parallel-size to "2", or raise spec.resources.gpu.count',
    ]);
    expectAccepted(dynamo, dynamoDeployment({ spec: { ...gpus(4), engine: { args: { 'data-parallel-size': '2', 'tensor-parallel-size': '2' } } } }), []);
  });

  test('accepts tensor-parallel-size equal to the GPU count', () => {
    expectAccepted(dynamo, dynamoDeployment({ spec: { ...gpus(4), engine: { args: { 'tensor-parallel-size': '4' } } } }), []);
  });

  test('ignores extraArgs, as Dynamo does', () => {
    expect(findings(dynamo, dynamoDeployment({ spec: { ...gpus(4), engine: { extraArgs: ['--tensor-parallel-size', '2'] } } }))).toEqual({ errors: [], warnings: [] });
  });

  test('SGLang: names the flag as the user wrote it', () => {
    expectAccepted(dynamo, dynamoDeployment({ spec: { ...gpus(4), engine: { type: 'sglang', args: { 'tp-size': '2' } } } }), [
      'Dynamo worker (VllmWorker): SGLang uses 2 of the 4 GPUs of each pod (spec.resources.gpu.count) with tp-size 2; 2 stay idle: set spec.engine.args.tp-size to "4"',
    ]);
  });

  test('TensorRT-LLM: fails when the world size exceeds the GPUs', () => {
    expect(findings(dynamo, dynamoDeployment({ spec: { ...gpus(2), engine: { type: 'trtllm', args: { 'tensor-parallel-size': '2', 'pipeline-parallel-size': '2' } } } })).errors).toEqual([
      'spec.engine.args.tensor-parallel-size: Invalid value: "2": Dynamo worker (VllmWorker): TensorRT-LLM needs 4 GPUs for tensor-parallel-size 2 × pipeline-parallel-size 2, ' +
        'but each pod has 2 (spec.resources.gpu.count); TensorRT-LLM cannot start with more ranks than GPUs it sees: ' +
        'set spec.engine.args.tensor-parallel-size to "1", or raise spec.resources.gpu.count',
    ]);
  });

  test('TensorRT-LLM: checks nothing when an engine options file may set the sizes', () => {
    expect(findings(dynamo, dynamoDeployment({ spec: { ...gpus(4), engine: { type: 'trtllm', args: { 'extra-engine-args': '/config/engine.yaml' } } } })))
      .toEqual({ errors: [], warnings: [] });
  });

  test('prefill/decode: each worker gets the tensor parallel size of its own GPUs', () => {
    expectAccepted(dynamo, dynamoDisaggregated(), []);
  });

  test('prefill/decode: fails the 1-GPU prefill worker with tensor-parallel-size 2', () => {
    expect(findings(dynamo, dynamoDisaggregated(engine({ args: { 'tensor-parallel-size': '2' } })))).toEqual({
      errors: [
        'spec.engine.args.tensor-parallel-size: Invalid value: "2": Dynamo prefill worker (VllmPrefillWorker): vLLM needs 2 GPUs for tensor-parallel-size 2, ' +
          'but each pod has 1 (spec.scaling.prefill.gpu.count); vLLM cannot start with more ranks than GPUs it sees: ' +
          'set spec.engine.args.tensor-parallel-size to "1", or raise spec.scaling.prefill.gpu.count',
      ],
      warnings: [],
    });
  });

  test('SGLang prefill/decode: a pipeline parallel size fails both workers, the 1-GPU prefill and the decode whose 2 GPUs already hold TP 2', () => {
    expect(findings(dynamo, dynamoDisaggregated(engine({ type: 'sglang', args: { 'pp-size': '2' } })))).toEqual({
      errors: [
        'spec.engine.args.pp-size: Invalid value: "2": Dynamo prefill worker (VllmPrefillWorker): SGLang needs 2 GPUs for tensor-parallel-size 1 (unset) × pp-size 2, ' +
          'but each pod has 1 (spec.scaling.prefill.gpu.count); SGLang cannot start with more ranks than GPUs it sees: ' +
          'lower the parallel sizes or raise spec.scaling.prefill.gpu.count',
        'spec.engine.args.pp-size: Invalid value: "2": Dynamo decode worker (VllmDecodeWorker): SGLang needs 4 GPUs for tensor-parallel-size 2 (derived from ' +
          'spec.scaling.decode.gpu.count) × pp-size 2, but each pod has 2 (spec.scaling.decode.gpu.count); SGLang cannot start with more ranks than GPUs it sees: ' +
          'set spec.engine.args.tensor-parallel-size to "1", or raise spec.scaling.decode.gpu.count',
      ],
      warnings: [],
    });
  });

  test('TensorRT-LLM prefill/decode: derives each worker\'s size, and judges a user\'s size per worker', () => {
    const md = dynamoDisaggregated({
      spec: {
        engine: { type: 'trtllm' },
        scaling: {
          prefill: { replicas: 1, gpu: { count: 2, type: 'nvidia.com/gpu' } },
          decode: { replicas: 1, gpu: { count: 4, type: 'nvidia.com/gpu' } },
        },
      },
    });
    expectAccepted(dynamo, md, []);
    md.spec.engine!.args = { 'tensor-parallel-size': '2' };
    expectAccepted(dynamo, md, [
      'Dynamo decode worker (VllmDecodeWorker): TensorRT-LLM uses 2 of the 4 GPUs of each pod (spec.scaling.decode.gpu.count) with tensor-parallel-size 2; ' +
        '2 stay idle: set spec.engine.args.tensor-parallel-size to "4"',
    ]);
  });

  test('multi-node: counts the GPUs of every node (AI Runway\'s e2e fixture leaves half of them idle)', () => {
    const overrides = { spec: { services: { VllmWorker: { multinode: { nodeCount: 2 } } } } };
    expectAccepted(dynamo, multinodeDeployment(overrides), [
      'Dynamo worker (VllmWorker): vLLM uses 2 of the 4 GPUs of each group of 2 pods ' +
        '(spec.provider.overrides.spec.services.VllmWorker.multinode.nodeCount 2 × spec.resources.gpu.count 2) with tensor-parallel-size 2; ' +
        '2 stay idle: set spec.engine.args.tensor-parallel-size to "4"',
    ]);
    const md = multinodeDeployment(overrides);
    md.spec.engine!.args = { 'tensor-parallel-size': '4' };
    expectAccepted(dynamo, md, []);
  });

  test('multi-node: fails when the world size exceeds the GPUs of all nodes (v1beta1 components, default node count)', () => {
    const md = dynamoDeployment({
      annotations: { 'inference.cdk8s.io/dynamo-api-version': 'nvidia.com/v1beta1' },
      spec: { ...gpus(4), engine: { args: { 'tensor-parallel-size': '16' } }, provider: { name: 'dynamo', overrides: { spec: { components: { VllmWorker: { multinode: {} } } } } } },
    });
    expect(findings(dynamo, md).errors).toEqual([
      'spec.engine.args.tensor-parallel-size: Invalid value: "16": Dynamo worker (VllmWorker): vLLM needs 16 GPUs for tensor-parallel-size 16, but each group of 2 pods has 8 ' +
        '(spec.provider.overrides.spec.components.VllmWorker.multinode (nodeCount 2 by default) × spec.resources.gpu.count 4); ' +
        'vLLM cannot start with more ranks than GPUs it sees: set spec.engine.args.tensor-parallel-size to "8", or raise spec.resources.gpu.count',
    ]);
  });

  test('checks nothing for a worker whose GPUs or command line the overrides replace', () => {
    const resources = { spec: { services: { VllmWorker: { resources: { limits: { gpu: '8' } } } } } };
    expect(findings(dynamo, dynamoDeployment({ spec: { ...gpus(4), provider: { name: 'dynamo', overrides: resources } } }))).toEqual({ errors: [], warnings: [] });
    const args = { spec: { services: { VllmWorker: { extraPodSpec: { mainContainer: { args: ['--tensor-parallel-size', '4'] } } } } } };
    expect(findings(dynamo, dynamoDeployment({ spec: { ...gpus(4), provider: { name: 'dynamo', overrides: args } } }))).toEqual({ errors: [], warnings: [] });
  });

  test('checks nothing for the mocker (no engine, no GPUs)', () => {
    expect(findings(dynamo, mockerDeployment(engine({ args: { 'tensor-parallel-size': '8' } })))).toEqual({ errors: [], warnings: [] });
  });
});

describe('KubeRay (derives --tensor-parallel-size from the GPUs per worker; engine.args and extraArgs win)', () => {
  test('aggregated: accepts the derived size on 4-GPU workers', () => {
    expectAccepted(kuberay, multiGpuDeployment(), []);
  });

  test('aggregated: warns when an explicit size leaves worker GPUs idle', () => {
    expectAccepted(kuberay, multiGpuDeployment(engine({ args: { 'tensor-parallel-size': '2' } })), [
      'KubeRay worker pods (gpu-workers): vLLM uses 2 of the 4 GPUs of each pod (spec.resources.gpu.count) with tensor-parallel-size 2; 2 stay idle: ' +
        'set spec.engine.args.tensor-parallel-size to "4"',
    ]);
  });

  test('aggregated: fails when a Serve replica needs more GPUs than its worker pod has', () => {
    expect(findings(kuberay, multiGpuDeployment(engine({ extraArgs: ['-tp', '8'] }))).errors).toEqual([
      'spec.engine.extraArgs[1]: Invalid value: "8": KubeRay worker pods (gpu-workers): vLLM needs 8 GPUs for -tp 8, but each pod has 4 (spec.resources.gpu.count); ' +
        'vLLM cannot start with more ranks than GPUs it sees: set the -tp value (spec.engine.extraArgs[1]) to 4, or raise spec.resources.gpu.count',
    ]);
  });

  test('disaggregated: each role\'s engine takes its own worker pods\' GPUs (prefill 2, decode 4)', () => {
    expectAccepted(kuberay, kuberayDisaggregated(), []);
  });

  test('disaggregated: a tensor parallel size one role\'s pods cannot hold fails there, and leaves the other\'s GPUs idle', () => {
    const { errors, warnings } = findings(kuberay, kuberayDisaggregated(engine({ args: { 'tensor-parallel-size': '4' } })));
    expect(errors).toEqual([
      'spec.engine.args.tensor-parallel-size: Invalid value: "4": KubeRay prefill worker pods (prefill-workers): vLLM needs 4 GPUs for tensor-parallel-size 4, ' +
        'but each pod has 2 (spec.scaling.prefill.gpu.count); vLLM cannot start with more ranks than GPUs it sees: ' +
        'set spec.engine.args.tensor-parallel-size to "2", or raise spec.scaling.prefill.gpu.count',
    ]);
    expect(warnings).toEqual([]);
  });
});

describe('KAITO (sizes itself; engine.args do not reach the preset)', () => {
  test('checks nothing', () => {
    const md = kaitoVllmDeployment({ spec: { ...gpus(1), engine: { args: { 'tensor-parallel-size': '8' } } } });
    expect(findings(kaito, md).warnings).toEqual([]);
    expect(findings(kaito, md).errors.filter((e) => e.includes('parallel'))).toEqual([]);
  });
});

/*
 * The model of what an engine runs with (the user's last flag, else the provider's derived size,
 * else 1), checked against the command line each provider actually renders, read the way argparse
 * reads it (last occurrence wins).
 */
describe('the effective sizes are what each rendered command line says', () => {
  function lastSize(tokens: readonly string[], options: readonly string[], underscores: boolean): number | undefined {
    let size: number | undefined;
    for (let i = 0; i < tokens.length; i++) {
      const [option, attached] = tokens[i].split(/=(.*)/s);
      const name = underscores && option.startsWith('--') ? option.replace(/_/g, '-') : option;
      if (!options.includes(name)) continue;
      size = Number(attached ?? tokens[++i]);
    }
    return size;
  }
  function rendered(engineName: ParallelEngine, tokens: readonly string[]) {
    const f = PARALLEL_FLAGS[engineName];
    return {
      tensorParallel: lastSize(tokens, f.tensorParallel, f.underscoresAsDashes) ?? 1,
      pipelineParallel: lastSize(tokens, f.pipelineParallel, f.underscoresAsDashes) ?? 1,
      dataParallel: lastSize(tokens, f.dataParallel, f.underscoresAsDashes) ?? 1,
    };
  }

  const ENGINES: Array<{ args?: Record<string, string>; extraArgs?: string[] }> = [
    {},
    { args: { 'tensor-parallel-size': '2' } },
    { args: { 'tensor_parallel_size': '2', 'pipeline-parallel-size': '2' } },
    { args: { 'tp-size': '2', 'pp-size': '2' } },
    { extraArgs: ['-tp', '2'] },
    { extraArgs: ['--tensor-parallel-size=8', '-pp=2'] },
    { args: { 'max-num-seqs': '8' }, extraArgs: ['-q', 'awq', '--pipeline-parallel-size', '4'] },
    { args: { 'data-parallel-size': '2' } },
  ];
  const spec = (engineName: string, count: number, e: (typeof ENGINES)[number]): ModelDeploymentSpec =>
    admittedDeployment('x', { spec: { ...gpus(count), engine: { type: engineName as 'vllm', ...e } } }).spec;
  const cases = ENGINES.flatMap((e) => [1, 2, 4].map((count) => [count, e] as const));

  test.each(cases)('Direct vLLM, %d GPUs, %j', (count, e) => {
    const s = spec('vllm', count, e);
    const expected = effectiveParallelism(userParallelism(s, 'vllm', { extraArgs: true }), count > 1 ? count : undefined);
    expect(rendered('vllm', renderDirectVllmArgs(s, { gpuCount: count }))).toEqual(expected);
  });

  test.each(cases)('llm-d, %d GPUs, %j', (count, e) => {
    const s = spec('vllm', count, e);
    const expected = effectiveParallelism(userParallelism(s, 'vllm', { extraArgs: true }), count > 1 ? count : undefined);
    expect(rendered('vllm', renderLlmdArgs(s, { gpuCount: count }))).toEqual(expected);
  });

  test.each(cases)('KubeRay, %d GPUs per worker, %j', (count, e) => {
    const s = spec('vllm', count, e);
    const expected = effectiveParallelism(userParallelism(s, 'vllm', { extraArgs: true }), count > 1 ? count : undefined);
    expect(rendered('vllm', kuberayEngineTokens(s, { gpusPerWorker: count }).map((t) => t.token))).toEqual(expected);
  });

  test.each((['vllm', 'sglang', 'trtllm'] as const).flatMap((engineName) => ENGINES.map((e) => [engineName, e] as const)))('Dynamo, %s, %j', (engineName, e) => {
    const s = spec(engineName, 4, e);
    const expected = effectiveParallelism(userParallelism(s, engineName, { extraArgs: false }), 4);
    expect(rendered(engineName, dynamoEngineArgs(s, engineName, { derivedTensorParallel: 4 }))).toEqual(expected);
    expect(rendered(engineName, dynamoEngineArgs(s, engineName, { role: 'decode', derivedTensorParallel: 4 }))).toEqual(expected);
  });
});

describe('through the pipeline', () => {
  const DYNAMO_4_GPUS = `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: {name: qwen, namespace: ml}
spec:
  model: {id: Qwen/Qwen3-0.6B}
  provider: {name: dynamo}
  engine: {type: vllm, args: {tensor-parallel-size: "2"}}
  resources: {gpu: {count: 4}}
`;
  const WARNING = 'Dynamo worker (VllmWorker): vLLM uses 2 of the 4 GPUs of each pod (spec.resources.gpu.count) with tensor-parallel-size 2; ' +
    '2 stay idle: set spec.engine.args.tensor-parallel-size to "4"';

  test('the construct records the provider\'s warnings', () => {
    const chart = Testing.chart();
    const md = new ModelDeployment(chart, 'qwen', {
      model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'dynamo' }, resources: { gpu: { count: 4 } }, engine: { args: { 'tensor-parallel-size': '2' } },
    });
    expect(md.warnings).toEqual([WARNING]);
  });

  test('the CLI prints them with synth and explain', async () => {
    const io = () => {
      const out = { stdout: '', stderr: [] as string[] };
      return { out, io: { stdout: (t: string) => (out.stdout += t), stderr: (l: string) => out.stderr.push(l) } };
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parallelism-'));
    try {
      const input = path.join(dir, 'qwen.yaml');
      fs.writeFileSync(input, DYNAMO_4_GPUS);
      const synth = io();
      expect(await main(['synth', '-f', input], synth.io)).toBe(0);
      expect(synth.out.stderr).toEqual([`warning: ${input}[doc 1]: ${WARNING}`]);
      const explain = io();
      expect(await main(['explain', '-f', input], explain.io)).toBe(0);
      expect(explain.out.stdout).toContain(`  warning: ${WARNING}\n`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the controller\'s re-validation of a record fails the same way', () => {
    const md = dynamoDisaggregated(engine({ args: { 'tensor-parallel-size': '2' } }));
    expect(readRecord(recordOf(md), defaultProviderCatalog()).errors).toEqual([
      'spec.engine.args.tensor-parallel-size: Invalid value: "2": Dynamo prefill worker (VllmPrefillWorker): vLLM needs 2 GPUs for tensor-parallel-size 2, ' +
        'but each pod has 1 (spec.scaling.prefill.gpu.count); vLLM cannot start with more ranks than GPUs it sees: ' +
        'set spec.engine.args.tensor-parallel-size to "1", or raise spec.scaling.prefill.gpu.count',
    ]);
  });
});
