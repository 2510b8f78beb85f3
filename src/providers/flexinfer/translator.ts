import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { FlexInferTargetOptions, planFlexInferModel } from './model-plan';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { formatFieldError } from '../../core/field-error';
import { LABEL_MODEL_DEPLOYMENT } from '../../core/labels';
import { modelApiObject } from '../../flexinfer/model-object';
import { commonLabels, objectMeta } from '../../provider-kit/metadata';
import { mergeIntoFinalJson, OverrideNullHandling } from '../../provider-kit/overrides';
import { isJsonObject } from '../../provider-kit/unstructured';
import { addManagedClaims } from '../../storage/managed-claim';

/**
 * Creates the FlexInfer objects of `md` under `scope` and returns them: the `Model` named like
 * the deployment (id `Model`), then the PVC of a managed modelCache volume (FlexInfer uses a
 * cache claim it is given but does not create one by that name).
 *
 * The Model is made by `modelApiObject`, the rendering function the `FlexInferModel` construct
 * uses too, rather than by the construct itself: the plan already is the Model spec in the CRD's
 * shape, checked against the deployment's own fields with FlexInfer's field rules
 * (`../../flexinfer/model-field-rules`), so the construct would only convert it to typed props
 * and back.
 *
 * What FlexInfer's controller then creates from the Model (Deployment and Service `<md>`, the
 * cache prefetch Job, the pods' probes and image) is not synthesized: it is FlexInfer's to decide
 * at run time from the GPUs it finds. No ownerReferences (the ModelDeployment's uid is unknown at
 * build time); the common labels tie the objects to it.
 *
 * `spec.provider.overrides` are deep-merged into the final Model JSON; a `null` removes a key
 * (e.g. `{"spec": {"serverless": null}}` to take FlexInfer's defaults).
 */
export function translateFlexInfer(scope: Construct, md: ResolvedModelDeployment, options: FlexInferTargetOptions = {}): ApiObject[] {
  const { plan, errors } = planFlexInferModel(md, options);
  if (!plan) {
    throw new Error(`FlexInfer cannot translate ${md.name}, which it refuses: ${errors.map(formatFieldError).join('; ')}`);
  }
  const labels = { ...commonLabels(md), [LABEL_MODEL_DEPLOYMENT]: md.name };
  const model = modelApiObject(scope, 'Model', objectMeta(md, md.name, labels), () => plan.spec);
  const overrides = md.spec.provider?.overrides;
  if (isJsonObject(overrides)) mergeIntoFinalJson(model, overrides, OverrideNullHandling.DELETE);
  return [model, ...addManagedClaims(scope, md, commonLabels(md))];
}
