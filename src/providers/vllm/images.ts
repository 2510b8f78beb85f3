/**
 * Direct vLLM's default image, in a module of its own so that the warnings can name it without
 * loading the translator (and the generated bindings it brings).
 */

/** Repository of the default Direct vLLM image. */
export const DIRECT_VLLM_IMAGE_REPOSITORY = 'vllm/vllm-openai';
/** Tag of the default Direct vLLM image (AI Runway's `VLLM_VERSION`). */
export const DIRECT_VLLM_VERSION = 'cu130-nightly';
/**
 * The image used when the spec names none. AI Runway's controller pins it to a digest at run time
 * (`status.image.resolved`); at build time there is no registry lookup, so the tag is used.
 */
export const DIRECT_VLLM_DEFAULT_IMAGE = `${DIRECT_VLLM_IMAGE_REPOSITORY}:${DIRECT_VLLM_VERSION}`;

