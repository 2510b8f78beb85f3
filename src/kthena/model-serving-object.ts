/**
 * The one place a ModelServing object is created: by `KthenaModelServing`, which renders its spec
 * from its props at synth, and by the Kthena provider, which builds the spec from a
 * ModelDeployment. Internal: not exported from the package.
 *
 * A function taking the spec in the CRD's shape, not the construct, because the provider's pod
 * templates are plain `k8s.PodTemplateSpec`s of its own: going through `KthenaModelServingProps`
 * would wrap each in a `KthenaPodTemplate` only to render it back, and the construct adds what
 * the provider's ModelServing must not have (its `KthenaPodLabels` on every pod, `replicas: 1`
 * where an autoscaler owns the count). The rules both must keep are shared functions of
 * `./model-serving-rules.ts` instead, each called with its reader's field paths.
 */
import { ApiObjectMetadata, Lazy } from 'cdk8s';
import type { Construct } from 'constructs';
import { ModelServing, ModelServingSpec } from '../imports/workload.serving.volcano.sh';

/**
 * Adds the ModelServing `id` to `scope`, its spec produced at synth by `spec` (so that a
 * construct can still change it after this call).
 */
export function addModelServingObject(
  scope: Construct,
  id: string,
  metadata: ApiObjectMetadata | undefined,
  spec: () => ModelServingSpec,
): ModelServing {
  return new ModelServing(scope, id, { metadata, spec: Lazy.any({ produce: spec }) });
}
