import { FieldErrorKind, formatFieldError } from '../../src/core/field-error';
import type { StorageVolume } from '../../src/core/generated/model-deployment-spec';
import { isManagedVolume, validateStorageVolumes } from '../../src/storage/storage-validation';

/** Volumes as they look after defaulting. */
const managedCache: StorageVolume = {
  name: 'weights',
  purpose: 'modelCache',
  size: '200Gi',
  claimName: 'llama-weights',
  accessMode: 'ReadWriteMany',
  mountPath: '/model-cache',
  readOnly: false,
};
const scratch: StorageVolume = { name: 'scratch', purpose: 'custom', claimName: 'shared-scratch', mountPath: '/scratch', readOnly: true };

function errorsFor(volumes: StorageVolume[], name = 'llama') {
  return validateStorageVolumes(name, volumes);
}

function rendered(volumes: StorageVolume[], name = 'llama'): string[] {
  return errorsFor(volumes, name).map(formatFieldError);
}

describe('validateStorageVolumes', () => {
  test('passes the defaulted volumes of §10.4', () => {
    expect(errorsFor([managedCache, scratch])).toEqual([]);
  });

  test('passes no volumes', () => {
    expect(validateStorageVolumes('llama', undefined)).toEqual([]);
    expect(validateStorageVolumes('llama', [])).toEqual([]);
  });

  test('fails when an unmanaged volume has no claimName', () => {
    expect(errorsFor([{ name: 'data', purpose: 'custom', mountPath: '/data' }])).toEqual([
      {
        path: 'spec.model.storage.volumes[0].claimName',
        kind: FieldErrorKind.REQUIRED,
        message: 'claimName is required when size is not set (must reference a pre-existing PVC)',
      },
    ]);
  });

  test('fails when a managed volume is read-only', () => {
    expect(rendered([{ ...managedCache, readOnly: true }])).toEqual([
      'spec.model.storage.volumes[0].readOnly: Invalid value: true: readOnly must not be true when size is set (controller-created PVCs need write access)',
    ]);
  });

  test('fails when a managed volume has a foreign claimName', () => {
    expect(rendered([{ ...managedCache, claimName: 'my-pvc' }])).toEqual([
      'spec.model.storage.volumes[0].claimName: Invalid value: "my-pvc": claimName must not be set when size is set (auto-generated as "llama-weights")',
    ]);
  });

  test('passes a managed volume whose claimName is the generated one', () => {
    expect(errorsFor([{ ...managedCache, claimName: 'llama-weights' }])).toEqual([]);
  });

  test('fails when the generated claim name exceeds 253 characters', () => {
    const longName = 'm'.repeat(200);
    const volumeName = 'v'.repeat(53);
    const claim = `${longName}-${volumeName}`;
    expect(claim).toHaveLength(254);
    const errors = errorsFor([{ ...managedCache, name: volumeName, claimName: claim }], longName);
    expect(errors).toEqual([
      {
        path: 'spec.model.storage.volumes[0].name',
        kind: FieldErrorKind.INVALID,
        value: volumeName,
        message:
          `auto-generated PVC claim name "${claim}" exceeds the 253-character Kubernetes name limit (got 254 characters); ` +
          'use a shorter ModelDeployment or volume name',
      },
    ]);
  });

  test('passes a generated claim name of exactly 253 characters', () => {
    const longName = 'm'.repeat(200);
    const volumeName = 'v'.repeat(52);
    const errors = errorsFor([{ ...managedCache, purpose: 'custom', mountPath: '/w', name: volumeName, claimName: `${longName}-${volumeName}` }], longName);
    expect(errors).toEqual([]);
  });

  test('fails when accessMode is not one of the four values, listing them', () => {
    const errors = errorsFor([{ ...managedCache, accessMode: 'ReadWriteAll' as never }]);
    expect(errors).toEqual([
      {
        path: 'spec.model.storage.volumes[0].accessMode',
        kind: FieldErrorKind.NOT_SUPPORTED,
        value: 'ReadWriteAll',
        message: 'supported values: "ReadWriteOnce", "ReadWriteMany", "ReadOnlyMany", "ReadWriteOncePod"',
      },
    ]);
    expect(formatFieldError(errors[0])).toBe(
      'spec.model.storage.volumes[0].accessMode: Unsupported value: "ReadWriteAll": supported values: "ReadWriteOnce", "ReadWriteMany", "ReadOnlyMany", "ReadWriteOncePod"',
    );
  });

  test.each(['ReadWriteOnce', 'ReadWriteMany', 'ReadOnlyMany', 'ReadWriteOncePod'] as const)('passes accessMode %s', (accessMode) => {
    expect(errorsFor([{ ...managedCache, accessMode }])).toEqual([]);
  });

  test('fails when accessMode is set without size', () => {
    expect(rendered([{ ...scratch, accessMode: 'ReadWriteOnce' }])).toEqual([
      'spec.model.storage.volumes[0].accessMode: Invalid value: "ReadWriteOnce": accessMode is only applicable when size is set (controller-created PVCs)',
    ]);
  });

  test('fails twice when an unknown accessMode is set without size', () => {
    expect(errorsFor([{ ...scratch, accessMode: 'Bogus' as never }]).map((e) => e.kind)).toEqual([
      FieldErrorKind.NOT_SUPPORTED,
      FieldErrorKind.INVALID,
    ]);
  });

  test('fails when storageClassName is set without size, even when empty', () => {
    expect(rendered([{ ...scratch, storageClassName: 'fast' }])).toEqual([
      'spec.model.storage.volumes[0].storageClassName: Invalid value: "fast": storageClassName is only applicable when size is set (controller-created PVCs)',
    ]);
    expect(rendered([{ ...scratch, storageClassName: '' }])).toEqual([
      'spec.model.storage.volumes[0].storageClassName: Invalid value: "": storageClassName is only applicable when size is set (controller-created PVCs)',
    ]);
  });

  test('passes an empty storageClassName on a managed volume (no class, static binding)', () => {
    expect(errorsFor([{ ...managedCache, storageClassName: '' }])).toEqual([]);
  });

  test('fails when a volume name repeats', () => {
    expect(rendered([scratch, { ...scratch, claimName: 'other', mountPath: '/other' }])).toEqual([
      'spec.model.storage.volumes[1].name: Invalid value: "scratch": duplicate volume name',
    ]);
  });

  test('fails when a mount path repeats', () => {
    expect(rendered([scratch, { ...scratch, name: 'b', claimName: 'other' }])).toEqual([
      'spec.model.storage.volumes[1].mountPath: Invalid value: "/scratch": duplicate mount path',
    ]);
  });

  test('fails when a claim name repeats', () => {
    expect(rendered([scratch, { ...scratch, name: 'b', mountPath: '/b' }])).toEqual([
      'spec.model.storage.volumes[1].claimName: Invalid value: "shared-scratch": duplicate claim name',
    ]);
  });

  test('fails when mountPath is relative', () => {
    expect(rendered([{ ...scratch, mountPath: 'data' }])).toEqual([
      'spec.model.storage.volumes[0].mountPath: Invalid value: "data": mountPath must be an absolute path (start with /)',
    ]);
  });

  test('fails when a custom volume has no mountPath', () => {
    expect(errorsFor([{ name: 'x', purpose: 'custom', claimName: 'x' }])).toEqual([
      { path: 'spec.model.storage.volumes[0].mountPath', kind: FieldErrorKind.REQUIRED, message: 'mountPath is required when purpose is custom' },
    ]);
  });

  test.each([
    ['/dev', '/dev'],
    ['/proc/self', '/proc'],
    ['/sys', '/sys'],
    ['/etc/ssl', '/etc'],
    ['/var/run/secrets', '/var/run'],
  ])('fails when mountPath %s overlaps system path %s', (mountPath, systemPath) => {
    expect(rendered([{ ...scratch, mountPath }])).toEqual([
      `spec.model.storage.volumes[0].mountPath: Invalid value: "${mountPath}": mountPath must not overlap with system path ${systemPath}`,
    ]);
  });

  test.each(['/etcd', '/devices', '/var/running', '/system'])('passes mountPath %s (plain prefix match)', (mountPath) => {
    expect(errorsFor([{ ...scratch, mountPath }])).toEqual([]);
  });

  test('fails when two volumes are modelCache, reporting the count', () => {
    const second: StorageVolume = { name: 'w2', purpose: 'modelCache', claimName: 'w2', mountPath: '/w2', readOnly: false };
    expect(rendered([managedCache, second])).toEqual([
      'spec.model.storage.volumes: Invalid value: 2: at most one volume with purpose=modelCache is allowed',
    ]);
  });

  test('fails when two volumes are compilationCache', () => {
    const a: StorageVolume = { name: 'a', purpose: 'compilationCache', claimName: 'a', mountPath: '/a' };
    const b: StorageVolume = { name: 'b', purpose: 'compilationCache', claimName: 'b', mountPath: '/b' };
    expect(rendered([a, b, { ...b, name: 'c', claimName: 'c', mountPath: '/c' }])).toEqual([
      'spec.model.storage.volumes: Invalid value: 3: at most one volume with purpose=compilationCache is allowed',
    ]);
  });

  test('fails when the download Job name would exceed 253 characters', () => {
    const name = 'n'.repeat(239);
    const volumes: StorageVolume[] = [{ ...managedCache, name: 'w', claimName: `${name}-w` }];
    expect(errorsFor(volumes, name)).toEqual([
      {
        path: 'metadata.name',
        kind: FieldErrorKind.INVALID,
        value: name,
        message:
          `auto-generated download Job name "${name}-model-download" exceeds the 253-character Kubernetes name limit (got 254 characters); ` +
          'use a shorter ModelDeployment name',
      },
    ]);
  });

  test('passes a long name when no download Job is created (read-only or unmanaged model cache)', () => {
    const name = 'n'.repeat(239);
    const unmanaged: StorageVolume = { name: 'w', purpose: 'modelCache', claimName: 'pvc', mountPath: '/model-cache', readOnly: false };
    expect(errorsFor([unmanaged], name)).toEqual([]);
  });

  test('fails when a managed volume size is zero or negative', () => {
    for (const size of ['0', '0Gi', '-1Gi', 0, -5] as Array<string | number>) {
      expect(errorsFor([{ ...managedCache, size }])).toEqual([
        { path: 'spec.model.storage.volumes[0].size', kind: FieldErrorKind.INVALID, value: size, message: 'size must be greater than zero' },
      ]);
    }
    expect(rendered([{ ...managedCache, size: '0Gi' }])).toEqual([
      'spec.model.storage.volumes[0].size: Invalid value: "0Gi": size must be greater than zero',
    ]);
  });

  test('passes the smallest positive sizes', () => {
    expect(errorsFor([{ ...managedCache, size: '1m' }])).toEqual([]);
    expect(errorsFor([{ ...managedCache, size: 1 }])).toEqual([]);
  });

  test('treats an empty size string as unset: the volume then needs a claimName', () => {
    const volume: StorageVolume = { name: 'data', purpose: 'custom', size: '', mountPath: '/data', readOnly: false };
    expect(rendered([volume])).toEqual([
      'spec.model.storage.volumes[0].claimName: Required value: claimName is required when size is not set (must reference a pre-existing PVC)',
    ]);
    expect(isManagedVolume(volume)).toBe(false);
    expect(isManagedVolume({ name: 'a', size: 0 })).toBe(true);
    expect(isManagedVolume({ name: 'a', size: null as never })).toBe(false);
  });

  test('reports per-volume errors in rule order', () => {
    const volume: StorageVolume = {
      name: 'w',
      purpose: 'custom',
      size: '1Gi',
      readOnly: true,
      claimName: 'other',
      accessMode: 'Nope' as never,
      mountPath: 'rel',
    };
    expect(errorsFor([volume]).map((e) => e.path)).toEqual([
      'spec.model.storage.volumes[0].readOnly',
      'spec.model.storage.volumes[0].claimName',
      'spec.model.storage.volumes[0].accessMode',
      'spec.model.storage.volumes[0].mountPath',
    ]);
  });
});
