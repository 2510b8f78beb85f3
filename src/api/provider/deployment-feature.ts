/**
 * A serving feature beyond AI Runway's API that a deployment can ask for and a provider may or
 * may not carry (`InferenceProvider.supportsFeature`). A deployment that asks for a feature its
 * provider lacks fails the synth with a field error naming the feature, the provider and the
 * registered providers that have it.
 */
export enum DeploymentFeature {
  /**
   * Replicas set by an autoscaler on LLM metrics (annotation `inference.cdk8s.io/autoscaling`):
   * KEDA or an HPA on the workload the provider names (`InferenceProvider.scaleTarget`), or the
   * target's own autoscaler.
   */
  AUTOSCALING = 'autoscaling',

  /**
   * `spec.scaling.replicas: 0` runs no pods. A provider without it renders one replica and warns,
   * as AI Runway does.
   */
  SCALE_TO_ZERO = 'scale-to-zero',

  /**
   * One replica spread over several nodes (annotation `inference.cdk8s.io/multi-node`), when it
   * needs more GPUs than one node has.
   */
  MULTI_NODE = 'multi-node',

  /**
   * LoRA adapters served beside the base model, each under its own model name (annotation
   * `inference.cdk8s.io/lora`).
   */
  LORA_ADAPTERS = 'lora-adapters',
}
