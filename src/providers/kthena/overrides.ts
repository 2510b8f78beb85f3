import type { KthenaRolePlan } from './roles';
import { FieldError, forbidden, invalid } from '../../core/field-error';
import { BLOCKED_OVERRIDE_KEYS, PROVIDER_OVERRIDES_PATH, validateOverrideKeys } from '../../provider-kit/overrides';
import { isJsonObject } from '../../provider-kit/unstructured';

/*
 * `spec.provider.overrides` of a Kthena deployment: deep-merged into the ModelServing after
 * everything else (the ModelServer and ModelRoute are left alone), as the other providers merge
 * theirs into their primary object. What an override could break is refused here, with the
 * rules of Kthena's ModelServing webhook that a merged ModelServing could violate.
 */

const SPEC_PATH = `${PROVIDER_OVERRIDES_PATH}.spec`;
const ROLLOUT_PATH = `${SPEC_PATH}.rolloutStrategy`;
const ROLLING_UPDATE_PATH = `${ROLLOUT_PATH}.rollingUpdateConfiguration`;

const ROLE_RECREATE = 'RoleRecreate';
const SERVING_GROUP_RECREATE = 'ServingGroupRecreate';
const SERVING_GROUP_ROLLING_UPDATE = 'ServingGroupRollingUpdate';
const ROLE_ROLLING_UPDATE = 'RoleRollingUpdate';

function has(obj: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** An integer or a `<n>%` string (IntOrString), as Kthena's webhook reads it; a problem, or the value. */
type IntOrPercent = { readonly problem: string } | { readonly value: number; readonly percent: boolean };

function readIntOrPercent(value: unknown): IntOrPercent {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return { problem: 'must be an integer or a percentage such as "10%"' };
    return value < 0 ? { problem: 'must be a non-negative integer' } : { value, percent: false };
  }
  if (typeof value === 'string') {
    const match = /^([0-9]+)%$/.exec(value);
    if (!match) return { problem: 'must be an integer or a percentage such as "10%"' };
    const percent = Number(match[1]);
    return percent > 100 ? { problem: 'must be a valid percent value (0-100)' } : { value: percent, percent: true };
  }
  return { problem: 'must be an integer or a percentage such as "10%"' };
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
  const type = isJsonObject(rollout) && typeof rollout.type === 'string' && rollout.type !== '' ? rollout.type : SERVING_GROUP_ROLLING_UPDATE;
  const recovery = typeof spec.recoveryPolicy === 'string' && spec.recoveryPolicy !== '' ? spec.recoveryPolicy : ROLE_RECREATE;
  if (recovery === SERVING_GROUP_RECREATE && type === ROLE_ROLLING_UPDATE) {
    // Only an explicit type can be RoleRollingUpdate, so the error points at it.
    errors.push(invalid(
      `${ROLLOUT_PATH}.type`,
      type,
      `Kthena refuses recoveryPolicy ${SERVING_GROUP_RECREATE} with rolloutStrategy.type ${ROLE_ROLLING_UPDATE}: ` +
        'recreating the whole ServingGroup on a failure defeats updating one role at a time',
    ));
  }
  if (!isJsonObject(rollout) || !has(rollout, 'rollingUpdateConfiguration')) return errors;
  const config = rollout.rollingUpdateConfiguration;
  if (type === ROLE_ROLLING_UPDATE) {
    errors.push(forbidden(ROLLING_UPDATE_PATH, `rollingUpdateConfiguration is only valid when rolloutStrategy.type is ${SERVING_GROUP_ROLLING_UPDATE}`));
    return errors;
  }
  if (!isJsonObject(config)) return [...errors, forbidden(ROLLING_UPDATE_PATH, 'overriding "rollingUpdateConfiguration" with a non-object is not allowed')];
  for (const field of ['maxUnavailable', 'partition']) {
    if (!has(config, field)) continue;
    const read = readIntOrPercent(config[field]);
    if ('problem' in read) {
      errors.push(invalid(`${ROLLING_UPDATE_PATH}.${field}`, config[field], read.problem));
    } else if (field === 'maxUnavailable') {
      const scaled = read.percent ? Math.floor((read.value * servingGroups) / 100) : read.value;
      if (scaled === 0) {
        errors.push(invalid(
          `${ROLLING_UPDATE_PATH}.maxUnavailable`,
          config[field],
          `maxUnavailable cannot be 0 (it comes to 0 of the ${servingGroups} ServingGroup(s)): an update could never take a group down`,
        ));
      }
    }
  }
  return errors;
}

/**
 * `template.gangPolicy.minRoleReplicas`: Kthena's webhook takes only names of roles in the
 * template, each with a minimum from 0 up to that role's replicas.
 */
function gangPolicyErrors(template: Record<string, unknown>, roles: readonly KthenaRolePlan[]): FieldError[] {
  const path = `${SPEC_PATH}.template.gangPolicy`;
  const gang = template.gangPolicy;
  if (!isJsonObject(gang)) return [forbidden(path, 'overriding "spec.template.gangPolicy" with a non-object is not allowed')];
  if (!has(gang, 'minRoleReplicas')) return [];
  const min = gang.minRoleReplicas;
  if (!isJsonObject(min)) return [forbidden(`${path}.minRoleReplicas`, 'overriding "minRoleReplicas" with a non-object is not allowed')];
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(min)) {
    const role = roles.find((r) => r.name === name);
    const at = `${path}.minRoleReplicas.${name}`;
    if (!role) {
      errors.push(invalid(at, name, `role ${name} does not exist in the ServingGroup; its roles are ${roles.map((r) => r.name).join(', ')}`));
    } else if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > role.replicas) {
      errors.push(invalid(at, value, `minRoleReplicas of role ${name} must be an integer from 0 to its replicas (${role.replicas}, ${role.replicasPath})`));
    }
  }
  return errors;
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
