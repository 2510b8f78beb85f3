/**
 * `metav1.Condition` bookkeeping with AI Runway's semantics (core spec §1.6): the standard
 * "set status condition" helper of apimachinery (`meta.SetStatusCondition`).
 */
import { isJsonObject } from '../../core/json-object';

/** Condition types this controller writes (every other type in a stored status is someone else's). */
export const CONDITION_VALIDATED = 'Validated';
export const CONDITION_ENGINE_SELECTED = 'EngineSelected';
export const CONDITION_PROVIDER_SELECTED = 'ProviderSelected';
export const CONDITION_READY = 'Ready';
export const CONDITION_GATEWAY_READY = 'GatewayReady';
/**
 * A provider controller's condition in AI Runway; ours writes it only as `False/IncompatibleUpstream`
 * (the objects are applied by someone else, so their creation is not ours to report).
 */
export const CONDITION_RESOURCE_CREATED = 'ResourceCreated';

/** `metav1.Condition.message` is at most this long (characters). */
export const MAX_CONDITION_MESSAGE_LENGTH = 32768;

/** `metav1.Condition.reason` pattern and length (1-1024). */
const REASON_PATTERN = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
const MAX_REASON_LENGTH = 1024;

const TRUNCATED = '... (truncated)';

/** A condition as this controller decides it: what the helper takes (no times yet). */
export interface DesiredCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
  readonly message: string;
}

/** A condition as stored: `metav1.Condition` in JSON. */
export interface StoredCondition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
  readonly lastTransitionTime: string;
  readonly observedGeneration?: number;
}

/** `now` as `metav1.Time` serialises it: RFC 3339 in UTC, whole seconds. */
export function conditionTime(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, 'Z');
}

/** True when `reason` is a valid `metav1.Condition.reason`. */
export function isValidReason(reason: unknown): reason is string {
  return typeof reason === 'string' && reason.length <= MAX_REASON_LENGTH && REASON_PATTERN.test(reason);
}

/**
 * `text` cut to at most `max` UTF-16 code units (so at most `max` characters, which is what the
 * API server counts), ending in `... (truncated)` when cut; never splits a surrogate pair.
 */
export function truncateText(text: string, max: number = MAX_CONDITION_MESSAGE_LENGTH): string {
  if (text.length <= max) return text;
  let end = max - TRUNCATED.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + TRUNCATED;
}

/**
 * The stored conditions, readable: entries that are objects with a non-empty string `type`,
 * the first of each type (the list is a map keyed by type; the API server refuses duplicates).
 */
export function storedConditions(status: unknown): Record<string, unknown>[] {
  const list = isJsonObject(status) && Array.isArray(status.conditions) ? status.conditions : [];
  const seen = new Set<string>();
  const out: Record<string, unknown>[] = [];
  for (const c of list) {
    if (!isJsonObject(c) || typeof c.type !== 'string' || c.type === '' || seen.has(c.type)) continue;
    seen.add(c.type);
    out.push(c);
  }
  return out;
}

/**
 * `meta.SetStatusCondition`: finds the condition by type; when absent appends it (so the order
 * is the order of first setting) with `lastTransitionTime` = now; when present updates reason,
 * message and observedGeneration, and moves `lastTransitionTime` only when `status` flips.
 * Returns a new list; `conditions` is not modified.
 */
export function setStatusCondition(
  conditions: readonly Record<string, unknown>[],
  desired: DesiredCondition,
  generation: number | undefined,
  now: Date,
): Record<string, unknown>[] {
  const message = truncateText(desired.message);
  const index = conditions.findIndex((c) => c.type === desired.type);
  const generationField = generation !== undefined ? { observedGeneration: generation } : {};
  if (index < 0) {
    return [
      ...conditions,
      { type: desired.type, status: desired.status, ...generationField, lastTransitionTime: conditionTime(now), reason: desired.reason, message },
    ];
  }
  const existing = conditions[index];
  const flipped = existing.status !== desired.status;
  const keptTime = typeof existing.lastTransitionTime === 'string' && existing.lastTransitionTime !== '' ? existing.lastTransitionTime : undefined;
  const { observedGeneration: _previous, ...rest } = existing;
  const updated: Record<string, unknown> = {
    ...rest,
    status: desired.status,
    ...generationField,
    lastTransitionTime: flipped || keptTime === undefined ? conditionTime(now) : keptTime,
    reason: desired.reason,
    message,
  };
  return conditions.map((c, i) => (i === index ? updated : c));
}

/** `meta.RemoveStatusCondition`: the list without the condition of `type`. */
export function removeStatusCondition(conditions: readonly Record<string, unknown>[], type: string): Record<string, unknown>[] {
  return conditions.filter((c) => c.type !== type);
}
