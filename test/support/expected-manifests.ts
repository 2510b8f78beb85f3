/**
 * Expected parts of synthesized manifests that several providers render alike.
 */

/** What the common labels of a deployment's objects are made of. */
export interface CommonLabelsOptions {
  /** @default 'huggingface' */
  readonly source?: string;
  /** @default 'vllm' */
  readonly engine?: string;
}

/**
 * The labels AI Runway puts on every object it creates for the deployment `name`: managed-by,
 * deployment, model-source and engine-type.
 */
export function commonLabels(name: string, options: CommonLabelsOptions = {}): Record<string, string> {
  return {
    'airunway.ai/managed-by': 'airunway',
    'airunway.ai/deployment': name,
    'airunway.ai/model-source': options.source ?? 'huggingface',
    'airunway.ai/engine-type': options.engine ?? 'vllm',
  };
}

/** What differs between managed claims. */
export interface ManagedClaimOptions {
  /** The deployment the claim belongs to. */
  readonly deployment: string;
  /** The storage volume's name. */
  readonly volume: string;
  readonly size: string;
  readonly storageClassName?: string;
}

/**
 * The PersistentVolumeClaim a provider synthesizes for a managed storage volume (one with a
 * size and no claimName) of a Hugging Face vLLM deployment in namespace ml: named
 * `<deployment>-<volume>`, the common labels and airunway.ai/model-deployment, ReadWriteMany.
 */
export function managedClaim(options: ManagedClaimOptions): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: `${options.deployment}-${options.volume}`,
      namespace: 'ml',
      labels: { ...commonLabels(options.deployment), 'airunway.ai/model-deployment': options.deployment },
    },
    spec: {
      accessModes: ['ReadWriteMany'],
      resources: { requests: { storage: options.size } },
      ...(options.storageClassName === undefined ? {} : { storageClassName: options.storageClassName }),
    },
  };
}
