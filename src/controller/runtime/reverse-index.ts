/**
 * Which records watch which objects: each reconcile reports the objects its status was computed
 * from, and an event on one of them queues exactly the records that read it.
 */
export class ReverseIndex {
  private readonly byObject = new Map<string, Set<string>>();
  private readonly byRecord = new Map<string, ReadonlySet<string>>();

  /** Replaces what `record` watches with `objectKeys`. */
  public set(record: string, objectKeys: Iterable<string>): void {
    const next = new Set(objectKeys);
    const previous = this.byRecord.get(record);
    for (const key of previous ?? []) {
      if (!next.has(key)) this.unlink(key, record);
    }
    for (const key of next) {
      let records = this.byObject.get(key);
      if (!records) this.byObject.set(key, (records = new Set()));
      records.add(record);
    }
    if (next.size > 0) this.byRecord.set(record, next);
    else this.byRecord.delete(record);
  }

  /** Forgets `record` (deleted, or no longer ours). */
  public remove(record: string): void {
    this.set(record, []);
  }

  /** The records that watch the object `objectKey`. */
  public recordsWatching(objectKey: string): string[] {
    return [...(this.byObject.get(objectKey) ?? [])];
  }

  /** The objects `record` watches. */
  public watchedBy(record: string): string[] {
    return [...(this.byRecord.get(record) ?? [])];
  }

  /** Number of objects watched by at least one record. */
  public get objectCount(): number {
    return this.byObject.size;
  }

  private unlink(key: string, record: string): void {
    const records = this.byObject.get(key);
    if (!records) return;
    records.delete(record);
    if (records.size === 0) this.byObject.delete(key);
  }
}
