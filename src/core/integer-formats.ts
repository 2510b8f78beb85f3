/**
 * The integer `format`s of Kubernetes structural schemas and the ranges they stand for. A module
 * of its own because validators compiled ahead of time (generated/) require it at run time for
 * the format checks, as Ajv's standalone code requires its formats.
 */
import type { FormatDefinition } from 'ajv';

/** Inclusive bounds of an integer format. */
export interface IntegerRange {
  readonly min: number;
  readonly max: number;
  /** The bounds as written in messages (exact, where the int64 doubles are not). */
  readonly minText: string;
  readonly maxText: string;
}

/**
 * The range of each integer `format` of a structural schema: that of the Go type the field
 * decodes into (AI Runway's Go types cannot hold `replicas: 3000000000` in an int32).
 * Integrality itself is the `type: integer` check. int64 bounds are compared as doubles, so only
 * values whose double lies beyond ±2^63 are caught: 2^63 itself is where `9223372036854775807`
 * lands once parsed, and passes.
 */
export const INTEGER_FORMAT_RANGES: Readonly<Record<string, IntegerRange>> = {
  int32: { min: -2147483648, max: 2147483647, minText: '-2147483648', maxText: '2147483647' },
  int64: { min: -(2 ** 63), max: 2 ** 63, minText: '-9223372036854775808', maxText: '9223372036854775807' },
};

export function integerRangeOf(format: unknown): IntegerRange | undefined {
  return typeof format === 'string' && Object.prototype.hasOwnProperty.call(INTEGER_FORMAT_RANGES, format)
    ? INTEGER_FORMAT_RANGES[format]
    : undefined;
}

/** The formats as Ajv checks them: a number within the range. */
export const INTEGER_FORMATS: Readonly<Record<string, FormatDefinition<number>>> = Object.fromEntries(
  Object.entries(INTEGER_FORMAT_RANGES).map(([format, { min, max }]) => [format, { type: 'number', validate: (x: number) => x >= min && x <= max }]),
);
