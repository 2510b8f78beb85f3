import { disaggregatedDeployment, FixtureOptions, kthenaDeployment, sglangDeployment } from './fixtures';
import { MULTI_NODE_ANNOTATION } from '../../../src/api/multi-node/multi-node-annotation';
import { DeploymentFeature } from '../../../src/api/provider/deployment-feature';
import { toResolvedDeployment } from '../../../src/api/resolved-model-deployment';
import { rayLeaderScript, rayWorkerScript } from '../../../src/multinode/ray-launch';
import { DEVICES_ANNOTATION } from '../../../src/provider-kit/device-annotation';
import { KthenaProvider } from '../../../src/providers/kthena';
import { KTHENA_GROUP_ENV } from '../../../src/providers/kthena/multi-node';
import { findManifest, onlyManifestOf, translatorHarness } from '../../support/translator-harness';

const provider = new KthenaProvider();
const { synth, synthOf, errorsOf } = translatorHarness(provider, kthenaDeployment);

const VLLM_SERVER = ['vllm', 'serve'];
const LEADER_SCRIPT = rayLeaderScript(KTHENA_GROUP_ENV, VLLM_SERVER);
const WORKER_SCRIPT = rayWorkerScript(KTHENA_GROUP_ENV);

/** 16 GPUs per replica on nodes of `gpusPerNode` (8: an entry pod and one worker pod). */
function multiNode(options: FixtureOptions = {}, gpusPerNode = 8): FixtureOptions {
  return {
    ...options,
    annotations: { [MULTI_NODE_ANNOTATION]: `gpusPerNode: ${gpusPerNode}`, ...options.annotations },
    spec: { resources: { gpu: { count: 16, type: 'nvidia.com/gpu' } }, ...options.spec },
  };
}

const roleOf = (manifests: any[], name = 'server') => onlyManifestOf(manifests, 'ModelServing').spec.template.roles.find((r: any) => r.name === name);
const entryOf = (manifests: any[], name = 'server') => roleOf(manifests, name).entryTemplate;
const workerOf = (manifests: any[], name = 'server') => roleOf(manifests, name).workerTemplate;

