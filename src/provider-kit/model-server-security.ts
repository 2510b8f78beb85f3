import { PodSecurityLevel } from '../api/pod-security-level';
import { k8s } from '../core/kube-api';

/*
 * The security settings of a model-server pod, at the Pod Security Standard level the deployment
 * asks for (`PodSecurityLevel`). One place for every provider whose upstream object carries a pod
 * spec, so that a vLLM pod is hardened the same way whichever provider runs it.
 */

/** The numeric user a model server runs as under "restricted", and where its home is. */
export interface NonRootIdentity {
  readonly runAsUser: number;
  readonly runAsGroup: number;
  readonly fsGroup: number;
  /**
   * Whether HOME (and the caches under it) moves to an emptyDir: the engines' images keep HOME
   * at `/root`, which another user cannot write. False for images whose own user owns its home.
   */
  readonly ownHome: boolean;
}

/**
 * The user of vLLM, SGLang and TensorRT-LLM pods under "restricted": their images have no
 * non-root user, so any fixed uid works as long as HOME, the caches and /tmp are writable.
 */
export const ENGINE_NON_ROOT_IDENTITY: NonRootIdentity = { runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000, ownHome: true };

/**
 * Ray's images run as `ray` (uid 1000, group `users`, gid 100), whose home holds the Python
 * environment: keep that home and run as that user.
 */
export const RAY_NON_ROOT_IDENTITY: NonRootIdentity = { runAsUser: 1000, runAsGroup: 100, fsGroup: 100, ownHome: false };

/**
 * Capabilities "baseline" drops from the runtime's default set while the image still runs as
 * root: an inference server opens no raw sockets, makes no device nodes, chroots nowhere, writes
 * no audit records and sets no file capabilities. CHOWN, DAC_OVERRIDE, FOWNER, SETUID/SETGID
 * stay: root entrypoints use them to fix ownership of caches and to drop to another user.
 */
export const BASELINE_DROPPED_CAPABILITIES: readonly string[] = ['NET_RAW', 'MKNOD', 'SYS_CHROOT', 'AUDIT_WRITE', 'SETFCAP', 'SETPCAP'];

/** Volume (emptyDir) of the home directory under "restricted". */
export const HOME_VOLUME_NAME = 'model-server-home';
/** Where that home is mounted. */
export const HOME_MOUNT_PATH = '/home/model-server';
/** Volume (emptyDir) of `/tmp` under "restricted" (torch inductor, Ray sessions, NCCL sockets). */
export const TMP_VOLUME_NAME = 'model-server-tmp';
/** User name given to Python's `getpass.getuser()`: the uid has no passwd entry in the engines' images. */
export const NON_ROOT_USER_NAME = 'model-server';

/** How to secure a pod. */
export interface ModelServerSecurityOptions {
  readonly level: PodSecurityLevel;
  /** @default ENGINE_NON_ROOT_IDENTITY */
  readonly identity?: NonRootIdentity;
  /**
   * Whether a process of the pod calls the Kubernetes API (the Ray autoscaler sidecar): the
   * service account token is then mounted. @default false
   */
  readonly callsKubernetesApi?: boolean;
}

/** The pod-level securityContext. */
export function modelServerPodSecurityContext(level: PodSecurityLevel, identity: NonRootIdentity = ENGINE_NON_ROOT_IDENTITY): k8s.PodSecurityContext {
  const seccompProfile = { type: 'RuntimeDefault' };
  if (level !== PodSecurityLevel.RESTRICTED) return { seccompProfile };
  return {
    runAsNonRoot: true,
    runAsUser: identity.runAsUser,
    runAsGroup: identity.runAsGroup,
    fsGroup: identity.fsGroup,
    // Model caches hold thousands of files: re-owning them on every mount would delay each start.
    fsGroupChangePolicy: 'OnRootMismatch',
    seccompProfile,
  };
}

/** The securityContext of each container. */
export function modelServerContainerSecurityContext(level: PodSecurityLevel): k8s.SecurityContext {
  if (level !== PodSecurityLevel.RESTRICTED) {
    return { privileged: false, allowPrivilegeEscalation: false, capabilities: { drop: [...BASELINE_DROPPED_CAPABILITIES] } };
  }
  return { privileged: false, allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] } };
}

