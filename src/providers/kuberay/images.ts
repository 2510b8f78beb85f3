/**
 * KubeRay's default image, in a module of its own so that the warnings can name it without
 * loading the translator (and the generated bindings it brings).
 */
import { defaultImageRef } from '../../core/version-matrix';

/** Image of the head and worker containers when the spec names none (AI Runway's default). */
export const KUBERAY_DEFAULT_IMAGE = defaultImageRef('kuberay', 'vllm');


/**
 * The vLLM argument table (`common/generated/engine-arguments`) that types the Serve config's
 * `engine_kwargs`: the vLLM release the default image carries (ray[llm]==2.60.0 pins vLLM 0.29.0;
 * its parser is read from the ray-2.60.0 venv, scripts/engine-parsers/engines.py).
 */
export const KUBERAY_VLLM_ARGUMENTS_ID = 'vllm-0.29.0';
