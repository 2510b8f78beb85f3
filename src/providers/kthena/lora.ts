import { loraAdapterNames, loraPath } from '../../api/lora/lora-annotation';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import type { FieldError } from '../../core/field-error';
import { loraAdapterCountErrors, MAX_LORA_ADAPTERS } from '../../kthena/model-route-rules';
import { LORA_ENGINES } from '../../lora/engine-flags';

/*
 * LoRA adapters on Kthena: the engine pods load them like every vLLM pod of ours (flags, download
 * init containers, mounts), and the ModelRoute lists their names in `loraAdapters`, which is how
 * kthena-router knows that a request for an adapter goes to this deployment's ModelServer (it then
 * leaves the request's `model` as the adapter name instead of rewriting it to the base model).
 */

/** Whether Kthena serves the deployment's adapters: with an engine that answers to adapter names. */
export function kthenaServesLora(engine: string): boolean {
  return LORA_ENGINES.includes(engine);
}

/** More adapters than one ModelRoute can list. */
export function kthenaLoraErrors(md: ResolvedModelDeployment): FieldError[] {
  return loraAdapterCountErrors(loraPath('adapters'), loraAdapterNames(md.annotations).length,
    `serve at most ${MAX_LORA_ADAPTERS} on Kthena, or use the vllm or llmd provider (up to 32)`);
}

/** The ModelRoute's `loraAdapters`: the adapter names, sorted so the output does not depend on their order. */
export function kthenaRouteLoraAdapters(md: ResolvedModelDeployment): string[] {
  return loraAdapterNames(md.annotations).sort();
}
