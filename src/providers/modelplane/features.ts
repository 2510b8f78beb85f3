/**
 * The deployment features modelplane cannot express, each with the shipped targets that can
 * (issue 10, point 4: a refusal names the feature, the target and where to go instead).
 *
 * Kept as data here because an InferenceProviderConfig has no capability field for them (it
 * knows engines, serving modes and GPU/CPU only; those refusals come from admission, which names
 * the alternatives from the registered configs). The target lists name the shipped providers
 * whose translations render the feature.
 */
import { MODELPLANE_PROVIDER_NAME } from './config';
import { FieldError, invalid } from '../../core/field-error';

/** A feature modelplane lacks. */
export interface LackingFeature {
  /** What the user asked for, in their terms. */
  readonly feature: string;
  /** Shipped targets that render it. */
  readonly targets: readonly string[];
}

const POD_LEVEL_TARGETS = ['dynamo', 'kuberay', 'llmd', 'vllm'] as const;

export const PVC_MOUNTS: LackingFeature = { feature: 'mounting a PersistentVolumeClaim', targets: POD_LEVEL_TARGETS };
export const NODE_SELECTOR: LackingFeature = { feature: 'node selection by labels', targets: POD_LEVEL_TARGETS };
export const POD_TOLERATIONS: LackingFeature = { feature: 'pod tolerations', targets: POD_LEVEL_TARGETS };
export const CPU_MEMORY_REQUESTS: LackingFeature = { feature: 'CPU and memory requests', targets: POD_LEVEL_TARGETS };
export const ENV_SOURCES: LackingFeature = { feature: 'environment values from this source', targets: POD_LEVEL_TARGETS };
export const GPU_EXTENDED_RESOURCE: LackingFeature = { feature: 'requesting GPUs of this type without DRA device requests', targets: POD_LEVEL_TARGETS };
export const GATEWAY_ROUTING: LackingFeature = {
  feature: 'routing through an InferencePool and HTTPRoute of ours',
  targets: ['dynamo', 'kaito', 'kuberay', 'llmd', 'vllm'],
};
export const CPU_SERVING: LackingFeature = { feature: 'serving without GPUs', targets: ['kaito'] };
export const SGLANG_DISAGGREGATED: LackingFeature = { feature: 'disaggregated serving with sglang', targets: ['dynamo'] };

/** Per engine modelplane does not run, the targets that do. */
export const ENGINE_TARGETS: Readonly<Record<string, readonly string[]>> = {
  trtllm: ['dynamo'],
  llamacpp: ['kaito'],
};

/**
 * `target modelplane does not support <feature>: <why>; targets that have it: <targets>`,
 * as an Invalid field error at `path`.
 */
export function lacking(path: string, value: unknown, lacks: LackingFeature, why: string): FieldError {
  return invalid(path, value, `target ${MODELPLANE_PROVIDER_NAME} does not support ${lacks.feature}: ${why}; targets that have it: ${lacks.targets.join(', ')}`);
}
