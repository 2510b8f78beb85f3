import { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import type { ResolvedModelDeployment } from '../api/resolved-model-deployment';
import { upstreamFieldsAnnotation } from '../controller-contract/record-annotation';
import {
  ANNOTATION_ENGINE_REASON,
  ANNOTATION_PROVIDER_REASON,
  ANNOTATION_RECONCILE_PAUSED,
  LABEL_RENDERED_BY,
  RENDERED_BY_VALUE,
} from '../core/labels';
import { ANNOTATION_RENDERED_OBJECTS, encodeRenderedObjects } from '../core/rendered-objects';
import * as airunway from '../imports/airunway.ai';

/**
 * The `airunway.ai/v1alpha1` ModelDeployment record of a rendered deployment (construct id
 * `Record`): the resolved spec, what was chosen and why, and what was synthesized for it (the
 * `objects`), which the controller reads to keep `status` true. `providerAnnotations` are what the
 * provider adds to the record (`InferenceProvider.recordAnnotations`).
 */
export function addDeploymentRecord(
  scope: Construct,
  resolved: ResolvedModelDeployment,
  providerAnnotations: Record<string, string>,
  objects: readonly ApiObject[],
): ApiObject {
  // A plain ApiObject with the L1's GVK: the L1's typed props would re-map the JSON spec.
  const record = new ApiObject(scope, 'Record', {
    ...airunway.ModelDeployment.GVK,
    metadata: {
      name: resolved.name,
      ...(resolved.namespace !== undefined && { namespace: resolved.namespace }),
      // Marked as rendered: our controller reconciles only such records, and AI Runway's
      // controllers pause on them instead of creating a second set of objects.
      labels: { ...resolved.labels, [LABEL_RENDERED_BY]: RENDERED_BY_VALUE },
      annotations: {
        ...resolved.annotations,
        ...providerAnnotations,
        // What its custom resources need of the cluster's CRDs: the controller reports IncompatibleUpstream otherwise.
        ...upstreamFieldsAnnotation(objects),
        [ANNOTATION_RECONCILE_PAUSED]: 'true',
        [ANNOTATION_ENGINE_REASON]: resolved.engineReason,
        [ANNOTATION_PROVIDER_REASON]: resolved.providerReason,
        // What was synthesized for it: the controller gives these ownerReferences on request.
        [ANNOTATION_RENDERED_OBJECTS]: encodeRenderedObjects(objects.map((o) => ({
          apiVersion: o.apiVersion,
          kind: o.kind,
          name: o.name,
          ...(o.metadata.namespace !== resolved.namespace && { namespace: o.metadata.namespace }),
        }))),
      },
    },
    spec: resolved.spec,
  });
  keepOverridesVerbatim(record, resolved.spec.provider?.overrides);
  return record;
}

/**
 * cdk8s drops `null`s when it renders an object, but in `provider.overrides` a `null` is meaningful
 * (it removes or nulls a key in the provider's objects): put the overrides back as they were so
 * the record says what was translated.
 */
function keepOverridesVerbatim(record: ApiObject, overrides: unknown): void {
  if (overrides === undefined) return;
  const render = record.toJson.bind(record);
  record.toJson = () => {
    const json = render();
    if (json.spec?.provider) json.spec.provider.overrides = structuredClone(overrides);
    return json;
  };
}
