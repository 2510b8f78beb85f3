/**
 * Label and annotation keys AI Runway puts on the objects it manages (spec §8.1, providers §5.1).
 * Our synthesized objects carry the same keys so that AI Runway tooling, dashboards and the
 * InferencePool selector keep working on them.
 */
export const LABEL_MODEL_DEPLOYMENT = 'airunway.ai/model-deployment';
export const LABEL_MANAGED_BY = 'airunway.ai/managed-by';
export const LABEL_DEPLOYMENT = 'airunway.ai/deployment';
export const LABEL_MODEL_SOURCE = 'airunway.ai/model-source';
export const LABEL_ENGINE_TYPE = 'airunway.ai/engine-type';
export const LABEL_JOB_TYPE = 'airunway.ai/job-type';
export const MANAGED_BY_VALUE = 'airunway';

/** Annotations cdk8s-inference writes on the ModelDeployment record to explain its choices. */
/**
 * Label of the ModelDeployment records cdk8s-inference renders: the controller reconciles only
 * records that carry it.
 */
export const LABEL_RENDERED_BY = 'inference.cdk8s.io/rendered-by';
export const RENDERED_BY_VALUE = 'cdk8s-inference';
/**
 * AI Runway's pause annotation: with `"true"` its core and provider controllers leave the record
 * alone (no objects of their own, no status writes), so a rendered record never gets a second,
 * conflicting set of objects on a cluster that also runs AI Runway.
 */
export const ANNOTATION_RECONCILE_PAUSED = 'airunway.ai/reconcile-paused';
export const ANNOTATION_ENGINE_REASON = 'inference.cdk8s.io/engine-selected-reason';
export const ANNOTATION_PROVIDER_REASON = 'inference.cdk8s.io/provider-selected-reason';
