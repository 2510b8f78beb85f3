import type { Clock } from './clock';
import { KubeApi, ResourceKind } from './kube-api';
import { errorText, Logger } from './logger';

/** Core `v1` Events (what `kubectl describe` and `kubectl get events` show). */
export const EVENT_KIND: ResourceKind = { apiVersion: 'v1', kind: 'Event', resource: 'events' };

/** A repeat of an event within this long updates its count instead of creating another (client-go's window). */
const AGGREGATION_WINDOW_MS = 10 * 60 * 1000;
/** Events remembered for aggregation (client-go's LRU size). */
const MAX_REMEMBERED = 4096;
/** The API server refuses longer messages. */
const MAX_MESSAGE_LENGTH = 1024;
/** Events waiting to be written beyond this many are dropped (client-go's broadcaster queue is as long). */
const MAX_QUEUED = 1000;

export interface EventRecorderOptions {
  readonly api: KubeApi;
  readonly clock: Clock;
  readonly logger: Logger;
  /** `source.component` and `reportingComponent`. */
  readonly component: string;
  /** `reportingInstance`: this process (its leader election identity). */
  readonly instance: string;
}

/** The event of a repeated occurrence: its name and how often it happened. */
interface Remembered {
  readonly name: string;
  readonly namespace: string;
  count: number;
  lastSeenMs: number;
}

/**
 * Records Kubernetes Events about records, as client-go's recorder does: the first occurrence
 * creates an Event, a repeat (same object, type, reason and message) within ten minutes patches
 * its `count` and `lastTimestamp`. Events are best effort: `record` returns at once; one writer
 * sends them in order, so a burst (a fresh controller giving thousands of records their first
 * phase) costs the API server one request at a time, not thousands at once; past 1,000 waiting,
 * new ones are dropped and counted; a failure is logged, never retried and never fails a reconcile.
 */
export class EventRecorder {
  private readonly remembered = new Map<string, Remembered>();
  private readonly queue: Array<() => Promise<void>> = [];
  private writer?: Promise<void>;
  private sequence = 0;
  private droppedCount = 0;

  public constructor(private readonly options: EventRecorderOptions) {}

  /** Events dropped because too many were waiting. */
  public get dropped(): number {
    return this.droppedCount;
  }

  /** Records an event about `involved` (a ModelDeployment as the cache holds it). */
  public record(involved: any, type: 'Normal' | 'Warning', reason: string, message: string): void {
    if (this.queue.length >= MAX_QUEUED) {
      if (this.droppedCount++ === 0) this.options.logger.error('too many events waiting to be written; dropping new ones', { waiting: this.queue.length });
      return;
    }
    const text = truncate(message);
    // Only the reference waits in the queue, not the record: a fresh controller queues up to
    // 1,000 events at once, and each record (as a status patch returns it, managedFields and all)
    // is several KiB.
    const ref = involvedRef(involved);
    this.queue.push(() => this.write(ref, type, reason, text).catch((e) => {
      this.options.logger.error('cannot record an event', { reason, namespace: ref.namespace, name: ref.name, error: errorText(e) });
    }));
    this.writer ??= this.drain();
  }

  /** Resolves when every event recorded so far was written (or failed). */
  public async flush(): Promise<void> {
    while (this.writer) await this.writer;
  }

  private async drain(): Promise<void> {
    for (let next = this.queue.shift(); next; next = this.queue.shift()) await next();
    this.writer = undefined;
  }

  private async write(m: InvolvedRef, type: string, reason: string, message: string): Promise<void> {
    const now = this.options.clock.now();
    const timestamp = new Date(now).toISOString().replace(/\.\d+Z$/, 'Z');
    const key = JSON.stringify([m.uid, type, reason, message]);
    const seen = this.remembered.get(key);
    if (seen && now - seen.lastSeenMs < AGGREGATION_WINDOW_MS) {
      seen.count++;
      seen.lastSeenMs = now;
      this.touch(key, seen);
      await this.options.api.patch(EVENT_KIND, seen.namespace, seen.name, { count: seen.count, lastTimestamp: timestamp });
      return;
    }
    // client-go's naming: the object's name and a unique hexadecimal suffix.
    const name = `${m.name}.${now.toString(16)}${(this.sequence++ % 0x10000).toString(16).padStart(4, '0')}`;
    await this.options.api.create(EVENT_KIND, m.namespace, {
      apiVersion: EVENT_KIND.apiVersion,
      kind: EVENT_KIND.kind,
      metadata: { name, namespace: m.namespace },
      involvedObject: {
        apiVersion: m.apiVersion,
        kind: m.kind,
        namespace: m.namespace,
        name: m.name,
        uid: m.uid,
        resourceVersion: m.resourceVersion,
      },
      type,
      reason,
      message,
      source: { component: this.options.component },
      reportingComponent: this.options.component,
      reportingInstance: this.options.instance,
      firstTimestamp: timestamp,
      lastTimestamp: timestamp,
      count: 1,
    });
    this.touch(key, { name, namespace: m.namespace, count: 1, lastSeenMs: now });
  }

  /** Remembers `entry` as the most recent; forgets the oldest beyond the limit. */
  private touch(key: string, entry: Remembered): void {
    this.remembered.delete(key);
    this.remembered.set(key, entry);
    if (this.remembered.size > MAX_REMEMBERED) this.remembered.delete(this.remembered.keys().next().value!);
  }
}

/** What an Event says about the object it is about (`involvedObject`). */
interface InvolvedRef {
  readonly apiVersion: any;
  readonly kind: any;
  readonly namespace: any;
  readonly name: any;
  readonly uid: any;
  readonly resourceVersion: any;
}

function involvedRef(involved: any): InvolvedRef {
  const m = involved?.metadata ?? {};
  return {
    apiVersion: involved?.apiVersion,
    kind: involved?.kind,
    namespace: m.namespace,
    name: m.name,
    uid: m.uid,
    resourceVersion: m.resourceVersion,
  };
}

function truncate(message: string): string {
  return message.length <= MAX_MESSAGE_LENGTH ? message : `${message.slice(0, MAX_MESSAGE_LENGTH - 3)}...`;
}
