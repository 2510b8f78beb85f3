/**
 * Multi-node replicas on KubeRay (annotation `inference.cdk8s.io/multi-node`): each Serve replica
 * is a group of worker pods of `gpusPerNode` GPUs, vLLM gets the layout and the Ray executor in
 * the Serve config's `engine_kwargs`; disaggregated KubeRay refuses them.
 */
import { parse } from 'yaml';
import { FixtureOptions, kuberayDeployment } from './fixtures';
import { AUTOSCALING_ANNOTATION } from '../../../src/api/autoscaling/autoscaling-annotation';
import { MULTI_NODE_ANNOTATION } from '../../../src/api/multi-node/multi-node-annotation';
import { toResolvedDeployment } from '../../../src/api/resolved-model-deployment';
import { formatFieldError } from '../../../src/core/field-error';
import { podNeeds } from '../../../src/dra/capacity-fit';
import { resolveModelDeployment } from '../../../src/pipeline/resolve';
import { defaultProviderCatalog } from '../../../src/pipeline/shipped-providers';
import { KubeRayProvider } from '../../../src/providers/kuberay';
import { onlyManifestOf, translatorHarness } from '../../support/translator-harness';

const PATH = 'metadata.annotations["inference.cdk8s.io/multi-node"]';
const provider = new KubeRayProvider();
const { synthOf, errorsOf } = translatorHarness(provider, kuberayDeployment);

/** 16 GPUs per replica on nodes of 8: two worker pods per Serve replica. */
function multiNode(options: FixtureOptions = {}, gpusPerNode = 8): FixtureOptions {
  return {
    ...options,
    annotations: { [MULTI_NODE_ANNOTATION]: `gpusPerNode: ${gpusPerNode}`, ...options.annotations },
    spec: { resources: { gpu: { count: 16, type: 'nvidia.com/gpu' } }, ...options.spec },
  };
}

const rayServiceOf = (manifests: any[]) => onlyManifestOf(manifests, 'RayService');
const workerGroupOf = (manifests: any[]) => rayServiceOf(manifests).spec.rayClusterConfig.workerGroupSpecs[0];
const boundsOf = (group: any) => ({ replicas: group.replicas, minReplicas: group.minReplicas, maxReplicas: group.maxReplicas });
const llmConfigOf = (manifests: any[]) => parse(rayServiceOf(manifests).spec.serveConfigV2).applications[0].args.llm_configs[0];
const engineKwargsOf = (manifests: any[]) => llmConfigOf(manifests).engine_kwargs;
const warningsOf = (options: FixtureOptions) => provider.warnings(toResolvedDeployment(kuberayDeployment(options)));

