/**
 * Which records watch which objects: each reconcile reports the objects its status was computed
 * from, and an event on one of them queues exactly the records that read it.
 *
 * Most records read one object (their status source) and most objects are read by one record,
 * so a single key is stored as the string itself and only several as a collection: a `Set` per
 * entry costs a few hundred bytes, which for thousands of records is megabytes of a controller
 * whose whole budget is 150 MB.
 */
export class ReverseIndex {
  /** Object key → the record watching it, or the set of records (an object several records read: a Gateway). */
  private readonly byObject = new Map<string, string | Set<string>>();
  /** Record key → the object it watches, or the list of objects (no duplicates). */
  private readonly byRecord = new Map<string, string | readonly string[]>();

  /** Replaces what `record` watches with `objectKeys`. */
  public set(record: string, objectKeys: Iterable<string>): void {
    const next = [...new Set(objectKeys)];
    const previous = entries(this.byRecord.get(record));
    for (const key of previous) {
      if (!next.includes(key)) this.unlink(key, record);
    }
    for (const key of next) this.link(key, record);
    if (next.length === 0) this.byRecord.delete(record);
    else this.byRecord.set(record, next.length === 1 ? next[0] : next);
  }

  /** Forgets `record` (deleted, or no longer ours). */
  public remove(record: string): void {
    this.set(record, []);
  }

  /** The records that watch the object `objectKey`. */
  public recordsWatching(objectKey: string): string[] {
    return [...entries(this.byObject.get(objectKey))];
  }

  /** The objects `record` watches. */
  public watchedBy(record: string): string[] {
    return [...entries(this.byRecord.get(record))];
  }

  /** Number of objects watched by at least one record. */
  public get objectCount(): number {
    return this.byObject.size;
  }

  private link(key: string, record: string): void {
    const records = this.byObject.get(key);
    if (records === undefined) {
      this.byObject.set(key, record);
    } else if (typeof records === 'string') {
      if (records !== record) this.byObject.set(key, new Set([records, record]));
    } else {
      records.add(record);
    }
  }

  private unlink(key: string, record: string): void {
    const records = this.byObject.get(key);
    if (records === undefined) return;
    if (typeof records === 'string') {
      if (records === record) this.byObject.delete(key);
      return;
    }
    records.delete(record);
    if (records.size === 1) this.byObject.set(key, records.values().next().value!);
    else if (records.size === 0) this.byObject.delete(key);
  }
}

/** The keys of an entry (one string, or several). */
function entries(value: string | Iterable<string> | undefined): Iterable<string> {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}
