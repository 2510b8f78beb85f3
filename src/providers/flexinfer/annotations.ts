import { FieldError, invalid, notSupported } from '../../core/field-error';
import { parseGoDuration } from '../../core/go-duration';
import { CACHE_STRATEGIES, MAX_GPU_PRIORITY, MAX_SERVICE_LABELS } from '../../flexinfer/model-spec-json';

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

/** A label value: FlexInfer labels the pods of a shared group with its name. */
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function bool(errors: FieldError[], annotations: Record<string, string>, key: string): boolean {
  const value = annotations[key];
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  errors.push(notSupported(annotationPath(key), value, ['true', 'false']));
  return false;
}

function int(errors: FieldError[], annotations: Record<string, string>, key: string, min: number, max: number): number | undefined {
  const value = annotations[key];
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    errors.push(invalid(annotationPath(key), value, `must be a whole number from ${min} to ${max}`));
    return undefined;
  }
  return n;
}

function duration(errors: FieldError[], annotations: Record<string, string>, key: string): string | undefined {
  const value = annotations[key];
  if (value === undefined) return undefined;
  const ms = parseGoDuration(value.trim());
  if (ms === undefined || ms <= 0) {
    errors.push(invalid(annotationPath(key), value, 'must be a positive Go duration such as "90s", "5m" or "1h30m"'));
    return undefined;
  }
  return value.trim();
}

function list(errors: FieldError[], annotations: Record<string, string>, key: string, max?: number): string[] {
  const value = annotations[key];
  if (value === undefined) return [];
  const items = value.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) {
    errors.push(invalid(annotationPath(key), value, 'must be a comma-separated list of non-empty names'));
    return [];
  }
  if (max !== undefined && items.length > max) {
    errors.push(invalid(annotationPath(key), value, `lists ${items.length} names; a FlexInfer Model takes at most ${max}`));
    return [];
  }
  return items;
}

/**
 * Reads the `inference.cdk8s.io/flexinfer-*` annotations, each checked on its own (the rules that
 * combine them with the spec are the provider's validation): an unknown name with the prefix,
 * a boolean other than "true"/"false", a number out of the CRD's range, a duration Go cannot
 * parse, a cache strategy the CRD does not list, a group name that is not a label value, an
 * empty list item or too many service labels are field errors at the annotation's path.
 */
export function readFlexInferAnnotations(annotations: Record<string, string>): { settings: FlexInferAnnotations; errors: FieldError[] } {
  const errors: FieldError[] = [];
  for (const key of Object.keys(annotations).sort()) {
    if (key.startsWith(FLEXINFER_ANNOTATION_PREFIX) && !FLEXINFER_ANNOTATIONS.includes(key)) {
      errors.push(notSupported('metadata.annotations', key, FLEXINFER_ANNOTATIONS));
    }
  }

  const shared = annotations[GPU_SHARED_ANNOTATION];
  if (shared !== undefined && (shared === '' || shared.length > 63 || !LABEL_VALUE.test(shared))) {
    errors.push(invalid(annotationPath(GPU_SHARED_ANNOTATION), shared,
      'must be a group name usable as a label value (at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit): FlexInfer labels the pods of the group with it'));
  }
  const strategy = annotations[CACHE_STRATEGY_ANNOTATION];
  if (strategy !== undefined && !CACHE_STRATEGIES.includes(strategy)) {
    errors.push(notSupported(annotationPath(CACHE_STRATEGY_ANNOTATION), strategy, CACHE_STRATEGIES));
  }
  const hostPath = annotations[CACHE_HOST_PATH_ANNOTATION];
  if (hostPath !== undefined && !hostPath.startsWith('/')) {
    errors.push(invalid(annotationPath(CACHE_HOST_PATH_ANNOTATION), hostPath, 'must be an absolute path on the node'));
  }
  const copilot = annotations[LITELLM_COPILOT_ALIAS_ANNOTATION];
  if (copilot !== undefined && copilot.trim() === '') {
    errors.push(invalid(annotationPath(LITELLM_COPILOT_ALIAS_ANNOTATION), copilot, 'must be a model name'));
  }

  const settings: FlexInferAnnotations = {
    gpuShared: shared || undefined,
    gpuPriority: int(errors, annotations, GPU_PRIORITY_ANNOTATION, 0, MAX_GPU_PRIORITY),
    gpuSwapCooldown: duration(errors, annotations, GPU_SWAP_COOLDOWN_ANNOTATION),
    vramEstimateMB: int(errors, annotations, VRAM_ESTIMATE_ANNOTATION, 1, Number.MAX_SAFE_INTEGER),
    scaleToZero: bool(errors, annotations, SCALE_TO_ZERO_ANNOTATION),
    idleTimeout: duration(errors, annotations, IDLE_TIMEOUT_ANNOTATION),
    coldStartTimeout: duration(errors, annotations, COLD_START_TIMEOUT_ANNOTATION),
    cacheStrategy: strategy !== undefined && CACHE_STRATEGIES.includes(strategy) ? strategy : undefined,
    cacheHostPath: hostPath,
    liteLlm: bool(errors, annotations, LITELLM_ANNOTATION),
    liteLlmAliases: list(errors, annotations, LITELLM_ALIASES_ANNOTATION),
    liteLlmCopilotAlias: copilot?.trim() || undefined,
    serviceLabels: list(errors, annotations, SERVICE_LABELS_ANNOTATION, MAX_SERVICE_LABELS),
  };
  return { settings, errors };
}
