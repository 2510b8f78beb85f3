import { disaggregatedLlmdDeployment, llmdDeployment, FixtureOptions } from './fixtures';
import { MULTI_NODE_ANNOTATION } from '../../../src/api/multi-node/multi-node-annotation';
import { toResolvedDeployment } from '../../../src/api/resolved-model-deployment';
import { LEADER_SCRIPT } from '../../../src/multinode/ray-launch';
import { LlmdProvider } from '../../../src/providers/llmd';
import { findManifest, translatorHarness } from '../../support/translator-harness';

const provider = new LlmdProvider();
const { synth, synthOf, errorsOf } = translatorHarness(provider, llmdDeployment);

const ANNOTATIONS = { [MULTI_NODE_ANNOTATION]: 'gpusPerNode: 8' };
const gpus = (count: number) => ({ count, type: 'nvidia.com/gpu' });

function aggregated(options: FixtureOptions = {}): FixtureOptions {
  return { ...options, annotations: ANNOTATIONS, spec: { resources: { gpu: gpus(16) }, ...options.spec } };
}

/** Decode spans two nodes (16 GPUs); prefill fits one (8). */
function disaggregated() {
  return disaggregatedLlmdDeployment({
    annotations: ANNOTATIONS,
    spec: { scaling: { decode: { replicas: 2, gpu: gpus(16) }, prefill: { replicas: 1, gpu: gpus(8) } } },
  });
}

describe('llm-d multi-node replicas', () => {
  test('aggregated: a schema-valid LeaderWorkerSet and a Service selecting its leaders', () => {
    const { returned, manifests } = synth(llmdDeployment(aggregated({ spec: { scaling: { replicas: 3 } } })));
    expect(returned.map((o) => [o.node.id, o.kind, o.name])).toEqual([
      ['LeaderWorkerSet', 'LeaderWorkerSet', 'llama'],
      ['Service', 'Service', 'llama'],
    ]);
    const lws = findManifest(manifests, 'LeaderWorkerSet', 'llama');
    expect(lws.spec).toMatchObject({ replicas: 3, startupPolicy: 'LeaderCreated', leaderWorkerTemplate: { size: 2, restartPolicy: 'RecreateGroupOnPodRestart' } });
    const leader = lws.spec.leaderWorkerTemplate.leaderTemplate.spec.containers[0];
    expect(leader.command).toEqual(['/bin/sh', '-c', LEADER_SCRIPT, 'multi-node-leader']);
    expect(leader.args).toEqual(expect.arrayContaining(['--tensor-parallel-size', '8', '--pipeline-parallel-size', '2', '--distributed-executor-backend', 'ray']));
    expect(leader.resources.limits).toEqual({ 'nvidia.com/gpu': '8' });
    expect(findManifest(manifests, 'Service', 'llama').spec.selector).toMatchObject({ 'leaderworkerset.sigs.k8s.io/worker-index': '0' });
  });

  test('disaggregated: the component that spans nodes is a LeaderWorkerSet, the other stays a Deployment', () => {
    const { returned, manifests } = synth(disaggregated());
    expect(returned.map((o) => [o.node.id, o.kind, o.name])).toEqual([
      ['DecodeLeaderWorkerSet', 'LeaderWorkerSet', 'llama-decode'],
      ['PrefillDeployment', 'Deployment', 'llama-prefill'],
      ['DecodeService', 'Service', 'llama-decode'],
      ['PrefillService', 'Service', 'llama-prefill'],
    ]);
    const lws = findManifest(manifests, 'LeaderWorkerSet', 'llama-decode');
    expect(lws.spec.replicas).toBe(2);
    // The role label stays on both templates: llm-d's endpoint picker reads it on the leader.
    expect(lws.spec.leaderWorkerTemplate.leaderTemplate.metadata.labels['llm-d.ai/role']).toBe('decode');
    expect(lws.spec.leaderWorkerTemplate.workerTemplate.metadata.labels['llm-d.ai/role']).toBe('decode');
    expect(lws.spec.leaderWorkerTemplate.workerTemplate.metadata.labels['airunway.ai/model-deployment']).toBeUndefined();
    expect(lws.spec.leaderWorkerTemplate.leaderTemplate.spec.containers[0].args).toEqual(expect.arrayContaining(['--kv-transfer-config']));
    expect(findManifest(manifests, 'Service', 'llama-decode').spec.selector['leaderworkerset.sigs.k8s.io/worker-index']).toBe('0');
    expect(findManifest(manifests, 'Service', 'llama-prefill').spec.selector['leaderworkerset.sigs.k8s.io/worker-index']).toBeUndefined();
    const prefill = findManifest(manifests, 'Deployment', 'llama-prefill').spec.template.spec.containers[0];
    expect(prefill.args).toEqual(expect.arrayContaining(['--tensor-parallel-size', '8']));
    expect(prefill.args).not.toContain('--distributed-executor-backend');
  });

  test('matches the snapshot (disaggregated, decode multi-node)', () => {
    expect(synth(disaggregated()).manifests).toMatchSnapshot();
  });

  test('fails when a component\'s GPUs do not lay out, at that component\'s GPU count', () => {
    const md = disaggregatedLlmdDeployment({
      annotations: ANNOTATIONS,
      spec: { engine: { args: { 'tensor-parallel-size': '16' } }, scaling: { decode: { replicas: 1, gpu: gpus(24) }, prefill: { replicas: 1, gpu: gpus(4) } } },
    });
    const errors = errorsOf(md);
    expect(errors).toContainEqual(expect.stringMatching(/^spec\.engine\.args\.tensor-parallel-size: Invalid value: "16": tensor-parallel-size 16 does not divide the 24 GPUs of a replica \(spec\.scaling\.decode\.gpu\.count\)/));
  });

  test('fails when an override names a Deployment-only field', () => {
    const errors = errorsOf(aggregated({ spec: { provider: { name: 'llmd', overrides: { spec: { minReadySeconds: 5 } } } } }));
    expect(errors).toEqual([expect.stringMatching(/^spec\.provider\.overrides\.spec\.minReadySeconds: Forbidden: a multi-node component/)]);
  });

  test('status, scale target and pool: the LeaderWorkerSet of the primary component, its leaders', () => {
    const agg = toResolvedDeployment(llmdDeployment(aggregated()));
    expect(provider.statusSource(agg)).toEqual({ apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet', name: 'llama' });
    expect(provider.scaleTarget(agg)!.kind).toBe('LeaderWorkerSet');
    expect(provider.inferencePoolTarget(agg)!.selector).toEqual({ 'airunway.ai/model-deployment': 'llama', 'leaderworkerset.sigs.k8s.io/worker-index': '0' });

    const pd = toResolvedDeployment(disaggregated());
    expect(provider.statusSource(pd)).toEqual({ apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet', name: 'llama-decode' });
    // Prefill pods are single Deployment pods without the LWS label: the pool cannot require it,
    // and the decode workers are left out by not carrying the model-deployment label.
    expect(provider.inferencePoolTarget(pd)!.selector).toEqual({ 'airunway.ai/model-deployment': 'llama' });
  });

  test('synthesizes a plain Deployment when no component spans nodes, and warns', () => {
    const md = llmdDeployment(aggregated({ spec: { resources: { gpu: gpus(4) } } }));
    expect(synthOf(aggregated({ spec: { resources: { gpu: gpus(4) } } })).map((m) => m.kind)).toEqual(['Deployment', 'Service']);
    expect(provider.warnings(toResolvedDeployment(md))).toEqual([expect.stringContaining('every replica stays one pod on one node')]);
  });
});
