import { Size } from 'cdk8s';
import { PersistentVolumeAccessMode } from 'cdk8s-plus-34';

/**
 * What a storage volume is for (AI Runway `VolumePurpose`); decides its default mount path.
 */
export enum VolumePurpose {
  /** Model weights cache, mounted at `/model-cache` by default. At most one per deployment. */
  MODEL_CACHE = 'modelCache',
  /** Compilation cache, mounted at `/compilation-cache` by default. At most one per deployment. */
  COMPILATION_CACHE = 'compilationCache',
  /** Anything else; `mountPath` is required. */
  CUSTOM = 'custom',
}

/**
 * A volume mounted into the model server (`spec.model.storage.volumes[]`).
 *
 * A volume with `size` is managed: a PersistentVolumeClaim named `<deployment>-<volume>` is
 * synthesized. A volume without `size` references an existing claim through `claimName`.
 */
export interface StorageVolume {
  /**
   * Volume name: lowercase alphanumerics and '-', at most 63 characters, unique per deployment.
   */
  readonly name: string;

  /**
   * What the volume is for.
   * @default VolumePurpose.CUSTOM
   */
  readonly purpose?: VolumePurpose;

  /**
   * Size of the managed claim. Setting it makes the volume managed.
   * @default - not managed: `claimName` must name an existing claim
   */
  readonly size?: Size;

  /**
   * Existing claim to mount. Must not be set on managed volumes, whose claim is named
   * `<deployment>-<volume>`.
   * @default - `<deployment>-<volume>` for managed volumes; required otherwise
   */
  readonly claimName?: string;

  /**
   * Absolute mount path in the model server container.
   * @default - `/model-cache` for MODEL_CACHE, `/compilation-cache` for COMPILATION_CACHE;
   * required for CUSTOM
   */
  readonly mountPath?: string;

  /**
   * Mount read-only. Not allowed on managed volumes; a read-only model cache skips the download.
   * @default false
   */
  readonly readOnly?: boolean;

  /**
   * Storage class of the managed claim; the empty string asks for no class (static binding).
   * Only with `size`.
   * @default - the cluster's default storage class
   */
  readonly storageClassName?: string;

  /**
   * Access mode of the managed claim. Only with `size`.
   * @default PersistentVolumeAccessMode.READ_WRITE_MANY
   */
  readonly accessMode?: PersistentVolumeAccessMode;
}
