import type { k8s } from 'cdk8s-plus-34';
import { commonLabels } from './metadata';
import type { SpecToleration } from './spec-types';
import type { ResolvedModelDeployment } from '../api/resolved-model-deployment';
import { LABEL_DEPLOYMENT, LABEL_MODEL_DEPLOYMENT } from '../core/labels';

/**
 * The selector of a provider-created Deployment and of its Service:
 * `{airunway.ai/deployment: <md>, app: <deployment name>}`.
 */
export function selectorLabels(md: Pick<ResolvedModelDeployment, 'name'>, appName: string): Record<string, string> {
  return { [LABEL_DEPLOYMENT]: md.name, app: appName };
}

function userPodLabels(md: ResolvedModelDeployment): Record<string, string> {
  return { ...(md.spec.podTemplate?.metadata?.labels ?? {}) };
}

/** `spec.podTemplate.metadata.annotations` (a copy; empty when unset). */
export function userPodAnnotations(md: ResolvedModelDeployment): Record<string, string> {
  return { ...(md.spec.podTemplate?.metadata?.annotations ?? {}) };
}

/**
 * Labels of a Deployment's own metadata: the common labels with the user's pod-template labels
 * merged on top (as AI Runway does), then the common labels re-applied. The re-application is
 * ours: without ownerReferences the common labels are what ties the object to its deployment,
 * so a pod-template label must not be able to replace them.
 */
export function workloadLabels(md: ResolvedModelDeployment): Record<string, string> {
  const common = commonLabels(md);
  return { ...common, ...userPodLabels(md), ...common };
}

/**
 * Pod-template labels: the selector labels, the user's pod-template labels, then the selector
 * labels again (users cannot break the selector), and `airunway.ai/model-deployment: <md>`.
 * AI Runway's core patches that last label onto running pods for its InferencePool selector; we
 * declare it in the template instead, and it cannot be clobbered either.
 */
export function podTemplateLabels(md: ResolvedModelDeployment, appName: string): Record<string, string> {
  const selector = selectorLabels(md, appName);
  return { ...selector, ...userPodLabels(md), ...selector, [LABEL_MODEL_DEPLOYMENT]: md.name };
}

/** `spec.nodeSelector` copied, or undefined when empty. */
export function nodeSelectorOf(md: ResolvedModelDeployment): Record<string, string> | undefined {
  const selector = md.spec.nodeSelector;
  return selector && Object.keys(selector).length > 0 ? { ...selector } : undefined;
}

/**
 * `spec.tolerations` in the typed L1 shape, or undefined when empty. Fields are copied as given;
 * unset ones are omitted (AI Runway writes an empty `key`/`operator`, which Kubernetes treats the
 * same as absent).
 */
export function tolerationsOf(md: ResolvedModelDeployment): k8s.Toleration[] | undefined {
  const tolerations = md.spec.tolerations;
  if (!tolerations || tolerations.length === 0) return undefined;
  return tolerations.map((t: SpecToleration) => ({
    key: t.key || undefined,
    operator: t.operator || undefined,
    value: t.value || undefined,
    effect: t.effect || undefined,
    tolerationSeconds: t.tolerationSeconds ?? undefined,
  }));
}
