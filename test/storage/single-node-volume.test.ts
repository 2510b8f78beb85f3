import { Chart, Testing } from 'cdk8s';
import { ModelDeployment } from '../../src';

const RWO_CACHE = { name: 'cache', purpose: 'modelCache', size: '50Gi', accessMode: 'ReadWriteOnce' };

/** A deployment with routing off, so only storage warnings can appear. */
function warningsOf(spec: Record<string, any>, annotations?: Record<string, string>): string[] {
  const app = Testing.app();
  const md = ModelDeployment.fromManifest(new Chart(app, 'models'), 'qwen', {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'qwen', namespace: 'team-a', ...(annotations && { annotations }) },
    spec: { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'vllm' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } }, ...spec },
  });
  expect(md.node.validate()).toEqual([]);
  return md.warnings;
}

function storage(...volumes: any[]): any {
  return { model: { id: 'Qwen/Qwen3-0.6B', storage: { volumes } } };
}

describe('single-node volumes shared by several pods', () => {
  test('a ReadWriteOnce claim with 3 replicas: names the access mode field, the claim and the replicas, suggests ReadWriteMany', () => {
    expect(warningsOf({ ...storage(RWO_CACHE), scaling: { replicas: 3 } })).toEqual([
      'spec.model.storage.volumes[0].accessMode is ReadWriteOnce, but the claim qwen-cache is shared by several model-server pods (spec.scaling.replicas: 3): ' +
        'a ReadWriteOnce volume attaches to one node, so pods scheduled on other nodes wait in ContainerCreating (Multi-Attach error); ' +
        'use accessMode ReadWriteMany (with a storage class that supports it, or ReadOnlyMany for a pre-filled cache), or one volume per replica (one deployment each)',
    ]);
  });

  test('ReadWriteOncePod says one pod at a time; only the volume at fault is named', () => {
    const scratch = { name: 'scratch', mountPath: '/scratch', size: '1Gi', accessMode: 'ReadWriteOncePod' };
    const shared = { name: 'shared', mountPath: '/shared', size: '1Gi', accessMode: 'ReadWriteMany' };
    const warnings = warningsOf({ ...storage(shared, scratch), scaling: { replicas: 2 } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^spec\.model\.storage\.volumes\[1\]\.accessMode is ReadWriteOncePod, but the claim qwen-scratch/);
    expect(warnings[0]).toContain('mounted by one pod at a time');
  });

  test('an autoscaler that may run more than one replica counts as several pods', () => {
    const autoscaling = 'maxReplicas: 4\nmetrics:\n  - type: queueDepth\n    target: 5\n';
    const [warning] = warningsOf(storage(RWO_CACHE), { 'inference.cdk8s.io/autoscaling': autoscaling });
    expect(warning).toContain('(metadata.annotations["inference.cdk8s.io/autoscaling"].maxReplicas: up to 4 replicas)');
  });

  test('silent with one replica, with ReadWriteMany (the default), and with an existing claim whose mode is unknown', () => {
    expect(warningsOf({ ...storage(RWO_CACHE), scaling: { replicas: 1 } })).toEqual([]);
    expect(warningsOf({ ...storage({ ...RWO_CACHE, accessMode: 'ReadWriteMany' }), scaling: { replicas: 3 } })).toEqual([]);
    expect(warningsOf({ ...storage({ name: 'cache', purpose: 'modelCache', size: '50Gi' }), scaling: { replicas: 3 } })).toEqual([]);
    expect(warningsOf({ ...storage({ name: 'cache', purpose: 'modelCache', claimName: 'team-cache' }), scaling: { replicas: 3 } })).toEqual([]);
  });

  test('silent where the provider synthesizes no claim for the volume (llm-d mounts no volumes)', () => {
    const warnings = warningsOf({ ...storage(RWO_CACHE), provider: { name: 'llmd' }, scaling: { replicas: 3 } });
    expect(warnings.filter((w) => w.includes('accessMode is ReadWriteOnce'))).toEqual([]);
  });
});
