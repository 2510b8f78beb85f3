/**
 * Readers for upstream objects given as untyped JSON (what the reconciler reads from the API
 * server). Missing or mistyped fields read as Go's zero values, as AI Runway's unstructured
 * accessors do.
 */

import { isJsonObject } from '../core/json-object';

export { isJsonObject };

/** A string field, or '' when absent or not a string. */
export function stringField(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** An integer field, or 0 when absent or not an integer (as Go's NestedInt64 "not found"). */
export function intField(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) ? value : 0;
}

/** One `metav1.Condition`-shaped entry of a status. */
export interface ConditionInfo {
  readonly status: string;
  readonly reason: string;
  readonly message: string;
}

/** Conditions by type; a later entry of the same type wins; entries without a type are skipped. */
export function conditionsByType(conditions: readonly unknown[]): Map<string, ConditionInfo> {
  const out = new Map<string, ConditionInfo>();
  for (const c of conditions) {
    if (!isJsonObject(c)) continue;
    const type = stringField(c.type);
    if (type === '') continue;
    out.set(type, { status: stringField(c.status), reason: stringField(c.reason), message: stringField(c.message) });
  }
  return out;
}
