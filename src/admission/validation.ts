import { checkProviderCompatibility, CompatibilityViolation } from './compatibility';
import { validateProviderOverrides } from './overrides-filter';
import type { SimulatedBackend } from '../api/provider/inference-provider';
import type { ProviderConfigEntry } from '../api/provider/provider-config-entry';
import { validateEngineArgs, validateImageFields } from '../core/engine-args';
import { FieldError, invalid, required } from '../core/field-error';
import type { ComponentScalingSpec } from '../core/generated/model-deployment-spec';
import { gpuTaintAnnotationErrors } from '../core/gpu-taint-toleration';
import { gpuTypeErrors } from '../core/gpu-type';
import { ModelDeploymentObject, resolvedServingMode } from '../core/model-deployment-object';
import { compareQuantities, parseQuantity, Quantity } from '../core/quantity';
import { didYouMean } from '../core/suggest';
import { unrenderableKeyErrors } from '../core/unrenderable-keys';
import { devicesAnnotationErrors } from '../provider-kit/device-annotation';
import { validateStorageVolumes } from '../storage/storage-validation';

/**
 * AI Runway's validating admission webhook (§3.3) and its warnings (§3.8), plus the reconciler's
 * check of an auto-selected engine (§4.3 step 5). Admission always runs as a CREATE: we only
 * ever produce new objects, so the dot rule applies and the UPDATE-only immutability rules do not.
 * On top of AI Runway's rules, the name and namespace must be RFC 1123 labels and every
 * `gpu.type` an extended resource name, because the API server would reject the objects named
 * after them or requesting them otherwise; and the annotation
 * `inference.cdk8s.io/tolerate-gpu-taint` must be "true" or "false", and the DRA device
 * requests of `inference.cdk8s.io/devices` must check (src/provider-kit/device-annotation.ts).
 */

export const MAX_GPU_COUNT = 64;
export const MAX_REPLICAS = 32;
export const MAX_CPU = '512';
export const MAX_MEMORY = '4Ti';

/** A lowercase RFC 1123 label: the form of a namespace, a Service name and a label value. */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const MAX_LABEL_LENGTH = 63;

const MAX_CPU_QUANTITY = parseQuantity(MAX_CPU) as Quantity;
const MAX_MEMORY_QUANTITY = parseQuantity(MAX_MEMORY) as Quantity;

export interface ValidationResult {
  /** Field errors in admission order; any error denies the object. */
  readonly errors: FieldError[];
  /** Warnings, which never block. */
  readonly warnings: string[];
}

/**
 * Validates a defaulted ModelDeployment (run {@link applyDefaults} first) the way the admission
 * webhook does, collecting every error. `configs` stand in for the cluster's
 * InferenceProviderConfigs: a provider named in the spec must be one of them. `simulated` is the
 * simulated backend the named provider runs this deployment on (a mocker), which waives
 * the capability and GPU rules but admits only the engines it simulates.
 */
