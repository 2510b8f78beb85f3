import type { Construct } from 'constructs';
import { isManagedVolume } from './storage-validation';
import { storageVolumesOf } from './volume-mounts';
import { DEFAULT_VOLUME_ACCESS_MODE } from '../core/defaults';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import { k8s } from '../core/kube-api';
import { LABEL_MANAGED_BY, LABEL_MODEL_DEPLOYMENT, MANAGED_BY_VALUE } from '../core/labels';
import { resolvedClaimName } from '../core/model-deployment-object';
import type { SpecStorageVolume } from '../provider-kit/spec-types';

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

/**
 * Construct id of a volume's managed claim, keyed by the volume name so that distinct names never
 * collide: `Claim` + the name with its first character capitalized and every `-` that precedes a
 * letter replaced by that letter's capital; all other characters are kept. `model-cache` is
 * `ClaimModelCache`, while `a-b` / `a--b` are `ClaimAB` / `ClaimA-B` and `x2` / `x-2` are
 * `ClaimX2` / `ClaimX-2`.
 *
 * One-to-one on the CRD's volume names (`[a-z0-9-]`, checked by the schema before any translator
 * runs): names hold no capitals, so each capital after the first character stands for exactly
 * one `-` + letter, and the name can be read back from the id. Volume names are unique per
 * deployment (a duplicate is a `spec.model.storage.volumes[i].name` field error), so the ids of a
 * deployment's claims are too.
 */
export function managedClaimId(volumeName: string): string {
  const rest = volumeName.slice(1).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return 'Claim' + volumeName.charAt(0).toUpperCase() + rest;
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
