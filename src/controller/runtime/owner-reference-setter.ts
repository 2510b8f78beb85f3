import { isConflict, isNotFound, KubeApi, ResourceKind } from './kube-api';
import type { Logger } from './logger';
import { recordKey } from './object-key';
import { OwnedObjectRef, ownedObjectsOf, ownerReferencePatch } from '../ownership/owner-references';

/** What setting a record's ownerReferences came to. */
export type OwnershipOutcome =
  | { readonly result: 'done' }
  /** Some listed objects do not exist yet (a GitOps tool applies in waves): try again later. */
  | { readonly result: 'pending'; readonly reason: string };

export interface OwnerReferenceSetterOptions {
  readonly api: KubeApi;
  readonly logger: Logger;
  /** How to address a listed kind; undefined when the controller does not know it. */
  readonly resolveKind: (apiVersion: string, kind: string) => ResourceKind | undefined;
  /** Re-reads and patches this many times on 409 Conflict. @default 5 */
  readonly maxConflictRetries?: number;
}

/**
 * Gives each object a record lists as rendered an ownerReference to the record, so that deleting
 * the record garbage-collects them (`--set-owner-references`).
 *
 * Each object is read and, when its reference is missing, merge-patched with its
 * resourceVersion (409: read again). A record whose objects all carry the reference is
 * remembered by uid and list, so later reconciles of it cost nothing; a restarted controller
 * checks each record once more. Objects not found yet leave the record pending (requeued with
 * backoff); kinds the controller does not know, objects in another namespace and an unreadable
 * list are logged once and skipped, never guessed.
 */
export class OwnerReferenceSetter {
  /** Record key → `uid list` of the records whose objects all carry their reference. */
  private readonly settled = new Map<string, string>();
  private readonly reported = new Set<string>();

  public constructor(private readonly options: OwnerReferenceSetterOptions) {}

  /** Sets the record's references where missing. Rejects on API errors other than 404 and exhausted 409s. */
  public async ensure(record: any): Promise<OwnershipOutcome> {
    const owned = ownedObjectsOf(record);
    const key = recordKey(record?.metadata?.namespace ?? '', record?.metadata?.name ?? '');
    if (!owned.owner) return { result: 'pending', reason: 'the record has no uid yet' };
    const fingerprint = `${owned.owner.uid} ${JSON.stringify(owned.objects)}`;
    if (this.settled.get(key) === fingerprint) return { result: 'done' };

    if (owned.error) this.reportOnce(`${key}@${owned.owner.uid} error`, 'cannot read the objects the record lists; no ownerReferences set', key, { error: owned.error });
    if (owned.otherNamespace.length > 0) {
      this.reportOnce(`${key}@${owned.owner.uid} namespaces`, 'objects in another namespace than the record keep no ownerReference (one cannot cross namespaces)', key, { objects: owned.otherNamespace });
    }
    const missing: string[] = [];
    for (const ref of owned.objects) {
      const kind = this.options.resolveKind(ref.apiVersion, ref.kind);
      if (!kind) {
        this.reportOnce(`${key}@${owned.owner.uid} ${ref.apiVersion} ${ref.kind}`, 'the controller does not know this kind; its objects keep no ownerReference', key, { kind: `${ref.apiVersion} ${ref.kind}` });
        continue;
      }
      if (!(await this.ensureOne(kind, ref, owned.owner))) missing.push(`${ref.kind} ${ref.name}`);
    }
    if (missing.length > 0) return { result: 'pending', reason: `waiting for ${missing.join(', ')} to exist` };
    this.settled.set(key, fingerprint);
    return { result: 'done' };
  }

  /** Forgets a record (deleted, or no longer ours). */
  public forget(namespace: string, name: string): void {
    this.settled.delete(recordKey(namespace, name));
  }

  /** False when the object does not exist. */
  private async ensureOne(kind: ResourceKind, ref: OwnedObjectRef, owner: NonNullable<ReturnType<typeof ownedObjectsOf>['owner']>): Promise<boolean> {
    const maxRetries = this.options.maxConflictRetries ?? 5;
    for (let attempt = 0; ; attempt++) {
      let object: any;
      try {
        object = await this.options.api.get(kind, ref.namespace, ref.name);
      } catch (e) {
        if (isNotFound(e)) return false;
        throw e;
      }
      const patch = ownerReferencePatch(object, owner);
      if (patch === undefined) return true;
      try {
        await this.options.api.patch(kind, ref.namespace, ref.name, patch);
        this.options.logger.debug('ownerReference set', { kind: `${ref.apiVersion} ${ref.kind}`, namespace: ref.namespace, name: ref.name, owner: owner.name });
        return true;
      } catch (e) {
        if (isNotFound(e)) return false;
        if (!isConflict(e) || attempt >= maxRetries) throw e;
      }
    }
  }

  private reportOnce(id: string, message: string, record: string, fields: Record<string, unknown>): void {
    if (this.reported.has(id)) return;
    this.reported.add(id);
    this.options.logger.error(message, { record, ...fields });
  }
}
