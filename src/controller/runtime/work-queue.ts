import type { Clock, Timer } from './clock';
import type { RateLimiter } from './rate-limiter';

/** What the queue reports, under client-go's workqueue metric names (see `controller-metrics.ts`). */
export interface WorkQueueMetrics {
  /** An item was added (not one that was already waiting). */
  added(): void;
  /** An item waited `seconds` between being added and being handed to a worker. */
  queueLatency(seconds: number): void;
  /** A worker held an item for `seconds`. */
  workDuration(seconds: number): void;
  /** An item was put back with a rate-limited delay. */
  retried(): void;
}

export interface WorkQueueOptions {
  readonly clock: Clock;
  readonly rateLimiter: RateLimiter;
  readonly metrics?: WorkQueueMetrics;
}

/**
 * client-go's rate-limiting work queue, for string keys:
 *
 * - de-duplication: a key added while it waits is queued once;
 * - exclusivity: a key handed to a worker is not handed to another until `done`; added meanwhile,
 *   it is queued again at `done`, so the change is not lost;
 * - delays: `addAfter` (the earliest of several delays wins) and `addRateLimited` (the rate
 *   limiter's exponential backoff), `forget` when the key succeeded.
 *
 * Unlike client-go, `shutDown` drops what is still waiting: a stopping controller finishes what
 * its workers hold and nothing more (the next leader resyncs every record anyway).
 */
export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Map<string, number>();
  private readonly addedAt = new Map<string, number>();
  private readonly waiting = new Map<string, { readyAt: number; timer: Timer }>();
  private readonly getters: Array<(key: string | undefined) => void> = [];
  private idleWaiters: Array<() => void> = [];
  private shuttingDown = false;

  public constructor(private readonly options: WorkQueueOptions) {}

  /** Queues `key` now (once, however often it is added before a worker takes it). */
  public add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.options.metrics?.added();
    this.dirty.add(key);
    if (!this.addedAt.has(key)) this.addedAt.set(key, this.options.clock.now());
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.handOut();
  }

  /** Queues `key` after `delayMs`; of several pending delays for a key, the earliest wins. */
  public addAfter(key: string, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    const readyAt = this.options.clock.now() + delayMs;
    const pending = this.waiting.get(key);
    if (pending && pending.readyAt <= readyAt) return;
    pending?.timer.cancel();
    const timer = this.options.clock.setTimer(delayMs, () => {
      this.waiting.delete(key);
      this.add(key);
    });
    this.waiting.set(key, { readyAt, timer });
  }

  /** Queues `key` after the rate limiter's delay (a retry). */
  public addRateLimited(key: string): void {
    if (this.shuttingDown) return;
    this.options.metrics?.retried();
    this.addAfter(key, this.options.rateLimiter.when(key));
  }

  /** Clears `key`'s failure count: its next retry starts from the base delay. */
  public forget(key: string): void {
    this.options.rateLimiter.forget(key);
  }

  /** How often `key` was retried since it was last forgotten. */
  public numRequeues(key: string): number {
    return this.options.rateLimiter.numRequeues(key);
  }

  /**
   * The next key to work on, once there is one; `undefined` once the queue is shut down. The
   * caller must call `done(key)` when it is finished with it.
   */
  public get(): Promise<string | undefined> {
    if (this.shuttingDown) return Promise.resolve(undefined);
    if (this.queue.length > 0) return Promise.resolve(this.take());
    return new Promise((resolve) => this.getters.push(resolve));
  }

  /** Ends the work on `key`; if it was added meanwhile, it is queued again. */
  public done(key: string): void {
    const startedAt = this.processing.get(key);
    if (startedAt === undefined) return;
    this.processing.delete(key);
    this.options.metrics?.workDuration((this.options.clock.now() - startedAt) / 1000);
    if (this.dirty.has(key) && !this.shuttingDown) {
      this.queue.push(key);
      this.handOut();
    }
    if (this.processing.size === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  /**
   * Stops the queue: adds are ignored, waiting keys and delayed adds are dropped, and every
   * pending and future `get` returns `undefined`. Keys already handed out stay until `done`.
   */
  public shutDown(): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    for (const { timer } of this.waiting.values()) timer.cancel();
    this.waiting.clear();
    this.queue.length = 0;
    this.dirty.clear();
    this.addedAt.clear();
    for (const g of this.getters.splice(0)) g(undefined);
  }

  /** Whether `shutDown` was called. */
  public get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Resolves when no key is being worked on. */
  public idle(): Promise<void> {
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Keys waiting for a worker (client-go's depth: added and not yet handed out). */
  public get depth(): number {
    return this.dirty.size;
  }

  /** Keys held by workers. */
  public get processingCount(): number {
    return this.processing.size;
  }

  /** Keys waiting for a delay to pass. */
  public get delayedCount(): number {
    return this.waiting.size;
  }

  /** Seconds the keys now held by workers have been held, summed (`unfinished_work_seconds`). */
  public unfinishedWorkSeconds(): number {
    const now = this.options.clock.now();
    let total = 0;
    for (const start of this.processing.values()) total += now - start;
    return total / 1000;
  }

  /** Seconds the longest-held key has been held (`longest_running_processor_seconds`). */
  public longestRunningProcessorSeconds(): number {
    const now = this.options.clock.now();
    let longest = 0;
    for (const start of this.processing.values()) longest = Math.max(longest, now - start);
    return longest / 1000;
  }

  private take(): string {
    const key = this.queue.shift()!;
    const now = this.options.clock.now();
    const added = this.addedAt.get(key);
    if (added !== undefined) this.options.metrics?.queueLatency((now - added) / 1000);
    this.addedAt.delete(key);
    this.dirty.delete(key);
    this.processing.set(key, now);
    return key;
  }

  private handOut(): void {
    while (this.getters.length > 0 && this.queue.length > 0) this.getters.shift()!(this.take());
  }
}
