import { loraAdapterNames, loraPath } from '../../api/lora/lora-annotation';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { FieldError, invalid } from '../../core/field-error';
import { LORA_ENGINES } from '../../lora/engine-flags';

/*
 * LoRA adapters on Kthena: the engine pods load them like every vLLM pod of ours (flags, download
 * init containers, mounts), and the ModelRoute lists their names in `loraAdapters`, which is how
 * kthena-router knows that a request for an adapter goes to this deployment's ModelServer (it then
 * leaves the request's `model` as the adapter name instead of rewriting it to the base model).
 */

/** Kthena's ModelRoute lists at most this many `loraAdapters`. */
export const KTHENA_MAX_LORA_ADAPTERS = 10;

/** Whether Kthena serves the deployment's adapters: with an engine that answers to adapter names. */
export function kthenaServesLora(engine: string): boolean {
  return LORA_ENGINES.includes(engine);
}

/** More adapters than one ModelRoute can list. */
export function kthenaLoraErrors(md: ResolvedModelDeployment): FieldError[] {
  const names = loraAdapterNames(md.annotations);
  if (names.length <= KTHENA_MAX_LORA_ADAPTERS) return [];
  return [invalid(loraPath('adapters'), `${names.length} adapters`,
    `Kthena's ModelRoute routes at most ${KTHENA_MAX_LORA_ADAPTERS} LoRA adapters (spec.loraAdapters); serve at most ${KTHENA_MAX_LORA_ADAPTERS} ` +
      'on Kthena, or use the vllm or llmd provider (up to 32)')];
}

/** The ModelRoute's `loraAdapters`: the adapter names, sorted so the output does not depend on their order. */
export function kthenaRouteLoraAdapters(md: ResolvedModelDeployment): string[] {
  return loraAdapterNames(md.annotations).sort();
}
