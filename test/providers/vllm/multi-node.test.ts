import { vllmDeployment, FixtureOptions } from './fixtures';
import { MULTI_NODE_ANNOTATION } from '../../../src/api/multi-node/multi-node-annotation';
import { toResolvedDeployment } from '../../../src/api/resolved-model-deployment';
import { LEADER_SCRIPT, WORKER_SCRIPT } from '../../../src/multinode/ray-launch';
import { DEVICES_ANNOTATION } from '../../../src/provider-kit/device-annotation';
import { DirectVllmProvider } from '../../../src/providers/vllm';
import { findManifest, translatorHarness } from '../../support/translator-harness';

const provider = new DirectVllmProvider();
const { synth, synthOf, errorsOf } = translatorHarness(provider, vllmDeployment);

/** 16 GPUs per replica on nodes of 8: two pods per replica. */
function multiNode(options: FixtureOptions = {}, gpusPerNode = 8): FixtureOptions {
  return {
    ...options,
    annotations: { [MULTI_NODE_ANNOTATION]: `gpusPerNode: ${gpusPerNode}`, ...options.annotations },
    spec: { resources: { gpu: { count: 16, type: 'nvidia.com/gpu' } }, ...options.spec },
  };
}

const lwsOf = (manifests: any[]) => findManifest(manifests, 'LeaderWorkerSet', 'qwen');
const leaderOf = (manifests: any[]) => lwsOf(manifests).spec.leaderWorkerTemplate.leaderTemplate;
const workerOf = (manifests: any[]) => lwsOf(manifests).spec.leaderWorkerTemplate.workerTemplate;