describe('Kthena multi-node replicas', () => {
  test('a multi-node role has one worker pod per further node, and a schema-valid ModelServing', () => {
    // synth() validates every manifest against the Kthena CRDs.
    const { manifests } = synth(kthenaDeployment(multiNode({ spec: { scaling: { replicas: 2 } } })));
    const serving = onlyManifestOf(manifests, 'ModelServing');
    expect(serving.spec.replicas).toBe(2);
    expect(roleOf(manifests)).toMatchObject({ name: 'server', replicas: 1, workerReplicas: 1 });
    expect(workerOf(manifests)).toBeDefined();
    // The parallelism checks count the GPUs of both pods: no error, and none idle.
    expect(errorsOf(multiNode())).toEqual([]);
    expect(provider.warnings(toResolvedDeployment(kthenaDeployment(multiNode())))).toEqual([]);
  });

  test('the entry pod runs the Ray head and the vLLM server with the layout and the Ray executor; user flags stay argv', () => {
    const entry = entryOf(synthOf(multiNode({ spec: { engine: { extraArgs: ['--max-num-seqs', '$(rm -rf /)'] } } }))).spec.containers[0];
    expect(entry.command).toEqual(['/bin/sh', '-c', LEADER_SCRIPT, 'multi-node-leader']);
    expect(entry.args).toEqual([
      'Qwen/Qwen3-0.6B', '--host', '0.0.0.0', '--port', '8000', '--enable-prefix-caching',
      '--tensor-parallel-size', '8', '--pipeline-parallel-size', '2', '--distributed-executor-backend', 'ray',
      '--max-num-seqs', '$(rm -rf /)',
    ]);
    expect(entry.ports).toEqual([{ name: 'http', containerPort: 8000, protocol: 'TCP' }]);
    expect(entry.readinessProbe.httpGet).toEqual({ path: '/health', port: 8000 });
    expect(LEADER_SCRIPT).not.toContain('rm -rf');
  });

  test('the scripts read the variables Kthena sets in every container, end in the module entry point, and give the kubelet nothing to expand', () => {
    expect(LEADER_SCRIPT).toContain('os.environ["GROUP_SIZE"]');
    expect(LEADER_SCRIPT).toContain('exec vllm serve "$@"');
    expect(WORKER_SCRIPT).toContain('ray start --address="$ENTRY_ADDRESS:6379"');
    for (const script of [LEADER_SCRIPT, WORKER_SCRIPT]) {
      expect(script).not.toContain('$(');
      expect(script).not.toContain('$$');
    }
  });

  test('worker pods join the entry pod\'s Ray head and serve nothing, so no selector of serving pods matches them', () => {
    const manifests = synthOf(multiNode({ spec: { podTemplate: { metadata: { labels: { team: 'ml' } } } } }));
    const worker = workerOf(manifests);
    const container = worker.spec.containers[0];
    expect(container.command).toEqual(['/bin/sh', '-c', WORKER_SCRIPT, 'multi-node-worker']);
    for (const field of ['args', 'ports', 'readinessProbe', 'livenessProbe', 'startupProbe']) expect(container[field]).toBeUndefined();
    expect(worker.metadata.labels).toEqual({ 'team': 'ml', 'airunway.ai/deployment': 'qwen', 'inference.cdk8s.io/kthena-role': 'server' });
    expect(entryOf(manifests).metadata.labels).toMatchObject({ 'airunway.ai/model-deployment': 'qwen' });
    // The ModelServer and the Service select by the label the workers lack.
    expect(findManifest(manifests, 'ModelServer', 'qwen').spec.workloadSelector.matchLabels).toEqual({ 'airunway.ai/model-deployment': 'qwen' });
    expect(findManifest(manifests, 'Service', 'qwen').spec.selector).toMatchObject({ 'airunway.ai/model-deployment': 'qwen' });
  });

  test('every pod of the instance requests gpusPerNode GPUs, with /dev/shm and the same env', () => {
    const manifests = synthOf(multiNode({ spec: { secrets: { huggingFaceToken: 'hf' } } }));
    for (const template of [entryOf(manifests), workerOf(manifests)]) {
      const container = template.spec.containers[0];
      expect(container.resources).toEqual({ limits: { 'nvidia.com/gpu': '8' }, requests: { 'nvidia.com/gpu': '8' } });
      expect(container.volumeMounts).toEqual([{ name: 'shm', mountPath: '/dev/shm' }]);
      expect(container.env).toEqual([expect.objectContaining({ name: 'HF_TOKEN' })]);
      expect(template.spec.volumes).toEqual([expect.objectContaining({ name: 'shm' })]);
    }
  });

  test('each pod claims its own DRA devices', () => {
    const devices = 'resources:\n  - name: gpu\n    deviceClassName: gpu.nvidia.com\n    count: 8\n';
    const manifests = synthOf(multiNode({ annotations: { [DEVICES_ANNOTATION]: devices } }));
    for (const template of [entryOf(manifests), workerOf(manifests)]) {
      expect(template.spec.resourceClaims).toEqual([{ name: 'devices', resourceClaimTemplateName: 'qwen-devices' }]);
      expect(template.spec.containers[0].resources).toEqual({ claims: [{ name: 'devices' }] });
    }
  });

  test('four pods per replica of 16 GPUs on 4-GPU nodes; the user\'s tensor parallel size is kept once', () => {
    const manifests = synthOf(multiNode({ spec: { engine: { args: { 'tensor-parallel-size': '4' } } } }, 4));
    expect(roleOf(manifests).workerReplicas).toBe(3);
    expect(workerOf(manifests).spec.containers[0].resources.limits['nvidia.com/gpu']).toBe('4');
    const args: string[] = entryOf(manifests).spec.containers[0].args;
    expect(args.filter((a) => a === '--tensor-parallel-size')).toHaveLength(1);
    expect(args).toEqual(expect.arrayContaining(['--pipeline-parallel-size', '4', '--tensor-parallel-size', '4']));
  });

  test('the gang policy still names each role once: Kthena gangs an instance with its worker pods', () => {
    const serving = onlyManifestOf(synthOf(multiNode()), 'ModelServing');
    expect(serving.spec.template.gangPolicy).toEqual({ minRoleReplicas: { server: 1 } });
    // Kthena's default recovery (RoleRecreate) restarts the instance's pods together; we set none.
    expect(serving.spec).not.toHaveProperty('recoveryPolicy');
  });

  test('disaggregated: only the role that exceeds a node gets worker pods', () => {
    const md = disaggregatedDeployment(multiNode(), {
      prefill: { replicas: 1, gpu: { count: 16, type: 'nvidia.com/gpu' } },
      decode: { replicas: 2, gpu: { count: 8, type: 'nvidia.com/gpu' } },
    });
    const { manifests } = synth(md);
    expect(roleOf(manifests, 'prefill')).toMatchObject({ workerReplicas: 1 });
    expect(workerOf(manifests, 'prefill').spec.containers[0].command[3]).toBe('multi-node-worker');
    expect(entryOf(manifests, 'prefill').spec.containers[0].args).toEqual(expect.arrayContaining(['--kv-transfer-config', '--distributed-executor-backend']));
    expect(roleOf(manifests, 'decode')).toMatchObject({ workerReplicas: 0 });
    expect(roleOf(manifests, 'decode')).not.toHaveProperty('workerTemplate');
    expect(entryOf(manifests, 'decode').spec.containers[0].command).toEqual(VLLM_SERVER);
  });

  test('a deployment that fits one node keeps single-pod roles, with a warning that the annotation changed nothing', () => {
    const single = multiNode({ spec: { resources: { gpu: { count: 8, type: 'nvidia.com/gpu' } } } });
    expect(roleOf(synthOf(single))).toMatchObject({ workerReplicas: 0 });
    expect(roleOf(synthOf(single))).not.toHaveProperty('workerTemplate');
    expect(provider.warnings(toResolvedDeployment(kthenaDeployment(single)))).toEqual([expect.stringContaining('no component needs more GPUs than that')]);
  });

  test('fails when the flags do not lay out the replica, naming the flag', () => {
    expect(errorsOf(multiNode({ spec: { engine: { args: { 'tensor-parallel-size': '8', 'pipeline-parallel-size': '4' } } } }))).toEqual([
      expect.stringMatching(/^spec\.engine\.args\.tensor-parallel-size: Invalid value: "8": tensor-parallel-size 8 × pipeline-parallel-size 4 is 32 ranks, but a replica has 16 GPUs/),
    ]);
  });

  test('fails when the executor is not Ray', () => {
    expect(errorsOf(multiNode({ spec: { engine: { extraArgs: ['--distributed-executor-backend=mp'] } } }))).toEqual([
      expect.stringMatching(/^spec\.engine\.extraArgs\[0\]: Invalid value: "--distributed-executor-backend=mp": a multi-node replica .* needs vLLM's Ray executor/),
    ]);
  });

  test('fails when a volume binds to one node', () => {
    const volumes = [{ name: 'cache', purpose: 'modelCache' as const, size: '500Gi', accessMode: 'ReadWriteOnce' as const }];
    expect(errorsOf(multiNode({ spec: { model: { storage: { volumes } } } }))).toEqual([
      expect.stringMatching(/^spec\.model\.storage\.volumes\[0\]\.accessMode: Invalid value: "ReadWriteOnce": .*use ReadWriteMany/),
    ]);
  });

  test('fails when an override turns off the recovery of the whole role instance', () => {
    expect(errorsOf(multiNode({ spec: { provider: { name: 'kthena', overrides: { spec: { recoveryPolicy: 'None' } } } } }))).toEqual([
      'spec.provider.overrides.spec.recoveryPolicy: Invalid value: "None": the pods of a multi-node role instance (metadata.annotations["inference.cdk8s.io/multi-node"]) ' +
        'are one engine: when one restarts the others must restart with it, which recoveryPolicy None prevents; use RoleRecreate (the default) or ServingGroupRecreate',
    ]);
    // Without multi-node replicas the same override is the user's choice.
    expect(errorsOf({ spec: { provider: { name: 'kthena', overrides: { spec: { recoveryPolicy: 'None' } } } } })).toEqual([]);
  });

  test('fails when the worker count makes Kthena\'s generated pod names too long', () => {
    // 50 characters: "<name>-1-server-1-0" is 63, a DNS-1035 label; 15 workers make it 64.
    const name = 'a'.repeat(50);
    expect(errorsOf({ name })).toEqual([]);
    expect(errorsOf({ ...multiNode({}, 1), name })).toEqual([
      `metadata.name: Invalid value: "${name}": Kthena derives the name "${name}-1-server-1-15" for the pods of role "server" ` +
        '(<name>-<servingGroups>-<role>-<roleReplicas>-<workerReplicas>), which is 64 characters long, more than the 63 allowed; use a shorter ModelDeployment name',
    ]);
  });

  test('fails with SGLang, whose multi-node launch is not rendered, at the engine type', () => {
    expect(errorsOf(sglangDeployment(multiNode()))).toEqual([
      'spec.engine.type: Invalid value: "sglang": Kthena runs a multi-node replica (metadata.annotations["inference.cdk8s.io/multi-node"]) as vllm ' +
        'on a Ray cluster over the entry and worker pods of a role instance; sglang\'s own multi-node launch is not rendered: ' +
        'set spec.engine.type to vllm, or keep every gpu.count within gpusPerNode',
    ]);
    expect(errorsOf(sglangDeployment(multiNode({ spec: { resources: { gpu: { count: 8, type: 'nvidia.com/gpu' } } } })))).toEqual([]);
  });

  test('carries multi-node replicas with vLLM only', () => {
    expect(provider.supportsFeature(DeploymentFeature.MULTI_NODE, toResolvedDeployment(kthenaDeployment(multiNode())))).toBe(true);
    expect(provider.supportsFeature(DeploymentFeature.MULTI_NODE, toResolvedDeployment(sglangDeployment(multiNode())))).toBe(false);
  });
});
