import { checkPodRules } from '../../src/schema-validation/pod-rules';

function problems(obj: unknown): string[] {
  const out: string[] = [];
  checkPodRules(obj, (p) => out.push(p));
  return out.sort();
}

const badPod = {
  tolerations: [{ operator: 'Equal', value: 'x' }],
  containers: [{ name: 'c', env: [{ name: 'A=B' }], volumeMounts: [{ name: 'gone', mountPath: '/g' }] }],
};

describe('pod rules wherever a pod spec is embedded', () => {
  test('a Deployment template', () => {
    expect(problems({ spec: { template: { spec: badPod } } })).toEqual([
      'spec.template.spec.containers[0].env[0].name',
      'spec.template.spec.tolerations[0].operator',
      'spec.template.spec.volumes',
    ]);
  });

  test('a RayService worker group and a Kthena role, found by shape', () => {
    expect(problems({ spec: { rayClusterConfig: { workerGroupSpecs: [{ template: { spec: badPod } }] } } })).toHaveLength(3);
    expect(problems({ spec: { template: { roles: [{ entryTemplate: { spec: { containers: [] } }, workerTemplate: { spec: badPod } }] } } }))
      .toContain('spec.template.roles[0].workerTemplate.spec.volumes');
  });

  test('a Dynamo extraPodSpec: env and tolerations, not mounts (the operator adds volumes)', () => {
    const extraPodSpec = { tolerations: badPod.tolerations, mainContainer: { env: [{ name: 'A=B' }], volumeMounts: [{ name: 'gone' }] } };
    expect(problems({ spec: { services: { Worker: { extraPodSpec } } } })).toEqual([
      'spec.services.Worker.extraPodSpec.mainContainer.env[0].name',
      'spec.services.Worker.extraPodSpec.tolerations[0].operator',
    ]);
  });

  test('valid pods pass', () => {
    expect(problems({
      spec: {
        template: {
          spec: {
            tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
            volumes: [{ name: 'shm' }],
            containers: [{ name: 'c', env: [{ name: 'HF_HOME' }], volumeMounts: [{ name: 'shm', mountPath: '/dev/shm' }] }],
          },
        },
      },
    })).toEqual([]);
  });
});
