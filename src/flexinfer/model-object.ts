import { ApiObject, ApiObjectMetadata, Lazy } from 'cdk8s';
import type { Construct } from 'constructs';
import { toModelSpecProps } from './model-binding';
import type { ModelSpecJson } from './model-spec-json';
import { Model } from '../imports/ai.flexinfer';

/**
 * The generated `Model` object of a spec in the CRD's shape, rendered at synth: the one place a
 * FlexInfer Model object is made. Its two callers are the `FlexInferModel` construct (whose spec
 * can still change through `addConfig()` until synth) and the AI Runway provider. The provider
 * calls this rather than instantiating the construct: its plan already is the spec in the CRD's
 * shape, checked against the deployment's own fields, and the construct would take it only as
 * typed props (Durations, Sizes, enums) to render it back into the same JSON.
 */
export function modelApiObject(scope: Construct, id: string, metadata: ApiObjectMetadata | undefined, spec: () => ModelSpecJson): ApiObject {
  return new Model(scope, id, {
    metadata,
    spec: Lazy.any({ produce: () => toModelSpecProps(spec()) }),
  });
}
