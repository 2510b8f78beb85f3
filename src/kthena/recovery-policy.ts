/**
 * What Kthena rebuilds when a pod of a ServingGroup fails, is recreated or restarts a container
 * (ModelServing `spec.recoveryPolicy`).
 */
export enum KthenaRecoveryPolicy {
  /**
   * Recreate the whole ServingGroup. Not allowed with `KthenaRolloutStrategy.roleRollingUpdate()`,
   * which updates roles one at a time inside a group.
   */
  SERVING_GROUP_RECREATE = 'ServingGroupRecreate',
  /** Recreate the role instance the pod belongs to (Kthena's default). */
  ROLE_RECREATE = 'RoleRecreate',
  /** Recreate only the failed pod. */
  NONE = 'None',
}
