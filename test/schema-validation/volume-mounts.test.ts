import { checkVolumeMounts } from '../../src/schema-validation/volume-mounts';

function problems(podSpec: unknown): string[] {
  const out: string[] = [];
  checkVolumeMounts(podSpec, 'spec.template.spec', (p, m) => out.push(`${p}: ${m}`));
  return out;
}

describe('every volume mount names a volume of the pod', () => {
  test('mounts of the pod\'s volumes pass', () => {
    expect(problems({
      volumes: [{ name: 'shm', emptyDir: {} }, { name: 'cache' }],
      initContainers: [{ name: 'dl', volumeMounts: [{ name: 'cache', mountPath: '/c' }] }],
      containers: [{ name: 'vllm', volumeMounts: [{ name: 'shm', mountPath: '/dev/shm' }], volumeDevices: [{ name: 'cache', devicePath: '/d' }] }],
    })).toEqual([]);
  });

  test('a mount of a dropped volume is reported at volumes, naming the mount', () => {
    expect(problems({ volumes: [], containers: [{ name: 'vllm', volumeMounts: [{ name: 'shm', mountPath: '/dev/shm' }] }] })).toEqual([
      'spec.template.spec.volumes: no volume named "shm", which containers[0].volumeMounts[0] mounts (the pod has none): every mounted volume must be a volume of the pod',
    ]);
    expect(problems({ volumes: [{ name: 'a' }], initContainers: [{ volumeDevices: [{ name: 'b' }] }] })).toEqual([
      'spec.template.spec.volumes: no volume named "b", which initContainers[0].volumeDevices[0] mounts (the pod has "a"): every mounted volume must be a volume of the pod',
    ]);
  });
});
