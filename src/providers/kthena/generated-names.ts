import type { KthenaRolePlan } from './roles';
import { FieldError, invalid } from '../../core/field-error';

/** A DNS-1035 label: what Kthena's webhook requires of the names its controller derives. */
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_MAX_LENGTH = 63;

/**
 * The name Kthena's ModelServing webhook checks for each role before it admits a ModelServing:
 * `<modelserving>-<replicas>-<role>-<role replicas>-<worker replicas>`, the longest pod, Service
 * and label value its controller will derive from the role (pods are named
 * `<modelserving>-<group>-<role>-<instance>-<worker>`).
 */
export function generatedRoleName(servingName: string, servingGroups: number, role: KthenaRolePlan): string {
  return `${servingName}-${servingGroups}-${role.name}-${role.replicas}-${role.workerReplicas}`;
}

/**
 * Kthena's generated-name rule as field errors on `metadata.name`, one per role whose generated
 * name is not a DNS-1035 label (at most 63 characters, lowercase letters, digits and `-`,
 * starting with a letter): a ModelServing that breaks it is refused by Kthena's webhook. Each
 * role counts its own worker pods (a multi-node role's `workerReplicas`), so a deployment name
 * that fits with single-pod roles can be too long once a role spans nodes.
 */
export function generatedNameErrors(deploymentName: string, servingGroups: number, roles: readonly KthenaRolePlan[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const role of roles) {
    const name = generatedRoleName(deploymentName, servingGroups, role);
    const problems: string[] = [];
    if (name.length > DNS1035_MAX_LENGTH) problems.push(`is ${name.length} characters long, more than the ${DNS1035_MAX_LENGTH} allowed`);
    if (!DNS1035_LABEL.test(name)) problems.push('must start with a lowercase letter (a DNS-1035 label)');
    if (problems.length === 0) continue;
    const advice = name.length > DNS1035_MAX_LENGTH ? '; use a shorter ModelDeployment name' : '; use a name that starts with a letter';
    errors.push(invalid(
      'metadata.name',
      deploymentName,
      `Kthena derives the name "${name}" for the pods of role "${role.name}" (<name>-<servingGroups>-<role>-<roleReplicas>-<workerReplicas>), ` +
        `which ${problems.join(', and ')}${advice}`,
    ));
  }
  return errors;
}
