/**
 * Rules of the ModelRoute that the Kthena provider's ModelRoute can break too, as functions of
 * the value and the field path to report (the construct's `spec.loraAdapters`, the provider's
 * LoRA annotation). Internal: not exported from the package.
 */
import { FieldError, invalid } from '../core/field-error';

/** Longest `spec.loraAdapters` the CRD accepts. */
export const MAX_LORA_ADAPTERS = 10;

/**
 * `count` LoRA adapters at `path`: at most 10 in one route. `advice` (what else the reader can
 * do) is added to the message after a `;`.
 */
export function loraAdapterCountErrors(path: string, count: number, advice?: string): FieldError[] {
  if (count <= MAX_LORA_ADAPTERS) return [];
  return [invalid(
    path,
    `${count} adapters`,
    `Kthena's ModelRoute routes at most ${MAX_LORA_ADAPTERS} LoRA adapters (spec.loraAdapters)${advice !== undefined ? `; ${advice}` : ''}`,
  )];
}
