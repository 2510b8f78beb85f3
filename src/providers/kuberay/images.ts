/**
 * KubeRay's default image, in a module of its own so that the warnings can name it without
 * loading the translator (and the generated bindings it brings).
 */

/** Image of the head and worker containers when the spec names none (AI Runway's default). */
export const KUBERAY_DEFAULT_IMAGE = 'rayproject/ray-llm:2.55.0-py311-cu128';

