import { FieldError, forbidden, invalid } from '../core/field-error';
import { isJsonObject } from '../core/json-object';

/**
 * The `spec.provider.overrides` key filter of AI Runway's admission webhook. Overrides are an
 * escape hatch into the provider's upstream object, so keys that would weaken pod security or
 * bypass the admission limits on size are refused wherever they appear.
 *
 * Only the rules that hold for every provider live here. What a provider accepts at the root of
 * its overrides (KAITO: `resource` and `inference`, without `resource.count`; the Deployment
 * providers: `spec`; KubeRay: nothing, with a warning) is checked by the provider's `validate`,
 * which `resolveModelDeployment` runs for the construct, the CLI and the controller's record
 * check alike, after this filter and before anything is rendered.
 */

/** Keys refused anywhere inside overrides because they change the pod's security posture. */
export const SECURITY_SENSITIVE_OVERRIDE_KEYS: readonly string[] = [
  'securityContext',
  'serviceAccountName',
  'serviceAccount',
  'hostNetwork',
  'hostPID',
  'hostIPC',
  'automountServiceAccountToken',
  'nodeName',
  'priorityClassName',
  'runtimeClassName',
];

/**
 * Keys refused anywhere inside overrides, whatever the provider: admission limits replicas and
 * resources where the spec sets them, and an override would bypass those ceilings. Each with
 * where the value comes from instead, which the error names.
 */
export const SIZING_OVERRIDE_SOURCES: Readonly<Record<string, string>> = {
  replicas: 'replica counts come from spec.scaling.replicas (spec.scaling.prefill.replicas and spec.scaling.decode.replicas when disaggregated)',
  resources: 'container resources come from spec.resources (spec.scaling.prefill and spec.scaling.decode when disaggregated)',
};

/** The keys of {@link SIZING_OVERRIDE_SOURCES}. */
export const SIZING_OVERRIDE_KEYS: readonly string[] = Object.keys(SIZING_OVERRIDE_SOURCES);

/** The message of a sizing key found at any depth of the overrides. */
export function sizingOverrideMessage(key: string): string {
  return `overriding ${JSON.stringify(key)} is not allowed anywhere in spec.provider.overrides, for any provider: ` +
    `${SIZING_OVERRIDE_SOURCES[key]}, where admission enforces its limits`;
}

export const OVERRIDES_PATH = 'spec.provider.overrides';

/**
 * Checks `spec.provider.overrides`: it must be a JSON object (rules 5 and 5b), and no forbidden
 * key may appear at any depth (rule 5c). Absent (`undefined`/`null`) overrides pass.
 */
export function validateProviderOverrides(overrides: unknown): FieldError[] {
  if (overrides === undefined || overrides === null) return [];
  let serialised: string | undefined;
  try {
    serialised = JSON.stringify(overrides);
  } catch {
    serialised = undefined;
  }
  if (serialised === undefined) {
    // Cyclic structures, BigInts, functions: nothing a YAML/JSON manifest can carry.
    return [invalid(OVERRIDES_PATH, '<redacted>', 'overrides must be valid JSON')];
  }
  // The value is never echoed: overrides may carry secrets. Only its size is shown.
  const redacted = `<redacted ${Buffer.byteLength(serialised, 'utf8')} bytes>`;
  if (!isJsonObject(overrides)) {
    return [invalid(OVERRIDES_PATH, redacted, 'overrides must be a JSON object')];
  }
  return findForbiddenOverrideKeys(overrides);
}

/**
 * Walks the overrides twice — security keys first, then sizing keys — through objects and
 * arrays. A pass reports a forbidden key at its exact path and does not descend below it, so
 * nested repeats of the same key add nothing; the other pass still looks inside.
 */
export function findForbiddenOverrideKeys(overrides: unknown, basePath: string = OVERRIDES_PATH): FieldError[] {
  const errors: FieldError[] = [];
  walk(overrides, basePath, SECURITY_SENSITIVE_OVERRIDE_KEYS, (path, key) =>
    errors.push(forbidden(path, `overriding ${JSON.stringify(key)} is not allowed for security reasons`)),
  );
  walk(overrides, basePath, SIZING_OVERRIDE_KEYS, (path, key) => errors.push(forbidden(path, sizingOverrideMessage(key))));
  return errors;
}

function walk(
  value: unknown,
  path: string,
  forbiddenKeys: readonly string[],
  report: (path: string, key: string) => void,
): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => walk(item, `${path}[${index}]`, forbiddenKeys, report));
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const childPath = `${path}.${key}`;
    if (forbiddenKeys.includes(key)) {
      report(childPath, key);
      continue;
    }
    walk(child, childPath, forbiddenKeys, report);
  }
}
