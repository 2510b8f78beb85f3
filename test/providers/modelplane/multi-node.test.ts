import { devicesAnnotation, FixtureOptions, modelplaneDeployment, modelplaneHarness, prefillDecodeDeployment, xrOf } from './fixtures';
import { MULTI_NODE_ANNOTATION } from '../../../src/api/multi-node/multi-node-annotation';
import { DeploymentFeature } from '../../../src/api/provider/deployment-feature';
import { toResolvedDeployment } from '../../../src/api/resolved-model-deployment';
import { LEADER_SCRIPT as LWS_LEADER_SCRIPT, rayLeaderScript, rayWorkerScript } from '../../../src/multinode/ray-launch';
import { ModelplaneProvider } from '../../../src/providers/modelplane';
import { MODELPLANE_GROUP_ENV } from '../../../src/providers/modelplane/multi-node';

const provider = new ModelplaneProvider();
const { synth, synthOf, errorsOf } = modelplaneHarness();

const LEADER_SCRIPT = rayLeaderScript(MODELPLANE_GROUP_ENV);
const WORKER_SCRIPT = rayWorkerScript(MODELPLANE_GROUP_ENV);
const CACHE = [{ name: 'cache', purpose: 'modelCache' as const, size: '200Gi' }];
const GPU_REQUEST = { name: 'gpu', count: 8, selectors: [{ cel: 'device.driver == "gpu.nvidia.com"' }] };

/** 16 GPUs per replica on nodes of `gpusPerNode`, with the ModelCache a Leader/Worker engine needs. */
function multiNode(options: FixtureOptions = {}, gpusPerNode = 8): FixtureOptions {
  return {
    ...options,
    annotations: { [MULTI_NODE_ANNOTATION]: `gpusPerNode: ${gpusPerNode}`, ...options.annotations },
    spec: { resources: { gpu: { count: 16, type: 'nvidia.com/gpu' } }, model: { storage: { volumes: CACHE } }, ...options.spec },
  };
}

const enginesOf = (manifests: any[]) => xrOf(manifests).spec.template.spec.engines;
const membersOf = (manifests: any[], index = 0) => enginesOf(manifests)[index].members;
const containerOf = (member: any) => member.template.spec.containers[0];

