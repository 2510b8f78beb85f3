/**
 * Multi-node replicas: each replica of a model too large for one node runs on several nodes, as
 * one engine over all their GPUs.
 *
 * `gpu.count` (`resources.gpu`, or a component's `scaling.prefill.gpu`/`scaling.decode.gpu`)
 * stays the GPUs of one replica, the engine's world size; a component whose count exceeds
 * `gpusPerNode` runs each replica as `gpu.count / gpusPerNode` pods of `gpusPerNode` GPUs each,
 * with tensor parallel size `gpusPerNode` and pipeline parallel size the number of pods unless
 * the engine flags set them. Written to the annotation `inference.cdk8s.io/multi-node`.
 */
export interface MultiNodeOptions {
  /**
   * GPUs of one node that a pod of a multi-node replica takes (1 to 64): the replica's GPU count
   * must be a multiple of it.
   */
  readonly gpusPerNode: number;
}

/**
 * The annotation value of the options (a YAML mapping).
 * @internal
 */
export function multiNodeAnnotationSpec(options: MultiNodeOptions): Record<string, unknown> {
  return { gpusPerNode: options.gpusPerNode };
}
