import { isJsonObject } from '../../provider-kit/unstructured';

/*
 * `spec.provider.overrides` under KubeRay. AI Runway's KubeRay provider ignores them, so a spec
 * AI Runway accepts with overrides still synthesizes here; but an option must not silently do
 * nothing, so the ignored keys are named in a warning. A warning and not an error: refusing them
 * would fail deployments that run under AI Runway, where the same overrides are ignored too.
 * (Admission has already refused what no provider may override: `replicas`, `resources` and the
 * security-sensitive keys, at any depth.)
 */

/**
 * The warning for overrides KubeRay ignores, naming each root key by its full path, or undefined
 * when there are none (absent, `null` or `{}`). Admission refuses non-object overrides before a
 * provider sees them; one is named as a whole.
 */
export function kuberayIgnoredOverridesWarning(overrides: unknown): string | undefined {
  if (overrides === undefined || overrides === null) return undefined;
  const paths = isJsonObject(overrides)
    ? Object.keys(overrides).map((key) => `spec.provider.overrides.${key}`)
    : ['spec.provider.overrides'];
  if (paths.length === 0) return undefined;
  return `KubeRay does not apply spec.provider.overrides, so ${paths.join(', ')} ${paths.length === 1 ? 'is' : 'are'} ignored ` +
    '(remove them; to change the RayService, patch it with addJsonPatch in a cdk8s app)';
}
