/**
 * The kinds of rollout Kthena knows (`spec.rolloutStrategy.type`), for `KthenaRolloutStrategy` and
 * for the rules that read the type from plain JSON (the Kthena provider's overrides). Internal:
 * not exported from the package.
 */
export enum RolloutType {
  SERVING_GROUP_ROLLING_UPDATE = 'ServingGroupRollingUpdate',
  ROLE_ROLLING_UPDATE = 'RoleRollingUpdate',
}
