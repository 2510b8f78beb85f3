import { FieldError, required } from '../core/field-error';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import { validate as compiledSpecValidator } from '../core/generated/model-deployment-spec-validator';
import { cloneJson } from '../core/json-clone';
import { readManifestHeader } from '../core/manifest-metadata';
import type { ModelDeploymentObject } from '../core/model-deployment-object';
import { StructuralSchemaValidator } from '../schema-validation/structural-schema';

/** Compiled ahead of time from MODEL_DEPLOYMENT_SPEC_SCHEMA (scripts/precompile-validators.ts). */
let specValidator: StructuralSchemaValidator | undefined;

/**
 * Field errors of a spec against the ModelDeployment CRD schema (types, enums, patterns,
 * minimums, maxItems, unknown fields) — what the API server checks before any AI Runway rule.
 * Construct props go through it too: TypeScript types do not stop `replicas: 2.5` or nine volumes.
 */
export function validateModelDeploymentSpecSchema(spec: unknown): FieldError[] {
  specValidator ??= new StructuralSchemaValidator(compiledSpecValidator);
  return specValidator.validate(spec, 'spec');
}

/**
 * Reads an AI Runway `ModelDeployment` manifest (a parsed YAML object). The spec is checked
 * against the CRD schema first, so a typo or a wrong type is reported with its field path before
 * any AI Runway rule runs. `status` is ignored.
 */
export function parseModelDeploymentManifest(manifest: unknown): { md?: ModelDeploymentObject; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const meta = readManifestHeader(manifest, 'airunway.ai/v1alpha1', 'ModelDeployment', errors, { namespaced: true });
  const spec = (manifest as any)?.spec;
  if (spec === undefined || spec === null) {
    errors.push(required('spec', 'spec is required'));
  } else {
    errors.push(...validateModelDeploymentSpecSchema(spec));
  }
  if (errors.length > 0 || !meta) return { errors };
  return { md: { ...meta, spec: cloneJson(spec) as ModelDeploymentSpec }, errors };
}
