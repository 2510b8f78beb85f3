/**
 * How the model is served (AI Runway `ServingMode`).
 */
export enum ServingMode {
  /** Prefill and decode in the same pods. */
  AGGREGATED = 'aggregated',
  /** Separate prefill and decode workers (`scaling.prefill` and `scaling.decode` required). */
  DISAGGREGATED = 'disaggregated',
}

/**
 * API formats an engine can expose (AI Runway `APIFormat`).
 */
export enum ApiFormat {
  /** OpenAI chat completions. */
  OPENAI_CHAT = 'openai-chat',
  /** OpenAI responses. */
  OPENAI_RESPONSES = 'openai-responses',
  /** Anthropic messages. */
  ANTHROPIC_MESSAGES = 'anthropic-messages',
}
