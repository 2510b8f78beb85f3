import { FieldError, invalid, notSupported } from '../../core/field-error';
import {
  cacheHostPathErrors,
  cacheStrategyErrors,
  gpuPriorityErrors,
  positiveDurationErrors,
  serviceLabelCountErrors,
  sharedGroupNameErrors,
  vramEstimateErrors,
} from '../../flexinfer/model-field-rules';

/*
 * The FlexInfer settings a ModelDeployment carries as annotations. AI Runway's spec has no field
 * for GPU sharing, scale-to-zero, cache strategy or LiteLLM discovery; they are per deployment
 * (which models share a GPU, which one may idle), so they travel with the deployment — from
 * TypeScript (`metadata.annotations`) and from AI Runway YAML through the CLI alike — and the
 * in-cluster controller sees the same values on the record. Settings of the whole cluster (the
 * default images) are `FlexInferProvider` props instead.
 */

/** Common prefix of the annotations. */
export const FLEXINFER_ANNOTATION_PREFIX = 'inference.cdk8s.io/flexinfer-';

/** `gpu.shared`: the shared GPU group the model time-shares a GPU with. */
export const GPU_SHARED_ANNOTATION = `${FLEXINFER_ANNOTATION_PREFIX}gpu-shared`;
/** `gpu.priority` (0–1000) within the shared group. */
export const GPU_PRIORITY_ANNOTATION = `${FLEXINFER_ANNOTATION_PREFIX}gpu-priority`;
/** `gpu.swapCooldown` (Go duration) of the shared group. */
export const GPU_SWAP_COOLDOWN_ANNOTATION = `${FLEXINFER_ANNOTATION_PREFIX}gpu-swap-cooldown`;
/** `gpu.vramEstimateMB`: estimated VRAM in MB, for bin-packing. */
export const VRAM_ESTIMATE_ANNOTATION = `${FLEXINFER_ANNOTATION_PREFIX}vram-estimate-mb`;
/** `"true"`: scale to zero when idle (`serverless.minReplicas: 0`). */
export const SCALE_TO_ZERO_ANNOTATION = `${FLEXINFER_ANNOTATION_PREFIX}scale-to-zero`;
/** `serverless.idleTimeout` (Go duration); with scale-to-zero. */
export const IDLE_TIMEOUT_ANNOTATION = `${FLEXINFER_ANNOTATION_PREFIX}idle-timeout`;
/** `serverless.coldStartTimeout` (Go duration); with scale-to-zero. */
export const COLD_START_TIMEOUT_ANNOTATION = `${FLEXINFER_ANNOTATION_PREFIX}cold-start-timeout`;
/** `cache.strategy`: Memory, SharedPVC, Local or None. */
export const CACHE_STRATEGY_ANNOTATION = `${FLEXINFER_ANNOTATION_PREFIX}cache-strategy`;
/** `cache.hostPath` of the Local strategy. */
export const CACHE_HOST_PATH_ANNOTATION = `${FLEXINFER_ANNOTATION_PREFIX}cache-host-path`;
/** `"true"`: LiteLLM discovery annotations on the Model's Service (`spec.litellm`). */
export const LITELLM_ANNOTATION = `${FLEXINFER_ANNOTATION_PREFIX}litellm`;
/** `litellm.aliases`, comma-separated. */
export const LITELLM_ALIASES_ANNOTATION = `${FLEXINFER_ANNOTATION_PREFIX}litellm-aliases`;
/** `litellm.copilotAlias`. */
export const LITELLM_COPILOT_ALIAS_ANNOTATION = `${FLEXINFER_ANNOTATION_PREFIX}litellm-copilot-alias`;
/** `serviceLabels`, comma-separated (at most 10). */
export const SERVICE_LABELS_ANNOTATION = `${FLEXINFER_ANNOTATION_PREFIX}service-labels`;

/** Every annotation the provider reads; another one with the prefix is a typo. */
export const FLEXINFER_ANNOTATIONS: readonly string[] = [
  GPU_SHARED_ANNOTATION,
  GPU_PRIORITY_ANNOTATION,
  GPU_SWAP_COOLDOWN_ANNOTATION,
  VRAM_ESTIMATE_ANNOTATION,
  SCALE_TO_ZERO_ANNOTATION,
  IDLE_TIMEOUT_ANNOTATION,
  COLD_START_TIMEOUT_ANNOTATION,
  CACHE_STRATEGY_ANNOTATION,
  CACHE_HOST_PATH_ANNOTATION,
  LITELLM_ANNOTATION,
  LITELLM_ALIASES_ANNOTATION,
  LITELLM_COPILOT_ALIAS_ANNOTATION,
  SERVICE_LABELS_ANNOTATION,
];

/** Field path of an annotation, in messages. */
export function annotationPath(key: string): string {
  return `metadata.annotations[${JSON.stringify(key)}]`;
}

/** The FlexInfer settings of one deployment, read from its annotations. */
export interface FlexInferAnnotations {
  readonly gpuShared?: string;
  readonly gpuPriority?: number;
  readonly gpuSwapCooldown?: string;
  readonly vramEstimateMB?: number;
  readonly scaleToZero: boolean;
  readonly idleTimeout?: string;
  readonly coldStartTimeout?: string;
  readonly cacheStrategy?: string;
  readonly cacheHostPath?: string;
  readonly liteLlm: boolean;
  readonly liteLlmAliases: string[];
  readonly liteLlmCopilotAlias?: string;
  readonly serviceLabels: string[];
}

