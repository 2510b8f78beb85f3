/**
 * What LoRA adapters add to a serving pod: every adapter appears read-only at
 * `/lora-adapters/<name>` in the engine container, whatever its source, so the engine flags need
 * not know where the weights came from.
 *
 * - `hf://` adapters are fetched before the engine starts, one init container each (the model
 *   download image's `hf download <repo> [--revision <rev>] --local-dir <dir>`, every value one
 *   argv element, no shell), into the emptyDir `lora-adapters`; the engine mounts each adapter's
 *   directory of it (`subPath`) read-only.
 * - `pvc://` adapters mount their claim read-only, one pod volume per distinct claim
 *   (`lora-pvc-<n>`), with the directory inside the claim as `subPath`.
 *
 * Each adapter is its own mount rather than a directory of one `/lora-adapters` mount: a claim
 * mounted inside a read-only emptyDir mount would need a mount point the runtime cannot create.
 */
import {
  adapterPath,
  LORA_ADAPTERS_ROOT,
  LORA_CLAIM_VOLUME_PREFIX,
  LORA_DOWNLOAD_CONTAINER_PREFIX,
  LORA_DOWNLOAD_HF_HOME,
  LORA_DOWNLOAD_USER,
  LORA_DOWNLOAD_VOLUME,
} from './adapter-layout';
import { loraSettingsOf } from '../api/lora/lora-annotation';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import { k8s } from '../core/kube-api';
import { HF_TOKEN_ENV, hfTokenEnvVar, toKubeEnvVar } from '../provider-kit/env';
import { DEFAULT_MODEL_DOWNLOAD_IMAGE } from '../storage/model-download-job';

/**
 * The environment the Hugging Face client reads to reach the Hub, passed from `spec.env` to the
 * download containers: a mirror, proxies, and a token given as a plain variable.
 */
const DOWNLOAD_ENV_NAMES = new Set([HF_TOKEN_ENV, 'HF_ENDPOINT', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy']);

/** What a pod gets for its adapters. */
export interface LoraPodParts {
  readonly initContainers: k8s.Container[];
  readonly volumes: k8s.Volume[];
  /** Mounts of the engine container. */
  readonly volumeMounts: k8s.VolumeMount[];
}

/** The deployment fields the pod parts read. */
interface LoraPodInput {
  readonly annotations: Readonly<Record<string, string>>;
  readonly spec: ModelDeploymentSpec;
}

/** The init containers, volumes and engine mounts of the deployment's adapters; undefined when it has none. */
export function loraPodParts(md: LoraPodInput): LoraPodParts | undefined {
  const settings = loraSettingsOf(md.annotations);
  if (!settings) return undefined;
  const initContainers: k8s.Container[] = [];
  const volumeMounts: k8s.VolumeMount[] = [];
  const claimVolumes = new Map<string, string>();
  settings.adapters.forEach((adapter, i) => {
    const source = adapter.source;
    if (source.kind === 'huggingFace') {
      initContainers.push(downloadContainer(md.spec, i, source.repo, source.revision, adapter.name));
      volumeMounts.push({ name: LORA_DOWNLOAD_VOLUME, mountPath: adapterPath(adapter.name), subPath: adapter.name, readOnly: true });
      return;
    }
    let volume = claimVolumes.get(source.claimName);
    if (volume === undefined) {
      volume = `${LORA_CLAIM_VOLUME_PREFIX}${claimVolumes.size}`;
      claimVolumes.set(source.claimName, volume);
    }
    volumeMounts.push({ name: volume, mountPath: adapterPath(adapter.name), readOnly: true, ...(source.path !== '' && { subPath: source.path }) });
  });
  const volumes: k8s.Volume[] = [
    ...(initContainers.length > 0 ? [{ name: LORA_DOWNLOAD_VOLUME, emptyDir: {} }] : []),
    ...[...claimVolumes].map(([claimName, name]) => ({ name, persistentVolumeClaim: { claimName, readOnly: true } })),
  ];
  return { initContainers, volumes, volumeMounts };
}

function downloadContainer(spec: ModelDeploymentSpec, index: number, repo: string, revision: string | undefined, name: string): k8s.Container {
  return {
    name: `${LORA_DOWNLOAD_CONTAINER_PREFIX}${index}`,
    image: DEFAULT_MODEL_DOWNLOAD_IMAGE,
    // The image's entrypoint is `hf`. The repo and revision start with a letter or digit (see
    // adapter-source), so neither can be read as an option.
    args: ['download', repo, ...(revision !== undefined ? ['--revision', revision] : []), '--local-dir', adapterPath(name)],
    env: downloadEnv(spec),
    resources: {
      requests: { cpu: k8s.Quantity.fromString('250m'), memory: k8s.Quantity.fromString('512Mi') },
      limits: { memory: k8s.Quantity.fromString('2Gi') },
    },
    securityContext: {
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      runAsUser: LORA_DOWNLOAD_USER,
    },
    volumeMounts: [{ name: LORA_DOWNLOAD_VOLUME, mountPath: LORA_ADAPTERS_ROOT }],
  };
}

/**
 * `HF_HOME` in the emptyDir; from `spec.env`, what reaches the Hub (`DOWNLOAD_ENV_NAMES`); the
 * token from `spec.secrets.huggingFaceToken`, which replaces a plain `HF_TOKEN`, as in the engine.
 */
function downloadEnv(spec: ModelDeploymentSpec): k8s.EnvVar[] {
  const secret = spec.secrets?.huggingFaceToken;
  const env: k8s.EnvVar[] = [{ name: 'HF_HOME', value: LORA_DOWNLOAD_HF_HOME }];
  for (const e of spec.env ?? []) {
    if (!DOWNLOAD_ENV_NAMES.has(e.name) || (secret && e.name === HF_TOKEN_ENV)) continue;
    env.push(toKubeEnvVar(e));
  }
  if (secret) env.push(hfTokenEnvVar(secret));
  return env;
}
