/**
 * What Kthena refuses in a ModelServing (the CRD's schema and CEL rules, and the rules of its
 * validating webhook, `pkg/model-serving-controller/webhook`), checked on the construct's input
 * and reported at the field of the synthesized object. The pod templates check themselves
 * (`KthenaPodTemplate`).
 *
 * The rules that the Kthena provider's ModelServing can break too (generated names, gang
 * minimums, rollout with recovery, the ServingGroup `maxUnavailable`) are exported as functions
 * of values and the field path to report, so that each is written once: the construct passes the
 * ModelServing's paths, the provider the ModelDeployment's (`spec.provider.overrides...`,
 * `metadata.name`). Internal: not exported from the package.
 */
import type { Duration } from 'cdk8s';
import { INT32_MAX, integerErrors } from './checks';
import { readIntOrPercent, scaledDown } from './int-or-percent-value';
import type { KthenaGangPolicy, KthenaRoleOptions } from './model-serving-props';
import { KthenaRecoveryPolicy } from './recovery-policy';
import type { KthenaRolloutStrategy } from './rollout-strategy';
import { RolloutType } from './rollout-type';
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
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/** A DNS-1035 label but for its first character. */
const DNS1035_LABEL_BUT_FIRST = /^[-a-z0-9]*[a-z0-9]$/;

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
    ...generatedNameErrors(
      'metadata.name',
      input.name,
      input.replicas,
      // A role whose own name is refused is reported there, not again here.
      input.roles.filter((r) => roleNameProblems(r.options.name).length === 0).map(({ options }) => ({
        name: options.name,
        replicas: options.replicas ?? 1,
        workerReplicas: options.workerReplicas ?? 0,
      })),
      { pattern: '<name>-<replicas>-<role>-<role replicas>-<worker replicas>', shorter: 'a shorter name or role name' },
    ),
    ...minRoleReplicasErrors(
      'spec.template.gangPolicy.minRoleReplicas',
      input.gangPolicy?.minRoleReplicas ?? {},
      input.roles.map(({ options, path }) => ({ name: options.name, replicas: options.replicas ?? 1, replicasPath: `${path}.replicas` })),
    ),
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

/** A role as the rules of the ModelServing read it. */
export interface ServingRoleShape {
  readonly name: string;
  /** Instances of the role per ServingGroup (`roles[].replicas`). */
  readonly replicas: number;
  /** Worker pods per role instance (`roles[].workerReplicas`). */
  readonly workerReplicas: number;
}

/**
 * The name Kthena's ModelServing webhook derives for each role,
 * `<name>-<replicas>-<role>-<role replicas>-<worker replicas>`: the longest pod, Service and
 * label value its controller builds from the role (pods are `<name>-<group>-<role>-<instance>-<worker>`).
 */
export function generatedRoleName(servingName: string, servingGroups: number, role: ServingRoleShape): string {
  return `${servingName}-${servingGroups}-${role.name}-${role.replicas}-${role.workerReplicas}`;
}

/** Why Kthena's webhook refuses a generated name (it must be a DNS-1035 label of at most 63 characters), or []. */
export function generatedNameProblems(name: string): string[] {
  const problems: string[] = [];
  if (name.length > MAX_GENERATED_NAME_LENGTH) problems.push(`is ${name.length} characters long, more than the ${MAX_GENERATED_NAME_LENGTH} allowed`);
  if (!DNS1035_LABEL.test(name)) {
    problems.push(DNS1035_LABEL_BUT_FIRST.test(name)
      ? 'must start with a lowercase letter (a DNS-1035 label)'
      : "must consist of lowercase letters, digits and '-', starting with a letter (a DNS-1035 label)");
  }
  return problems;
}

/** How a generated-name message names things in its reader's terms. */
export interface GeneratedNameWording {
  /** The generated name's parts: `<name>-<replicas>-<role>-<role replicas>-<worker replicas>`. */
  readonly pattern: string;
  /** What to use when the name is too long: `a shorter ModelDeployment name`. */
  readonly shorter: string;
}

/**
 * Kthena's generated-name rule, one field error at `path` (value `servingName`) per role whose
 * `generatedRoleName` is refused: a ModelServing that breaks it is refused by the webhook. Each
 * role counts its own worker pods, so a name that fits single-pod roles can be too long once a
 * role spans nodes.
 */
