import { manifestPathOf, podTemplatesOf } from '../../src/security/pod-templates';

const pod = (name: string) => ({ containers: [{ name, image: `${name}:1` }] });

describe('podTemplatesOf', () => {
  test.each([
    [{ apiVersion: 'apps/v1', kind: 'Deployment', spec: { template: { spec: pod('a') } } }, ['spec.template.spec']],
    [{ apiVersion: 'apps/v1', kind: 'StatefulSet', spec: { template: { spec: pod('a') } } }, ['spec.template.spec']],
    [{ apiVersion: 'apps/v1', kind: 'DaemonSet', spec: { template: { spec: pod('a') } } }, ['spec.template.spec']],
    [{ apiVersion: 'batch/v1', kind: 'Job', spec: { template: { spec: pod('a') } } }, ['spec.template.spec']],
    [{ apiVersion: 'batch/v1', kind: 'CronJob', spec: { jobTemplate: { spec: { template: { spec: pod('a') } } } } }, ['spec.jobTemplate.spec.template.spec']],
    [{ apiVersion: 'v1', kind: 'Pod', spec: pod('a') }, ['spec']],
    [{
      apiVersion: 'leaderworkerset.x-k8s.io/v1',
      kind: 'LeaderWorkerSet',
      spec: { leaderWorkerTemplate: { leaderTemplate: { spec: pod('l') }, workerTemplate: { spec: pod('w') } } },
    }, ['spec.leaderWorkerTemplate.leaderTemplate.spec', 'spec.leaderWorkerTemplate.workerTemplate.spec']],
    [{
      apiVersion: 'ray.io/v1',
      kind: 'RayService',
      spec: { rayClusterConfig: { headGroupSpec: { template: { spec: pod('h') } }, workerGroupSpecs: [{ template: { spec: pod('w') } }, { template: { spec: pod('v') } }] } },
    }, ['spec.rayClusterConfig.headGroupSpec.template.spec', 'spec.rayClusterConfig.workerGroupSpecs[0].template.spec', 'spec.rayClusterConfig.workerGroupSpecs[1].template.spec']],
    [{ apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', inference: { template: { spec: pod('k') } } }, ['inference.template.spec']],
    [{ apiVersion: 'kaito.sh/v1beta1', kind: 'InferenceSet', spec: { template: { inference: { template: { spec: pod('k') } } } } }, ['spec.template.inference.template.spec']],
    [{
      apiVersion: 'workload.serving.volcano.sh/v1alpha1',
      kind: 'ModelServing',
      spec: { template: { roles: [{ entryTemplate: { spec: pod('e') } }, { entryTemplate: { spec: pod('p') }, workerTemplate: { spec: pod('w') } }] } },
    }, ['spec.template.roles[0].entryTemplate.spec', 'spec.template.roles[1].entryTemplate.spec', 'spec.template.roles[1].workerTemplate.spec']],
    [{
      apiVersion: 'modelplane.ai/v1alpha1',
      kind: 'ModelDeployment',
      spec: { template: { spec: { engines: [{ members: [{ template: { spec: pod('m') } }] }] } } },
    }, ['spec.template.spec.engines[0].members[0].template.spec']],
    [{ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', spec: { components: [{ podTemplate: { spec: pod('a') } }] } }, ['spec.components[0].podTemplate.spec']],
    [{ apiVersion: 'v1', kind: 'Service', spec: { ports: [] } }, []],
    [{ apiVersion: 'ai.flexinfer/v1alpha2', kind: 'Model', spec: { source: 'hf://x' } }, []],
  ])('finds the pod specs of %#', (manifest, paths) => {
    expect(podTemplatesOf(manifest).map((t) => t.path)).toEqual(paths);
  });

  test('returns the pod spec objects themselves', () => {
    const spec = pod('a');
    expect(podTemplatesOf({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { template: { spec } } })[0].podSpec).toBe(spec);
  });

  test('a Dynamo v1alpha1 extraPodSpec puts mainContainer first and maps paths back', () => {
    const manifest = {
      apiVersion: 'nvidia.com/v1alpha1',
      kind: 'DynamoGraphDeployment',
      spec: { services: { Frontend: { extraPodSpec: { mainContainer: { image: 'f:1' }, containers: [{ name: 'side', image: 's:1' }], volumes: [] } }, NoPod: { replicas: 1 } } },
    };
    const [location, ...rest] = podTemplatesOf(manifest);
    expect(rest).toEqual([]);
    expect(location.path).toBe('spec.services.Frontend.extraPodSpec');
    expect(location.podSpec.containers.map((c: any) => c.image)).toEqual(['f:1', 's:1']);
    expect(location.podSpec.mainContainer).toBeUndefined();
    expect(manifestPathOf(location, 'containers[0].securityContext.privileged')).toBe('spec.services.Frontend.extraPodSpec.mainContainer.securityContext.privileged');
    expect(manifestPathOf(location, 'containers[1].ports[0].hostPort')).toBe('spec.services.Frontend.extraPodSpec.containers[0].ports[0].hostPort');
    expect(manifestPathOf(location, 'volumes[0].hostPath')).toBe('spec.services.Frontend.extraPodSpec.volumes[0].hostPath');
  });

  test('an unknown kind is searched for any object with containers', () => {
    const manifest = { apiVersion: 'example.com/v1', kind: 'Custom', metadata: { containers: [{ name: 'no' }] }, spec: { a: { b: [{ podSpec: pod('x') }] } } };
    expect(podTemplatesOf(manifest).map((t) => t.path)).toEqual(['spec.a.b[0].podSpec']);
  });

  test('manifestPathOf joins paths', () => {
    expect(manifestPathOf({ path: 'spec.template.spec', podSpec: {} }, 'volumes[0].hostPath')).toBe('spec.template.spec.volumes[0].hostPath');
  });

  test('ignores non-objects', () => {
    expect(podTemplatesOf(null)).toEqual([]);
    expect(podTemplatesOf({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { template: 5 } })).toEqual([]);
  });
});
