import { MODEL_DOWNLOAD_JOB_SUFFIX } from '../core/defaults';
import { FieldError, fieldPath, invalid, notSupported, required } from '../core/field-error';
import type { StorageVolume } from '../core/generated/model-deployment-spec';
import { resolvedClaimName } from '../core/model-deployment-object';
import { parseQuantity } from '../core/quantity';

/**
 * Admission rules for `spec.model.storage.volumes` (AI Runway §3.7), run on the defaulted
 * object: each volume in order, then the rules about the list as a whole.
 */

export const VOLUMES_PATH = 'spec.model.storage.volumes';

/** The access modes a managed (controller-created) PVC may request. */
export const VOLUME_ACCESS_MODES: readonly string[] = ['ReadWriteOnce', 'ReadWriteMany', 'ReadOnlyMany', 'ReadWriteOncePod'];

/** Container paths a volume may not be mounted at or below (plain prefix `<p>/`, so `/etcd` is fine). */
export const SYSTEM_MOUNT_PATHS: readonly string[] = ['/dev', '/proc', '/sys', '/etc', '/var/run'];

/** Kubernetes object names (PVCs, Jobs) are at most this long. */
export const MAX_OBJECT_NAME_LENGTH = 253;

/**
 * A managed volume is one whose PVC the controller creates: `size` is set. An empty string counts
 * as unset, like the webhook's empty quantity; a `0` number is set (and then fails validation).
 * The one rule for "size is set", used by defaulting, validation and the object builders.
 */
export function isManagedVolume(volume: StorageVolume): boolean {
  return volume.size !== undefined && volume.size !== null && volume.size !== '';
}

function purposeOf(volume: StorageVolume): string {
  return volume.purpose || 'custom';
}

/** All storage errors for the volumes of deployment `deploymentName`, in admission order. */
export function validateStorageVolumes(deploymentName: string, volumes: readonly StorageVolume[] | undefined): FieldError[] {
  if (!volumes || volumes.length === 0) return [];
  const errors: FieldError[] = [];
  const names = new Set<string>();
  const mountPaths = new Set<string>();
  const claimNames = new Set<string>();
  let modelCaches = 0;
  let compilationCaches = 0;

  volumes.forEach((volume, index) => {
    const path = (...rest: string[]) => fieldPath(VOLUMES_PATH, index, ...rest);
    const managed = isManagedVolume(volume);
    const claimName = volume.claimName ?? '';
    const mountPath = volume.mountPath ?? '';

    if (!managed && claimName === '') {
      errors.push(required(path('claimName'), 'claimName is required when size is not set (must reference a pre-existing PVC)'));
    }
    if (managed && volume.readOnly === true) {
      errors.push(
        invalid(path('readOnly'), true, 'readOnly must not be true when size is set (controller-created PVCs need write access)'),
      );
    }
    const generatedClaim = `${deploymentName}-${volume.name}`;
    if (managed && claimName !== '' && claimName !== generatedClaim) {
      errors.push(
        invalid(
          path('claimName'),
          claimName,
          `claimName must not be set when size is set (auto-generated as ${JSON.stringify(generatedClaim)})`,
        ),
      );
    }
    if (managed) {
      const resolved = resolvedClaimName(deploymentName, volume);
      if (resolved.length > MAX_OBJECT_NAME_LENGTH) {
        errors.push(
          invalid(
            path('name'),
            volume.name,
            `auto-generated PVC claim name ${JSON.stringify(resolved)} exceeds the ${MAX_OBJECT_NAME_LENGTH}-character Kubernetes name limit ` +
              `(got ${resolved.length} characters); use a shorter ModelDeployment or volume name`,
          ),
        );
      }
      // A PVC must request some storage; unparsable sizes are the schema's concern.
      const size = parseQuantity(volume.size as string | number);
      if (size !== undefined && size.sign <= 0) {
        errors.push(invalid(path('size'), volume.size, 'size must be greater than zero'));
      }
    }
    if (volume.accessMode) {
      if (!VOLUME_ACCESS_MODES.includes(volume.accessMode)) {
        errors.push(notSupported(path('accessMode'), volume.accessMode, VOLUME_ACCESS_MODES));
      }
      if (!managed) {
        errors.push(
          invalid(path('accessMode'), volume.accessMode, 'accessMode is only applicable when size is set (controller-created PVCs)'),
        );
      }
    }
    // Present-but-empty counts: "" asks for no storage class, which only means something for a PVC we create.
    if (volume.storageClassName !== undefined && volume.storageClassName !== null && !managed) {
      errors.push(
        invalid(
          path('storageClassName'),
          volume.storageClassName,
          'storageClassName is only applicable when size is set (controller-created PVCs)',
        ),
      );
    }

    if (names.has(volume.name)) errors.push(invalid(path('name'), volume.name, 'duplicate volume name'));
    names.add(volume.name);
    if (mountPath !== '') {
      if (mountPaths.has(mountPath)) errors.push(invalid(path('mountPath'), mountPath, 'duplicate mount path'));
      mountPaths.add(mountPath);
    }
    if (claimName !== '') {
      if (claimNames.has(claimName)) errors.push(invalid(path('claimName'), claimName, 'duplicate claim name'));
      claimNames.add(claimName);
    }

    if (mountPath !== '' && !mountPath.startsWith('/')) {
      errors.push(invalid(path('mountPath'), mountPath, 'mountPath must be an absolute path (start with /)'));
    }
    const purpose = purposeOf(volume);
    if (purpose === 'custom' && mountPath === '') {
      errors.push(required(path('mountPath'), 'mountPath is required when purpose is custom'));
    }
    const systemPath = SYSTEM_MOUNT_PATHS.find((p) => mountPath === p || mountPath.startsWith(`${p}/`));
    if (systemPath !== undefined) {
      errors.push(invalid(path('mountPath'), mountPath, `mountPath must not overlap with system path ${systemPath}`));
    }

    if (purpose === 'modelCache') modelCaches++;
    if (purpose === 'compilationCache') compilationCaches++;
  });

  if (modelCaches > 1) {
    errors.push(invalid(VOLUMES_PATH, modelCaches, 'at most one volume with purpose=modelCache is allowed'));
  }
  if (compilationCaches > 1) {
    errors.push(invalid(VOLUMES_PATH, compilationCaches, 'at most one volume with purpose=compilationCache is allowed'));
  }
  const downloads = volumes.some((v) => purposeOf(v) === 'modelCache' && isManagedVolume(v) && v.readOnly !== true);
  const jobName = `${deploymentName}${MODEL_DOWNLOAD_JOB_SUFFIX}`;
  if (downloads && jobName.length > MAX_OBJECT_NAME_LENGTH) {
    errors.push(
      invalid(
        'metadata.name',
        deploymentName,
        `auto-generated download Job name ${JSON.stringify(jobName)} exceeds the ${MAX_OBJECT_NAME_LENGTH}-character Kubernetes name limit ` +
          `(got ${jobName.length} characters); use a shorter ModelDeployment name`,
      ),
    );
  }
  return errors;
}
