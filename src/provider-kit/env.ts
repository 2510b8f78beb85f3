import type { SpecEnvVar, SpecEnvVarSource } from './spec-types';
import { k8s } from '../core/kube-api';

/** The env var (and Secret key) that carries the Hugging Face token. */
export const HF_TOKEN_ENV = 'HF_TOKEN';
/** The env var that points the Hugging Face libraries at their cache directory. */
export const HF_HOME_ENV = 'HF_HOME';

/**
 * `HF_TOKEN` from key `HF_TOKEN` of the Secret named in `spec.secrets.huggingFaceToken`.
 */
export function hfTokenEnvVar(secretName: string): k8s.EnvVar {
  return { name: HF_TOKEN_ENV, valueFrom: { secretKeyRef: { name: secretName, key: HF_TOKEN_ENV } } };
}

/**
 * The model server's env: `spec.env` in order, then `HF_TOKEN` from the Secret named in
 * `spec.secrets.huggingFaceToken`. A user `HF_TOKEN` is dropped when that Secret is configured:
 * the container would list the name twice (the later entry wins, so the value is the same), and
 * server-side apply rejects duplicate env names.
 */
export function modelServerEnv(spec: { env?: SpecEnvVar[]; secrets?: { huggingFaceToken?: string } }): k8s.EnvVar[] {
  const secret = spec.secrets?.huggingFaceToken;
  const env = (spec.env ?? []).filter((e) => !(secret && e.name === HF_TOKEN_ENV)).map(toKubeEnvVar);
  if (secret) env.push(hfTokenEnvVar(secret));
  return env;
}

/**
 * Converts a `spec.env[].valueFrom` (JSON shape) into the typed L1 shape, keeping every source
 * Kubernetes defines. Undefined when no source is set, which is how AI Runway decides between
 * `valueFrom` and `value` (an empty `valueFrom: {}` counts as absent).
 */
export function toKubeEnvVarSource(source: SpecEnvVarSource | undefined): k8s.EnvVarSource | undefined {
  if (!source) return undefined;
  const out: {
    configMapKeyRef?: k8s.ConfigMapKeySelector;
    fieldRef?: k8s.ObjectFieldSelector;
    fileKeyRef?: k8s.FileKeySelector;
    resourceFieldRef?: k8s.ResourceFieldSelector;
    secretKeyRef?: k8s.SecretKeySelector;
  } = {};
  if (source.configMapKeyRef) {
    const r = source.configMapKeyRef;
    out.configMapKeyRef = { key: r.key, name: r.name, optional: r.optional };
  }
  if (source.fieldRef) {
    const r = source.fieldRef;
    out.fieldRef = { apiVersion: r.apiVersion, fieldPath: r.fieldPath };
  }
  if (source.fileKeyRef) {
    const r = source.fileKeyRef;
    out.fileKeyRef = { key: r.key, optional: r.optional, path: r.path, volumeName: r.volumeName };
  }
  if (source.resourceFieldRef) {
    const r = source.resourceFieldRef;
    out.resourceFieldRef = {
      containerName: r.containerName,
      divisor: r.divisor === undefined ? undefined : k8s.Quantity.fromString(String(r.divisor)),
      resource: r.resource,
    };
  }
  if (source.secretKeyRef) {
    const r = source.secretKeyRef;
    out.secretKeyRef = { key: r.key, name: r.name, optional: r.optional };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * One `spec.env` entry as Direct vLLM renders it: the full `valueFrom` when present (preferred,
 * because Kubernetes rejects an entry with both), otherwise `value` when non-empty.
 */
export function toKubeEnvVar(env: SpecEnvVar): k8s.EnvVar {
  const valueFrom = toKubeEnvVarSource(env.valueFrom);
  if (valueFrom) return { name: env.name, valueFrom };
  if (env.value) return { name: env.name, value: env.value };
  return { name: env.name };
}
