import type { KthenaRolePlan } from './roles';
import { FieldError, forbidden } from '../../core/field-error';
import { intOrPercentErrors } from '../../kthena/int-or-percent-value';
import { groupMaxUnavailableErrors, minRoleReplicasErrors, rolloutRecoveryErrors } from '../../kthena/model-serving-rules';
import { KthenaRecoveryPolicy } from '../../kthena/recovery-policy';
import { RolloutType } from '../../kthena/rollout-type';
import { BLOCKED_OVERRIDE_KEYS, PROVIDER_OVERRIDES_PATH, validateOverrideKeys } from '../../provider-kit/overrides';
import { isJsonObject } from '../../provider-kit/unstructured';

/*
 * `spec.provider.overrides` of a Kthena deployment: deep-merged into the ModelServing after
 * everything else (the ModelServer and ModelRoute are left alone), as the other providers merge
 * theirs into their primary object. What an override could break is refused here: the shape of
 * the merge, and the rules of Kthena's ModelServing webhook that a merged ModelServing could
 * violate, which are Kthena's model's (`src/kthena/model-serving-rules.ts`), called with the
 * overrides' paths.
 */

const SPEC_PATH = `${PROVIDER_OVERRIDES_PATH}.spec`;
const ROLLOUT_PATH = `${SPEC_PATH}.rolloutStrategy`;
const ROLLING_UPDATE_PATH = `${ROLLOUT_PATH}.rollingUpdateConfiguration`;

function has(obj: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/**
 * `rolloutStrategy` and `recoveryPolicy`: the type and recovery policy Kthena's webhook refuses
 * together (`ServingGroupRecreate` with `RoleRollingUpdate`, after its defaults), a
 * `rollingUpdateConfiguration` under `RoleRollingUpdate`, and `maxUnavailable`/`partition`
 * values that are not a non-negative integer or a 0–100% percentage, or a `maxUnavailable` that
 * rounds down to 0 ServingGroups.
 */
function rolloutErrors(spec: Record<string, unknown>, servingGroups: number): FieldError[] {
  const errors: FieldError[] = [];
  const rollout = spec.rolloutStrategy;
  if (has(spec, 'rolloutStrategy') && !isJsonObject(rollout)) {
    return [forbidden(ROLLOUT_PATH, 'overriding "spec.rolloutStrategy" with a non-object is not allowed')];
  }
  // Kthena's defaults, as its webhook applies them before checking.
  const type = isJsonObject(rollout) && typeof rollout.type === 'string' && rollout.type !== '' ? rollout.type : RolloutType.SERVING_GROUP_ROLLING_UPDATE;
  const recovery = typeof spec.recoveryPolicy === 'string' && spec.recoveryPolicy !== '' ? spec.recoveryPolicy : KthenaRecoveryPolicy.ROLE_RECREATE;
  errors.push(...rolloutRecoveryErrors(`${ROLLOUT_PATH}.type`, type, recovery));
  if (!isJsonObject(rollout) || !has(rollout, 'rollingUpdateConfiguration')) return errors;
  const config = rollout.rollingUpdateConfiguration;
  if (type === RolloutType.ROLE_ROLLING_UPDATE) {
    errors.push(forbidden(ROLLING_UPDATE_PATH, `rollingUpdateConfiguration is only valid when rolloutStrategy.type is ${RolloutType.SERVING_GROUP_ROLLING_UPDATE}`));
    return errors;
  }
  if (!isJsonObject(config)) return [...errors, forbidden(ROLLING_UPDATE_PATH, 'overriding "rollingUpdateConfiguration" with a non-object is not allowed')];
  if (has(config, 'maxUnavailable')) errors.push(...groupMaxUnavailableErrors(`${ROLLING_UPDATE_PATH}.maxUnavailable`, config.maxUnavailable, servingGroups));
  if (has(config, 'partition')) errors.push(...intOrPercentErrors(`${ROLLING_UPDATE_PATH}.partition`, config.partition));
  return errors;
}

/**
 * `template.gangPolicy`: an object whose `minRoleReplicas`, an object too, names roles of the
 * template with minimums Kthena accepts (`minRoleReplicasErrors`).
 */
function gangPolicyErrors(template: Record<string, unknown>, roles: readonly KthenaRolePlan[]): FieldError[] {
  const path = `${SPEC_PATH}.template.gangPolicy`;
  const gang = template.gangPolicy;
  if (!isJsonObject(gang)) return [forbidden(path, 'overriding "spec.template.gangPolicy" with a non-object is not allowed')];
  if (!has(gang, 'minRoleReplicas')) return [];
  const min = gang.minRoleReplicas;
  if (!isJsonObject(min)) return [forbidden(`${path}.minRoleReplicas`, 'overriding "minRoleReplicas" with a non-object is not allowed')];
  return minRoleReplicasErrors(`${path}.minRoleReplicas`, min, roles);
}

/**
 * The checks of `spec.provider.overrides` for Kthena:
 *
 * - an object without `apiVersion`/`kind`/`metadata`/`status` (every provider's rule), and no
 *   other root key than `spec` (a ModelServing has none; the API server would drop it);
 * - `spec` and `spec.template` objects, and no `spec.template.roles`: a list replaces what it
 *   merges into, and the roles hold the engine containers, GPUs and pod labels the provider
 *   renders, which the ModelServer and Service select;
 * - the ModelServing webhook's rules a merged object could break: `gangPolicy.minRoleReplicas`
 *   (`gangPolicyErrors`) and the rollout and recovery settings (`rolloutErrors`).
 *
 * (Core admission already refuses `replicas`, `resources` and the security-sensitive keys
 * anywhere in the overrides.)
 */
export function validateKthenaOverrides(overrides: unknown, roles: readonly KthenaRolePlan[], servingGroups: number): FieldError[] {
  const errors = validateOverrideKeys(overrides);
  if (!isJsonObject(overrides)) return errors;
  for (const key of Object.keys(overrides)) {
    if (key === 'spec' || BLOCKED_OVERRIDE_KEYS.includes(key)) continue;
    errors.push(forbidden(
      `${PROVIDER_OVERRIDES_PATH}.${key}`,
      `a ModelServing has no root field ${JSON.stringify(key)}; Kthena overrides merge into the ModelServing, so put fields under "spec"`,
    ));
  }
  if (!has(overrides, 'spec')) return errors;
  const spec = overrides.spec;
  if (!isJsonObject(spec)) return [...errors, forbidden(SPEC_PATH, 'overriding "spec" with a non-object is not allowed: it would replace the whole ModelServing spec')];
  errors.push(...rolloutErrors(spec, servingGroups));
  if (!has(spec, 'template')) return errors;
  const template = spec.template;
  if (!isJsonObject(template)) {
    return [...errors, forbidden(`${SPEC_PATH}.template`, 'overriding "spec.template" with a non-object is not allowed: it would replace the ServingGroup template')];
  }
  if (has(template, 'roles')) {
    errors.push(forbidden(
      `${SPEC_PATH}.template.roles`,
      'overriding "spec.template.roles" is not allowed: the list would replace the roles the provider renders (engine containers, GPUs, ' +
        'and the pod labels the ModelServer and Service select); use spec.engine, spec.resources, spec.scaling and spec.podTemplate',
    ));
  }
  if (has(template, 'gangPolicy')) errors.push(...gangPolicyErrors(template, roles));
  return errors;
}
