/**
 * How a deployment's storage maps onto modelplane, whose engine pods (on remote workload
 * clusters) mount exactly one thing: the ModelCache the deployment references, at `/mnt/models`.
 *
 * - The first `modelCache` volume with a `size` (one AI Runway would create a claim for) becomes
 *   a ModelCache named like that claim (`claimName`, defaulted to `<deployment>-<volume>`): the
 *   Hugging Face repository `spec.model.id`, `sizeGiB` the size rounded up to whole GiB, the
 *   Hugging Face token Secret (`spec.secrets.huggingFaceToken`) as its auth Secret. modelplane
 *   stages it once per matching cluster and every engine pod mounts it.
 * - Every other volume — a `modelCache` volume naming an existing claim (no `size`), a second
 *   `modelCache` volume, `compilationCache` and `custom` volumes — is a PersistentVolumeClaim
 *   mount modelplane cannot do, and is refused.
 * - The volume's own PVC settings cannot be honoured (modelplane makes the cache PVC itself,
 *   ReadWriteMany, with the cluster's cache StorageClass, mounted read-write at `/mnt/models`);
 *   those set to something else are reported as warnings.
 */
import { lacking, PVC_MOUNTS } from './features';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { DEFAULT_MODEL_CACHE_MOUNT_PATH, DEFAULT_VOLUME_ACCESS_MODE } from '../../core/defaults';
import { FieldError, fieldPath, invalid } from '../../core/field-error';
import { resolvedClaimName } from '../../core/model-deployment-object';
import { parseQuantity, Quantity } from '../../core/quantity';
import { MAX_CACHE_SIZE_GIB, MODEL_CACHE_MOUNT_PATH } from '../../modelplane/limits';
import { cacheSizeErrors } from '../../modelplane/model-cache-rules';
import { isManagedVolume } from '../../storage/storage-validation';
import { storageVolumesOf } from '../../storage/volume-mounts';

/** The ModelCache a deployment gets. */
export interface ModelCachePlan {
  readonly name: string;
  readonly repo: string;
  readonly sizeGiB: number;
  /** Secret with key `HF_TOKEN`, for gated repositories. */
  readonly authSecretName?: string;
}

const GIB = 2n ** 30n;

/** Whole GiB holding `q` bytes, rounded up; Infinity beyond anything modelplane accepts. */
export function gibibytesRoundedUp(q: Quantity): number {
  if (q.sign <= 0) return 0;
  // 10^20 bytes is far above the 100000 GiB limit: no need to build larger powers of ten.
  if (q.exponent > 20) return Infinity;
  const bytes = q.exponent >= 0
    ? q.mantissa * 10n ** BigInt(q.exponent)
    : (q.mantissa + 10n ** BigInt(-q.exponent) - 1n) / 10n ** BigInt(-q.exponent);
  const gib = (bytes + GIB - 1n) / GIB;
  return gib > BigInt(MAX_CACHE_SIZE_GIB) ? Infinity : Number(gib);
}

/** The ModelCache of the deployment (none without a managed `modelCache` volume), its errors and warnings. */
export function modelCachePlan(md: ResolvedModelDeployment): { plan?: ModelCachePlan; errors: FieldError[]; warnings: string[] } {
  const errors: FieldError[] = [];
  const warnings: string[] = [];
  let plan: ModelCachePlan | undefined;
  storageVolumesOf(md.spec).forEach((volume, i) => {
    const at = fieldPath('spec', 'model', 'storage', 'volumes', i);
    if (volume.purpose !== 'modelCache') {
      errors.push(lacking(at, volume.name, PVC_MOUNTS,
        `modelplane's engine pods run on its workload clusters and mount only a ModelCache; a ${volume.purpose ?? 'custom'} volume cannot be mounted`));
      return;
    }
    if (!isManagedVolume(volume)) {
      errors.push(lacking(at, volume.name, PVC_MOUNTS,
        'modelplane cannot mount an existing claim on its workload clusters; give the modelCache volume a size and it becomes a ModelCache that modelplane stages there'));
      return;
    }
    if (plan !== undefined) {
      errors.push(lacking(at, volume.name, PVC_MOUNTS, 'a modelplane deployment references one ModelCache; only the first modelCache volume becomes one'));
      return;
    }
    const source = md.spec.model.source ?? 'huggingface';
    const repo = md.spec.model.id ?? '';
    if (source !== 'huggingface' || repo === '') {
      errors.push(invalid(at, volume.name, 'a modelplane ModelCache stages a Hugging Face repository (spec.model.id with source huggingface); a custom model source cannot be cached'));
      return;
    }
    const quantity = parseQuantity(volume.size!);
    const sizeGiB = quantity ? gibibytesRoundedUp(quantity) : NaN;
    const sizeErrors = cacheSizeErrors(sizeGiB, `${at}.size`, volume.size);
    if (sizeErrors.length > 0) {
      errors.push(...sizeErrors);
      return;
    }
    const secret = md.spec.secrets?.huggingFaceToken;
    plan = { name: resolvedClaimName(md.name, volume), repo, sizeGiB, ...(secret && { authSecretName: secret }) };
    const ignored = [
      ...(volume.storageClassName !== undefined ? [`storageClassName ${JSON.stringify(volume.storageClassName)} (the cluster's cache StorageClass is used)`] : []),
      ...(volume.accessMode !== undefined && volume.accessMode !== DEFAULT_VOLUME_ACCESS_MODE ? [`accessMode ${volume.accessMode} (the cache is ReadWriteMany)`] : []),
      ...(volume.mountPath !== undefined && volume.mountPath !== DEFAULT_MODEL_CACHE_MOUNT_PATH ? [`mountPath ${volume.mountPath} (it is mounted at ${MODEL_CACHE_MOUNT_PATH})`] : []),
      ...(volume.readOnly ? ['readOnly (it is mounted read-write)'] : []),
    ];
    if (ignored.length > 0) {
      warnings.push(`${at} becomes modelplane ModelCache ${JSON.stringify(plan.name)}, which ignores ${ignored.join(', ')}`);
    }
  });
  return { ...(plan && { plan }), errors, warnings };
}
