import { FieldError, invalid, notSupported, required } from './field-error';

/** The metadata of an input manifest that the translation uses. */
export interface ManifestMetadata {
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

/**
 * Checks `apiVersion`, `kind` and the metadata fields we read from a user's manifest, collecting
 * field errors instead of throwing so a CLI run can report every mistake at once.
 */
export function readManifestHeader(
  manifest: unknown,
  apiVersion: string,
  kind: string,
  errors: FieldError[],
  options: { namespaced: boolean },
): ManifestMetadata | undefined {
  if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) {
    errors.push(invalid('<root>', manifest, `must be a ${kind} object`));
    return undefined;
  }
  const m = manifest as Record<string, any>;
  if (m.apiVersion !== apiVersion) errors.push(notSupported('apiVersion', m.apiVersion, [apiVersion]));
  if (m.kind !== kind) errors.push(notSupported('kind', m.kind, [kind]));
  const meta = m.metadata;
  if (meta === undefined || meta === null || typeof meta !== 'object') {
    errors.push(required('metadata.name', 'name is required'));
    return undefined;
  }
  if (typeof meta.name !== 'string' || meta.name === '') {
    errors.push(meta.name === undefined ? required('metadata.name', 'name is required') : invalid('metadata.name', meta.name, 'must be a non-empty string'));
  }
  if (meta.namespace !== undefined && (typeof meta.namespace !== 'string' || !options.namespaced)) {
    errors.push(invalid('metadata.namespace', meta.namespace, options.namespaced ? 'must be a string' : `${kind} is cluster-scoped and takes no namespace`));
  }
  const labels = stringMap(meta.labels, 'metadata.labels', errors);
  const annotations = stringMap(meta.annotations, 'metadata.annotations', errors);
  if (typeof meta.name !== 'string') return undefined;
  return {
    name: meta.name,
    ...(typeof meta.namespace === 'string' && { namespace: meta.namespace }),
    ...(labels && { labels }),
    ...(annotations && { annotations }),
  };
}

function stringMap(value: unknown, path: string, errors: FieldError[]): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    errors.push(invalid(path, value, 'must be a map of strings'));
    return undefined;
  }
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') errors.push(invalid(`${path}.${k}`, v, 'must be a string'));
  }
  return value as Record<string, string>;
}
