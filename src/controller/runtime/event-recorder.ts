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
 * its `count` and `lastTimestamp`. Events are best effort: a failure is logged, never retried and
 * never fails a reconcile, and `record` does not make the caller wait for the API server.
 */
export class EventRecorder {
  private readonly remembered = new Map<string, Remembered>();
  private sequence = 0;
  private pending = new Set<Promise<void>>();

  public constructor(private readonly options: EventRecorderOptions) {}

  /** Records an event about `involved` (a ModelDeployment as the cache holds it). */
  public record(involved: any, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const write = this.write(involved, type, reason, truncate(message)).catch((e) => {
      this.options.logger.error('cannot record an event', { reason, namespace: involved?.metadata?.namespace, name: involved?.metadata?.name, error: errorText(e) });
    });
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  /** Resolves when every event recorded so far was written (or failed). */
  public async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private async write(involved: any, type: string, reason: string, message: string): Promise<void> {
    const m = involved?.metadata ?? {};
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
        apiVersion: involved.apiVersion,
        kind: involved.kind,
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

function truncate(message: string): string {
  return message.length <= MAX_MESSAGE_LENGTH ? message : `${message.slice(0, MAX_MESSAGE_LENGTH - 3)}...`;
}
