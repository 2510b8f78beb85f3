/**
 * Multi-node replicas on Dynamo (annotation `inference.cdk8s.io/multi-node`), in both
 * DynamoGraphDeployment versions: `multinode.nodeCount` and per-node GPUs on the worker that
 * spans nodes, the layout's sizes in its arguments, and the errors with their field paths.
 */
import { disaggregatedDeployment, dynamoDeployment, FixtureOptions } from './fixtures';
import { graphView, GraphView } from './views';
import { MULTI_NODE_ANNOTATION } from '../../../src/api/multi-node/multi-node-annotation';
import { ResolvedModelDeployment, toResolvedDeployment } from '../../../src/api/resolved-model-deployment';
import { formatFieldError } from '../../../src/core/field-error';
import { podNeeds } from '../../../src/dra/capacity-fit';
import { resolveModelDeployment } from '../../../src/pipeline/resolve';
import { defaultProviderCatalog } from '../../../src/pipeline/shipped-providers';
import { DynamoApiVersion, DynamoProvider } from '../../../src/providers/dynamo';
import { fieldErrorsOf, onlyManifestOf, synthesize, translatorOf } from '../../support/translator-harness';

const PATH = 'metadata.annotations["inference.cdk8s.io/multi-node"]';

/** 16 GPUs per replica on nodes of 8 (two pods per replica), with `options` merged in. */
function multiNode(options: FixtureOptions = {}, gpusPerNode = 8): FixtureOptions {
  return {
    ...options,
    annotations: { [MULTI_NODE_ANNOTATION]: `gpusPerNode: ${gpusPerNode}`, ...options.annotations },
    spec: { resources: { gpu: { count: 16, type: 'nvidia.com/gpu' } }, ...options.spec },
  };
}

const VERSIONS = [
  { apiVersion: DynamoApiVersion.V1ALPHA1, overrides: (multinode: unknown) => ({ spec: { services: { VllmWorker: { multinode } } } }), key: 'services' },
  { apiVersion: DynamoApiVersion.V1BETA1, overrides: (multinode: unknown) => ({ spec: { components: { VllmWorker: { multinode } } } }), key: 'components' },
];

