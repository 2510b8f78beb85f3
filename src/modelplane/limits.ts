/**
 * The limits modelplane's XRDs (`modelplane.ai/v1alpha1` ModelDeployment and ModelCache, the
 * pinned definitions in shared/upstream/modelplane/apis) put on what we emit, in one place: the
 * typed constructs and the provider check the same numbers, so a synth fails where the API server
 * would refuse the object, with the field that caused it.
 */

/** `spec.replicas`: ModelReplicas, each a whole serving instance on one InferenceCluster. */
export const MIN_MODEL_REPLICAS = 1;
export const MAX_MODEL_REPLICAS = 10;

/** `spec.template.spec.engines`. */
export const MAX_ENGINES = 8;

/** `engines[].name`, `devices[].name`: 1–63 characters (they become parts of workload names). */
export const MAX_NAME_LENGTH = 63;

/** `engines[].copies`: Deployment/LeaderWorkerSet replicas inside one ModelReplica. */
export const MAX_ENGINE_COPIES = 64;

/** `engines[].members`: one Standalone, or one Leader and one Worker. */
export const MAX_MEMBERS = 2;

/** `members[].worker.nodes`: follower pods of a Leader. */
export const MAX_WORKER_NODES = 63;

/** `members[].nodeSelector.devices`. */
export const MAX_DEVICE_REQUESTS = 16;

/** `devices[].count`: devices of the request per pod (per node). */
export const MAX_DEVICE_COUNT = 64;

/** `devices[].selectors`: at least one (an empty selector would claim any device), at most 8. */
export const MIN_DEVICE_SELECTORS = 1;
export const MAX_DEVICE_SELECTORS = 8;

/** `selectors[].cel`. */
export const MAX_SELECTOR_CEL_LENGTH = 10240;

/** `labels` and `annotations` of `spec.template.metadata` and of member pod templates. */
export const MAX_METADATA_ENTRIES = 32;
/** Label values (also checked for label-value syntax). */
export const MAX_LABEL_VALUE_LENGTH = 63;
/** Annotation values of member pod templates. */
export const MAX_ANNOTATION_VALUE_LENGTH = 8192;

/** Label keys under this prefix drive modelplane's own selectors; its XRD refuses them. */
export const RESERVED_LABEL_PREFIX = 'modelplane.ai/';

/** The one container of a member pod template must have this name. */
export const ENGINE_CONTAINER_NAME = 'engine';

/** `ModelCache.spec.huggingFace.sizeGiB`. */
export const MIN_CACHE_SIZE_GIB = 1;
export const MAX_CACHE_SIZE_GIB = 100000;

/**
 * Facts of modelplane's composition (not schema limits) that an emitter must respect: it serves
 * every engine on port 8000 (container port, readiness probe, InferencePool target), mounts a
 * referenced ModelCache at `/mnt/models`, and in PrefillDecode puts a routing sidecar on 8000 in
 * the decode pod, whose engine must then listen elsewhere (the port it reads from `--port`).
 */
export const ENGINE_PORT = 8000;
export const MODEL_CACHE_MOUNT_PATH = '/mnt/models';
export const DECODE_ENGINE_PORT = 8001;
