import { FakeClock, settle } from './support/fake-clock';
import { ItemExponentialFailureRateLimiter } from '../../../src/controller/runtime/rate-limiter';
import { WorkQueue, WorkQueueMetrics } from '../../../src/controller/runtime/work-queue';

function queue(clock = new FakeClock()) {
  const recorded = { added: 0, retried: 0, latency: [] as number[], work: [] as number[] };
  const metrics: WorkQueueMetrics = {
    added: () => recorded.added++,
    retried: () => recorded.retried++,
    queueLatency: (s) => recorded.latency.push(s),
    workDuration: (s) => recorded.work.push(s),
  };
  const q = new WorkQueue({ clock, rateLimiter: new ItemExponentialFailureRateLimiter(5, 1_000_000), metrics });
  return { q, clock, recorded };
}

describe('WorkQueue', () => {
  test('a key added twice before a worker takes it is processed once', async () => {
    const { q, recorded } = queue();
    q.add('ns/a');
    q.add('ns/a');
    q.add('ns/b');
    expect(q.depth).toBe(2);
    expect(recorded.added).toBe(2);
    expect(await q.get()).toBe('ns/a');
    expect(await q.get()).toBe('ns/b');
    let third: string | undefined = 'none';
    void q.get().then((k) => (third = k));
    await settle();
    expect(third).toBe('none');
  });

  test('a key held by a worker is never handed to another; added meanwhile, it comes back after done', async () => {
    const { q } = queue();
    q.add('ns/a');
    const first = await q.get();
    q.add('ns/a');
    q.add('ns/a');
    let second: string | undefined;
    void q.get().then((k) => (second = k));
    await settle();
    expect(second).toBeUndefined();
    expect(q.depth).toBe(1);
    q.done(first!);
    await settle();
    expect(second).toBe('ns/a');
  });

  test('two workers never hold the same key, whatever the add order', async () => {
    const { q } = queue();
    const holding = new Set<string>();
    let overlaps = 0;
    let processed = 0;
    const worker = async () => {
      for (;;) {
        const k = await q.get();
        if (k === undefined) return;
        if (holding.has(k)) overlaps++;
        holding.add(k);
        await settle();
        if (processed++ < 50) q.add(k);
        holding.delete(k);
        q.done(k);
      }
    };
    const workers = [worker(), worker(), worker()];
    for (const k of ['a', 'b', 'a', 'c', 'a', 'b']) q.add(k);
    while (processed < 50) await settle();
    q.shutDown();
    await Promise.all(workers);
    expect(overlaps).toBe(0);
  });

  test('addAfter queues after the delay; of two delays the earliest wins', async () => {
    const { q, clock } = queue();
    q.addAfter('ns/a', 1000);
    q.addAfter('ns/a', 300);
    q.addAfter('ns/a', 2000);
    expect(q.delayedCount).toBe(1);
    await clock.advance(299);
    expect(q.depth).toBe(0);
    await clock.advance(1);
    expect(q.depth).toBe(1);
    await clock.advance(5000);
    expect(q.depth).toBe(1);
  });

  test('addRateLimited backs off exponentially; forget resets the backoff', async () => {
    const { q, clock, recorded } = queue();
    q.addRateLimited('k');
    expect(q.depth).toBe(0);
    await clock.advance(5);
    expect(q.depth).toBe(1);
    expect(await q.get()).toBe('k');
    q.addRateLimited('k');
    q.done('k');
    await clock.advance(9);
    expect(q.depth).toBe(0);
    await clock.advance(1);
    expect(q.depth).toBe(1);
    expect(q.numRequeues('k')).toBe(2);
    expect(recorded.retried).toBe(2);
    q.forget('k');
    expect(q.numRequeues('k')).toBe(0);
  });

  test('reports queue latency, work duration and in-flight time', async () => {
    const { q, clock, recorded } = queue();
    q.add('a');
    await clock.advance(250);
    const k = await q.get();
    expect(recorded.latency).toEqual([0.25]);
    await clock.advance(1500);
    expect(q.unfinishedWorkSeconds()).toBe(1.5);
    expect(q.longestRunningProcessorSeconds()).toBe(1.5);
    q.done(k!);
    expect(recorded.work).toEqual([1.5]);
    expect(q.unfinishedWorkSeconds()).toBe(0);
  });

  test('shutDown wakes waiting workers with undefined and drops what waits; idle resolves when held keys are done', async () => {
    const { q, clock } = queue();
    q.add('held');
    const held = await q.get();
    q.add('waiting');
    q.addAfter('delayed', 100);
    let got: string | undefined = 'none';
    const w = q.get();
    void w.then((k) => (got = k));
    // 'waiting' is handed to the pending get before shutdown.
    await settle();
    expect(got).toBe('waiting');
    q.add('dropped');
    q.shutDown();
    expect(await q.get()).toBeUndefined();
    expect(q.depth).toBe(0);
    await clock.advance(200);
    expect(q.depth).toBe(0);
    let idle = false;
    void q.idle().then(() => (idle = true));
    q.done(held!);
    await settle();
    expect(idle).toBe(false);
    q.done('waiting');
    await settle();
    expect(idle).toBe(true);
    q.add('after');
    expect(q.depth).toBe(0);
  });
});