describe.each(VERSIONS)('Dynamo multi-node replicas ($apiVersion)', ({ apiVersion, overrides, key }) => {
  const provider = new DynamoProvider({ apiVersion });
  const translator = translatorOf(provider);
  const synth = (md: ResolvedModelDeployment) => synthesize(translator, md);
  const viewOf = (md: ResolvedModelDeployment): GraphView => graphView(onlyManifestOf(synth(md).manifests, 'DynamoGraphDeployment'));
  const errorsOf = (md: ResolvedModelDeployment) => fieldErrorsOf(translator, md);
  const warningsOf = (md: ResolvedModelDeployment) => provider.warnings(toResolvedDeployment(md));

  test('a worker of 16 GPUs on nodes of 8 spans 2 nodes of 8 GPUs, TP 8 × PP 2 before engine.args', () => {
    const md = dynamoDeployment(multiNode({ spec: { scaling: { replicas: 2 }, engine: { args: { 'max-num-seqs': '64' } } } }));
    expect(errorsOf(md)).toEqual([]);
    const { manifests } = synth(md);
    const w = graphView(onlyManifestOf(manifests, 'DynamoGraphDeployment')).service('VllmWorker');
    expect(onlyManifestOf(manifests, 'DynamoGraphDeployment').apiVersion).toBe(apiVersion);
    expect(w.multinode).toEqual({ nodeCount: 2 });
    expect(w.replicas).toBe(2);
    expect(w.resources).toEqual({ limits: { 'nvidia.com/gpu': '8' }, requests: { 'nvidia.com/gpu': '8' } });
    expect(w.args).toEqual([
      '--model', 'Qwen/Qwen3-0.6B', '--enable-prefix-caching',
      '--tensor-parallel-size', '8', '--pipeline-parallel-size', '2',
      '--max-num-seqs', '64',
    ]);
  });

  test('matches the snapshot', () => {
    expect(synth(dynamoDeployment(multiNode())).manifests).toMatchSnapshot();
  });

  test('the parallelism checks count the GPUs of every pod of the group: no idle GPUs, no warning', () => {
    expect(warningsOf(dynamoDeployment(multiNode()))).toEqual([]);
  });

  test('honours the user\'s size and renders only the one left unset (TP 16 spans both nodes with PP 1)', () => {
    const md = dynamoDeployment(multiNode({ spec: { engine: { args: { 'tensor-parallel-size': '16' } } } }));
    expect(errorsOf(md)).toEqual([]);
    const w = viewOf(md).service('VllmWorker');
    expect(w.multinode).toEqual({ nodeCount: 2 });
    expect(w.args).toEqual(['--model', 'Qwen/Qwen3-0.6B', '--enable-prefix-caching', '--pipeline-parallel-size', '1', '--tensor-parallel-size', '16']);
  });

  test('SGLang: 32 GPUs on nodes of 8 with tp-size 8 are 4 nodes, PP 4 rendered', () => {
    const md = dynamoDeployment(multiNode({ spec: { resources: { gpu: { count: 32, type: 'nvidia.com/gpu' } }, engine: { type: 'sglang', args: { 'tp-size': '8' } } } }));
    expect(errorsOf(md)).toEqual([]);
    const w = viewOf(md).service('VllmWorker');
    expect(w.multinode).toEqual({ nodeCount: 4 });
    expect(w.args).toEqual(['--model-path', 'Qwen/Qwen3-0.6B', '--pipeline-parallel-size', '4', '--tp-size', '8']);
  });

  test('TensorRT-LLM: 16 GPUs on nodes of 4 are 4 nodes of TP 4 × PP 4', () => {
    const md = dynamoDeployment(multiNode({ spec: { engine: { type: 'trtllm' } } }, 4));
    expect(errorsOf(md)).toEqual([]);
    const w = viewOf(md).service('VllmWorker');
    expect(w.multinode).toEqual({ nodeCount: 4 });
    expect(w.resources?.limits).toEqual({ 'nvidia.com/gpu': '4' });
    expect(w.args).toEqual(['--model-path', 'Qwen/Qwen3-0.6B', '--tensor-parallel-size', '4', '--pipeline-parallel-size', '4']);
  });

  test('disaggregated: only the worker that spans nodes gets multinode', () => {
    const md = disaggregatedDeployment({
      annotations: { [MULTI_NODE_ANNOTATION]: 'gpusPerNode: 8' },
      spec: {
        scaling: {
          prefill: { replicas: 1, gpu: { count: 4, type: 'nvidia.com/gpu' } },
          decode: { replicas: 2, gpu: { count: 16, type: 'nvidia.com/gpu' } },
        },
        engine: { args: { 'tensor-parallel-size': '4' } },
      },
    });
    expect(errorsOf(md)).toEqual([]);
    const view = viewOf(md);
    const decode = view.service('VllmDecodeWorker');
    expect(decode.multinode).toEqual({ nodeCount: 2 });
    expect(decode.resources?.limits).toEqual({ 'nvidia.com/gpu': '8' });
    expect(decode.args).toContain('--pipeline-parallel-size');
    expect(decode.args?.slice(decode.args.indexOf('--pipeline-parallel-size'), decode.args.indexOf('--pipeline-parallel-size') + 2)).toEqual(['--pipeline-parallel-size', '4']);
    const prefill = view.service('VllmPrefillWorker');
    expect(prefill.multinode).toBeUndefined();
    expect(prefill.resources?.limits).toEqual({ 'nvidia.com/gpu': '4' });
    expect(prefill.args).not.toContain('--pipeline-parallel-size');
  });

  test('the capacity check counts the pods and GPUs the DynamoGraphDeployment asks for', () => {
    const md = dynamoDeployment(multiNode({ spec: { scaling: { replicas: 3 } } }));
    const w = viewOf(md).service('VllmWorker');
    const [need] = podNeeds(md);
    expect(need.pods).toBe(w.replicas * w.multinode.nodeCount);
    expect(need.gpu).toEqual({ resource: 'nvidia.com/gpu', count: Number(w.resources!.limits!['nvidia.com/gpu']) });
  });

  test('warns, and renders no multinode, when no worker needs more than a node', () => {
    const md = dynamoDeployment(multiNode({ spec: { resources: { gpu: { count: 8, type: 'nvidia.com/gpu' } }, engine: { args: { 'tensor-parallel-size': '8' } } } }));
    expect(errorsOf(md)).toEqual([]);
    expect(warningsOf(md)).toEqual([
      `${PATH} has gpusPerNode 8, but no component needs more GPUs than that (spec.resources.gpu.count 8): every replica stays one pod on one node; ` +
        'raise gpu.count above gpusPerNode to spread a replica over nodes, or remove the annotation',
    ]);
    expect(viewOf(md).service('VllmWorker').multinode).toBeUndefined();
  });

  test('fails when the tensor parallel size would straddle part of a node, naming the flag and what is allowed', () => {
    const md = dynamoDeployment(multiNode({ spec: { resources: { gpu: { count: 24, type: 'nvidia.com/gpu' } }, engine: { args: { 'tensor-parallel-size': '12' } } } }));
    expect(errorsOf(md)).toEqual([
      'spec.engine.args.tensor-parallel-size: Invalid value: "12": tensor parallel size 12 neither divides nor is a multiple of the 8 GPUs of a node ' +
        `(${PATH}.gpusPerNode), so a tensor parallel group would straddle part of a node; allowed tensor parallel sizes for 24 GPUs: 1, 2, 4, 8, 24 ` +
        '(pipeline parallel sizes: 1, 3, 6, 12, 24)',
    ]);
  });

  test('fails when data parallelism is set, at the option', () => {
    const md = dynamoDeployment(multiNode({ spec: { engine: { args: { 'data-parallel-size': '2' } } } }));
    expect(errorsOf(md)).toEqual([
      `spec.engine.args.data-parallel-size: Invalid value: "data-parallel-size": cannot be combined with multi-node replicas (${PATH}): ` +
        'the pods of a replica are counted from tensor × pipeline parallel sizes alone; remove the option and set the tensor and pipeline parallel sizes instead',
    ]);
  });

  test(`fails when an override also sets the worker's multinode (spec.${key})`, () => {
    const md = dynamoDeployment(multiNode({ spec: { provider: { name: 'dynamo', overrides: overrides({ nodeCount: 2 }) } } }));
    expect(errorsOf(md)).toEqual([
      `spec.provider.overrides.spec.${key}.VllmWorker.multinode: Invalid value: {"nodeCount":2}: cannot be combined with ${PATH}: ` +
        'with the annotation, gpu.count is the GPUs of one VllmWorker replica and Dynamo\'s multinode.nodeCount is derived from it (gpu.count / gpusPerNode 8); ' +
        'remove this override, or remove the annotation and set gpu.count to the GPUs of one node to size the nodes by hand',
    ]);
  });

  test('fails when an override sets multinode on a worker that fits one node, since the annotation changed what gpu.count means', () => {
    const md = dynamoDeployment(multiNode({
      spec: { resources: { gpu: { count: 4, type: 'nvidia.com/gpu' } }, engine: { args: { 'tensor-parallel-size': '4' } }, provider: { name: 'dynamo', overrides: overrides({}) } },
    }));
    expect(errorsOf(md).map((e) => e.split(': ')[0])).toEqual([`spec.provider.overrides.spec.${key}.VllmWorker.multinode`]);
  });

  test('fails when a volume binds to one node', () => {
    const md = dynamoDeployment(multiNode({
      spec: { model: { storage: { volumes: [{ name: 'cache', purpose: 'modelCache', size: '100Gi', accessMode: 'ReadWriteOnce', mountPath: '/cache' }] } } },
    }));
    expect(errorsOf(md)).toEqual([
      `spec.model.storage.volumes[0].accessMode: Invalid value: "ReadWriteOnce": the pods of a multi-node replica (${PATH}) run on different nodes and each mounts the volume; ` +
        'ReadWriteOnce binds it to one node: use ReadWriteMany (or ReadOnlyMany for a pre-filled cache)',
    ]);
  });
});

