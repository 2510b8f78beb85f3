import { EXPLICIT_SELECTION_ONLY_ANNOTATION, ProviderConfigEntry } from './provider-config-entry';
import { FieldError, formatFieldError, invalid, notSupported } from '../../core/field-error';
import type { InferenceProviderConfigSpec } from '../../core/generated/inference-provider-config-spec';
import { validate as compiledSpecValidator } from '../../core/generated/inference-provider-config-spec-validator';
import { readManifestHeader } from '../../core/manifest-metadata';
import { StructuralSchemaValidator } from '../../schema-validation/structural-schema';

/** Compiled ahead of time from INFERENCE_PROVIDER_CONFIG_SPEC_SCHEMA (scripts/precompile-validators.ts). */
let specValidator: StructuralSchemaValidator | undefined;

/**
 * Reads an AI Runway `InferenceProviderConfig` manifest. Readiness is `ready` when given, else
 * the manifest's `status.ready` when present (it must then be a boolean), else true.
 */
export function readInferenceProviderConfigManifest(
  manifest: unknown,
  ready?: boolean,
): { entry?: ProviderConfigEntry; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const meta = readManifestHeader(manifest, 'airunway.ai/v1alpha1', 'InferenceProviderConfig', errors, { namespaced: false });
  const spec = (manifest as any)?.spec ?? {};
  specValidator ??= new StructuralSchemaValidator(compiledSpecValidator);
  errors.push(...specValidator.validate(spec, 'spec'));
  const statusReady = (manifest as any)?.status?.ready;
  if (statusReady !== undefined && statusReady !== null && typeof statusReady !== 'boolean') {
    errors.push(invalid('status.ready', statusReady, 'must be a boolean'));
  }
  const explicitOnly = (manifest as any)?.metadata?.annotations?.[EXPLICIT_SELECTION_ONLY_ANNOTATION];
  if (explicitOnly !== undefined && explicitOnly !== 'true' && explicitOnly !== 'false') {
    errors.push(notSupported(`metadata.annotations[${JSON.stringify(EXPLICIT_SELECTION_ONLY_ANNOTATION)}]`, explicitOnly, ['true', 'false']));
  }
  if (errors.length > 0 || !meta) return { errors };
  return {
    entry: {
      name: meta.name,
      ready: ready ?? (typeof statusReady === 'boolean' ? statusReady : true),
      spec: structuredClone(spec) as InferenceProviderConfigSpec,
      ...(explicitOnly === 'true' && { explicitSelectionOnly: true }),
    },
    errors,
  };
}

/** Like `readInferenceProviderConfigManifest`, but throws one error listing every field error. */
export function parseInferenceProviderConfigManifest(manifest: unknown, ready?: boolean): ProviderConfigEntry {
  const { entry, errors } = readInferenceProviderConfigManifest(manifest, ready);
  if (!entry) {
    throw new Error(`invalid InferenceProviderConfig:\n  ${errors.map(formatFieldError).join('\n  ')}`);
  }
  return entry;
}
