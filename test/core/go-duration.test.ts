import { formatGoDuration, parseGoDuration } from '../../src/core/go-duration';

describe('parseGoDuration', () => {
  test.each([
    ['90s', 90_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['.5s', 500],
    ['1s500ms', 1500],
    ['250us', 0.25],
    ['0', 0],
    ['-2m', -120_000],
    ['+2m', 120_000],
  ])('reads %j as Go does', (value, ms) => {
    expect(parseGoDuration(value)).toBeCloseTo(ms);
  });

  test.each(['', '5', 'm', '5 m', '5min', '1d', '-', '1h-30m'])('refuses %j, as Go does', (value) => {
    expect(parseGoDuration(value)).toBeUndefined();
  });
});

describe('formatGoDuration', () => {
  test.each([
    [0, '0s'],
    [1, '1ms'],
    [90_000, '1m30s'],
    [300_000, '5m'],
    [3_600_000, '1h'],
    [5_401_500, '1h30m1s500ms'],
  ])('writes %d ms as %j, which Go reads back to the same length', (ms, text) => {
    expect(formatGoDuration(ms)).toBe(text);
    expect(parseGoDuration(text)).toBe(ms);
  });

  test('fails when the length is negative or not whole milliseconds', () => {
    expect(() => formatGoDuration(-1)).toThrow('a FlexInfer duration is a whole, non-negative number of milliseconds, got -1');
    expect(() => formatGoDuration(0.5)).toThrow(/got 0\.5/);
  });
});
