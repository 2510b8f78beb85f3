/**
 * How every provider that starts vLLM itself (Direct vLLM, llm-d, Kthena, modelplane, the
 * multi-node leader) runs it: `vllm serve <model> <flags>`, with the command set by us.
 *
 * - The model is `vllm serve`'s positional (`model_tag`): `--model` is deprecated under
 *   `vllm serve` since vLLM 0.20, and in the releases before (0.9.1, 0.11.0) `vllm serve` refuses
 *   it outright with a ValueError. The positional form is the one every release from 0.9.1 to
 *   0.33.0 accepts (test/fixtures/engine-parsers/vllm-*-serve.json, and the real parsers).
 * - The command is ours, not the image's entrypoint: `vllm/vllm-openai` images run
 *   `python3 -m vllm.entrypoints.openai.api_server` up to v0.19 and `vllm serve` from v0.20 on
 *   (vLLM's docker/Dockerfile), and the API server module takes no positional. Setting the
 *   command keeps the program the same on a pinned older image (README, "Pinning images").
 */
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';

/** The container command of a vLLM server. */
export const VLLM_SERVE_COMMAND: readonly string[] = ['vllm', 'serve'];

/**
 * The positional model argument: `[spec.model.id]` (AI Runway passes the id even when empty, for a
 * custom source), or `[]` when the user names the model with their own `--model` in `engine.args`
 * or `extraArgs` (`explicit`): `vllm serve` takes the positional over `--model`, so both would
 * silently drop the user's.
 */
export function vllmServeModel(spec: ModelDeploymentSpec, explicit: ReadonlySet<string>, model: string = spec.model.id ?? ''): string[] {
  return explicit.has('model') ? [] : [model];
}
