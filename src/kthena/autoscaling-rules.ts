/**
 * What Kthena refuses in an AutoscalingPolicy (the CRD's schema and CEL rules, and its
 * autoscaler's validating webhook), checked on the construct's input and reported at the field
 * of the synthesized object. Metric sources check their own fields (`KthenaMetricSource`).
 */
import { boundedDurationErrors, INT32_MAX, integerErrors, MAX_KTHENA_REPLICAS, sameNamespaceErrors } from './checks';
import type { KthenaMetricSource } from './metric-source';
import { KthenaModelServing } from './model-serving';
import type { IKthenaModelServing } from './model-serving-props';
import type { KthenaScalingBehavior, KthenaStableScalingPolicy } from './scaling-behavior';
import type {
  KthenaDisaggregatedTargetOptions,
  KthenaHeterogeneousTargetOptions,
  KthenaHomogeneousTargetOptions,
  KthenaRoleScaling,
  KthenaScalingMetric,
  KthenaScalingTarget,
} from './scaling-target';
import { FieldError, fieldPath, invalid, required } from '../core/field-error';

/** Periods, windows and holds of `behavior`: the webhook's upper bound. */
const MAX_BEHAVIOR_MINUTES = 30;
/** `disaggregatedTarget.roles`: one or two roles. */
const MAX_DISAGGREGATED_ROLES = 2;

/** What the rules read. */
export interface AutoscalingInput {
  readonly target: KthenaScalingTarget;
  readonly metrics: readonly KthenaScalingMetric[];
  readonly tolerancePercent?: number;
  readonly behavior?: KthenaScalingBehavior;
  /** The policy's namespace, where Kthena looks up the target ModelServings. */
  readonly namespace?: string;
}

/**
 * Every rule of the AutoscalingPolicy the construct's input can break:
 *
 * - `tolerancePercent` 0 to 100; metric names non-empty and unique, target values above 0 and
 *   finite (top-level and per role);
 * - homogeneous and heterogeneous targets need at least one top-level metric; replica bounds in
 *   the CRD's ranges with min ≤ max; `metricSources` keys are metric names; a target names its
 *   ModelServing; heterogeneous: at least one member, costs and the expansion rate at least 0;
 * - disaggregated: one or two roles, unique and (for a `KthenaModelServing`) existing; per role
 *   min ≤ max, metrics (own or top-level) and `metricSources` unless fixed (min = max > 0), keys
 *   matching the role's effective metrics; the ratio constraint needs two roles, different and
 *   listed, finite ratios with 0 ≤ min ≤ max and max > 0, both roles able to reach zero or
 *   neither, and bounds within which the ratio is achievable;
 * - behavior: instances ≥ 0, percents 0 to 1000, panic threshold 110 to 1000, periods, windows
 *   and holds within 30 minutes.
 */
export function autoscalingErrors(input: AutoscalingInput): FieldError[] {
  const errors: FieldError[] = [
    ...integerErrors('spec.tolerancePercent', input.tolerancePercent, 0, 100, 'percent of deviation tolerated before scaling'),
    ...metricListErrors('spec.metrics', input.metrics),
    ...behaviorErrors(input.behavior),
  ];
  const t = input.target;
  if (t._kind !== 'disaggregatedTarget' && input.metrics.length === 0) {
    errors.push(required('spec.metrics', `a policy with a ${t._kind} needs at least one metric (metrics, addMetric)`));
  }
  const metricNames = input.metrics.map((m) => m.name);
  if (t._homogeneous) errors.push(...homogeneousErrors(t._homogeneous, metricNames, input.namespace));
  if (t._heterogeneous) errors.push(...heterogeneousErrors(t._heterogeneous, metricNames, input.namespace));
  if (t._disaggregated) errors.push(...disaggregatedErrors(t._disaggregated, metricNames, input.namespace));
  return errors;
}

function metricListErrors(path: string, metrics: readonly KthenaScalingMetric[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  metrics.forEach((m, i) => {
    const at = fieldPath(path, i);
    if (m.name === '') errors.push(invalid(`${at}.name`, m.name, 'must not be empty'));
    else if (seen.has(m.name)) errors.push(invalid(`${at}.name`, m.name, 'duplicates an earlier metric: metric names are unique'));
    seen.add(m.name);
    if (!(m.targetValue > 0) || !Number.isFinite(m.targetValue)) {
      errors.push(invalid(`${at}.targetValue`, Number.isFinite(m.targetValue) ? m.targetValue : String(m.targetValue), 'must be a finite number above 0'));
    }
  });
  return errors;
}

function boundsErrors(path: string, min: number, max: number): FieldError[] {
  const errors = [
    ...integerErrors(`${path}.minReplicas`, min, 0, MAX_KTHENA_REPLICAS),
    ...integerErrors(`${path}.maxReplicas`, max, 1, MAX_KTHENA_REPLICAS),
  ];
  if (errors.length === 0 && min > max) errors.push(invalid(`${path}.minReplicas`, min, `must be at most maxReplicas (${max})`));
  return errors;
}

function sourceErrors(
  path: string,
  sources: { [metric: string]: KthenaMetricSource } | undefined,
  allowed: readonly string[],
  whose: string,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, source] of Object.entries(sources ?? {})) {
    const at = `${path}.${key}`;
    if (!allowed.includes(key)) {
      const names = allowed.map((n) => JSON.stringify(n)).join(', ') || 'none';
      errors.push(invalid(at, key, `names no metric of ${whose} (metrics: ${names}); metricSources keys are metric names`));
    }
    errors.push(...source._render(at).errors);
  }
  return errors;
}

