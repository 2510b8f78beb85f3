/**
 * How a modelplane deployment serves its engines (`spec.template.spec.serving.mode`) and the
 * phase an engine takes in prefill/decode serving (`engines[].phase`).
 */

/** `serving.mode`. */
export enum ModelplaneServingMode {
  /** Prefill and decode on the same engine(s). */
  UNIFIED = 'Unified',
  /** Two engines, one per phase, with inference-aware routing that runs prefill, then decode. */
  PREFILL_DECODE = 'PrefillDecode',
}

/** `engines[].phase`: only in `ModelplaneServingMode.PREFILL_DECODE`, one engine each. */
export enum ModelplaneEnginePhase {
  /** Computes the prompt's KV cache and hands it over. */
  PREFILL = 'Prefill',
  /** Generates the tokens from the transferred KV cache. */
  DECODE = 'Decode',
}