describe('Direct vLLM multi-node replicas', () => {
  test('renders a schema-valid LeaderWorkerSet in place of the Deployment, then the Service', () => {
    const { returned, manifests } = synth(vllmDeployment(multiNode({ spec: { scaling: { replicas: 2 } } })));
    expect(returned.map((o) => [o.node.id, o.kind, o.name])).toEqual([
      ['LeaderWorkerSet', 'LeaderWorkerSet', 'qwen'],
      ['Service', 'Service', 'qwen'],
    ]);
    expect(manifests.map((m) => m.kind)).not.toContain('Deployment');
    const lws = lwsOf(manifests);
    expect(lws.apiVersion).toBe('leaderworkerset.x-k8s.io/v1');
    expect(lws.spec).toMatchObject({
      replicas: 2,
      startupPolicy: 'LeaderCreated',
      leaderWorkerTemplate: { size: 2, restartPolicy: 'RecreateGroupOnPodRestart' },
    });
  });

  test('matches the snapshot', () => {
    expect(synthOf(multiNode())).toMatchSnapshot();
  });

  test('keeps the Deployment\'s metadata and pod labels, and leaves workers out of the InferencePool', () => {
    const manifests = synthOf(multiNode({ spec: { podTemplate: { metadata: { labels: { team: 'ml' }, annotations: { a: 'b' } } } } }));
    const lws = lwsOf(manifests);
    expect(lws.metadata.labels).toMatchObject({ 'airunway.ai/deployment': 'qwen', 'team': 'ml' });
    expect(leaderOf(manifests).metadata).toEqual({
      labels: { 'airunway.ai/deployment': 'qwen', 'app': 'qwen', 'team': 'ml', 'airunway.ai/model-deployment': 'qwen' },
      annotations: { a: 'b' },
    });
    expect(workerOf(manifests).metadata.labels).toEqual({ 'airunway.ai/deployment': 'qwen', 'app': 'qwen', 'team': 'ml' });
  });

  test('the leader runs Ray head and vLLM with the layout and the Ray executor; user flags stay separate argv', () => {
    const manifests = synthOf(multiNode({ spec: { engine: { extraArgs: ['--served-model-name', 'a; rm -rf /'] } } }));
    const leader = leaderOf(manifests).spec.containers[0];
    expect(leader.command).toEqual(['/bin/sh', '-c', LEADER_SCRIPT, 'multi-node-leader']);
    expect(leader.args).toEqual([
      'Qwen/Qwen3-0.6B', '--host', '0.0.0.0', '--port', '8000', '--enable-prefix-caching',
      '--tensor-parallel-size', '8', '--pipeline-parallel-size', '2', '--distributed-executor-backend', 'ray',
      '--served-model-name', 'a; rm -rf /',
    ]);
    expect(leader.readinessProbe.httpGet).toEqual({ path: '/health', port: 8000 });
    expect(leader.ports).toEqual([{ name: 'http', containerPort: 8000, protocol: 'TCP' }]);
    // The scripts are constants: what the user wrote appears only in args.
    expect(LEADER_SCRIPT).not.toContain('rm -rf');
    expect(LEADER_SCRIPT).toContain('exec vllm serve "$@"');
    expect(LEADER_SCRIPT).toContain('$LWS_GROUP_SIZE');
  });

  test('workers join the leader\'s Ray head, serve nothing and probe nothing', () => {
    const worker = workerOf(synthOf(multiNode())).spec.containers[0];
    expect(worker.command).toEqual(['/bin/sh', '-c', WORKER_SCRIPT, 'multi-node-worker']);
    expect(WORKER_SCRIPT).toContain('ray start --address="$LWS_LEADER_ADDRESS:6379"');
    expect(WORKER_SCRIPT).toContain('--block');
    for (const field of ['args', 'ports', 'readinessProbe', 'livenessProbe', 'startupProbe']) expect(worker[field]).toBeUndefined();
  });

  test('the kubelet expands nothing in the scripts: no $( or $$', () => {
    for (const script of [LEADER_SCRIPT, WORKER_SCRIPT]) {
      expect(script).not.toContain('$(');
      expect(script).not.toContain('$$');
    }
  });

  test('every pod of the group requests gpusPerNode GPUs, with /dev/shm and the same env', () => {
    const manifests = synthOf(multiNode({ spec: { secrets: { huggingFaceToken: 'hf' } } }));
    for (const template of [leaderOf(manifests), workerOf(manifests)]) {
      const container = template.spec.containers[0];
      expect(container.resources).toEqual({ limits: { 'nvidia.com/gpu': '8' }, requests: { 'nvidia.com/gpu': '8' } });
      expect(container.volumeMounts).toEqual([{ name: 'shm', mountPath: '/dev/shm' }]);
      expect(container.env).toEqual([expect.objectContaining({ name: 'HF_TOKEN' })]);
    }
  });

  test('the Service selects only the leaders', () => {
    expect(findManifest(synthOf(multiNode()), 'Service', 'qwen').spec.selector).toEqual({
      'airunway.ai/deployment': 'qwen',
      'app': 'qwen',
      'leaderworkerset.sigs.k8s.io/worker-index': '0',
    });
  });

  test('puts the DRA claims in both templates, each pod claiming its own devices', () => {
    const devices = 'resources:\n  - name: gpu\n    deviceClassName: gpu.nvidia.com\n    count: 8\n';
    const manifests = synthOf(multiNode({ annotations: { [DEVICES_ANNOTATION]: devices } }));
    for (const template of [leaderOf(manifests), workerOf(manifests)]) {
      expect(template.spec.resourceClaims).toEqual([{ name: 'devices', resourceClaimTemplateName: 'qwen-devices' }]);
      expect(template.spec.containers[0].resources).toEqual({ claims: [{ name: 'devices' }] });
    }
  });

  test('honours the user\'s sizes: TP 16 spans both nodes with PP 1, still two pods', () => {
    const lws = lwsOf(synthOf(multiNode({ spec: { engine: { args: { 'tensor-parallel-size': '16' } } } })));
    expect(lws.spec.leaderWorkerTemplate.size).toBe(2);
    const args = lws.spec.leaderWorkerTemplate.leaderTemplate.spec.containers[0].args;
    expect(args).toEqual(expect.arrayContaining(['--pipeline-parallel-size', '1']));
    expect(args.filter((a: string) => a === '--tensor-parallel-size')).toHaveLength(1);
  });

  test('four pods per replica of 16 GPUs on 4-GPU nodes', () => {
    const lws = lwsOf(synthOf(multiNode({}, 4)));
    expect(lws.spec.leaderWorkerTemplate.size).toBe(4);
    expect(lws.spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].resources.limits['nvidia.com/gpu']).toBe('4');
  });

  test('carries spec.replicas and spec.template overrides into both templates', () => {
    const manifests = synthOf(multiNode({
      spec: { provider: { name: 'vllm', overrides: { spec: { replicas: 3, template: { spec: { priorityClassName: 'llm' } } } } } },
    }));
    expect(lwsOf(manifests).spec.replicas).toBe(3);
    expect(leaderOf(manifests).spec.priorityClassName).toBe('llm');
    expect(workerOf(manifests).spec.priorityClassName).toBe('llm');
  });

  test('a deployment that fits one node stays a Deployment', () => {
    const manifests = synthOf(multiNode({ spec: { resources: { gpu: { count: 8, type: 'nvidia.com/gpu' } } } }));
    expect(manifests.map((m) => m.kind)).toEqual(['Deployment', 'Service']);
    expect(provider.warnings(toResolvedDeployment(vllmDeployment(multiNode({ spec: { resources: { gpu: { count: 8, type: 'nvidia.com/gpu' } } } })))))
      .toEqual([expect.stringContaining('no component needs more GPUs than that')]);
  });

  test('fails when the flags do not lay out the replica, naming the flag', () => {
    expect(errorsOf(multiNode({ spec: { engine: { args: { 'tensor-parallel-size': '8', 'pipeline-parallel-size': '4' } } } }))).toEqual([
      expect.stringMatching(/^spec\.engine\.args\.tensor-parallel-size: Invalid value: "8": tensor-parallel-size 8 × pipeline-parallel-size 4 is 32 ranks, but a replica has 16 GPUs/),
    ]);
  });

  test('fails when the executor is not Ray', () => {
    expect(errorsOf(multiNode({ spec: { engine: { args: { 'distributed-executor-backend': 'mp' } } } }))).toEqual([
      expect.stringMatching(/^spec\.engine\.args\.distributed-executor-backend: Invalid value: "mp": a multi-node replica .* needs vLLM's Ray executor/),
    ]);
  });

  test('fails when an override has no LeaderWorkerSet equivalent or replaces the containers', () => {
    const errors = errorsOf(multiNode({
      spec: { provider: { name: 'vllm', overrides: { spec: { strategy: { type: 'Recreate' }, template: { spec: { containers: [{ name: 'x', image: 'y' }] } } } } } },
    }));
    expect(errors).toEqual([
      expect.stringMatching(/^spec\.provider\.overrides\.spec\.strategy: Forbidden: .*renders a LeaderWorkerSet, which has no Deployment field spec\.strategy/),
      expect.stringMatching(/^spec\.provider\.overrides\.spec\.template\.spec\.containers: Forbidden: /),
    ]);
  });

  test('fails when a volume binds to one node', () => {
    const volumes = [{ name: 'cache', purpose: 'modelCache' as const, size: '500Gi', accessMode: 'ReadWriteOnce' as const }];
    expect(errorsOf(multiNode({ spec: { model: { storage: { volumes } } } }))).toEqual([
      expect.stringMatching(/^spec\.model\.storage\.volumes\[0\]\.accessMode: Invalid value: "ReadWriteOnce": .*use ReadWriteMany/),
    ]);
  });

  describe('provider facts', () => {
    const md = toResolvedDeployment(vllmDeployment(multiNode()));
    const single = toResolvedDeployment(vllmDeployment());

    test('scales, watches and pools the LeaderWorkerSet\'s leaders', () => {
      const ref = { apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet', name: 'qwen' };
      expect(provider.scaleTarget(md)).toEqual(ref);
      expect(provider.statusSource(md)).toEqual(ref);
      expect(provider.inferencePoolTarget(md)!.selector).toEqual({
        'airunway.ai/model-deployment': 'qwen',
        'leaderworkerset.sigs.k8s.io/worker-index': '0',
      });
      expect(provider.emittedKinds().map((k) => k.kind)).toContain('LeaderWorkerSet');
    });

    test('keeps the Deployment for single-pod replicas', () => {
      expect(provider.statusSource(single)!.kind).toBe('Deployment');
      expect(provider.scaleTarget(single)!.kind).toBe('Deployment');
      expect(provider.inferencePoolTarget(single)!.selector).toEqual({ 'airunway.ai/model-deployment': 'qwen' });
    });
  });
});
