import { FakeClock } from './support/fake-clock';
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
} from '../../../src/controller/runtime/rate-limiter';

describe('ItemExponentialFailureRateLimiter', () => {
  test('doubles from the base delay per failure of an item, up to the maximum', () => {
    const l = new ItemExponentialFailureRateLimiter(5, 1_000_000);
    const delays = Array.from({ length: 20 }, () => l.when('a'));
    expect(delays.slice(0, 5)).toEqual([5, 10, 20, 40, 80]);
    expect(delays[17]).toBe(655_360);
    expect(delays[18]).toBe(1_000_000);
    expect(delays[19]).toBe(1_000_000);
    expect(l.numRequeues('a')).toBe(20);
  });

  test('items back off independently; forget starts an item over', () => {
    const l = new ItemExponentialFailureRateLimiter(5, 1_000_000);
    l.when('a');
    l.when('a');
    expect(l.when('b')).toBe(5);
    l.forget('a');
    expect(l.numRequeues('a')).toBe(0);
    expect(l.when('a')).toBe(5);
  });

  test('never overflows: thousands of failures stay at the maximum', () => {
    const l = new ItemExponentialFailureRateLimiter(5, 1_000_000);
    for (let i = 0; i < 5000; i++) l.when('a');
    expect(l.when('a')).toBe(1_000_000);
  });
});

describe('BucketRateLimiter', () => {
  test('a burst passes at once, then tokens come at qps', async () => {
    const clock = new FakeClock();
    const l = new BucketRateLimiter(10, 100, clock);
    for (let i = 0; i < 100; i++) expect(l.when(`k${i}`)).toBe(0);
    expect(l.when('x')).toBeCloseTo(100);
    expect(l.when('y')).toBeCloseTo(200);
    await clock.advance(1000);
    // 10 tokens came back; two were already reserved.
    expect(l.when('z')).toBe(0);
  });
});

describe('defaultControllerRateLimiter', () => {
  test("is client-go's: 5 ms per-item exponential backoff capped at 1000 s, and 10 qps overall with a burst of 100", () => {
    const clock = new FakeClock();
    const l = defaultControllerRateLimiter(clock);
    expect([l.when('a'), l.when('a'), l.when('a')]).toEqual([5, 10, 20]);
    for (let i = 0; i < 40; i++) l.when('a');
    expect(l.when('a')).toBe(1_000_000);
    // 44 tokens used by 'a'; 56 more pass at the item's own 5 ms, then the bucket dominates.
    for (let i = 0; i < 56; i++) expect(l.when(`item-${i}`)).toBe(5);
    expect(l.when('late')).toBeCloseTo(100);
  });

  test('MaxOfRateLimiter forgets in every limiter', () => {
    const a = new ItemExponentialFailureRateLimiter(1, 100);
    const b = new ItemExponentialFailureRateLimiter(2, 100);
    const l = new MaxOfRateLimiter(a, b);
    expect(l.when('k')).toBe(2);
    expect(l.when('k')).toBe(4);
    l.forget('k');
    expect(l.numRequeues('k')).toBe(0);
    expect(l.when('k')).toBe(2);
  });
});
