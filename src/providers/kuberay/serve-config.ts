/**
 * `spec.serveConfigV2` of the RayService: one Serve application built by Ray Serve LLM, which the
 * Ray image ships (`ray.serve.llm`, the `llm` extra of ray 2.55):
 *
 * - aggregated: `ray.serve.llm:build_openai_app` with one LLM config;
 * - prefill/decode: `ray.serve.llm:build_pd_openai_app` with a prefill and a decode config, each
 *   engine with NIXL KV transfer, behind Ray Serve LLM's P/D router.
 *
 * An LLM config names the model (`model_loading_config`: served as `model_id`, loaded from
 * `model_source`), the vLLM engine's arguments (`engine_kwargs`, `./engine-kwargs`) and the Serve
 * deployment's replicas (`deployment_config`: `num_replicas`, or Ray Serve's `autoscaling_config`).
 * AI Runway's KubeRay provider names `vllm_serve:deployment`, a module neither ray nor vLLM ships,
 * and renders prefill/decode as one aggregated deployment (README, "Where we differ").
 *
 * Written as indented JSON, which is YAML: KubeRay reads the field as YAML, the text reviews like
 * the rest of the output, and no YAML library is loaded for every KubeRay synth.
 */

/** Name of the single Ray Serve application. */
export const SERVE_APPLICATION_NAME = 'llm';
/** HTTP route prefix of the application. */
export const SERVE_ROUTE_PREFIX = '/';
/** Ray Serve LLM's builder of an OpenAI-compatible application. */
export const SERVE_IMPORT_PATH = 'ray.serve.llm:build_openai_app';
/** Ray Serve LLM's builder of a prefill/decode application. */
export const SERVE_PD_IMPORT_PATH = 'ray.serve.llm:build_pd_openai_app';

/**
 * The number of Serve replicas: `replicas` when positive, else 1 (AI Runway's rule; disaggregated
 * components are used as given by the CRD, which defaults them to 1).
 */
export function serveReplicas(configuredReplicas: number | undefined): number {
  return configuredReplicas !== undefined && configuredReplicas > 0 ? configuredReplicas : 1;
}

/** One Ray Serve LLM config. */
export interface LlmConfig {
  /** The name clients ask for (`model` in requests). */
  readonly modelId: string;
  /** Where vLLM loads the model from (a Hugging Face id). */
  readonly modelSource: string;
  readonly engineKwargs: Readonly<Record<string, unknown>>;
  /** A fixed number of replicas, or Ray Serve's autoscaling. */
  readonly replicas: number;
  readonly autoscalingConfig?: Readonly<Record<string, number>>;
}

function llmConfigJson(c: LlmConfig): Record<string, unknown> {
  return {
    model_loading_config: { model_id: c.modelId, model_source: c.modelSource },
    engine_kwargs: c.engineKwargs,
    // Ray Serve takes a fixed `num_replicas` or an `autoscaling_config`, not both.
    deployment_config: c.autoscalingConfig ? { autoscaling_config: c.autoscalingConfig } : { num_replicas: c.replicas },
  };
}

/** The serve config of an aggregated deployment. */
export function kuberayServeConfig(config: LlmConfig): string {
  return serveConfigText(SERVE_IMPORT_PATH, { llm_configs: [llmConfigJson(config)] });
}

/** The serve config of a prefill/decode deployment. */
export function kuberayPdServeConfig(prefill: LlmConfig, decode: LlmConfig): string {
  return serveConfigText(SERVE_PD_IMPORT_PATH, { prefill_config: llmConfigJson(prefill), decode_config: llmConfigJson(decode) });
}

function serveConfigText(importPath: string, args: Record<string, unknown>): string {
  const config = { applications: [{ name: SERVE_APPLICATION_NAME, route_prefix: SERVE_ROUTE_PREFIX, import_path: importPath, args }] };
  return `${JSON.stringify(config, null, 2)}\n`;
}
