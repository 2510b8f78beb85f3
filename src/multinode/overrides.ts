/**
 * `spec.provider.overrides` of a Deployment-based provider (Direct vLLM, llm-d) on a component
 * that renders a LeaderWorkerSet instead: the overrides are written against a Deployment, so they
 * are carried over where a LeaderWorkerSet has the same field — `spec.replicas`, and
 * `spec.template` into both the leader and the worker pod template — and refused where it has
 * none, rather than being merged into fields the API server would prune. Pure, so the controller
 * runs the checks.
 */
import { MULTI_NODE_ANNOTATION_PATH } from '../api/multi-node/multi-node-annotation';
import { FieldError, forbidden } from '../core/field-error';
import { PROVIDER_OVERRIDES_PATH } from '../provider-kit/overrides';
import { isJsonObject } from '../provider-kit/unstructured';

/** Deployment `spec` fields a LeaderWorkerSet has an equivalent of. */
const CARRIED_SPEC_KEYS = ['replicas', 'template'];

/**
 * Overrides that cannot be carried over to a LeaderWorkerSet: Deployment-only `spec` fields
 * (`strategy`, `minReadySeconds`, ...), and replaced containers, which would drop the leader's and
 * workers' Ray launch (the containers' `command`).
 */
export function leaderWorkerSetOverrideErrors(overrides: unknown): FieldError[] {
  if (!isJsonObject(overrides) || !isJsonObject(overrides.spec)) return [];
  const errors: FieldError[] = [];
  const lws = `a multi-node component (${MULTI_NODE_ANNOTATION_PATH}) renders a LeaderWorkerSet`;
  for (const key of Object.keys(overrides.spec)) {
    if (CARRIED_SPEC_KEYS.includes(key)) continue;
    errors.push(forbidden(`${PROVIDER_OVERRIDES_PATH}.spec.${key}`,
      `${lws}, which has no Deployment field spec.${key}; allowed under spec: ${CARRIED_SPEC_KEYS.join(', ')}`));
  }
  const template = overrides.spec.template;
  const podSpec = isJsonObject(template) ? template.spec : undefined;
  if (isJsonObject(podSpec) && podSpec.containers !== undefined) {
    errors.push(forbidden(`${PROVIDER_OVERRIDES_PATH}.spec.template.spec.containers`,
      `${lws} whose leader and worker containers start Ray and the vLLM server; replacing the containers would drop that launch`));
  }
  return errors;
}

/**
 * The overrides of a Deployment in the shape of a LeaderWorkerSet: `spec.replicas` kept,
 * `spec.template` merged into both pod templates. Expects overrides `leaderWorkerSetOverrideErrors`
 * accepted.
 */
export function leaderWorkerSetOverrides(overrides: Record<string, unknown>): Record<string, unknown> {
  const spec = isJsonObject(overrides.spec) ? overrides.spec : undefined;
  if (!spec) return {};
  const out: Record<string, unknown> = {};
  if (spec.replicas !== undefined) out.replicas = spec.replicas;
  if (spec.template !== undefined) out.leaderWorkerTemplate = { leaderTemplate: spec.template, workerTemplate: spec.template };
  return { spec: out };
}
