import * as fs from 'fs';
import * as path from 'path';
import { GENERATED_VALIDATORS_DIR, PRECOMPILED_VALIDATORS, validatorFileText } from '../../scripts/precompile-validators';
import { validateModelDeploymentSpecSchema } from '../../src/admission/model-deployment-manifest';
import { readInferenceProviderConfigManifest } from '../../src/api/provider/inference-provider-config-manifest';
import { formatFieldError } from '../../src/core/field-error';
import { INFERENCE_PROVIDER_CONFIG_SPEC_SCHEMA, MODEL_DEPLOYMENT_SPEC_SCHEMA } from '../../src/core/generated/airunway-schemas';
import { StructuralSchemaValidator } from '../../src/schema-validation/structural-schema';

describe('spec validators compiled ahead of time (src/core/generated)', () => {
  test.each(PRECOMPILED_VALIDATORS.map((v) => [v.file, v]))('%s is fresh (else run npx projen precompile-validators)', (_file, v) => {
    const committed = fs.readFileSync(path.join(GENERATED_VALIDATORS_DIR, v.file), 'utf8');
    expect(committed === validatorFileText(v.schemaName, v.schema)).toBe(true);
  });

  // The code is Ajv's own, so this checks the wiring: the formats and runtime helpers it requires
  // resolve, and errors carry what the field errors are made of.
  const modelDeploymentSpecs: unknown[] = [
    { model: { id: 'Qwen/Qwen3-0.6B' } },
    { model: { id: 'q' }, replicas: 2.5 },
    { model: { id: 'q' }, scaling: { replicas: 3_000_000_000 } },
    { model: { id: 'q' }, engine: { type: 'vllm', contextLength: -2_147_483_649 } },
    { model: { id: 'q' }, engine: { type: 'tgi' } },
    { model: { id: 'q', sourse: 'huggingface' } },
    { model: { id: 'q' }, engine: { args: { 'max-model-len': 4096 } } },
    { model: { id: 'q' }, resources: { gpu: { count: 'two' } } },
  ];
  test('the ModelDeployment spec: the same field errors as a validator compiled now', () => {
    const now = StructuralSchemaValidator.compile(MODEL_DEPLOYMENT_SPEC_SCHEMA);
    const ahead = modelDeploymentSpecs.map((s) => validateModelDeploymentSpecSchema(s).map(formatFieldError));
    expect(ahead).toEqual(modelDeploymentSpecs.map((s) => now.validate(s, 'spec').map(formatFieldError)));
    expect(ahead[0]).toEqual([]);
    expect(ahead.slice(1).every((errors) => errors.length > 0)).toBe(true);
    expect(ahead.flat().join('\n')).toMatch(/between -2147483648 and 2147483647, inclusive \(format int32\)/);
  });

  test('the InferenceProviderConfig spec: the same field errors as a validator compiled now', () => {
    const specs: unknown[] = [
      { capabilities: { engines: ['vllm'], servingModes: ['aggregated'] } },
      { capabilities: { engines: ['vllm'], servingModes: ['sideways'] } },
      { capabilities: { engines: 'vllm' } },
      { selectionRules: [{ rule: 'true', priority: 'high' }] },
    ];
    const now = StructuralSchemaValidator.compile(INFERENCE_PROVIDER_CONFIG_SPEC_SCHEMA);
    const manifest = (spec: unknown) => ({ apiVersion: 'airunway.ai/v1alpha1', kind: 'InferenceProviderConfig', metadata: { name: 'p' }, spec });
    // (the manifest's schema errors come first, before any AI Runway rule on the spec)
    const ahead = specs.map((s) => readInferenceProviderConfigManifest(manifest(s)).errors.map(formatFieldError).slice(0, now.validate(s, 'spec').length));
    expect(ahead).toEqual(specs.map((s) => now.validate(s, 'spec').map(formatFieldError)));
    expect(ahead.slice(1).every((errors) => errors.length > 0)).toBe(true);
  });
});
