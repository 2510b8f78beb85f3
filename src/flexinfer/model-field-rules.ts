import { CACHE_STRATEGIES, MAX_GPU_COUNT, MAX_GPU_PRIORITY, MAX_MIN_REPLICAS, MAX_SERVICE_LABELS, ModelGpuJson } from './model-spec-json';
import { FieldError, forbidden, invalid, notSupported, required } from '../core/field-error';
import { parseGoDuration } from '../core/go-duration';

/*
 * The rules of single Model fields, each written once and called by everything that writes a
 * Model: the `FlexInferModel` construct (through `./model-rules`) with the Model's own paths
 * (`spec.gpu.count`), and the AI Runway provider with the field or annotation the user wrote
 * (`spec.resources.gpu.count`), so each user reads their own path. `path` is where the error is
 * reported; `written` is the value as the user wrote it (an annotation's string), shown in the
 * message, when it differs from the value the rule checks. Where the wording must name another
 * field the user sets (the shared group, the cache strategy), the caller passes its name.
 */

function isWholeNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/** ` (gpu.count)` when the user's field is not the Model field itself, so the message names what it becomes. */
function modelFieldNote(path: string, modelField: string): string {
  return path === `spec.${modelField}` ? '' : ` (${modelField})`;
}

/** `gpu.count`: 1 to 8 GPUs per replica. */
export function gpuCountErrors(path: string, count: number | undefined, written: unknown = count): FieldError[] {
  if (count === undefined || (isWholeNumber(count) && count >= 1 && count <= MAX_GPU_COUNT)) return [];
  return [invalid(path, written, `a FlexInfer Model takes 1 to ${MAX_GPU_COUNT} GPUs per replica${modelFieldNote(path, 'gpu.count')}`)];
}

/** `gpu.priority`: 0 to 1000 within the shared group. */
export function gpuPriorityErrors(path: string, priority: number | undefined, written: unknown = priority): FieldError[] {
  if (priority === undefined || (isWholeNumber(priority) && priority >= 0 && priority <= MAX_GPU_PRIORITY)) return [];
  return [invalid(path, written, `must be a whole number from 0 to ${MAX_GPU_PRIORITY}`)];
}

/** `gpu.vramEstimateMB`: a whole number of megabytes. */
export function vramEstimateErrors(path: string, megabytes: number | undefined, written: unknown = megabytes): FieldError[] {
  if (megabytes === undefined || (isWholeNumber(megabytes) && megabytes >= 1)) return [];
  return [invalid(path, written, 'must be a whole number of megabytes, at least 1')];
}

/** The Model's durations (`gpu.swapCooldown`, the serverless timeouts, `kvCache.reconfigureCooldown`): positive Go durations. */
export function positiveDurationErrors(path: string, duration: string | undefined, written: unknown = duration): FieldError[] {
  if (duration === undefined) return [];
  const ms = parseGoDuration(duration);
  if (ms !== undefined && ms > 0) return [];
  return [invalid(path, written, 'must be a positive Go duration such as "90s", "5m" or "1h30m"')];
}

/** A label value: FlexInfer labels the pods of a shared group with the group's name. */
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** `gpu.shared`: a group name usable as a label value. */
export function sharedGroupNameErrors(path: string, shared: string | undefined): FieldError[] {
  if (shared === undefined || (shared !== '' && shared.length <= 63 && LABEL_VALUE.test(shared))) return [];
  return [invalid(path, shared,
    'must be a group name usable as a label value (at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit): FlexInfer labels the pods of the group with it')];
}

/**
 * `gpu.priority` and `gpu.swapCooldown` order and pace the members of a shared GPU group, so they
 * need `gpu.shared`; `sharedField` is where the user sets the group.
 */
export function sharedGroupSettingErrors(
  gpu: ModelGpuJson,
  at: { readonly priority: string; readonly swapCooldown: string },
  sharedField: string,
  written: { readonly priority?: unknown; readonly swapCooldown?: unknown } = {},
): FieldError[] {
  if (gpu.shared) return [];
  const errors: FieldError[] = [];
  if (gpu.priority !== undefined) {
    errors.push(invalid(at.priority, written.priority ?? gpu.priority, `priority only orders the models of a shared GPU group; set ${sharedField} too`));
  }
  if (gpu.swapCooldown !== undefined) {
    errors.push(invalid(at.swapCooldown, written.swapCooldown ?? gpu.swapCooldown, `the swap cooldown belongs to a shared GPU group; set ${sharedField} too`));
  }
  return errors;
}

/** The `spec.gpu` fields the CRD's CEL rules forbid with vendor cpu. */
export type CpuForbiddenGpuField = 'count' | 'vramEstimateMB' | 'shared';

