/**
 * Time as the controller's state machines see it. Everything that waits (backoff, rate limits,
 * lease renewal, resync) goes through a `Clock`, so tests drive time by hand instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds, unless the returned timer is cancelled first. */
  setTimer(ms: number, fn: () => void): Timer;
}

/** A pending `Clock.setTimer` call. */
export interface Timer {
  /** Stops the timer; harmless after it fired. */
  cancel(): void;
}

/** The real clock (`Date.now`, `setTimeout`). */
export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  setTimer: (ms, fn) => {
    const handle = setTimeout(fn, Math.max(0, ms));
    return { cancel: () => clearTimeout(handle) };
  },
};

/**
 * Resolves after `ms` milliseconds of `clock` time, or as soon as `signal` aborts (without
 * rejecting: the caller checks the signal).
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = () => {
      timer.cancel();
      resolve();
    };
    const timer = clock.setTimer(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `ms` scaled by a random factor in [1, 1 + maxFactor) (client-go's `wait.Jitter`). */
export function jitter(ms: number, maxFactor: number, random: () => number = Math.random): number {
  return ms * (1 + random() * maxFactor);
}
