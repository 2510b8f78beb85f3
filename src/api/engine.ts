/**
 * Inference engines a ModelDeployment can run (AI Runway `EngineType`).
 */
export enum EngineType {
  /** vLLM. */
  VLLM = 'vllm',
  /** SGLang. */
  SGLANG = 'sglang',
  /** TensorRT-LLM. */
  TRTLLM = 'trtllm',
  /** llama.cpp (the only engine that runs on CPU with the shipped providers). */
  LLAMACPP = 'llamacpp',
}

/**
 * Engine settings of a ModelDeployment (`spec.engine`).
 */
export interface EngineOptions {
  /**
   * The engine to run.
   * @default - auto-selected from the capabilities of the ready providers: the first of
   * vllm, sglang, trtllm, llamacpp that some provider supports for this GPU/CPU and serving mode
   */
  readonly engineType?: EngineType;

  /**
   * Container image of the engine; preferred over the legacy `image` prop.
   * @default - the provider's default image
   */
  readonly image?: string;

  /**
   * Maximum context length in tokens (vLLM `--max-model-len`). Ignored by TensorRT-LLM.
   * @default - the engine's default (the model's own maximum)
   */
  readonly contextLength?: number;

  /**
   * Allow the engine to run code shipped with the model repository. Produces a warning.
   * @default false
   */
  readonly trustRemoteCode?: boolean;

  /**
   * Enable automatic prefix caching.
   * @default true
   */
  readonly enablePrefixCaching?: boolean;

  /**
   * Disable CUDA graphs and run in eager mode.
   * @default false
   */
  readonly enforceEager?: boolean;

  /**
   * Named engine flags, keyed by the flag name without leading dashes. An empty value renders a
   * boolean flag (`--flag`).
   * @default - no extra named flags
   */
  readonly args?: { [flag: string]: string };

  /**
   * Raw flags appended verbatim after every generated flag. A flag must not also appear in `args`.
   * @default - none
   */
  readonly extraArgs?: string[];
}
