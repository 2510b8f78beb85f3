/**
 * Which objects a rendered record owns and the patch that makes one of them say so: pure
 * functions for the controller's optional ownerReferences (`--set-owner-references`).
 *
 * The reference is a plain owner, not a controller reference: the controller never writes the
 * objects' specs (the YAML does), and an object may already have a controller (AI Runway's, a
 * user's operator). It does not block the owner's deletion either, which would need `update` on
 * `modeldeployments/finalizers`.
 */
import { isJsonObject } from '../../core/json-object';
import { decodeRenderedObjects, ANNOTATION_RENDERED_OBJECTS } from '../../core/rendered-objects';
import { MODEL_DEPLOYMENT_KIND } from '../runtime/kube-api';


/** An ownerReference to a record. */
export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
}

/** An object a record owns, in the record's namespace. */
export interface OwnedObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

/** What a record owns, by its `inference.cdk8s.io/rendered-objects` annotation. */
export interface OwnedObjects {
  /** The reference each owned object gets; undefined for a record without a uid (not stored yet). */
  readonly owner?: OwnerReference;
  /** Objects in the record's namespace. */
  readonly objects: OwnedObjectRef[];
  /**
   * Objects listed in another namespace: an ownerReference cannot cross namespaces (the garbage
   * collector would treat the owner as missing and delete the object), so these keep none.
   */
  readonly otherNamespace: string[];
  /** Why the annotation could not be read; no object is owned then. */
  readonly error?: string;
}

/** The objects a record lists and the reference they get. */
export function ownedObjectsOf(record: any): OwnedObjects {
  const metadata = isJsonObject(record) && isJsonObject(record.metadata) ? record.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : '';
  const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : '';
  const uid = typeof metadata.uid === 'string' && metadata.uid !== '' ? metadata.uid : undefined;
  const owner = uid !== undefined ? { apiVersion: MODEL_DEPLOYMENT_KIND.apiVersion, kind: MODEL_DEPLOYMENT_KIND.kind, name, uid } : undefined;
  const annotations = isJsonObject(metadata.annotations) ? metadata.annotations : {};
  const decoded = decodeRenderedObjects(annotations[ANNOTATION_RENDERED_OBJECTS]);
  if ('error' in decoded) return { owner, objects: [], otherNamespace: [], error: decoded.error };
  const objects: OwnedObjectRef[] = [];
  const otherNamespace: string[] = [];
  for (const ref of decoded.refs) {
    if (ref.namespace !== undefined && ref.namespace !== namespace) otherNamespace.push(`${ref.kind} ${ref.namespace}/${ref.name}`);
    else objects.push({ apiVersion: ref.apiVersion, kind: ref.kind, namespace, name: ref.name });
  }
  return { owner, objects, otherNamespace };
}

/**
 * The JSON merge patch that adds `owner` to the object's ownerReferences, or undefined when it
 * is there already. A merge patch replaces the whole list, so it carries the other references as
 * they are and the object's resourceVersion (a concurrent change is refused with 409, not lost).
 * A reference to an earlier record of the same name (another uid: the record was deleted and
 * created again) is replaced: left in place, the garbage collector could still act on it.
 */
export function ownerReferencePatch(object: any, owner: OwnerReference): any | undefined {
  const metadata = isJsonObject(object) && isJsonObject(object.metadata) ? object.metadata : {};
  const existing: any[] = Array.isArray(metadata.ownerReferences) ? metadata.ownerReferences : [];
  if (existing.some((r) => isJsonObject(r) && r.uid === owner.uid)) return undefined;
  const others = existing.filter((r) => !(isJsonObject(r) && isSameRecordName(r, owner)));
  return {
    metadata: {
      ...(typeof metadata.resourceVersion === 'string' && { resourceVersion: metadata.resourceVersion }),
      ownerReferences: [...others, { ...owner }],
    },
  };
}

function isSameRecordName(ref: Record<string, unknown>, owner: OwnerReference): boolean {
  return typeof ref.apiVersion === 'string' && ref.apiVersion.split('/')[0] === owner.apiVersion.split('/')[0]
    && ref.kind === owner.kind && ref.name === owner.name;
}
