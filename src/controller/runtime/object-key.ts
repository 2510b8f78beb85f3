/**
 * Keys of the objects the controller caches and the records it reconciles.
 */

/** An object, by kind and name (structurally the status module's `ObjectRef`). */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

/** `apiVersion kind`: one informer per key (two versions of a kind are two caches). */
export function kindKey(kind: { readonly apiVersion: string; readonly kind: string }): string {
  return `${kind.apiVersion} ${kind.kind}`;
}

/** `apps/v1 Deployment ns/name`: an object's key in the reverse index. */
export function objectKey(ref: ObjectRef): string {
  return `${kindKey(ref)} ${ref.namespace}/${ref.name}`;
}

/** `namespace/name`: a record's key in the work queue (controller-runtime's request). */
export function recordKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** The namespace and name of a record key. */
export function splitRecordKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** `metadata.namespace` and `metadata.name` of an API object (empty strings when missing). */
export function metaOf(obj: any): { namespace: string; name: string; resourceVersion: string } {
  const m = obj?.metadata ?? {};
  return {
    namespace: typeof m.namespace === 'string' ? m.namespace : '',
    name: typeof m.name === 'string' ? m.name : '',
    resourceVersion: typeof m.resourceVersion === 'string' ? m.resourceVersion : '',
  };
}