/** A target ModelServing has a name and, when built here, the policy's namespace. */
function servingRefErrors(path: string, serving: IKthenaModelServing, policyNamespace: string | undefined): FieldError[] {
  if (serving.name === '') return [invalid(`${path}.name`, serving.name, 'the target ModelServing needs a name')];
  if (!KthenaModelServing.isKthenaModelServing(serving)) return [];
  return sameNamespaceErrors(`${path}.name`, serving.name, serving.apiObject.metadata.namespace, 'AutoscalingPolicy', policyNamespace);
}

function homogeneousErrors(o: KthenaHomogeneousTargetOptions, metricNames: readonly string[], namespace: string | undefined): FieldError[] {
  const path = 'spec.homogeneousTarget';
  return [
    ...boundsErrors(path, o.minReplicas, o.maxReplicas),
    ...servingRefErrors(`${path}.target.targetRef`, o.serving, namespace),
    ...sourceErrors(`${path}.target.metricSources`, o.metricSources, metricNames, 'the policy'),
  ];
}

function heterogeneousErrors(o: KthenaHeterogeneousTargetOptions, metricNames: readonly string[], namespace: string | undefined): FieldError[] {
  const path = 'spec.heterogeneousTarget';
  const errors: FieldError[] = [
    ...integerErrors(`${path}.costExpansionRatePercent`, o.costExpansionRatePercent, 0, INT32_MAX),
  ];
  if (o.members.length === 0) errors.push(required(`${path}.params`, 'a heterogeneous target needs at least one ModelServing'));
  o.members.forEach((m, i) => {
    const at = fieldPath(`${path}.params`, i);
    errors.push(...boundsErrors(at, m.minReplicas, m.maxReplicas));
    errors.push(...integerErrors(`${at}.cost`, m.cost, 0, INT32_MAX, 'a relative cost'));
    errors.push(...servingRefErrors(`${at}.target.targetRef`, m.serving, namespace));
    errors.push(...sourceErrors(`${at}.target.metricSources`, m.metricSources, metricNames, 'the policy'));
  });
  return errors;
}

/** Fixed roles keep their size; the autoscaler reads no metrics for them. */
function isFixed(role: KthenaRoleScaling): boolean {
  return role.maxReplicas > 0 && role.minReplicas === role.maxReplicas;
}

function disaggregatedErrors(o: KthenaDisaggregatedTargetOptions, topMetricNames: readonly string[], namespace: string | undefined): FieldError[] {
  const path = 'spec.disaggregatedTarget';
  const errors: FieldError[] = [...servingRefErrors(`${path}.targetRef`, o.serving, namespace)];
  if (o.roles.length === 0) errors.push(required(`${path}.roles`, 'a disaggregated target needs one or two roles'));
  if (o.roles.length > MAX_DISAGGREGATED_ROLES) {
    errors.push(invalid(`${path}.roles`, `${o.roles.length} roles`, `Kthena scales at most ${MAX_DISAGGREGATED_ROLES} roles of a ModelServing together`));
  }
  const serving = KthenaModelServing.isKthenaModelServing(o.serving) ? o.serving : undefined;
  const seen = new Set<string>();
  for (const role of o.roles) {
    const at = `${path}.roles.${role.role}`;
    if (role.role === '') {
      errors.push(invalid(`${path}.roles`, role.role, 'a role name must not be empty'));
      continue;
    }
    if (seen.has(role.role)) errors.push(invalid(`${path}.roles`, role.role, 'is listed twice'));
    seen.add(role.role);
    if (serving && !serving.hasRole(role.role)) {
      const known = serving.roleNames.map((r) => JSON.stringify(r)).join(', ') || 'none';
      errors.push(invalid(`${path}.roles`, role.role, `names no role of ModelServing ${serving.name} (roles: ${known})`));
    }
    errors.push(...boundsErrors(at, role.minReplicas, role.maxReplicas));
    const own = role.metrics ?? [];
    errors.push(...metricListErrors(`${at}.metrics`, own));
    if (isFixed(role)) continue;
    const effective = own.length > 0 ? own.map((m) => m.name) : topMetricNames;
    if (effective.length === 0) {
      errors.push(required(`${at}.metrics`, `role ${role.role} scales (minReplicas ${role.minReplicas} < maxReplicas ${role.maxReplicas}) but has no metrics, and the policy has none`));
    } else if (Object.keys(role.metricSources ?? {}).length === 0) {
      errors.push(required(`${at}.metricSources`, `role ${role.role} scales, so it needs metricSources for its metrics (${effective.join(', ')})`));
    }
    errors.push(...sourceErrors(`${at}.metricSources`, role.metricSources, effective, `role ${role.role}`));
  }
  if (o.ratioConstraint) errors.push(...ratioErrors(o));
  return errors;
}

