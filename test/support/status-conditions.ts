/**
 * Status conditions as the API server returns them, for the providers' status mapping tests.
 */

/** When every test condition last changed. */
export const CONDITION_TIME = '2025-01-01T00:00:00Z';

/** A metav1.Condition of a custom resource's status, observed at `observedGeneration`. */
export function crdCondition(
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  observedGeneration = 1,
): Record<string, unknown> {
  return { type, status, reason, message, lastTransitionTime: CONDITION_TIME, observedGeneration };
}

/** An apps/v1 DeploymentCondition. */
export function deploymentCondition(type: string, status: string, reason: string, message: string): Record<string, string> {
  return { type, status, reason, message, lastUpdateTime: CONDITION_TIME, lastTransitionTime: CONDITION_TIME };
}

/** The condition of `type` in an object's `status.conditions` (as the API server returns it), or undefined. */
export function statusCondition(object: unknown, type: string): any {
  const conditions: unknown = (object as any)?.status?.conditions;
  return Array.isArray(conditions) ? conditions.find((c: any) => c?.type === type) : undefined;
}
