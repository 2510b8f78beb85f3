import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import type { FieldError } from '../core/field-error';
import type { ResolvedModelDeployment } from '../core/resolved-model-deployment';

/**
 * Registry-wide translation settings (set on the ProviderRegistry). A deployment may override a
 * setting through an annotation documented by the provider.
 */
export interface TranslationOptions {
  /**
   * Which DynamoGraphDeployment version to emit: upstream Dynamo's storage version is v1beta1;
   * AI Runway emits v1alpha1 (still served, deprecated).
   */
  readonly dynamoApiVersion?: 'nvidia.com/v1alpha1' | 'nvidia.com/v1beta1';
}

/** Pods and port behind a controller-managed InferencePool. */
export interface InferencePoolTarget {
  readonly selector: Record<string, string>;
  readonly targetPort: number;
}

/**
 * What a provider contributes at build time: the checks its AI Runway controller makes before
 * creating anything (as field errors, so they fail the synth), and the translation into upstream
 * objects. Status mapping is a separate pure function per provider (see each provider's
 * `status.ts`), because the in-cluster reconciler uses it without any construct tree.
 */
export interface ProviderTranslator {
  /** The InferenceProviderConfig name this translator serves, e.g. `vllm`. */
  readonly providerName: string;
  /** Human name used in messages, e.g. `vLLM`. */
  readonly displayName: string;
  /** Provider-side rejections (the provider controller's compatibility check). */
  validate(md: ResolvedModelDeployment, options?: TranslationOptions): FieldError[];
  /**
   * The pods and port a controller-managed InferencePool selects for this deployment: the model
   * server pods' labels and the port serving the OpenAI API. Undefined when the provider has no
   * such pods of its own (it manages its own pool, like Dynamo).
   */
  inferencePoolTarget?(md: ResolvedModelDeployment): InferencePoolTarget | undefined;
  /** Creates the upstream objects as L1 children of `scope` and returns them in output order. */
  translate(scope: Construct, md: ResolvedModelDeployment, options?: TranslationOptions): ApiObject[];
}