/** Env that points HOME, the XDG cache (Hugging Face, vLLM, FlashInfer, Triton, ...) and the user name at writable places. */
function nonRootEnv(identity: NonRootIdentity): k8s.EnvVar[] {
  return [
    ...(identity.ownHome ? [{ name: 'HOME', value: HOME_MOUNT_PATH }, { name: 'XDG_CACHE_HOME', value: `${HOME_MOUNT_PATH}/.cache` }] : []),
    { name: 'USER', value: NON_ROOT_USER_NAME },
  ];
}

function nonRootMounts(identity: NonRootIdentity): k8s.VolumeMount[] {
  return [
    ...(identity.ownHome ? [{ name: HOME_VOLUME_NAME, mountPath: HOME_MOUNT_PATH }] : []),
    { name: TMP_VOLUME_NAME, mountPath: '/tmp' },
  ];
}

/**
 * The emptyDirs `secureModelServerContainer` mounts under "restricted" (none otherwise), for
 * renderers that build the pod's volumes themselves.
 */
export function restrictedVolumes(level: PodSecurityLevel, identity: NonRootIdentity = ENGINE_NON_ROOT_IDENTITY): k8s.Volume[] {
  return level === PodSecurityLevel.RESTRICTED ? nonRootVolumes(identity) : [];
}

function nonRootVolumes(identity: NonRootIdentity): k8s.Volume[] {
  return [
    ...(identity.ownHome ? [{ name: HOME_VOLUME_NAME, emptyDir: {} }] : []),
    { name: TMP_VOLUME_NAME, emptyDir: {} },
  ];
}

/**
 * A container with the level's securityContext and, under "restricted", the writable home, cache
 * and `/tmp`. Env the user set and paths already mounted are kept as they are. A container that
 * brings its own securityContext (the LoRA download container, which already runs as non-root
 * with a read-only root) keeps it whole: it was set for that image, and is at least as strict.
 */
export function secureModelServerContainer(
  container: k8s.Container,
  level: PodSecurityLevel,
  identity: NonRootIdentity = ENGINE_NON_ROOT_IDENTITY,
): k8s.Container {
  const secured: k8s.Container = { ...container, securityContext: container.securityContext ?? modelServerContainerSecurityContext(level) };
  if (level !== PodSecurityLevel.RESTRICTED) return secured;
  const env = container.env ?? [];
  const addedEnv = nonRootEnv(identity).filter((e) => !env.some((x) => x.name === e.name));
  const mounts = container.volumeMounts ?? [];
  const addedMounts = nonRootMounts(identity).filter((m) => !mounts.some((x) => x.mountPath === m.mountPath || x.name === m.name));
  return {
    ...secured,
    ...(addedMounts.length + mounts.length > 0 ? { volumeMounts: [...mounts, ...addedMounts] } : {}),
    ...(addedEnv.length + env.length > 0 ? { env: [...env, ...addedEnv] } : {}),
  };
}

/**
 * A model-server pod spec secured at `options.level`: the pod and every container (init
 * containers too) get their securityContext, the service account token is not mounted unless the
 * pod calls the API, and "restricted" adds the emptyDirs its containers write to.
 */
export function secureModelServerPod(spec: k8s.PodSpec, options: ModelServerSecurityOptions): k8s.PodSpec {
  const identity = options.identity ?? ENGINE_NON_ROOT_IDENTITY;
  const secure = (c: k8s.Container) => secureModelServerContainer(c, options.level, identity);
  const volumes = spec.volumes ?? [];
  const addedVolumes = options.level === PodSecurityLevel.RESTRICTED
    ? nonRootVolumes(identity).filter((v) => !volumes.some((x) => x.name === v.name))
    : [];
  return {
    ...(options.callsKubernetesApi ? {} : { automountServiceAccountToken: false }),
    ...spec,
    securityContext: { ...modelServerPodSecurityContext(options.level, identity), ...spec.securityContext },
    ...(spec.initContainers ? { initContainers: spec.initContainers.map(secure) } : {}),
    containers: spec.containers.map(secure),
    ...(volumes.length + addedVolumes.length > 0 ? { volumes: [...volumes, ...addedVolumes] } : {}),
  };
}
