import type { Clock, Timer } from '../../../../src/controller/runtime/clock';

interface Pending {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
  cancelled: boolean;
}

/** A clock that moves only when told to; `advance` fires due timers in order, settling promises between them. */
export class FakeClock implements Clock {
  private t: number;
  private seq = 0;
  private timers: Pending[] = [];

  public constructor(start = Date.UTC(2026, 10, 24, 12, 0, 0)) {
    this.t = start;
  }

  public now(): number {
    return this.t;
  }

  public setTimer(ms: number, fn: () => void): Timer {
    const timer: Pending = { at: this.t + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => void (timer.cancelled = true) };
  }

  /** Timers not fired nor cancelled. */
  public get pending(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** Moves time forward by `ms`, firing every timer that falls due (including ones set meanwhile). */
  public async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    await settle();
    for (;;) {
      this.timers = this.timers.filter((t) => !t.cancelled);
      const next = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.timers.splice(this.timers.indexOf(next), 1);
      this.t = Math.max(this.t, next.at);
      next.fn();
      await settle();
    }
    this.t = target;
    await settle();
  }

  /** Advances in steps of `stepMs` until `condition` holds or `maxMs` passed; returns the time taken. */
  public async advanceUntil(condition: () => boolean, maxMs: number, stepMs = 100): Promise<number> {
    const start = this.t;
    while (!condition()) {
      if (this.t - start >= maxMs) throw new Error(`condition not reached within ${maxMs} ms`);
      await this.advance(stepMs);
    }
    return this.t - start;
  }
}

/** Lets every pending promise continuation run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}
