/**
 * Go duration strings (`90s`, `5m`, `1h30m`), as the controllers of our targets parse them:
 * FlexInfer's CRD declares `swapCooldown`, `idleTimeout`, `coldStartTimeout` and
 * `reconfigureCooldown` as plain strings, and Kthena's autoscaler takes its periods and windows
 * the same way. The CRDs have no pattern for them, so a typo would only show up as a controller
 * error; these helpers let the synth reject it instead, and write cdk8s `Duration`s in that form.
 */
import type { Duration } from 'cdk8s';

const UNIT_MILLISECONDS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** One `<number><unit>` component; Go's grammar allows `1.5h`, `.5s` and `1.s`. */
const COMPONENT = /^(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;

/**
 * The length of a Go duration string in milliseconds (fractions for sub-millisecond units), or
 * undefined when Go's `time.ParseDuration` would refuse it. A sign is accepted, as in Go; `"0"`
 * is the only value without a unit.
 */
export function parseGoDuration(value: string): number | undefined {
  let rest = value;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let total = 0;
  while (rest !== '') {
    const m = COMPONENT.exec(rest);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MILLISECONDS[m[2]];
    rest = rest.slice(m[0].length);
  }
  return sign * total;
}

/**
 * A whole number of milliseconds as the shortest Go duration string: `1h30m`, `5m`, `1m30s`,
 * `1s500ms`, `0s`. Go parses every form this returns to the same length.
 */
export function formatGoDuration(milliseconds: number): string {
  if (!Number.isInteger(milliseconds) || milliseconds < 0) {
    throw new Error(`a FlexInfer duration is a whole, non-negative number of milliseconds, got ${milliseconds}`);
  }
  if (milliseconds === 0) return '0s';
  let rest = milliseconds;
  let out = '';
  for (const [unit, size] of [['h', 3_600_000], ['m', 60_000], ['s', 1000], ['ms', 1]] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) out += `${n}${unit}`;
    rest -= n * size;
  }
  return out;
}

/** A cdk8s duration as the shortest Go duration string, rounded to whole milliseconds. */
export function goDurationOf(duration: Duration): string {
  return formatGoDuration(Math.round(duration.toMilliseconds({ integral: false })));
}
