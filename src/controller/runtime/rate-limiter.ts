import type { Clock } from './clock';

/**
 * How long an item waits before it is retried (client-go's `workqueue.TypedRateLimiter`).
 */
export interface RateLimiter {
  /** The delay before `item` is processed again, counting this as one more failure. */
  when(item: string): number;
  /** Forgets `item`'s failures (it succeeded). */
  forget(item: string): void;
  /** How many times `item` has been rate-limited since it was last forgotten. */
  numRequeues(item: string): number;
}

/**
 * Per-item exponential backoff: `baseDelayMs * 2^failures`, capped at `maxDelayMs`.
 */
export class ItemExponentialFailureRateLimiter implements RateLimiter {
  private readonly failures = new Map<string, number>();

  public constructor(private readonly baseDelayMs: number, private readonly maxDelayMs: number) {}

  public when(item: string): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const backoff = this.baseDelayMs * Math.pow(2, exp);
    return Number.isFinite(backoff) ? Math.min(backoff, this.maxDelayMs) : this.maxDelayMs;
  }

  public forget(item: string): void {
    this.failures.delete(item);
  }

  public numRequeues(item: string): number {
    return this.failures.get(item) ?? 0;
  }
}

/**
 * An overall token bucket (`qps` tokens a second, at most `burst` saved up) shared by every item,
 * like client-go's `BucketRateLimiter`: a reservation is taken now and the delay is how long until
 * its token exists.
 */
export class BucketRateLimiter implements RateLimiter {
  private tokens: number;
  private last: number;

  public constructor(private readonly qps: number, private readonly burst: number, private readonly clock: Clock) {
    this.tokens = burst;
    this.last = clock.now();
  }

  public when(_item: string): number {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  public forget(_item: string): void {}

  public numRequeues(_item: string): number {
    return 0;
  }
}

/** The longest delay of several limiters (client-go's `MaxOfRateLimiter`). */
export class MaxOfRateLimiter implements RateLimiter {
  private readonly limiters: readonly RateLimiter[];

  public constructor(...limiters: RateLimiter[]) {
    this.limiters = limiters;
  }

  public when(item: string): number {
    return Math.max(...this.limiters.map((l) => l.when(item)));
  }

  public forget(item: string): void {
    for (const l of this.limiters) l.forget(item);
  }

  public numRequeues(item: string): number {
    return Math.max(...this.limiters.map((l) => l.numRequeues(item)));
  }
}

/**
 * client-go's `DefaultControllerRateLimiter`, which controller-runtime uses: per-item exponential
 * backoff from 5 ms to 1000 s, and 10 retries a second overall with a burst of 100.
 */
export function defaultControllerRateLimiter(clock: Clock): RateLimiter {
  return new MaxOfRateLimiter(new ItemExponentialFailureRateLimiter(5, 1000 * 1000), new BucketRateLimiter(10, 100, clock));
}
