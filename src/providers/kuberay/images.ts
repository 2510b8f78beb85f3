/**
 * KubeRay's default image, in a module of its own so that the warnings can name it without
 * loading the translator (and the generated bindings it brings).
 */
import { defaultImageRef } from '../../core/version-matrix';

/** Image of the head and worker containers when the spec names none (AI Runway's default). */
export const KUBERAY_DEFAULT_IMAGE = defaultImageRef('kuberay', 'vllm');


/**
 * The vLLM argument table (`common/generated/engine-arguments`) that types the Serve config's
 * `engine_kwargs`. The ray-llm 2.55 image requires vLLM >= 0.18.0 (ray's `llm` extra); the names
 * of vLLM's engine arguments are the ones of the newest release whose parser is extracted here.
 */
export const KUBERAY_VLLM_ARGUMENTS_ID = 'vllm-0.11.0';
