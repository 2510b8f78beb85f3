/**
 * What Kthena refuses in a ModelServing (the CRD's schema and CEL rules, and the rules of its
 * validating webhook, `pkg/model-serving-controller/webhook`), checked on the construct's input
 * and reported at the field of the synthesized object. The pod templates check themselves
 * (`KthenaPodTemplate`).
 */
import { Duration } from 'cdk8s';
import { INT32_MAX, integerErrors } from './checks';
import type { KthenaGangPolicy, KthenaRoleOptions } from './model-serving-props';
import { KthenaRecoveryPolicy } from './recovery-policy';
import type { KthenaRolloutStrategy } from './rollout-strategy';
import { FieldError, forbidden, invalid, required } from '../core/field-error';
import { dns1035LabelErrors } from '../core/kubernetes-names';

/** `spec.template.roles`: 1 to 4 roles. */
export const MAX_ROLES = 4;
/** `roles[].name`: at most 12 characters. */
export const MAX_ROLE_NAME_LENGTH = 12;
/** The CRD's pattern of role names; the webhook further requires a DNS-1035 label. */
const ROLE_NAME_PATTERN = /^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?$/;
/** Names Kthena derives from the ModelServing name must be DNS-1035 labels. */
const MAX_GENERATED_NAME_LENGTH = 63;

/** One role and where it sits in the spec. */
export interface ServingRoleInput {
  readonly options: KthenaRoleOptions;
  readonly path: string;
}

/** What the rules read. */
export interface ModelServingInput {
  readonly name: string;
  readonly replicas: number;
  readonly roles: readonly ServingRoleInput[];
  readonly gangPolicy?: KthenaGangPolicy;
  readonly rolloutStrategy?: KthenaRolloutStrategy;
  readonly recoveryPolicy?: KthenaRecoveryPolicy;
  readonly restartGracePeriod?: Duration;
}

/**
 * Every rule of the ModelServing that the construct's input can break:
 *
 * - `spec.replicas`, roles' `replicas` and `workerReplicas` are whole numbers of at least 0;
 *   a role with worker replicas has a worker template;
 * - 1 to 4 roles with unique names, each at most 12 characters and a DNS-1035 label;
 * - the name Kthena derives for each role's pods is a DNS-1035 label (`generatedNameErrors`);
 * - gang policy keys are roles, values from 0 to the role's replicas;
 * - rollout: `ServingGroupRecreate` recovery with `RoleRollingUpdate` is refused; per-role
 *   `maxUnavailable`/`partition` only with `RoleRollingUpdate`, where `maxUnavailable` comes to 1
 *   to the role's replicas; the group `maxUnavailable` does not come to 0; counts are not
 *   negative and percentages are whole numbers from 0 to 100.
 */
export function modelServingErrors(input: ModelServingInput): FieldError[] {
  return [
    ...integerErrors('spec.replicas', input.replicas, 0, INT32_MAX, 'ServingGroups'),
    ...roleSetErrors(input.roles),
    ...input.roles.flatMap(roleErrors),
    ...generatedNameErrors(input),
    ...gangPolicyErrors(input.roles, input.gangPolicy),
    ...rolloutErrors(input),
  ];
}

function roleSetErrors(roles: readonly ServingRoleInput[]): FieldError[] {
  const errors: FieldError[] = [];
  if (roles.length === 0) {
    errors.push(required('spec.template.roles', 'a ModelServing needs at least one role (props.roles or addRole)'));
  } else if (roles.length > MAX_ROLES) {
    errors.push(invalid('spec.template.roles', `${roles.length} roles`, `Kthena allows at most ${MAX_ROLES} roles in a ServingGroup`));
  }
  const seen = new Map<string, string>();
  for (const { options, path } of roles) {
    const earlier = seen.get(options.name);
    if (earlier !== undefined) {
      errors.push(invalid(`${path}.name`, options.name, `duplicates ${earlier}.name: role names are unique in a ModelServing`));
    } else {
      seen.set(options.name, path);
    }
  }
  return errors;
}

/** Why a role name is refused (the CRD's length and pattern, the webhook's DNS-1035 label), or []. */
function roleNameProblems(name: string): string[] {
  const problems: string[] = [];
  if (name.length > MAX_ROLE_NAME_LENGTH) problems.push(`is ${name.length} characters long, more than the ${MAX_ROLE_NAME_LENGTH} allowed`);
  if (!ROLE_NAME_PATTERN.test(name) || dns1035LabelErrors(name).length > 0) {
    problems.push("must consist of lowercase letters, digits and '-', start with a letter and end with a letter or digit (a DNS-1035 label)");
  }
  return problems;
}

function roleErrors({ options, path }: ServingRoleInput): FieldError[] {
  const errors: FieldError[] = [];
  const nameProblems = roleNameProblems(options.name);
  if (nameProblems.length > 0) errors.push(invalid(`${path}.name`, options.name, `role name ${nameProblems.join(', and ')}`));
  errors.push(...integerErrors(`${path}.replicas`, options.replicas, 0, INT32_MAX, 'instances of the role per ServingGroup'));
  errors.push(...integerErrors(`${path}.workerReplicas`, options.workerReplicas, 0, INT32_MAX, 'worker pods per role instance'));
  if ((options.workerReplicas ?? 0) > 0 && options.workerTemplate === undefined) {
    errors.push(required(`${path}.workerTemplate`, `a role with workerReplicas (${options.workerReplicas}) needs a workerTemplate for those pods`));
  }
  return errors;
}

