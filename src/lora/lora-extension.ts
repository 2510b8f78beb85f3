/**
 * LoRA adapters as a deployment extension: what admission checks of `inference.cdk8s.io/lora` on
 * the defaulted spec, whatever provider is selected later. Whether the selected provider carries
 * adapters at all is its `supportsFeature(LORA_ADAPTERS)`.
 */
import { loraStorageConflictErrors } from './adapter-layout';
import { LORA_ENGINES, loraFlagCollisionErrors } from './engine-flags';
import { LORA_ANNOTATION, LORA_ANNOTATION_PATH, loraPath, readLoraAnnotation } from '../api/lora/lora-annotation';
import { DeploymentFeature } from '../api/provider/deployment-feature';
import { FieldError, invalid } from '../core/field-error';
import type { ModelDeploymentObject } from '../core/model-deployment-object';
import type { DeploymentExtension } from '../provider-kit/deployment-extension';

/**
 * The annotation's own problems; then, against the spec: an engine that cannot serve adapters by
 * name, an adapter named like the base model, engine flags the adapters set, storage volumes in
 * the adapters' place.
 */
export function loraErrors(md: ModelDeploymentObject): FieldError[] {
  const read = readLoraAnnotation(md.annotations);
  if (read.errors.length > 0 || !read.settings) return read.errors;
  const spec = md.spec;
  const errors: FieldError[] = [];
  const engine = spec.engine?.type;
  if (engine && !LORA_ENGINES.includes(engine)) {
    errors.push(invalid('spec.engine.type', engine,
      `cannot serve the LoRA adapters of ${LORA_ANNOTATION_PATH}: they are served by ${LORA_ENGINES.join(', ')}, which answers ` +
        'requests for an adapter by its name (SGLang selects adapters by "<base>:<adapter>", so routing by name would reach the base model)'));
  }
  const baseNames: Array<[string, string | undefined]> = [
    ['spec.model.id', spec.model.id],
    ['spec.model.servedName', spec.model.servedName],
    ['spec.gateway.modelName', spec.gateway?.modelName],
  ];
  read.settings.adapters.forEach((adapter, i) => {
    const clash = baseNames.find(([, name]) => name === adapter.name);
    if (clash) {
      errors.push(invalid(loraPath('adapters', i, 'name'), adapter.name,
        `is the base model's name (${clash[0]}); an adapter needs a model name of its own, or requests for the base model would reach it`));
    }
  });
  errors.push(...loraFlagCollisionErrors(spec));
  errors.push(...loraStorageConflictErrors(spec));
  return errors;
}

/** The LoRA adapters extension (`DEPLOYMENT_EXTENSIONS`). */
export const LORA_EXTENSION: DeploymentExtension = {
  feature: DeploymentFeature.LORA_ADAPTERS,
  annotation: LORA_ANNOTATION,
  path: LORA_ANNOTATION_PATH,
  errors: loraErrors,
};