export function generatedNameErrors(
  path: string,
  servingName: string,
  servingGroups: number,
  roles: readonly ServingRoleShape[],
  wording: GeneratedNameWording,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const role of roles) {
    const name = generatedRoleName(servingName, servingGroups, role);
    const problems = generatedNameProblems(name);
    if (problems.length === 0) continue;
    const advice = name.length > MAX_GENERATED_NAME_LENGTH ? `use ${wording.shorter}`
      : DNS1035_LABEL_BUT_FIRST.test(name) ? 'use a name that starts with a letter' : "use a name of lowercase letters, digits and '-'";
    errors.push(invalid(
      path,
      servingName,
      `Kthena derives the name "${name}" for the pods of role "${role.name}" (${wording.pattern}), which ${problems.join(', and ')}; ${advice}`,
    ));
  }
  return errors;
}

/** A role as the gang rule reads it. */
export interface GangRole {
  readonly name: string;
  readonly replicas: number;
  /** Where the role's replicas are set, for messages. */
  readonly replicasPath: string;
}

/**
 * `gangPolicy.minRoleReplicas` at `path`: Kthena's webhook takes only names of roles in the
 * template, each with a minimum from 0 up to that role's replicas.
 */
export function minRoleReplicasErrors(path: string, minRoleReplicas: { readonly [role: string]: unknown }, roles: readonly GangRole[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(minRoleReplicas)) {
    const role = roles.find((r) => r.name === name);
    const at = `${path}.${name}`;
    if (!role) {
      errors.push(invalid(at, name, `role ${name} does not exist in the ServingGroup; its roles are ${roles.map((r) => r.name).join(', ') || 'none'}`));
    } else if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > role.replicas) {
      errors.push(invalid(at, value, `minRoleReplicas of role ${name} must be an integer from 0 to its replicas (${role.replicas}, ${role.replicasPath})`));
    }
  }
  return errors;
}

/**
 * Kthena's webhook refuses `ServingGroupRecreate` recovery with a `RoleRollingUpdate` rollout
 * (`recoveryPolicy` and `rolloutStrategy.type` after its defaults). Reported at `path`, the
 * rollout type: only an explicit type can be `RoleRollingUpdate`.
 */
export function rolloutRecoveryErrors(path: string, rolloutType: string, recoveryPolicy: string): FieldError[] {
  if (recoveryPolicy !== KthenaRecoveryPolicy.SERVING_GROUP_RECREATE || rolloutType !== RolloutType.ROLE_ROLLING_UPDATE) return [];
  return [invalid(
    path,
    rolloutType,
    `Kthena refuses recoveryPolicy ${KthenaRecoveryPolicy.SERVING_GROUP_RECREATE} with rolloutStrategy.type ${RolloutType.ROLE_ROLLING_UPDATE}: ` +
      'recreating the whole ServingGroup on a failure defeats updating one role at a time',
  )];
}

/**
 * The ServingGroup rolling update's `maxUnavailable` at `path`: a count or percentage
 * (`readIntOrPercent`) that does not come to 0 of `servingGroups` (percentages round down).
 */
export function groupMaxUnavailableErrors(path: string, value: unknown, servingGroups: number): FieldError[] {
  const read = readIntOrPercent(value);
  if ('problem' in read) return [invalid(path, value, read.problem)];
  if (scaledDown(read, servingGroups) !== 0) return [];
  return [invalid(path, value, `maxUnavailable cannot be 0 (it comes to 0 of the ${servingGroups} ServingGroup(s)): an update could never take a group down`)];
}

function rolloutErrors(input: ModelServingInput): FieldError[] {
  const errors: FieldError[] = [];
  const strategy = input.rolloutStrategy;
  const roleRolling = strategy?.isRoleRollingUpdate ?? false;
  if (strategy) {
    errors.push(...rolloutRecoveryErrors('spec.rolloutStrategy.type', strategy.strategyType, input.recoveryPolicy ?? KthenaRecoveryPolicy.ROLE_RECREATE));
  }
  const config = strategy?._options ?? {};
  const configPath = 'spec.rolloutStrategy.rollingUpdateConfiguration';
  if (config.maxUnavailable) errors.push(...groupMaxUnavailableErrors(`${configPath}.maxUnavailable`, config.maxUnavailable._toJson(), input.replicas));
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
