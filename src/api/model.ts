/**
 * Where the model comes from (AI Runway `ModelSource`).
 */
export enum ModelSource {
  /** A HuggingFace repository; `id` is required. */
  HUGGINGFACE = 'huggingface',
  /** A model baked into a custom image; the container defines the served name. */
  CUSTOM = 'custom',
}

/**
 * The model to serve (`spec.model`, without storage: see `ModelDeploymentProps.storage`).
 */
export interface ModelOptions {
  /**
   * HuggingFace repository id, e.g. `Qwen/Qwen3-0.6B`.
   * @default - none; required when `source` is `HUGGINGFACE`
   */
  readonly id?: string;

  /**
   * Name the API serves the model under (and the routed model name when the gateway is on).
   * Ignored, with a warning, for `CUSTOM` sources.
   * @default - the model id
   */
  readonly servedName?: string;

  /**
   * Where the model comes from.
   * @default ModelSource.HUGGINGFACE
   */
  readonly source?: ModelSource;
}