function bool(errors: FieldError[], annotations: Record<string, string>, key: string): boolean {
  const value = annotations[key];
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  errors.push(notSupported(annotationPath(key), value, ['true', 'false']));
  return false;
}

type FieldRule<T> = (path: string, value: T | undefined, written: unknown) => FieldError[];

/** The annotation's value as `parse` reads it, kept only if the Model field's `rule` accepts it. */
function checked<T>(
  errors: FieldError[],
  annotations: Record<string, string>,
  key: string,
  parse: (raw: string) => T,
  rule: FieldRule<T>,
): T | undefined {
  const raw = annotations[key];
  if (raw === undefined) return undefined;
  const value = parse(raw);
  const problems = rule(annotationPath(key), value, raw);
  errors.push(...problems);
  return problems.length > 0 ? undefined : value;
}

function trim(raw: string): string {
  return raw.trim();
}

/** A whole number written in digits; anything else reads as NaN, which the field's rule refuses. */
function wholeNumber(raw: string): number {
  const trimmed = raw.trim();
  return /^\d+$/.test(trimmed) && Number.isSafeInteger(Number(trimmed)) ? Number(trimmed) : NaN;
}

function list(errors: FieldError[], annotations: Record<string, string>, key: string): string[] {
  const value = annotations[key];
  if (value === undefined) return [];
  const items = value.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) {
    errors.push(invalid(annotationPath(key), value, 'must be a comma-separated list of non-empty names'));
    return [];
  }
  return items;
}

function serviceLabelsOf(errors: FieldError[], annotations: Record<string, string>): string[] {
  const labels = list(errors, annotations, SERVICE_LABELS_ANNOTATION);
  const tooMany = serviceLabelCountErrors(annotationPath(SERVICE_LABELS_ANNOTATION), labels, annotations[SERVICE_LABELS_ANNOTATION]);
  errors.push(...tooMany);
  return tooMany.length > 0 ? [] : labels;
}

/**
 * Reads the `inference.cdk8s.io/flexinfer-*` annotations, each checked on its own (the rules that
 * combine them with the spec are the provider's validation): an unknown name with the prefix, a
 * boolean other than "true"/"false" and an empty list item are field errors at the annotation's
 * path, and so is a value the Model field it sets refuses (`../../flexinfer/model-field-rules`:
 * ranges, durations, the cache strategy, the group name, the number of service labels).
 */
export function readFlexInferAnnotations(annotations: Record<string, string>): { settings: FlexInferAnnotations; errors: FieldError[] } {
  const errors: FieldError[] = [];
  for (const key of Object.keys(annotations).sort()) {
    if (key.startsWith(FLEXINFER_ANNOTATION_PREFIX) && !FLEXINFER_ANNOTATIONS.includes(key)) {
      errors.push(notSupported('metadata.annotations', key, FLEXINFER_ANNOTATIONS));
    }
  }

  const shared = annotations[GPU_SHARED_ANNOTATION];
  errors.push(...sharedGroupNameErrors(annotationPath(GPU_SHARED_ANNOTATION), shared));
  const strategy = annotations[CACHE_STRATEGY_ANNOTATION];
  const strategyErrors = cacheStrategyErrors(annotationPath(CACHE_STRATEGY_ANNOTATION), strategy);
  errors.push(...strategyErrors);
  const hostPath = annotations[CACHE_HOST_PATH_ANNOTATION];
  errors.push(...cacheHostPathErrors(annotationPath(CACHE_HOST_PATH_ANNOTATION), hostPath));
  const copilot = annotations[LITELLM_COPILOT_ALIAS_ANNOTATION];
  if (copilot !== undefined && copilot.trim() === '') {
    errors.push(invalid(annotationPath(LITELLM_COPILOT_ALIAS_ANNOTATION), copilot, 'must be a model name'));
  }

  const settings: FlexInferAnnotations = {
    gpuShared: shared || undefined,
    gpuPriority: checked(errors, annotations, GPU_PRIORITY_ANNOTATION, wholeNumber, gpuPriorityErrors),
    gpuSwapCooldown: checked(errors, annotations, GPU_SWAP_COOLDOWN_ANNOTATION, trim, positiveDurationErrors),
    vramEstimateMB: checked(errors, annotations, VRAM_ESTIMATE_ANNOTATION, wholeNumber, vramEstimateErrors),
    scaleToZero: bool(errors, annotations, SCALE_TO_ZERO_ANNOTATION),
    idleTimeout: checked(errors, annotations, IDLE_TIMEOUT_ANNOTATION, trim, positiveDurationErrors),
    coldStartTimeout: checked(errors, annotations, COLD_START_TIMEOUT_ANNOTATION, trim, positiveDurationErrors),
    cacheStrategy: strategyErrors.length === 0 ? strategy : undefined,
    cacheHostPath: hostPath,
    liteLlm: bool(errors, annotations, LITELLM_ANNOTATION),
    liteLlmAliases: list(errors, annotations, LITELLM_ALIASES_ANNOTATION),
    liteLlmCopilotAlias: copilot?.trim() || undefined,
    serviceLabels: serviceLabelsOf(errors, annotations),
  };
  return { settings, errors };
}