describe('KubeRay multi-node replicas', () => {
  test('two Serve replicas of 16 GPUs on nodes of 8 are four worker pods of 8 GPUs', () => {
    const options = multiNode({ spec: { scaling: { replicas: 2 } } });
    expect(errorsOf(options)).toEqual([]);
    const manifests = synthOf(options);
    const group = workerGroupOf(manifests);
    expect(boundsOf(group)).toEqual({ replicas: 4, minReplicas: 4, maxReplicas: 4 });
    expect(group.template.spec.containers[0].resources.limits['nvidia.com/gpu']).toBe('8');
    // KubeRay reads 8 GPUs from the nvidia.com/gpu limit: nothing to tell Ray.
    expect(group.rayStartParams).toEqual({});
    expect(llmConfigOf(manifests).deployment_config).toEqual({ num_replicas: 2 });
  });

  test('vLLM gets the layout and the Ray executor in engine_kwargs', () => {
    const manifests = synthOf(multiNode({ spec: { engine: { extraArgs: ['--max-num-seqs', '64'] } } }));
    expect(engineKwargsOf(manifests)).toEqual({
      enable_prefix_caching: true, tensor_parallel_size: 8, pipeline_parallel_size: 2, distributed_executor_backend: 'ray', max_num_seqs: 64,
    });
  });

  test('matches the snapshot', () => {
    expect(synthOf(multiNode())).toMatchSnapshot();
  });

  test('honours the user\'s sizes: TP 16 spans both pods with PP 1', () => {
    const options = multiNode({ spec: { engine: { args: { 'tensor-parallel-size': '16' } } } });
    expect(errorsOf(options)).toEqual([]);
    expect(warningsOf(options)).toEqual([]);
    expect(engineKwargsOf(synthOf(options))).toMatchObject({ pipeline_parallel_size: 1, distributed_executor_backend: 'ray', tensor_parallel_size: 16 });
  });

  test('the Ray autoscaler\'s bounds are pods: Serve replicas times the group size', () => {
    const manifests = synthOf(multiNode({
      annotations: { [AUTOSCALING_ANNOTATION]: 'minReplicas: 1\nmaxReplicas: 3\nmetrics: [{type: inFlightRequests, target: 8}]' },
      spec: { resources: { gpu: { count: 32, type: 'nvidia.com/gpu' } } },
    }));
    const group = workerGroupOf(manifests);
    expect(boundsOf(group)).toEqual({ replicas: 4, minReplicas: 4, maxReplicas: 12 });
    expect(llmConfigOf(manifests).deployment_config.autoscaling_config).toMatchObject({ min_replicas: 1, max_replicas: 3 });
  });

  test('the capacity check counts the worker pods and GPUs the RayService asks for', () => {
    const options = multiNode({ spec: { scaling: { replicas: 3 } } });
    const group = workerGroupOf(synthOf(options));
    const [need] = podNeeds(kuberayDeployment(options));
    expect(need.pods).toBe(group.replicas);
    expect(need.gpu).toEqual({ resource: 'nvidia.com/gpu', count: Number(group.template.spec.containers[0].resources.limits['nvidia.com/gpu']) });
  });

  test('a replica that fits one worker pod stays one pod per Serve replica, with a warning', () => {
    const options = multiNode({ spec: { resources: { gpu: { count: 8, type: 'nvidia.com/gpu' } }, scaling: { replicas: 2 } } });
    expect(warningsOf(options)).toEqual([
      `${PATH} has gpusPerNode 8, but no component needs more GPUs than that (spec.resources.gpu.count 8): every replica stays one pod on one node; ` +
        'raise gpu.count above gpusPerNode to spread a replica over nodes, or remove the annotation',
    ]);
    const manifests = synthOf(options);
    expect(workerGroupOf(manifests).replicas).toBe(2);
    expect(engineKwargsOf(manifests)).toMatchObject({ tensor_parallel_size: 8 });
  });

  test('fails when the flags do not lay out the replica, naming the flag', () => {
    expect(errorsOf(multiNode({ spec: { engine: { extraArgs: ['-pp', '3'] } } }))).toEqual([
      'spec.engine.extraArgs[1]: Invalid value: "3": -pp 3 does not divide the 16 GPUs of a replica (spec.resources.gpu.count), ' +
        'so the stages cannot have equal tensor parallel groups; allowed pipeline parallel sizes: 1, 2, 4, 8, 16',
    ]);
  });

  test('fails when the executor is not Ray', () => {
    expect(errorsOf(multiNode({ spec: { engine: { args: { 'distributed-executor-backend': 'mp' } } } }))).toEqual([
      `spec.engine.args.distributed-executor-backend: Invalid value: "mp": a multi-node replica (${PATH}) needs vLLM's Ray executor, ` +
        'whose cluster spans the replica\'s pods; "mp" runs every rank on one node: remove the option or set it to "ray"',
    ]);
  });

  test('fails when a volume binds to one node', () => {
    const options = multiNode({
      spec: { model: { storage: { volumes: [{ name: 'cache', purpose: 'modelCache', size: '100Gi', accessMode: 'ReadWriteOnce', mountPath: '/cache' }] } } },
    });
    expect(errorsOf(options)).toEqual([
      `spec.model.storage.volumes[0].accessMode: Invalid value: "ReadWriteOnce": the pods of a multi-node replica (${PATH}) run on different nodes and each mounts the volume; ` +
        'ReadWriteOnce binds it to one node: use ReadWriteMany (or ReadOnlyMany for a pre-filled cache)',
    ]);
  });
});

describe('KubeRay multi-node replicas through admission and selection', () => {
  const resolve = (spec: Record<string, unknown>) => resolveModelDeployment({
    name: 'llama',
    annotations: { [MULTI_NODE_ANNOTATION]: 'gpusPerNode: 8' },
    spec: { model: { id: 'meta-llama/Llama-3.1-70B-Instruct' }, provider: { name: 'kuberay' }, engine: { type: 'vllm' }, ...spec },
  } as never, defaultProviderCatalog());

  test('an aggregated deployment is accepted', () => {
    const resolution = resolve({ resources: { gpu: { count: 16 } } });
    expect(resolution.errors.map(formatFieldError)).toEqual([]);
    expect(resolution.resolved?.provider).toBe('kuberay');
  });

  test('fails when disaggregated, naming the targets that run multi-node replicas', () => {
    const resolution = resolve({
      serving: { mode: 'disaggregated' },
      scaling: { prefill: { replicas: 1, gpu: { count: 16 } }, decode: { replicas: 1, gpu: { count: 16 } } },
    });
    expect(resolution.errors.map(formatFieldError)).toEqual([
      expect.stringMatching(/^metadata\.annotations\["inference\.cdk8s\.io\/multi-node"\]: Forbidden: provider KubeRay \(explicit provider selection\) does not support multi-node; targets that support it: dynamo, .*llmd.*$/),
    ]);
  });
});
