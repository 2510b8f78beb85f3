/**
 * A string quoted for a message, cut short when long: a hostile input can carry megabytes in one
 * value, and the message only has to show which value it is.
 */

/** Longest part of a value a message shows. */
export const MAX_QUOTED_LENGTH = 80;

/** `"abc"`, or `"abc…" (52428800 characters)` for a long one. */
export function quoted(value: string, max: number = MAX_QUOTED_LENGTH): string {
  if (value.length <= max) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, max))}… (${value.length} characters)`;
}
