/**
 * Provider choice and escape hatch (`spec.provider`).
 */
export interface ProviderOptions {
  /**
   * Name of the provider (an InferenceProviderConfig in the registry), e.g. `vllm`.
   * @default - auto-selected from the registry's capabilities and selection rules
   */
  readonly name?: string;

  /**
   * Provider-specific overrides deep-merged into the provider's objects. Keys that affect
   * security or sizing (`securityContext`, `replicas`, `resources`, ...) are rejected at any depth.
   * @default - none
   */
  readonly overrides?: { [key: string]: any };
}
