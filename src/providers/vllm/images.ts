/**
 * Direct vLLM's default image, in a module of its own so that the warnings can name it without
 * loading the translator (and the generated bindings it brings).
 */
import { defaultImageOf } from '../../core/version-matrix';

/** Repository of the default Direct vLLM image. */
export const DIRECT_VLLM_IMAGE_REPOSITORY = defaultImageOf('vllm', 'vllm').repository;
/**
 * Tag of the default Direct vLLM image: a released vLLM. AI Runway's `VLLM_VERSION` is
 * `cu130-nightly`, a moving tag whose controller pins a digest at run time; built output has no
 * such step, so a nightly default would pull a different build on every new node. The release
 * is the one the Kthena and modelplane providers run, so every provider's vLLM is the same build.
 */
export const DIRECT_VLLM_VERSION = defaultImageOf('vllm', 'vllm').tag;
/**
 * The image used when the spec names none. AI Runway's controller pins it to a digest at run time
 * (`status.image.resolved`); at build time there is no registry lookup, so the tag is used.
 */
export const DIRECT_VLLM_DEFAULT_IMAGE = `${DIRECT_VLLM_IMAGE_REPOSITORY}:${DIRECT_VLLM_VERSION}`;

