import { k8s } from 'cdk8s-plus-34';
import type { Construct } from 'constructs';
import { storageVolumesOf } from './volume-mounts';
import { DEFAULT_VOLUME_ACCESS_MODE } from '../core/defaults';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import { LABEL_MANAGED_BY, LABEL_MODEL_DEPLOYMENT, MANAGED_BY_VALUE } from '../core/labels';
import { resolvedClaimName } from '../core/model-deployment-object';
import { isManagedVolume } from '../core/storage-validation';
import type { SpecStorageVolume } from '../providers/common/spec-types';

/** The part of a ModelDeployment the storage builders need. */
export interface StorageOwner {
  readonly name: string;
  readonly namespace?: string;
  readonly spec: ModelDeploymentSpec;
}

/** Labels AI Runway puts on the PVCs and Jobs it manages for a deployment. */
export function managedStorageLabels(deploymentName: string): Record<string, string> {
  return { [LABEL_MANAGED_BY]: MANAGED_BY_VALUE, [LABEL_MODEL_DEPLOYMENT]: deploymentName };
}

/**
 * The PVC AI Runway creates for a managed volume (one with `size`): named by the resolved claim,
 * `[accessMode or ReadWriteMany]`, `requests.storage = size`, `storageClassName` copied as-is
 * (absent = cluster default, `""` = no class). No ownerReferences: the ModelDeployment's uid is
 * unknown at build time, and the GitOps tool that applies the YAML owns the lifecycle.
 *
 * `extraLabels` (e.g. the provider's common labels) are added; the managed-by/model-deployment
 * labels are applied last so they always hold.
 */
export function managedClaimProps(
  owner: Pick<StorageOwner, 'name' | 'namespace'>,
  volume: SpecStorageVolume,
  extraLabels: Record<string, string> = {},
): k8s.KubePersistentVolumeClaimProps {
  if (!isManagedVolume(volume)) {
    throw new Error(`volume "${volume.name}" has no size, so it refers to an existing claim and gets no managed PVC`);
  }
  return {
    metadata: {
      name: resolvedClaimName(owner.name, volume),
      ...(owner.namespace !== undefined ? { namespace: owner.namespace } : {}),
      labels: { ...extraLabels, ...managedStorageLabels(owner.name) },
    },
    spec: {
      accessModes: [volume.accessMode || DEFAULT_VOLUME_ACCESS_MODE],
      resources: { requests: { storage: k8s.Quantity.fromString(String(volume.size)) } },
      ...(volume.storageClassName !== undefined && volume.storageClassName !== null
        ? { storageClassName: volume.storageClassName }
        : {}),
    },
  };
}

/** Construct id of a volume's managed claim: `Claim` + the volume name in PascalCase. */
export function managedClaimId(volumeName: string): string {
  return 'Claim' + volumeName.split('-').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
}

/**
 * Creates a PVC child of `scope` for every managed volume of `owner`, in spec order, and returns
 * them. Volumes without `size` refer to existing claims and are skipped.
 */
export function addManagedClaims(
  scope: Construct,
  owner: StorageOwner,
  extraLabels: Record<string, string> = {},
): k8s.KubePersistentVolumeClaim[] {
  return storageVolumesOf(owner.spec)
    .filter(isManagedVolume)
    .map((v) => new k8s.KubePersistentVolumeClaim(scope, managedClaimId(v.name), managedClaimProps(owner, v, extraLabels)));
}
