import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import type { FieldError } from '../core/field-error';
import type { ResolvedModelDeployment } from '../core/resolved-model-deployment';

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
  validate(md: ResolvedModelDeployment): FieldError[];
  /** Creates the upstream objects as L1 children of `scope` and returns them in output order. */
  translate(scope: Construct, md: ResolvedModelDeployment): ApiObject[];
}
