/**
 * The contract of an annotation-borne feature (autoscaling, multi-node, LoRA): what the pipeline
 * (src/pipeline/deployment-extensions.ts, the list of them) asks of each. Here, below the
 * features, so a feature implements it without importing the pipeline that runs it.
 */
import type { DeploymentFeature } from '../api/provider/deployment-feature';
import type { InferenceProvider } from '../api/provider/inference-provider';
import type { ResolvedModelDeployment } from '../api/resolved-model-deployment';
import type { FieldError } from '../core/field-error';
import type { ModelDeploymentObject } from '../core/model-deployment-object';

/** A deployment's annotations, as every extension reads them. */
export type Annotations = Readonly<Record<string, string>> | undefined;

/** One annotation-borne feature. */
export interface DeploymentExtension {
  /** The feature a provider must support to carry it. */
  readonly feature: DeploymentFeature;
  /** The annotation that asks for it; present means asked for. */
  readonly annotation: string;
  /** Field path of the annotation in messages (`metadata.annotations["..."]`). */
  readonly path: string;
  /** Problems of the annotation, alone and against the defaulted deployment. */
  errors(md: ModelDeploymentObject): FieldError[];
  /** Problems only the selected provider, which supports the feature, can see. */
  providerErrors?(md: ResolvedModelDeployment, provider: InferenceProvider): FieldError[];
}

/** Field path of an annotation of ours, in messages. */
export function annotationPath(annotation: string): string {
  return `metadata.annotations[${JSON.stringify(annotation)}]`;
}
