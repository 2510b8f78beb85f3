/**
 * Values AI Runway fills in or derives from a ModelDeployment, defined once here and used by the
 * defaulting, the validation and the object builders alike.
 */

/** The GPU extended resource when `gpu.type` is unset: the webhook's and the CRD's default, and Dynamo's and KAITO's. */
export const DEFAULT_GPU_RESOURCE = 'nvidia.com/gpu';

/** Where a `modelCache` volume is mounted when it names no `mountPath`. */
export const DEFAULT_MODEL_CACHE_MOUNT_PATH = '/model-cache';

/** Where a `compilationCache` volume is mounted when it names no `mountPath`. */
export const DEFAULT_COMPILATION_CACHE_MOUNT_PATH = '/compilation-cache';

/** Access mode of a managed (controller-created) PVC whose volume names none. */
export const DEFAULT_VOLUME_ACCESS_MODE = 'ReadWriteMany';

/** Suffix of the model download Job's name: `<deployment>-model-download`. */
export const MODEL_DOWNLOAD_JOB_SUFFIX = '-model-download';