/**
 * Kthena's webhook derives `<name>-<replicas>-<role>-<role replicas>-<worker replicas>` for each
 * role (the longest pod, Service and label value its controller builds from it) and refuses the
 * ModelServing unless it is a DNS-1035 label: at most 63 characters, starting with a letter.
 */
function generatedNameErrors(input: ModelServingInput): FieldError[] {
  const errors: FieldError[] = [];
  // A role whose own name is refused is reported there, not again here.
  for (const { options } of input.roles.filter((r) => roleNameProblems(r.options.name).length === 0)) {
    const generated = `${input.name}-${input.replicas}-${options.name}-${options.replicas ?? 1}-${options.workerReplicas ?? 0}`;
    const problems: string[] = [];
    if (generated.length > MAX_GENERATED_NAME_LENGTH) problems.push(`is ${generated.length} characters long, more than the ${MAX_GENERATED_NAME_LENGTH} allowed`);
    if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(generated)) problems.push('is not a DNS-1035 label (lowercase, starting with a letter)');
    if (problems.length === 0) continue;
    errors.push(invalid(
      'metadata.name',
      input.name,
      `Kthena derives the name "${generated}" for the pods of role "${options.name}" ` +
        `(<name>-<replicas>-<role>-<role replicas>-<worker replicas>), which ${problems.join(', and ')}; use a shorter name or role name`,
    ));
  }
  return errors;
}

function gangPolicyErrors(roles: readonly ServingRoleInput[], gangPolicy: KthenaGangPolicy | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const path = 'spec.template.gangPolicy.minRoleReplicas';
  for (const [role, min] of Object.entries(gangPolicy?.minRoleReplicas ?? {})) {
    const found = roles.find((r) => r.options.name === role);
    if (!found) {
      const known = roles.map((r) => JSON.stringify(r.options.name)).join(', ') || 'none';
      errors.push(invalid(`${path}.${role}`, role, `names no role of the ModelServing (roles: ${known})`));
      continue;
    }
    const replicas = found.options.replicas ?? 1;
    errors.push(...integerErrors(`${path}.${role}`, min, 0, Math.max(0, replicas), `at most the role's replicas (${replicas})`));
  }
  return errors;
}

function rolloutErrors(input: ModelServingInput): FieldError[] {
  const errors: FieldError[] = [];
  const strategy = input.rolloutStrategy;
  const roleRolling = strategy?.isRoleRollingUpdate ?? false;
  if (roleRolling && input.recoveryPolicy === KthenaRecoveryPolicy.SERVING_GROUP_RECREATE) {
    errors.push(invalid(
      'spec.rolloutStrategy.type',
      strategy!.strategyType,
      'Kthena refuses RoleRollingUpdate with recoveryPolicy ServingGroupRecreate; valid pairs are (ServingGroupRecreate, ServingGroupRollingUpdate) ' +
        'and (RoleRecreate, RoleRollingUpdate), or recoveryPolicy None',
    ));
  }
  const config = strategy?._options ?? {};
  const configPath = 'spec.rolloutStrategy.rollingUpdateConfiguration';
  if (config.maxUnavailable) {
    const at = `${configPath}.maxUnavailable`;
    const problems = config.maxUnavailable._errors(at);
    errors.push(...problems);
    if (problems.length === 0 && config.maxUnavailable._scaledDown(input.replicas) === 0) {
      errors.push(invalid(at, config.maxUnavailable._toJson(), `comes to 0 of ${input.replicas} ServingGroups (percentages round down), so no group could be updated`));
    }
  }
  if (config.partition) errors.push(...config.partition._errors(`${configPath}.partition`));
  for (const { options, path } of input.roles) {
    if (options.partition) {
      if (!roleRolling) {
        errors.push(forbidden(`${path}.partition`, 'a role partition is only allowed with KthenaRolloutStrategy.roleRollingUpdate()'));
      } else {
        errors.push(...options.partition._errors(`${path}.partition`));
      }
    }
    if (options.maxUnavailable) {
      const at = `${path}.maxUnavailable`;
      if (!roleRolling) {
        errors.push(forbidden(at, 'a role maxUnavailable only takes effect with KthenaRolloutStrategy.roleRollingUpdate()'));
        continue;
      }
      const problems = options.maxUnavailable._errors(at);
      errors.push(...problems);
      if (problems.length > 0) continue;
      const replicas = options.replicas ?? 1;
      const scaled = options.maxUnavailable._scaledDown(replicas);
      if (scaled === 0) {
        errors.push(invalid(at, options.maxUnavailable._toJson(), `comes to 0 of the role's ${replicas} replicas (percentages round down), so no instance could be updated`));
      } else if (scaled > replicas) {
        errors.push(invalid(at, options.maxUnavailable._toJson(), `comes to ${scaled}, more than the role's ${replicas} replicas`));
      }
    }
  }
  return errors;
}
