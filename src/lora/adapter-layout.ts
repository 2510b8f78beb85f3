/**
 * Where LoRA adapters live in a serving pod (names and paths shared by the pod parts, the engine
 * flags and admission): every adapter is read-only at `/lora-adapters/<name>` in the engine
 * container, whatever its source, so the engine flags need not know where the weights came from.
 * Kept apart from the pod parts so admission and the controller do not load cdk8s-plus-34.
 */
import { FieldError, fieldPath, invalid } from '../core/field-error';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import { storageVolumesOf, volumeMountPath } from '../storage/volume-mounts';

/** Directory of the adapters in the engine container, one subdirectory per adapter name. */
export const LORA_ADAPTERS_ROOT = '/lora-adapters';
/** The emptyDir the Hugging Face adapters are downloaded into. */
export const LORA_DOWNLOAD_VOLUME = 'lora-adapters';
/** Prefix of the pod volume of a claim holding adapters (`lora-pvc-0`, `lora-pvc-1`, ...). */
export const LORA_CLAIM_VOLUME_PREFIX = 'lora-pvc-';
/** Prefix of an adapter's download init container, followed by the adapter's index in the annotation. */
export const LORA_DOWNLOAD_CONTAINER_PREFIX = 'lora-download-';
/**
 * Hugging Face's own state (locks, metadata) during the downloads: in the emptyDir, since the
 * download containers' root filesystem is read-only. Adapter names start with a letter or digit,
 * so no adapter directory can be this one.
 */
export const LORA_DOWNLOAD_HF_HOME = `${LORA_ADAPTERS_ROOT}/.hf-home`;
/** Non-root user of the download containers (the conventional "nonroot" id of distroless images). */
export const LORA_DOWNLOAD_USER = 65532;

/** Where an adapter is in the engine container. */
export function adapterPath(name: string): string {
  return `${LORA_ADAPTERS_ROOT}/${name}`;
}

/**
 * Storage volumes that would collide with the adapters' pod volumes (`lora-adapters`,
 * `lora-pvc-<n>`) or mounts (`/lora-adapters` and below), with their field paths.
 */
export function loraStorageConflictErrors(spec: ModelDeploymentSpec): FieldError[] {
  const errors: FieldError[] = [];
  storageVolumesOf(spec).forEach((v, i) => {
    const at = fieldPath('spec.model.storage.volumes', i);
    if (v.name === LORA_DOWNLOAD_VOLUME || new RegExp(`^${LORA_CLAIM_VOLUME_PREFIX}\\d+$`).test(v.name)) {
      errors.push(invalid(`${at}.name`, v.name,
        `is the name of a pod volume the LoRA adapters use (${LORA_DOWNLOAD_VOLUME}, ${LORA_CLAIM_VOLUME_PREFIX}<n>); rename the volume`));
    }
    const mountPath = volumeMountPath(v);
    if (mountPath !== undefined && (mountPath === LORA_ADAPTERS_ROOT || mountPath.startsWith(`${LORA_ADAPTERS_ROOT}/`))) {
      errors.push(invalid(`${at}.mountPath`, mountPath, `is where the LoRA adapters are mounted (${LORA_ADAPTERS_ROOT}/<name>); mount the volume elsewhere`));
    }
  });
  return errors;
}
