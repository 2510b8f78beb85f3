import { ApiObject, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';

const CHECKED_ROOTS = new WeakSet<IConstruct>();

/**
 * Registers, once per construct tree, a validation that fails the synth when two API objects of
 * the app would have the same group, kind, namespace and name — one would silently overwrite the
 * other when applied. Runs once for the whole tree (not per deployment) so large fleets stay linear.
 */
export function ensureNoNameCollisions(scope: IConstruct): void {
  const root = scope.node.root;
  if (CHECKED_ROOTS.has(root)) return;
  CHECKED_ROOTS.add(root);
  root.node.addValidation({
    validate: () => {
      const seen = new Map<string, string>();
      const errors: string[] = [];
      for (const c of root.node.findAll()) {
        if (!(c instanceof ApiObject)) continue;
        const namespace = c.metadata.namespace ?? chartNamespace(c) ?? '';
        const group = c.apiVersion.includes('/') ? c.apiVersion.split('/')[0] : '';
        const key = `${group}/${c.kind}/${namespace}/${c.name}`;
        const other = seen.get(key);
        if (other) {
          errors.push(
            `${c.kind} "${namespace ? namespace + '/' : ''}${c.name}" is synthesized twice: by ${other} and by ${c.node.path}; give one of the deployments another name or namespace`,
          );
        } else {
          seen.set(key, c.node.path);
        }
      }
      return errors;
    },
  });
}

function chartNamespace(c: IConstruct): string | undefined {
  try {
    return Chart.of(c).namespace;
  } catch {
    return undefined;
  }
}
