/**
 * llm-d's default image, in a module of its own so that the warnings can name it without loading
 * the translator (and the generated bindings it brings).
 */
import { defaultImageRef } from '../../core/version-matrix';

/** The image of llm-d's vLLM containers when the spec names none (AI Runway's llm-d default). */
export const LLMD_DEFAULT_IMAGE = defaultImageRef('llmd', 'vllm');

