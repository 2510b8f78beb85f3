import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import { isManagedVolume } from '../../src/storage/storage-validation';
import {
  firstModelCacheVolume,
  storagePodVolumes,
  storageVolumeMounts,
  volumeMountPath,
} from '../../src/storage/volume-mounts';

type Volume = NonNullable<NonNullable<ModelDeploymentSpec['model']['storage']>['volumes']>[number];

function spec(volumes?: Volume[]): ModelDeploymentSpec {
  return { model: { id: 'm', ...(volumes ? { storage: { volumes } } : {}) } };
}

describe('storage volume mounts', () => {
  test('default the mount path by purpose', () => {
    expect(volumeMountPath({ name: 'a', purpose: 'modelCache' })).toBe('/model-cache');
    expect(volumeMountPath({ name: 'a', purpose: 'compilationCache' })).toBe('/compilation-cache');
    expect(volumeMountPath({ name: 'a', purpose: 'custom' })).toBeUndefined();
    expect(volumeMountPath({ name: 'a' })).toBeUndefined();
    expect(volumeMountPath({ name: 'a', purpose: 'modelCache', mountPath: '/x' })).toBe('/x');
  });

  test('give every volume a pod volume on its resolved claim, in order', () => {
    expect(
      storagePodVolumes('qwen', spec([
        { name: 'b', size: '1Gi' },
        { name: 'a', claimName: 'existing' },
      ])),
    ).toEqual([
      { name: 'b', persistentVolumeClaim: { claimName: 'qwen-b' } },
      { name: 'a', persistentVolumeClaim: { claimName: 'existing' } },
    ]);
  });

  test('mount volumes with a path, read-only only when set', () => {
    expect(
      storageVolumeMounts(spec([
        { name: 'a', purpose: 'modelCache', readOnly: false },
        { name: 'b', purpose: 'custom' },
        { name: 'c', purpose: 'custom', mountPath: '/c', readOnly: true },
      ])),
    ).toEqual([
      { name: 'a', mountPath: '/model-cache' },
      { name: 'c', mountPath: '/c', readOnly: true },
    ]);
  });

  test('return nothing without storage', () => {
    expect(storagePodVolumes('qwen', spec())).toEqual([]);
    expect(storageVolumeMounts(spec())).toEqual([]);
    expect(firstModelCacheVolume(spec())).toBeUndefined();
  });

  test('find the first modelCache volume and tell managed volumes apart', () => {
    const volumes: Volume[] = [{ name: 'x', purpose: 'custom', mountPath: '/x' }, { name: 'm1', purpose: 'modelCache' }, { name: 'm2', purpose: 'modelCache' }];
    expect(firstModelCacheVolume(spec(volumes))?.name).toBe('m1');
    expect(isManagedVolume({ name: 'a', size: '1Gi' })).toBe(true);
    expect(isManagedVolume({ name: 'a', size: 0 })).toBe(true);
    expect(isManagedVolume({ name: 'a' })).toBe(false);
    expect(isManagedVolume({ name: 'a', size: '' })).toBe(false);
  });
});