function ratioErrors(o: KthenaDisaggregatedTargetOptions): FieldError[] {
  const c = o.ratioConstraint!;
  const path = 'spec.disaggregatedTarget.ratioConstraint';
  const errors: FieldError[] = [];
  if (o.roles.length < 2) errors.push(invalid('spec.disaggregatedTarget.roles', `${o.roles.length} roles`, 'a ratioConstraint needs two roles'));
  if (c.numeratorRole === c.denominatorRole) {
    errors.push(invalid(`${path}.denominatorRole`, c.denominatorRole, 'must differ from numeratorRole'));
  }
  const numerator = o.roles.find((r) => r.role === c.numeratorRole);
  const denominator = o.roles.find((r) => r.role === c.denominatorRole);
  if (!numerator) errors.push(invalid(`${path}.numeratorRole`, c.numeratorRole, 'must be one of the target\'s roles'));
  if (!denominator) errors.push(invalid(`${path}.denominatorRole`, c.denominatorRole, 'must be one of the target\'s roles'));
  if (!Number.isFinite(c.minRatio) || !Number.isFinite(c.maxRatio)) {
    errors.push(invalid(path, `${c.minRatio}..${c.maxRatio}`, 'minRatio and maxRatio must be finite'));
    return errors;
  }
  if (c.minRatio > c.maxRatio) errors.push(invalid(`${path}.minRatio`, c.minRatio, `must be at most maxRatio (${c.maxRatio})`));
  if (c.minRatio < 0) errors.push(invalid(`${path}.minRatio`, c.minRatio, 'must be at least 0'));
  if (c.maxRatio <= 0) errors.push(invalid(`${path}.maxRatio`, c.maxRatio, 'must be above 0'));
  if (!numerator || !denominator || c.minRatio < 0 || c.maxRatio <= 0) return errors;
  if ((numerator.minReplicas === 0) !== (denominator.minReplicas === 0)) {
    errors.push(invalid(path, `minReplicas ${numerator.minReplicas} and ${denominator.minReplicas}`,
      `roles ${c.numeratorRole} and ${c.denominatorRole} must both be able to scale to zero, or neither`));
  }
  // The ratio must be reachable at the bounds: the fewest numerator over the most denominator
  // instances may not already exceed maxRatio, nor the most over the fewest fall below minRatio.
  if (denominator.maxReplicas > 0 && numerator.minReplicas / denominator.maxReplicas > c.maxRatio) {
    errors.push(invalid(path, `${numerator.minReplicas}/${denominator.maxReplicas}`,
      `is not achievable: even ${numerator.minReplicas} ${c.numeratorRole} over ${denominator.maxReplicas} ${c.denominatorRole} exceeds maxRatio ${c.maxRatio}`));
  }
  if (denominator.minReplicas > 0 && numerator.maxReplicas / denominator.minReplicas < c.minRatio) {
    errors.push(invalid(path, `${numerator.maxReplicas}/${denominator.minReplicas}`,
      `is not achievable: even ${numerator.maxReplicas} ${c.numeratorRole} over ${denominator.minReplicas} ${c.denominatorRole} is below minRatio ${c.minRatio}`));
  }
  return errors;
}

function stableErrors(path: string, policy: KthenaStableScalingPolicy | undefined): FieldError[] {
  if (!policy) return [];
  return [
    ...integerErrors(`${path}.instances`, policy.instances, 0, INT32_MAX, 'instances per period'),
    ...integerErrors(`${path}.percent`, policy.percent, 0, 1000, 'percent of the current instances per period'),
    ...boundedDurationErrors(`${path}.period`, policy.period, MAX_BEHAVIOR_MINUTES),
    ...boundedDurationErrors(`${path}.stabilizationWindow`, policy.stabilizationWindow, MAX_BEHAVIOR_MINUTES),
  ];
}

function behaviorErrors(behavior: KthenaScalingBehavior | undefined): FieldError[] {
  if (!behavior) return [];
  const panic = behavior.scaleUp?.panicPolicy;
  const panicPath = 'spec.behavior.scaleUp.panicPolicy';
  return [
    ...stableErrors('spec.behavior.scaleUp.stablePolicy', behavior.scaleUp?.stablePolicy),
    ...stableErrors('spec.behavior.scaleDown', behavior.scaleDown),
    ...(panic ? [
      ...integerErrors(`${panicPath}.percent`, panic.percent, 0, 1000, 'percent of the current instances per period'),
      ...integerErrors(`${panicPath}.panicThresholdPercent`, panic.panicThresholdPercent, 110, 1000, 'percent of the target value'),
      ...boundedDurationErrors(`${panicPath}.period`, panic.period, MAX_BEHAVIOR_MINUTES),
      ...boundedDurationErrors(`${panicPath}.panicModeHold`, panic.panicModeHold, MAX_BEHAVIOR_MINUTES),
    ] : []),
  ];
}
