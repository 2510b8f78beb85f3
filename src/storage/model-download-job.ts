import type { Construct } from 'constructs';
import { managedStorageLabels, StorageOwner } from './managed-claim';
import { firstModelCacheVolume, volumeMountPath } from './volume-mounts';
import { DEFAULT_MODEL_CACHE_MOUNT_PATH, MODEL_DOWNLOAD_JOB_SUFFIX } from '../core/defaults';
import { k8s } from '../core/kube-api';
import { LABEL_JOB_TYPE } from '../core/labels';
import { resolvedClaimName } from '../core/model-deployment-object';
import { defaultImageRef } from '../core/version-matrix';
import { HF_HOME_ENV } from '../provider-kit/env';

/**
 * Image of AI Runway's downloader (`hf download <model>`): the version matrix's release (AI Runway's
 * own default is the moving `latest`). Override `modelDownloadImage` to follow another release or a digest.
 */
export const DEFAULT_MODEL_DOWNLOAD_IMAGE = defaultImageRef('dynamo', 'model-downloader');

/** Value of `airunway.ai/job-type` on the download Job. */
export const MODEL_DOWNLOAD_JOB_TYPE = 'model-download';
/** The Job's retry budget (also the failure threshold the status check uses). */
export const MODEL_DOWNLOAD_BACKOFF_LIMIT = 6;

/**
 * Seconds a finished download Job (and its pod, with the logs) is kept before Kubernetes deletes
 * it: a day, long enough to read why a download failed. A GitOps tool that re-applies the YAML
 * creates the Job again afterwards, which runs `hf download` again: a check of the files already
 * in the cache, not a second download.
 */
export const DEFAULT_MODEL_DOWNLOAD_TTL_SECONDS = 86_400;

/**
 * UID and GID the downloader runs as. The image (`python:3.14-slim`) declares no user, so it
 * would run as root; the Pod Security Standard "restricted" needs a non-root user, and `hf
 * download` needs no privilege: `fsGroup` makes the cache volume writable for this group.
 */
export const MODEL_DOWNLOAD_USER_ID = 65532;

/** Where the writable scratch volume is mounted; also `HOME`, as the root filesystem is read-only. */
const SCRATCH_MOUNT_PATH = '/tmp';
const SCRATCH_VOLUME = 'tmp';

/** Name of the download Job: `<md>-model-download`. */
export function modelDownloadJobName(deploymentName: string): string {
  return `${deploymentName}${MODEL_DOWNLOAD_JOB_SUFFIX}`;
}

/**
 * True when AI Runway would download the model into the cache: the source is Hugging Face and
 * the first `modelCache` volume (managed or pre-existing) is writable.
 */
export function needsModelDownloadJob(owner: Pick<StorageOwner, 'spec'>): boolean {
  const source = owner.spec.model.source ?? 'huggingface';
  const cache = firstModelCacheVolume(owner.spec);
  return source === 'huggingface' && cache !== undefined && !cache.readOnly;
}

/** Options of the download Job. */
export interface ModelDownloadJobOptions {
  /** @default DEFAULT_MODEL_DOWNLOAD_IMAGE */
  readonly image?: string;
  /**
   * Seconds a finished Job is kept before Kubernetes deletes it (`ttlSecondsAfterFinished`).
   * @default DEFAULT_MODEL_DOWNLOAD_TTL_SECONDS (one day)
   */
  readonly ttlSecondsAfterFinished?: number;
  /** Labels added to the Job's metadata (managed-by, model-deployment and job-type always hold). */
  readonly extraLabels?: Record<string, string>;
}

/**
 * The Job that fills the model cache before the workers start: one pod (`restartPolicy: Never`,
 * 6 retries) running `download <model id>` with `HF_HOME` at the cache mount, the Hugging Face
 * secret as `envFrom` when configured, and the first `modelCache` volume's claim mounted
 * read-write. No ownerReferences (see `managedClaimProps`). Undefined when no download is needed.
 *
 * The pod passes the Pod Security Standard "restricted": it runs as UID/GID 65532 with the cache
 * volume's group set to it (`fsGroup`, changed only when the volume root does not match, so a
 * filled cache is not walked on every run), no privilege escalation, no capabilities, the
 * runtime's seccomp profile and a read-only root filesystem; `HOME` and `/tmp` are an emptyDir.
 * It mounts no ServiceAccount token: the downloader never calls the Kubernetes API. The finished
 * Job is deleted after `ttlSecondsAfterFinished`.
 */
export function modelDownloadJobProps(
  owner: StorageOwner,
  options: ModelDownloadJobOptions = {},
): k8s.KubeJobProps | undefined {
  if (!needsModelDownloadJob(owner)) return undefined;
  const cache = firstModelCacheVolume(owner.spec)!;
  const mountPath = volumeMountPath(cache) ?? DEFAULT_MODEL_CACHE_MOUNT_PATH;
  const hfSecret = owner.spec.secrets?.huggingFaceToken;
  return {
    metadata: {
      name: modelDownloadJobName(owner.name),
      ...(owner.namespace !== undefined ? { namespace: owner.namespace } : {}),
      labels: {
        ...(options.extraLabels ?? {}),
        ...managedStorageLabels(owner.name),
        [LABEL_JOB_TYPE]: MODEL_DOWNLOAD_JOB_TYPE,
      },
    },
    spec: {
      backoffLimit: MODEL_DOWNLOAD_BACKOFF_LIMIT,
      completions: 1,
      parallelism: 1,
      ttlSecondsAfterFinished: options.ttlSecondsAfterFinished ?? DEFAULT_MODEL_DOWNLOAD_TTL_SECONDS,
      template: {
        spec: {
          restartPolicy: 'Never',
          automountServiceAccountToken: false,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: MODEL_DOWNLOAD_USER_ID,
            runAsGroup: MODEL_DOWNLOAD_USER_ID,
            fsGroup: MODEL_DOWNLOAD_USER_ID,
            fsGroupChangePolicy: 'OnRootMismatch',
            seccompProfile: { type: 'RuntimeDefault' },
          },
          containers: [
            {
              name: 'model-download',
              image: options.image ?? DEFAULT_MODEL_DOWNLOAD_IMAGE,
              args: ['download', owner.spec.model.id ?? ''],
              env: [{ name: HF_HOME_ENV, value: mountPath }, { name: 'HOME', value: SCRATCH_MOUNT_PATH }],
              ...(hfSecret ? { envFrom: [{ secretRef: { name: hfSecret } }] } : {}),
              resources: {
                requests: { cpu: k8s.Quantity.fromString('500m'), memory: k8s.Quantity.fromString('2Gi') },
                limits: { memory: k8s.Quantity.fromString('16Gi') },
              },
              volumeMounts: [{ name: 'model-cache', mountPath }, { name: SCRATCH_VOLUME, mountPath: SCRATCH_MOUNT_PATH }],
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                capabilities: { drop: ['ALL'] },
              },
            },
          ],
          volumes: [
            { name: 'model-cache', persistentVolumeClaim: { claimName: resolvedClaimName(owner.name, cache) } },
            { name: SCRATCH_VOLUME, emptyDir: {} },
          ],
        },
      },
    },
  };
}

/** Creates the download Job as child `ModelDownload` of `scope` when one is needed. */
export function addModelDownloadJob(
  scope: Construct,
  owner: StorageOwner,
  options: ModelDownloadJobOptions = {},
): k8s.KubeJob | undefined {
  const props = modelDownloadJobProps(owner, options);
  return props ? new k8s.KubeJob(scope, 'ModelDownload', props) : undefined;
}
