import type { Construct } from 'constructs';
import { managedStorageLabels, StorageOwner } from './managed-claim';
import { firstModelCacheVolume, volumeMountPath } from './volume-mounts';
import { DEFAULT_MODEL_CACHE_MOUNT_PATH, MODEL_DOWNLOAD_JOB_SUFFIX } from '../core/defaults';
import { k8s } from '../core/kube-api';
import { LABEL_JOB_TYPE } from '../core/labels';
import { resolvedClaimName } from '../core/model-deployment-object';
import { HF_HOME_ENV } from '../providers/common/env';

/** Image of AI Runway's downloader (`hf download <model>`), the default of its provider shims. */
export const DEFAULT_MODEL_DOWNLOAD_IMAGE = 'ghcr.io/ai-runway/airunway/model-downloader:latest';
/** Value of `airunway.ai/job-type` on the download Job. */
export const MODEL_DOWNLOAD_JOB_TYPE = 'model-download';
/** The Job's retry budget (also the failure threshold the status check uses). */
export const MODEL_DOWNLOAD_BACKOFF_LIMIT = 6;

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
  /** Labels added to the Job's metadata (managed-by, model-deployment and job-type always hold). */
  readonly extraLabels?: Record<string, string>;
}

/**
 * The Job that fills the model cache before the workers start: one pod (`restartPolicy: Never`,
 * 6 retries) running `download <model id>` with `HF_HOME` at the cache mount, the Hugging Face
 * secret as `envFrom` when configured, and the first `modelCache` volume's claim mounted
 * read-write. No ownerReferences (see `managedClaimProps`). Undefined when no download is needed.
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
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [
            {
              name: 'model-download',
              image: options.image ?? DEFAULT_MODEL_DOWNLOAD_IMAGE,
              args: ['download', owner.spec.model.id ?? ''],
              env: [{ name: HF_HOME_ENV, value: mountPath }],
              ...(hfSecret ? { envFrom: [{ secretRef: { name: hfSecret } }] } : {}),
              resources: {
                requests: { cpu: k8s.Quantity.fromString('500m'), memory: k8s.Quantity.fromString('2Gi') },
                limits: { memory: k8s.Quantity.fromString('16Gi') },
              },
              volumeMounts: [{ name: 'model-cache', mountPath }],
            },
          ],
          volumes: [{ name: 'model-cache', persistentVolumeClaim: { claimName: resolvedClaimName(owner.name, cache) } }],
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
