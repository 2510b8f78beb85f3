/** The serving layout of a ModelBooster backend (`backend.type`). */
export enum KthenaBackendType {
  /** Aggregated vLLM: one `server` worker. */
  VLLM = 'vLLM',
  /** Prefill/decode vLLM: one `prefill` and one `decode` worker. */
  VLLM_DISAGGREGATED = 'vLLMDisaggregated',
}

/** The part a ModelBooster worker plays (`workers[].type`). */
export enum KthenaWorkerType {
  /** The whole engine (vLLM). */
  SERVER = 'server',
  /** Prefill instances (vLLMDisaggregated). */
  PREFILL = 'prefill',
  /** Decode instances (vLLMDisaggregated). */
  DECODE = 'decode',
  /** A controller (no backend type Kthena accepts today uses it). */
  CONTROLLER = 'controller',
  /** A coordinator (no backend type Kthena accepts today uses it). */
  COORDINATOR = 'coordinator',
}