export function validateModelDeployment(
  md: ModelDeploymentObject,
  configs: readonly ProviderConfigEntry[],
  simulated?: SimulatedBackend,
): ValidationResult {
  const errors: FieldError[] = [];
  const spec = md.spec;
  const mode = resolvedServingMode(spec);
  const simulatedBackend = simulated !== undefined;
  const engineType = spec.engine?.type;
  const providerName = spec.provider?.name;

  // 1. Dots in the name break the volume and service names derived from it.
  if (md.name.includes('.')) {
    errors.push(
      invalid('metadata.name', md.name, 'name must not contain dots (dots are invalid in derived Kubernetes volume and service names)'),
    );
  } else if (!isDns1123Label(md.name)) {
    // Not an AI Runway rule: the name is also a label value and a Service name, so a name the
    // dot rule lets through can still be rejected by the API server.
    errors.push(
      invalid(
        'metadata.name',
        md.name,
        `must be a lowercase RFC 1123 label of at most ${MAX_LABEL_LENGTH} characters (it names Services and is a label value): ` +
          "lowercase letters, digits and '-', starting and ending with a letter or digit",
      ),
    );
  }
  // The namespace, when set (even to ""), must be one the API server accepts.
  if (md.namespace !== undefined && md.namespace !== null && !isDns1123Label(md.namespace)) {
    errors.push(
      invalid(
        'metadata.namespace',
        md.namespace,
        `must be a lowercase RFC 1123 label of at most ${MAX_LABEL_LENGTH} characters: ` +
          "lowercase letters, digits and '-', starting and ending with a letter or digit",
      ),
    );
  }

  // 2. Legacy image vs engine image.
  const imageConflict = validateImageFields(spec.image, spec.engine?.image);
  if (imageConflict) errors.push(invalid('spec.engine.image', spec.engine?.image, imageConflict));

  // 3. A flag set both as a named arg and as a raw extra arg.
  const argsConflict = validateEngineArgs(spec.engine?.args, spec.engine?.extraArgs);
  if (argsConflict) errors.push(invalid('spec.engine.extraArgs', spec.engine?.extraArgs, argsConflict));

  // 4. HuggingFace models need an id.
  const source = spec.model.source || 'huggingface';
  if (source === 'huggingface' && !spec.model.id) {
    errors.push(required('spec.model.id', 'model.id is required when source is huggingface'));
  }

  // 5, 5b, 5c. Provider overrides.
  errors.push(...validateProviderOverrides(spec.provider?.overrides));

  // 6. A simulated backend (a mocker) only fakes some engines.
  if (simulated && engineType && !simulatesEngine(simulated, engineType)) {
    errors.push(invalid('spec.engine.type', engineType, simulatedEngineMessage(providerName, simulated)));
  }

  // 7. Explicit provider and engine must fit the provider's declared capabilities.
  if (!simulatedBackend && providerName && engineType) {
    const named = configs.find((c) => c.name === providerName);
    if (!named) {
      const known = configs.map((c) => c.name).sort();
      errors.push(invalid('spec.provider.name', providerName,
        `InferenceProviderConfig ${JSON.stringify(providerName)} not found; known providers: ${known.join(', ') || '(none)'}${didYouMean(providerName, known)}`));
    } else if (named.spec.capabilities) {
      const gpuCount = spec.resources?.gpu?.count ?? 0;
      const violations = checkProviderCompatibility(providerName, named, undefined, engineType, mode, gpuCount, configs);
      errors.push(...violations.map(violationToFieldError));
    }
  }

  // 8–13. Disaggregated serving: GPUs belong to prefill and decode, not to the deployment.
  if (mode === 'disaggregated') {
    const gpuCount = spec.resources?.gpu?.count ?? 0;
    if (gpuCount > 0) {
      errors.push(invalid('spec.resources.gpu', gpuCount, 'cannot specify both resources.gpu and scaling.prefill/decode in disaggregated mode'));
    }
    if (!spec.scaling) {
      errors.push(required('spec.scaling', 'disaggregated mode requires scaling configuration'));
    } else {
      for (const component of ['prefill', 'decode'] as const) {
        const scaling = spec.scaling[component];
        if (!scaling) {
          errors.push(required(`spec.scaling.${component}`, `disaggregated mode requires scaling.${component}`));
        } else if (!simulatedBackend && !(scaling.gpu?.count && scaling.gpu.count > 0)) {
          errors.push(required(`spec.scaling.${component}.gpu.count`, `disaggregated mode requires scaling.${component}.gpu.count > 0`));
        }
      }
    }
  }

  // 14. Storage.
  errors.push(...validateStorageVolumes(md.name, spec.model.storage?.volumes));

  // 15–17. Deployment-wide resource ceilings.
  const gpuCount = spec.resources?.gpu?.count;
  if (gpuCount !== undefined && gpuCount !== null && gpuCount > MAX_GPU_COUNT) {
    errors.push(invalid('spec.resources.gpu.count', gpuCount, `exceeds maximum allowed (${MAX_GPU_COUNT})`));
  }
  errors.push(...checkQuantityCeiling('spec.resources.cpu', spec.resources?.cpu, MAX_CPU_QUANTITY, MAX_CPU));
  errors.push(...checkQuantityCeiling('spec.resources.memory', spec.resources?.memory, MAX_MEMORY_QUANTITY, MAX_MEMORY));

  // 18. Replicas.
  const replicas = spec.scaling?.replicas;
  if (replicas !== undefined && replicas !== null && replicas > MAX_REPLICAS) {
    errors.push(invalid('spec.scaling.replicas', replicas, `exceeds maximum allowed (${MAX_REPLICAS})`));
  }

  // 19–21. Per component: replicas, GPU count, memory.
  for (const component of ['prefill', 'decode'] as const) {
    errors.push(...validateComponentCeilings(component, spec.scaling?.[component]));
  }

  // Not AI Runway rules: every provider requests GPUs under `gpu.type`, so it must be a resource
  // name the API server accepts; and our GPU taint annotation must say "true" or "false".
  errors.push(...gpuTypeErrors(spec));
  errors.push(...unrenderableKeyErrors(md.labels, 'metadata.labels'), ...unrenderableKeyErrors(md.annotations, 'metadata.annotations'));
  errors.push(...unrenderableKeyErrors(spec, 'spec'));
  errors.push(...gpuTaintAnnotationErrors(md.annotations));
  errors.push(...devicesAnnotationErrors(md.annotations, spec));
  // The extension annotations' own problems follow these, reported by the pipeline
  // (src/pipeline/resolve.ts), which holds the list of extensions.

  return { errors, warnings: collectWarnings(md) };
}

