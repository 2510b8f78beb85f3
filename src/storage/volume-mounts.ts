import type { k8s } from 'cdk8s-plus-34';
import { DEFAULT_COMPILATION_CACHE_MOUNT_PATH, DEFAULT_MODEL_CACHE_MOUNT_PATH } from '../core/defaults';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import { resolvedClaimName } from '../core/model-deployment-object';
import type { SpecStorageVolume } from '../provider-kit/spec-types';

/** `spec.model.storage.volumes`, or an empty list. */
export function storageVolumesOf(spec: ModelDeploymentSpec): readonly SpecStorageVolume[] {
  return spec.model.storage?.volumes ?? [];
}

/**
 * The in-container path of a volume: its `mountPath`, else the purpose default (the webhook's
 * defaults, applied here too so an undefaulted spec still mounts). Undefined for a `custom` volume
 * without a path, which then gets a pod volume but no mount.
 */
export function volumeMountPath(volume: SpecStorageVolume): string | undefined {
  if (volume.mountPath) return volume.mountPath;
  switch (volume.purpose) {
    case 'modelCache':
      return DEFAULT_MODEL_CACHE_MOUNT_PATH;
    case 'compilationCache':
      return DEFAULT_COMPILATION_CACHE_MOUNT_PATH;
    default:
      return undefined;
  }
}

/** The first `modelCache` volume (AI Runway only ever considers the first). */
export function firstModelCacheVolume(spec: ModelDeploymentSpec): SpecStorageVolume | undefined {
  return storageVolumesOf(spec).find((v) => v.purpose === 'modelCache');
}

/**
 * One pod volume per storage volume, in spec order, each backed by the volume's resolved claim
 * (`claimName`, else `<deployment>-<volume>`).
 */
export function storagePodVolumes(deploymentName: string, spec: ModelDeploymentSpec): k8s.Volume[] {
  return storageVolumesOf(spec).map((v) => ({
    name: v.name,
    persistentVolumeClaim: { claimName: resolvedClaimName(deploymentName, v) },
  }));
}

/**
 * Container mounts for the storage volumes that have a mount path, in spec order; `readOnly`
 * only when set.
 */
export function storageVolumeMounts(spec: ModelDeploymentSpec): k8s.VolumeMount[] {
  const mounts: k8s.VolumeMount[] = [];
  for (const v of storageVolumesOf(spec)) {
    const mountPath = volumeMountPath(v);
    if (mountPath === undefined) continue;
    mounts.push({ name: v.name, mountPath, ...(v.readOnly ? { readOnly: true } : {}) });
  }
  return mounts;
}
