/**
 * Pod tolerations as the API server checks them in Go (apimachinery's core validation, Kubernetes
 * 1.35, the version of the OpenAPI documents in ../shared/upstream/kubernetes); the schema only
 * says each field is a string.
 */
import { joinPath, Report } from '../core/field-path';
import { labelValueErrors, qualifiedNameErrors } from '../core/kubernetes-names';
import { quoted } from '../core/quoted-value';

type Json = any;

/** The taint effects a toleration may name (empty matches them all). */
export const TOLERATION_EFFECTS: readonly string[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
/**
 * The operators accepted by default. 1.35 also knows `Lt` and `Gt`, but only behind the alpha
 * feature gate TaintTolerationComparisonOperators, which is off unless a cluster turns it on.
 */
export const TOLERATION_OPERATORS: readonly string[] = ['Exists', 'Equal'];

/** Reports every toleration of the list at `at` the API server would refuse. */
export function checkTolerations(tolerations: Json, at: string, report: Report): void {
  if (!Array.isArray(tolerations)) return; // The schema reports a list of the wrong type.
  tolerations.forEach((t: Json, i: number) => {
    if (t && typeof t === 'object' && !Array.isArray(t)) checkToleration(t, joinPath(at, String(i), true), report);
  });
}

function checkToleration(t: Json, at: string, report: Report): void {
  const key = typeof t.key === 'string' ? t.key : '';
  const operator = typeof t.operator === 'string' ? t.operator : '';
  const value = typeof t.value === 'string' ? t.value : '';
  const effect = typeof t.effect === 'string' ? t.effect : '';
  if (key !== '') {
    for (const m of qualifiedNameErrors(key)) report(joinPath(at, 'key', false), `toleration key ${quoted(key)} is invalid: ${m}`);
  } else if (operator !== 'Exists') {
    // An empty key matches every taint, which only makes sense as "tolerate everything".
    report(joinPath(at, 'operator', false), `must be "Exists" when key is empty (that matches all keys and values), got ${quoted(operator || 'Equal')}`);
  }
  if (operator === '' || operator === 'Equal') {
    for (const m of labelValueErrors(value)) report(joinPath(at, 'value', false), `toleration value ${quoted(value)} is invalid: ${m}`);
  } else if (operator === 'Exists') {
    if (value !== '') report(joinPath(at, 'value', false), `must be empty when operator is "Exists", got ${quoted(value)}`);
  } else {
    report(joinPath(at, 'operator', false), `${quoted(operator)} is not supported: allowed are ${TOLERATION_OPERATORS.map((o) => JSON.stringify(o)).join(', ')} (empty means "Equal")`);
  }
  if (effect !== '' && !TOLERATION_EFFECTS.includes(effect)) {
    report(joinPath(at, 'effect', false), `${quoted(effect)} is not supported: allowed are ${TOLERATION_EFFECTS.map((e) => JSON.stringify(e)).join(', ')} or empty (all effects)`);
  }
  if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
    report(joinPath(at, 'effect', false), `must be "NoExecute" when tolerationSeconds is set, got ${quoted(effect)}`);
  }
}