function validateComponentCeilings(component: 'prefill' | 'decode', scaling: ComponentScalingSpec | undefined): FieldError[] {
  if (!scaling) return [];
  const errors: FieldError[] = [];
  const base = `spec.scaling.${component}`;
  if (scaling.replicas !== undefined && scaling.replicas !== null && scaling.replicas > MAX_REPLICAS) {
    errors.push(invalid(`${base}.replicas`, scaling.replicas, `exceeds maximum allowed (${MAX_REPLICAS})`));
  }
  const gpuCount = scaling.gpu?.count;
  if (gpuCount !== undefined && gpuCount !== null && gpuCount > MAX_GPU_COUNT) {
    errors.push(invalid(`${base}.gpu.count`, gpuCount, `exceeds maximum allowed (${MAX_GPU_COUNT})`));
  }
  errors.push(...checkQuantityCeiling(`${base}.memory`, scaling.memory, MAX_MEMORY_QUANTITY, MAX_MEMORY));
  return errors;
}

/** A set quantity string must parse and must not exceed `max` (numeric comparison). */
function checkQuantityCeiling(path: string, value: string | undefined, max: Quantity, maxText: string): FieldError[] {
  if (!value) return [];
  const quantity = parseQuantity(value);
  if (!quantity) return [invalid(path, value, 'invalid resource quantity')];
  if (compareQuantities(quantity, max) > 0) return [invalid(path, value, `exceeds maximum allowed (${maxText})`)];
  return [];
}

/** A lowercase RFC 1123 label of at most 63 characters (a namespace, a Service name, a label value). */
export function isDns1123Label(value: string): boolean {
  return value.length <= MAX_LABEL_LENGTH && DNS1123_LABEL.test(value);
}

function violationToFieldError(violation: CompatibilityViolation): FieldError {
  return invalid(violation.path, violation.value, violation.message);
}

/**
 * The admission warnings (§3.8), in the webhook's order. (`replicas: 0` on a provider that cannot
 * run zero is warned about once the provider is known: src/pipeline/deployment-extensions.ts.)
 */
export function collectWarnings(md: ModelDeploymentObject): string[] {
  const warnings: string[] = [];
  const spec = md.spec;
  const source = spec.model.source || 'huggingface';
  if (source === 'custom' && spec.model.servedName) {
    warnings.push('servedName is ignored for custom source (model name is defined by the container)');
  }
  if (spec.engine?.trustRemoteCode === true) {
    warnings.push('trustRemoteCode=true allows execution of arbitrary code from HuggingFace');
  }
  // AI Runway warns "contextLength is ignored for TensorRT-LLM"; Dynamo's TensorRT-LLM worker
  // takes it as --max-seq-len, which we render, so there is nothing to warn about.
  for (const volume of spec.model.storage?.volumes ?? []) {
    if (volume.purpose === 'compilationCache' && volume.readOnly === true) {
      warnings.push(
        `storage volume ${JSON.stringify(volume.name)} has purpose=compilationCache with readOnly=true; compilation cache requires write access`,
      );
    }
    if (source === 'huggingface' && volume.purpose === 'modelCache' && volume.readOnly === true) {
      warnings.push(
        `storage volume ${JSON.stringify(volume.name)} has purpose=modelCache with readOnly=true; ` +
          'model download will be skipped (ensure the PVC already contains the model data)',
      );
    }
  }
  return warnings;
}

/**
 * The reconciler's re-check once the engine is known (possibly auto-selected, so admission rule 7
 * could not see it), with every registered config in view:
 *
 * - on a simulated backend (a mocker), the engine must be one it simulates (§4.3 step 4;
 *   the only engine check there);
 * - otherwise the provider-compatibility check (§4.3 step 5) with `allConfigs = configs`, so a
 *   spec that names no provider, has no GPU and runs aggregated needs some config (ready or not)
 *   that runs `engine` on CPU. A named provider missing from `configs` is not checked here.
 *
 * The reconciler reports only the first of these; all are returned, each at its spec path.
 */
export function validateResolvedEngine(
  md: ModelDeploymentObject,
  engine: string,
  configs: readonly ProviderConfigEntry[],
  simulated?: SimulatedBackend,
): FieldError[] {
  const spec = md.spec;
  if (simulated) {
    return simulatesEngine(simulated, engine) ? [] : [invalid('spec.engine.type', engine, simulatedEngineMessage(spec.provider?.name, simulated))];
  }
  const providerName = spec.provider?.name;
  const named = providerName ? configs.find((c) => c.name === providerName) : undefined;
  const violations = checkProviderCompatibility(
    providerName,
    named,
    configs,
    engine,
    resolvedServingMode(spec),
    spec.resources?.gpu?.count ?? 0,
    configs,
  );
  return violations.map(violationToFieldError);
}

function simulatesEngine(simulated: SimulatedBackend, engine: string): boolean {
  return simulated.engines.some((e) => e === engine);
}

/** `the <provider> <backend> test backend only supports the <engines> engine`. */
function simulatedEngineMessage(providerName: string | undefined, simulated: SimulatedBackend): string {
  const engines = simulated.engines.join(', ');
  return `the ${providerName} ${simulated.name} test backend only supports the ${engines} engine${simulated.engines.length > 1 ? 's' : ''}`;
}
