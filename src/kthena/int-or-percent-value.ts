/**
 * How Kthena's ModelServing webhook reads an IntOrString rollout field (`maxUnavailable`,
 * `partition`): a whole number of at least 0, or a `<n>%` string of 0 to 100. One reading for
 * `KthenaIntOrPercent` and for the Kthena provider's overrides, which arrive as plain JSON.
 * Internal: not exported from the package.
 */
import { FieldError, invalid } from '../core/field-error';

/** A value the webhook accepts: a count, or a percentage of some total. */
export interface IntOrPercentValue {
  readonly value: number;
  readonly percent: boolean;
}

const NOT_INT_OR_PERCENT = 'must be an integer or a percentage such as "10%"';

/** The value as the webhook reads it, or why it refuses it. */
export function readIntOrPercent(value: unknown): IntOrPercentValue | { readonly problem: string } {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return { problem: NOT_INT_OR_PERCENT };
    return value < 0 ? { problem: 'must be a non-negative integer' } : { value, percent: false };
  }
  if (typeof value === 'string') {
    const match = /^([0-9]+)%$/.exec(value);
    if (!match) return { problem: NOT_INT_OR_PERCENT };
    const percent = Number(match[1]);
    return percent > 100 ? { problem: 'must be a valid percent value (0-100)' } : { value: percent, percent: true };
  }
  return { problem: NOT_INT_OR_PERCENT };
}

/** `readIntOrPercent`'s refusal as a field error at `path`. */
export function intOrPercentErrors(path: string, value: unknown): FieldError[] {
  const read = readIntOrPercent(value);
  return 'problem' in read ? [invalid(path, value, read.problem)] : [];
}

/** The absolute value against `total`, a percentage rounded down (how Kthena scales `maxUnavailable`). */
export function scaledDown(read: IntOrPercentValue, total: number): number {
  return read.percent ? Math.floor((read.value * total) / 100) : read.value;
}
