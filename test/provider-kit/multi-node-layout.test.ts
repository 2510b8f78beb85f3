import { MULTI_NODE_ANNOTATION } from '../../src/api/multi-node/multi-node-annotation';
import { formatFieldError } from '../../src/core/field-error';
import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import {
  allowedTensorParallelSizes,
  deploymentMultiNode,
  LayoutFlag,
  multiNodeAdmissionErrors,
  multiNodeLayout,
  podGpuCount,
  podsPerReplica,
} from '../../src/provider-kit/multi-node-layout';

const GPU_PATH = 'spec.resources.gpu.count';
const tp = (size: number): LayoutFlag => ({ size, path: 'spec.engine.args.tensor-parallel-size', pathValue: String(size), written: 'tensor-parallel-size' });
const pp = (size: number): LayoutFlag => ({ size, path: 'spec.engine.args.pipeline-parallel-size', pathValue: String(size), written: 'pipeline-parallel-size' });

describe('multiNodeLayout', () => {
  // [case, gpus, gpusPerNode, TP flag, PP flag, expected TP, PP, group size]
  test.each([
    ['neither set: TP fills a node, PP counts the nodes', 16, 8, undefined, undefined, 8, 2, 2],
    ['three nodes', 24, 8, undefined, undefined, 8, 3, 3],
    ['TP spanning two nodes, PP unset (KServe counted a group of 1 pod here)', 16, 8, 16, undefined, 16, 1, 2],
    ['TP spanning four nodes', 32, 8, 32, undefined, 32, 1, 4],
    ['TP 4 × PP 4 on 8-GPU nodes', 16, 8, 4, 4, 4, 4, 2],
    ['TP 2 × PP 8 on 4-GPU nodes', 16, 4, 2, 8, 2, 8, 4],
    ['only PP set: TP derived', 16, 8, undefined, 4, 4, 4, 2],
    ['only TP set: PP derived', 16, 8, 8, undefined, 8, 2, 2],
    ['one GPU per node', 4, 1, undefined, undefined, 1, 4, 4],
  ])('%s: %i GPUs on %i-GPU nodes', (_name, gpus, perNode, t, p, eTp, ePp, eSize) => {
    const result = multiNodeLayout({
      gpus,
      gpuPath: GPU_PATH,
      gpusPerNode: perNode,
      tensorParallel: t === undefined ? undefined : tp(t),
      pipelineParallel: p === undefined ? undefined : pp(p),
    });
    expect(result.errors.map(formatFieldError)).toEqual([]);
    expect(result.layout).toEqual({ gpus, gpusPerNode: perNode, tensorParallel: eTp, pipelineParallel: ePp, groupSize: eSize });
    // The invariant every layout keeps: one rank per GPU, whole nodes.
    expect(eTp * ePp).toBe(gpus);
    expect(eSize * perNode).toBe(gpus);
  });

  test('the group size counts nodes, not pipeline stages: TP 16 on 8-GPU nodes is two pods with PP 1', () => {
    const { layout } = multiNodeLayout({ gpus: 16, gpuPath: GPU_PATH, gpusPerNode: 8, tensorParallel: tp(16) });
    expect(layout!.pipelineParallel).toBe(1);
    expect(layout!.groupSize).toBe(2);
  });

  // [case, gpus, gpusPerNode, TP, PP, path of the error, expected message part]
  test.each([
    ['12 GPUs do not fill 8-GPU nodes', 12, 8, undefined, undefined, GPU_PATH, 'must be a multiple of 8: set it to 16'],
    ['TP 4 × PP 3 with 12 GPUs on 8-GPU nodes', 12, 8, 4, 3, GPU_PATH, 'must be a multiple of 8'],
    ['20 GPUs on 8-GPU nodes', 20, 8, undefined, undefined, GPU_PATH, 'set it to 16 or 24'],
    ['TP × PP larger than the GPUs', 16, 8, 8, 4, 'spec.engine.args.tensor-parallel-size', 'is 32 ranks, but a replica has 16 GPUs'],
    ['TP × PP smaller than the GPUs', 16, 8, 4, 2, 'spec.engine.args.tensor-parallel-size', 'the product must equal 16: set the tensor parallel size to 8'],
    ['TP not dividing the GPUs', 16, 8, 3, undefined, 'spec.engine.args.tensor-parallel-size', 'allowed tensor parallel sizes: 1, 2, 4, 8, 16'],
    ['PP not dividing the GPUs', 16, 8, undefined, 3, 'spec.engine.args.pipeline-parallel-size', 'allowed pipeline parallel sizes: 1, 2, 4, 8, 16'],
    ['TP 12 straddles 8-GPU nodes', 24, 8, 12, undefined, 'spec.engine.args.tensor-parallel-size', 'allowed tensor parallel sizes for 24 GPUs: 1, 2, 4, 8, 24'],
    ['PP 2 derives TP 12 on 8-GPU nodes', 24, 8, undefined, 2, 'spec.engine.args.pipeline-parallel-size', 'tensor parallel size 12 (derived: 24 GPUs / pipeline-parallel-size 2)'],
  ])('fails when %s', (_name, gpus, perNode, t, p, path, message) => {
    const result = multiNodeLayout({
      gpus,
      gpuPath: GPU_PATH,
      gpusPerNode: perNode,
      tensorParallel: t === undefined ? undefined : tp(t),
      pipelineParallel: p === undefined ? undefined : pp(p),
    });
    expect(result.layout).toBeUndefined();
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0].path).toBe(path);
    expect(formatFieldError(result.errors[0])).toContain(message);
  });

  test('allowed tensor parallel sizes keep every group inside a node or on whole nodes', () => {
    expect(allowedTensorParallelSizes(24, 8)).toEqual([1, 2, 4, 8, 24]);
    expect(allowedTensorParallelSizes(16, 4)).toEqual([1, 2, 4, 8, 16]);
  });
});

