import type { k8s } from 'cdk8s-plus-34';
import type { ResolvedModelDeployment } from '../api/resolved-model-deployment';
import {
  LABEL_DEPLOYMENT,
  LABEL_ENGINE_TYPE,
  LABEL_MANAGED_BY,
  LABEL_MODEL_SOURCE,
  MANAGED_BY_VALUE,
} from '../core/labels';

/**
 * The labels AI Runway's Deployment-based providers put on every object they create. We put them
 * on every object we synthesize for a deployment: without ownerReferences (the ModelDeployment's
 * uid is unknown at build time) they are how tools and the reconciler find a deployment's objects.
 */
export function commonLabels(md: ResolvedModelDeployment): Record<string, string> {
  return {
    [LABEL_MANAGED_BY]: MANAGED_BY_VALUE,
    [LABEL_DEPLOYMENT]: md.name,
    // The CRD defaults the source to huggingface; the fallback covers an undefaulted spec.
    [LABEL_MODEL_SOURCE]: md.spec.model.source ?? 'huggingface',
    [LABEL_ENGINE_TYPE]: md.engine,
  };
}

/**
 * `metadata` for a synthesized object: explicit name, the deployment's namespace when it has one
 * (otherwise the chart's namespace applies), and the given labels/annotations when non-empty.
 */
export function objectMeta(
  md: Pick<ResolvedModelDeployment, 'namespace'>,
  name: string,
  labels?: Record<string, string>,
  annotations?: Record<string, string>,
): k8s.ObjectMeta {
  return {
    name,
    ...(md.namespace !== undefined ? { namespace: md.namespace } : {}),
    ...(labels && Object.keys(labels).length > 0 ? { labels } : {}),
    ...(annotations && Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
}