describe('modelplane multi-node replicas', () => {
  test('an engine that exceeds a node becomes a schema-valid Leader and Worker, each pod requesting gpusPerNode GPUs', () => {
    // synth() validates the ModelDeployment against modelplane's XRD, CEL rules included.
    const { manifests } = synth(modelplaneDeployment(multiNode({ spec: { scaling: { replicas: 2 } } })));
    const [leader, worker] = membersOf(manifests);
    expect(enginesOf(manifests)[0].copies).toBe(2);
    expect(leader).toMatchObject({ role: 'Leader', nodeSelector: { devices: [GPU_REQUEST] } });
    expect(worker).toMatchObject({ role: 'Worker', nodeSelector: { devices: [GPU_REQUEST] }, worker: { nodes: 1 } });
    expect(leader).not.toHaveProperty('worker');
    expect(xrOf(manifests).spec.template.spec.modelCacheRef).toEqual({ name: 'qwen-cache' });
    expect(errorsOf(multiNode())).toEqual([]);
    expect(provider.warnings(toResolvedDeployment(modelplaneDeployment(multiNode())))).toEqual([]);
  });

  test('the Leader runs the Ray head and `vllm serve` with the layout, the cached model and the group size', () => {
    const leader = containerOf(membersOf(synthOf(multiNode({ spec: { engine: { extraArgs: ['--max-num-seqs', '$(rm -rf /)'] } } })))[0]);
    expect(leader.command).toEqual(['/bin/sh', '-c', LEADER_SCRIPT, 'multi-node-leader']);
    expect(leader.args).toEqual([
      '/mnt/models', '--served-model-name=Qwen/Qwen3-0.6B', '--enable-prefix-caching',
      '--tensor-parallel-size=8', '--pipeline-parallel-size=2', '--distributed-executor-backend=ray',
      '--max-num-seqs', '$(rm -rf /)',
    ]);
    expect(leader.env).toEqual([{ name: 'MULTI_NODE_GROUP_SIZE', value: '2' }]);
    expect(LEADER_SCRIPT).toContain('os.environ["MULTI_NODE_GROUP_SIZE"]');
    expect(LEADER_SCRIPT).toContain('exec vllm serve "$@"');
    expect(LEADER_SCRIPT).not.toContain('rm -rf');
  });

  test('Workers join the Leader at the address modelplane sets, with no arguments and the same env', () => {
    const worker = containerOf(membersOf(synthOf(multiNode({ spec: { secrets: { huggingFaceToken: 'hf' } } })))[1]);
    expect(worker.command).toEqual(['/bin/sh', '-c', WORKER_SCRIPT, 'multi-node-worker']);
    expect(WORKER_SCRIPT).toContain('ray start --address="$MODELPLANE_LEADER_ADDRESS:6379"');
    expect(worker).not.toHaveProperty('args');
    expect(worker.env).toEqual([{ name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf', key: 'HF_TOKEN' } } }]);
    // The LeaderWorkerSet variables are not what modelplane documents: the scripts differ.
    expect(LEADER_SCRIPT).not.toEqual(LWS_LEADER_SCRIPT);
  });

  test('four pods per replica on 4-GPU nodes: three Worker nodes of 4 devices', () => {
    const [leader, worker] = membersOf(synthOf(multiNode({}, 4)));
    expect(worker.worker).toEqual({ nodes: 3 });
    expect(worker.nodeSelector.devices[0].count).toBe(4);
    expect(leader.nodeSelector.devices[0].count).toBe(4);
    expect(containerOf(leader).env).toEqual([{ name: 'MULTI_NODE_GROUP_SIZE', value: '4' }]);
  });

  test('DRA device requests of the annotation are per pod already, and both members carry them', () => {
    const annotations = devicesAnnotation({ resources: [{ name: 'h100', deviceClassName: 'gpu.nvidia.com', count: 8, selectors: [{ cel: 'device.attributes["gpu.nvidia.com"].productName == "H100"' }] }] });
    for (const member of membersOf(synthOf(multiNode({ annotations })))) {
      expect(member.nodeSelector.devices).toEqual([{ name: 'h100', count: 8, selectors: [{ cel: 'device.attributes["gpu.nvidia.com"].productName == "H100"' }] }]);
    }
  });

  test('PrefillDecode: only the engine that exceeds a node becomes a Leader and Worker', () => {
    const md = prefillDecodeDeployment({
      ...multiNode(),
      spec: {
        model: { storage: { volumes: CACHE } },
        scaling: { prefill: { replicas: 1, gpu: { count: 16, type: 'nvidia.com/gpu' } }, decode: { replicas: 1, gpu: { count: 8, type: 'nvidia.com/gpu' } } },
      },
    });
    const { manifests } = synth(md);
    expect(membersOf(manifests, 0).map((m: any) => m.role)).toEqual(['Leader', 'Worker']);
    expect(containerOf(membersOf(manifests, 0)[0]).args).toEqual(expect.arrayContaining(['--distributed-executor-backend=ray']));
    expect(membersOf(manifests, 1).map((m: any) => m.role)).toEqual(['Standalone']);
    expect(containerOf(membersOf(manifests, 1)[0]).args).toEqual(expect.arrayContaining(['--tensor-parallel-size=8']));
  });

  test('a deployment that fits one node stays Standalone, with a warning that the annotation changed nothing', () => {
    const single = multiNode({ spec: { resources: { gpu: { count: 8, type: 'nvidia.com/gpu' } } } });
    expect(membersOf(synthOf(single)).map((m: any) => m.role)).toEqual(['Standalone']);
    expect(provider.warnings(toResolvedDeployment(modelplaneDeployment(single)))).toEqual([expect.stringContaining('no component needs more GPUs than that')]);
  });

  test('fails without a ModelCache, which modelplane requires for a Leader/Worker engine', () => {
    expect(errorsOf(multiNode({ spec: { model: { storage: { volumes: [] } } } }))).toEqual([
      'spec.model.storage.volumes: Required value: modelplane requires a ModelCache for an engine that spans nodes ' +
        '(metadata.annotations["inference.cdk8s.io/multi-node"]): every pod of its Leader/Worker gang mounts it and loads the same weights from it; ' +
        'add a modelCache volume with a size',
    ]);
  });

  test('fails with more Worker pods than a modelplane engine has, at the GPU count', () => {
    expect(errorsOf(multiNode({ spec: { resources: { gpu: { count: 128, type: 'nvidia.com/gpu' } } } }, 1))).toEqual([
      'spec.resources.gpu.count: Invalid value: 128: spreads a replica over 128 pods of 1 GPUs (metadata.annotations["inference.cdk8s.io/multi-node"]), ' +
        'but a modelplane engine has one Leader and at most 63 Worker pods: request at most 64 GPUs, or raise gpusPerNode',
    ]);
  });

  test('fails when the flags do not lay out the replica, naming the flag', () => {
    expect(errorsOf(multiNode({ spec: { engine: { args: { 'pipeline-parallel-size': '3' } } } }))).toEqual([
      expect.stringMatching(/^spec\.engine\.args\.pipeline-parallel-size: Invalid value: "3": pipeline-parallel-size 3 does not divide the 16 GPUs of a replica/),
    ]);
  });

  test('fails when the executor is not Ray, or a user variable takes the group size\'s name', () => {
    expect(errorsOf(multiNode({ spec: { engine: { args: { 'distributed-executor-backend': 'mp' } }, env: [{ name: 'MULTI_NODE_GROUP_SIZE', value: '9' }] } }))).toEqual([
      expect.stringMatching(/^spec\.engine\.args\.distributed-executor-backend: Invalid value: "mp": a multi-node replica .* needs vLLM's Ray executor/),
      'spec.env[0].name: Invalid value: "MULTI_NODE_GROUP_SIZE": is the variable the Leader of a multi-node engine reads its group size from, ' +
        'which the translation sets; use another name',
    ]);
  });

  test('fails with SGLang, whose multi-node launch is not rendered, at the engine type', () => {
    expect(errorsOf(multiNode({ spec: { engine: { type: 'sglang' } } }))).toEqual([
      expect.stringMatching(/^spec\.engine\.type: Invalid value: "sglang": modelplane runs a multi-node replica .* set spec\.engine\.type to vllm, or keep every gpu\.count within gpusPerNode$/),
    ]);
  });

  test('carries multi-node replicas with vLLM only, and no other feature', () => {
    const vllm = toResolvedDeployment(modelplaneDeployment(multiNode()));
    expect(provider.supportsFeature(DeploymentFeature.MULTI_NODE, vllm)).toBe(true);
    expect(provider.supportsFeature(DeploymentFeature.MULTI_NODE, toResolvedDeployment(modelplaneDeployment(multiNode({ spec: { engine: { type: 'sglang' } } }))))).toBe(false);
    for (const feature of [DeploymentFeature.AUTOSCALING, DeploymentFeature.SCALE_TO_ZERO, DeploymentFeature.LORA_ADAPTERS]) {
      expect(provider.supportsFeature(feature, vllm)).toBe(false);
    }
  });
});