function md(gpusPerNode: number | undefined, spec: Partial<ModelDeploymentSpec>) {
  const annotations: Record<string, string> = gpusPerNode === undefined ? {} : { [MULTI_NODE_ANNOTATION]: `gpusPerNode: ${gpusPerNode}` };
  return {
    annotations,
    spec: { model: { id: 'meta-llama/Llama-3.1-70B-Instruct' }, ...spec } as ModelDeploymentSpec,
  };
}

describe('deploymentMultiNode', () => {
  test('is unset without the annotation', () => {
    expect(deploymentMultiNode(md(undefined, { resources: { gpu: { count: 16 } } }), 'vllm', { extraArgs: true })).toBeUndefined();
  });

  test('reads the tensor parallel size from the last flag the engine sees, in any spelling', () => {
    const found = deploymentMultiNode(md(8, { resources: { gpu: { count: 16 } }, engine: { extraArgs: ['-tp', '4', '-pp=4'] } }), 'vllm', { extraArgs: true });
    expect(found!.errors).toEqual([]);
    expect(found!.layouts.resources).toMatchObject({ tensorParallel: 4, pipelineParallel: 4, groupSize: 2 });
  });

  test('ignores extraArgs for a provider that drops them', () => {
    const found = deploymentMultiNode(md(8, { resources: { gpu: { count: 16 } }, engine: { extraArgs: ['-tp', '3'] } }), 'vllm', { extraArgs: false });
    expect(found!.layouts.resources).toMatchObject({ tensorParallel: 8, pipelineParallel: 2 });
  });

  test('lays out each disaggregated component on its own; one that fits a node stays a single pod', () => {
    const found = deploymentMultiNode(md(8, {
      serving: { mode: 'disaggregated' },
      scaling: { prefill: { replicas: 1, gpu: { count: 8 } }, decode: { replicas: 2, gpu: { count: 16 } } },
    }), 'vllm', { extraArgs: true });
    expect(found!.errors).toEqual([]);
    expect(Object.keys(found!.layouts)).toEqual(['decode']);
    expect(found!.layouts.decode!.groupSize).toBe(2);
  });

  test('warns when no component needs more GPUs than a node has', () => {
    const found = deploymentMultiNode(md(8, { resources: { gpu: { count: 8 } } }), 'vllm', { extraArgs: true });
    expect(found!.errors).toEqual([]);
    expect(found!.warnings).toEqual([expect.stringContaining('no component needs more GPUs than that (spec.resources.gpu.count 8)')]);
  });

  test('fails when data parallelism or --nnodes is set: the group would not be TP × PP', () => {
    const found = deploymentMultiNode(md(8, { resources: { gpu: { count: 16 } }, engine: { args: { 'data-parallel-size': '2' } } }), 'vllm', { extraArgs: true });
    expect(found!.errors.map(formatFieldError)).toEqual([expect.stringMatching(/^spec\.engine\.args\.data-parallel-size: Invalid value: .*cannot be combined with multi-node replicas/)]);
  });

  test('fails with the flag path when the user layout does not fill the replica', () => {
    const found = deploymentMultiNode(md(8, { resources: { gpu: { count: 16 } }, engine: { args: { 'tensor-parallel-size': '8', 'pipeline-parallel-size': '4' } } }), 'vllm', { extraArgs: true });
    expect(found!.errors.map((e) => e.path)).toEqual(['spec.engine.args.tensor-parallel-size']);
  });
});

describe('per-pod sizing', () => {
  test('a multi-node component requests gpusPerNode per pod and counts its pods', () => {
    const m = md(8, { resources: { gpu: { count: 24 } } });
    expect(podGpuCount(m, 'resources')).toBe(8);
    expect(podsPerReplica(m, 'resources')).toBe(3);
  });

  test('a component that fits one node keeps its GPUs in one pod', () => {
    const m = md(8, { resources: { gpu: { count: 4 } } });
    expect(podGpuCount(m, 'resources')).toBe(4);
    expect(podsPerReplica(m, 'resources')).toBe(1);
  });
});

describe('multiNodeAdmissionErrors', () => {
  test('fails when a multi-node component does not fill whole nodes', () => {
    expect(multiNodeAdmissionErrors(md(8, { resources: { gpu: { count: 12 } } }), []).map(formatFieldError)).toEqual([
      expect.stringMatching(/^spec\.resources\.gpu\.count: Invalid value: 12: a multi-node replica takes whole nodes of 8 GPUs/),
    ]);
  });

  test('fails when a multi-node component asks for MIG devices', () => {
    const errors = multiNodeAdmissionErrors(md(1, { resources: { gpu: { count: 2, type: 'nvidia.com/mig-1g.10gb' } } }), []);
    expect(errors.map((e) => e.path)).toEqual(['spec.resources.gpu.type']);
  });

  test('passes for a layout of whole nodes, and for components that fit a node', () => {
    expect(multiNodeAdmissionErrors(md(8, { resources: { gpu: { count: 16 } } }), [])).toEqual([]);
    expect(multiNodeAdmissionErrors(md(8, { resources: { gpu: { count: 6 } } }), [])).toEqual([]);
  });
});