describe('Dynamo multi-node replicas through admission and selection', () => {
  const resolve = (annotations: Record<string, string>, spec: Record<string, unknown>) =>
    resolveModelDeployment({ name: 'llama', annotations, spec: { model: { id: 'meta-llama/Llama-3.1-70B-Instruct' }, provider: { name: 'dynamo' }, ...spec } } as never, defaultProviderCatalog());

  test('a vLLM deployment with the annotation is accepted', () => {
    const resolution = resolve({ [MULTI_NODE_ANNOTATION]: 'gpusPerNode: 8' }, { engine: { type: 'vllm' }, resources: { gpu: { count: 16 } } });
    expect(resolution.errors.map(formatFieldError)).toEqual([]);
    expect(resolution.resolved?.provider).toBe('dynamo');
  });

  test('fails on the mocker, which runs no engine to span nodes, naming the targets that do', () => {
    const resolution = resolve(
      { [MULTI_NODE_ANNOTATION]: 'gpusPerNode: 8', 'airunway.ai/dynamo-test-backend': 'mocker' },
      { engine: { type: 'vllm' }, resources: { gpu: { count: 16 } } },
    );
    expect(resolution.errors.map(formatFieldError)).toEqual([
      expect.stringMatching(/^metadata\.annotations\["inference\.cdk8s\.io\/multi-node"\]: Forbidden: provider Dynamo \(explicit provider selection\) does not support multi-node; targets that support it: .*kuberay.*llmd.*vllm/),
    ]);
  });
});