const CPU_VENDOR_RULES: Readonly<Record<CpuForbiddenGpuField, string>> = {
  count: 'gpu.count must be omitted when gpu.vendor is cpu',
  vramEstimateMB: 'gpu.vramEstimateMB must be omitted when gpu.vendor is cpu',
  shared: 'gpu.shared must be empty when gpu.vendor is cpu',
};

/**
 * The CRD's CEL rules on a CPU-only Model: no count, no VRAM estimate, no shared group. `at`
 * gives each field's path and, where the user's field is not the Model's, why it is one here.
 */
export function cpuVendorErrors(gpu: ModelGpuJson, at: (field: CpuForbiddenGpuField) => { path: string; because?: string }): FieldError[] {
  const present: CpuForbiddenGpuField[] = [
    ...(gpu.count !== undefined ? ['count' as const] : []),
    ...(gpu.vramEstimateMB !== undefined ? ['vramEstimateMB' as const] : []),
    ...(gpu.shared ? ['shared' as const] : []),
  ];
  return present.map((field) => {
    const { path, because } = at(field);
    return forbidden(path, `${CPU_VENDOR_RULES[field]}${because ? `: ${because}` : ''}`);
  });
}

/**
 * A backend that needs a GPU, on a Model that would run CPU-only. `value` is the user's value at
 * `path` (none: the field that would ask for a GPU is missing); `advice` says what to change, in
 * the user's terms.
 */
export function gpuOnlyBackendErrors(
  backendName: string,
  at: { readonly path: string; readonly value?: unknown; readonly advice: string },
): FieldError[] {
  const message = `FlexInfer's ${backendName} backend runs on NVIDIA or AMD GPUs only; ${at.advice}`;
  return [at.value === undefined ? required(at.path, message) : invalid(at.path, at.value, message)];
}

/**
 * The CRD requires the `node.flexstack.io/gpu-vendor` node selector to agree with a vendor other
 * than auto; `vendorSource` names what the vendor came from (`the Model (nvidia, from spec.gpu.vendor)`).
 */
export function vendorNodeSelectorErrors(path: string, selected: string | undefined, vendor: string, vendorSource: string): FieldError[] {
  if (selected === undefined || vendor === 'auto' || selected === vendor) return [];
  return [invalid(path, selected, `must match the GPU vendor of ${vendorSource}: the Model's CRD requires the two to agree`)];
}

/**
 * `serverless.minReplicas`: 0 to 10. Where the user's field is not minReplicas itself,
 * `replicasLabel` says what its value is to the Model (`a fixed replica count`), so the message
 * can say how it becomes one.
 */
export function minReplicasErrors(
  path: string,
  minReplicas: number | undefined,
  written: unknown = minReplicas,
  replicasLabel?: string,
): FieldError[] {
  if (minReplicas === undefined || (isWholeNumber(minReplicas) && minReplicas >= 0 && minReplicas <= MAX_MIN_REPLICAS)) return [];
  return [invalid(path, written, replicasLabel === undefined
    ? `must be a whole number from 0 to ${MAX_MIN_REPLICAS}`
    : `FlexInfer keeps ${replicasLabel} through serverless.minReplicas, at most ${MAX_MIN_REPLICAS}`)];
}

/** `cache.strategy`: one the CRD lists. */
export function cacheStrategyErrors(path: string, strategy: string | undefined): FieldError[] {
  if (strategy === undefined || CACHE_STRATEGIES.includes(strategy)) return [];
  return [notSupported(path, strategy, CACHE_STRATEGIES)];
}

/** `cache.hostPath`: an absolute path on the node. */
export function cacheHostPathErrors(path: string, hostPath: string | undefined): FieldError[] {
  if (hostPath === undefined || hostPath.startsWith('/')) return [];
  return [invalid(path, hostPath, 'must be an absolute path on the node')];
}

/**
 * A cache field that configures one strategy only (`pvcName`, `storageClass` and `size` are
 * SharedPVC's, `hostPath` is Local's), set under another; `strategyField` is where the user picks
 * the strategy.
 */
export function cacheStrategyFieldErrors(path: string, value: unknown, needs: string, strategy: string, strategyField: string): FieldError[] {
  if (value === undefined || strategy === needs) return [];
  return [invalid(path, value, `only applies to the ${needs} cache strategy (here: ${strategy}); set ${strategyField}: ${needs}`)];
}

/** `serviceLabels`: at most 10. */
export function serviceLabelCountErrors(path: string, labels: readonly string[], written: unknown = labels): FieldError[] {
  if (labels.length <= MAX_SERVICE_LABELS) return [];
  return [invalid(path, written, `lists ${labels.length} names; a FlexInfer Model takes at most ${MAX_SERVICE_LABELS}`)];
}
