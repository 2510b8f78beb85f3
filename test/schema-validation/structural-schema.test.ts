import { parseModelDeploymentManifest, validateModelDeploymentSpecSchema } from '../../src/admission/model-deployment-manifest';
import { readInferenceProviderConfigManifest } from '../../src/api/provider/inference-provider-config-manifest';
import { formatFieldError } from '../../src/core/field-error';
import { convertStructural } from '../../src/schema-validation/schema-conversion';
import { StructuralSchemaValidator, toJsonSchema } from '../../src/schema-validation/structural-schema';

const INT32 = 'must be between -2147483648 and 2147483647, inclusive (format int32)';
const INT64 = 'must be between -9223372036854775808 and 9223372036854775807, inclusive (format int64)';

function errorsOf(validator: StructuralSchemaValidator, value: unknown): string[] {
  return validator.validate(value, 'spec').map(formatFieldError);
}

function manifest(spec: Record<string, unknown>): unknown {
  return { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name: 'qwen', namespace: 'ml' }, spec };
}

describe('structural schema integer formats', () => {
  const validator = StructuralSchemaValidator.compile({
    type: 'object',
    properties: {
      small: { type: 'integer', format: 'int32' },
      count: { type: 'integer', format: 'int32', minimum: 0 },
      big: { type: 'integer', format: 'int64' },
      when: { type: 'string', format: 'date-time' },
    },
  });

  test('keeps int32/int64 on integers and still drops the other formats', () => {
    expect(toJsonSchema({ type: 'integer', format: 'int32' })).toEqual({ type: 'integer', format: 'int32' });
    expect(toJsonSchema({ type: 'integer', format: 'int64' })).toEqual({ type: 'integer', format: 'int64' });
    expect(toJsonSchema({ type: 'string', format: 'date-time' })).toEqual({ type: 'string' });
    expect(toJsonSchema({ type: 'string', format: 'int32' })).toEqual({ type: 'string' });
  });

  test('int32 accepts its whole range', () => {
    expect(errorsOf(validator, { small: 2147483647, count: 2147483647, big: 0, when: 'not a date' })).toEqual([]);
    expect(errorsOf(validator, { small: -2147483648 })).toEqual([]);
  });

  test('int32 rejects values outside its range, naming path, value and range', () => {
    expect(errorsOf(validator, { small: 2147483648 })).toEqual([`spec.small: Invalid value: 2147483648: ${INT32}`]);
    expect(errorsOf(validator, { small: -2147483649 })).toEqual([`spec.small: Invalid value: -2147483649: ${INT32}`]);
    expect(errorsOf(validator, { count: 3000000000 })).toEqual([`spec.count: Invalid value: 3000000000: ${INT32}`]);
  });

  test('one error per field: a type or minimum error is not repeated as a range error', () => {
    expect(errorsOf(validator, { count: -3000000000 })).toEqual(['spec.count: Invalid value: -3000000000: must be greater than or equal to 0']);
    expect(errorsOf(validator, { small: 3000000000.5 })).toEqual(['spec.small: Invalid value: 3000000000.5: must be of type integer']);
  });

  test('int64 must be integral and within range', () => {
    expect(errorsOf(validator, { big: 2 ** 53 + 2 })).toEqual([]);
    expect(errorsOf(validator, { big: -(2 ** 63) })).toEqual([]);
    expect(errorsOf(validator, { big: 1.5 })).toEqual(['spec.big: Invalid value: 1.5: must be of type integer']);
    expect(errorsOf(validator, { big: 1e19 })).toEqual([`spec.big: Invalid value: 10000000000000000000: ${INT64}`]);
  });
});

describe('ModelDeployment manifests: int32 fields', () => {
  test('spec.engine.contextLength above 2^31-1 is a schema error', () => {
    const { md, errors } = parseModelDeploymentManifest(manifest({ model: { id: 'Qwen/Qwen3-0.6B' }, engine: { contextLength: 3000000000 } }));
    expect(md).toBeUndefined();
    expect(errors.map(formatFieldError)).toEqual([`spec.engine.contextLength: Invalid value: 3000000000: ${INT32}`]);
  });

  test('every int32 field of the spec is range-checked', () => {
    const big = 3000000000;
    const errors = validateModelDeploymentSpecSchema({
      model: { id: 'Qwen/Qwen3-0.6B' },
      engine: { contextLength: big },
      resources: { gpu: { count: big } },
      scaling: {
        replicas: big,
        prefill: { replicas: big, gpu: { count: big } },
        decode: { replicas: big, gpu: { count: big } },
      },
    });
    expect(errors.map((e) => e.path).sort()).toEqual([
      'spec.engine.contextLength',
      'spec.resources.gpu.count',
      'spec.scaling.decode.gpu.count',
      'spec.scaling.decode.replicas',
      'spec.scaling.prefill.gpu.count',
      'spec.scaling.prefill.replicas',
      'spec.scaling.replicas',
    ]);
    expect(errors.every((e) => e.value === big && e.message === INT32)).toBe(true);
  });

  test('the int32 maximum itself passes the schema', () => {
    expect(validateModelDeploymentSpecSchema({ model: { id: 'Qwen/Qwen3-0.6B' }, engine: { contextLength: 2147483647 } })).toEqual([]);
  });

  test('tolerationSeconds (int64) must be integral', () => {
    const errors = validateModelDeploymentSpecSchema({ model: { id: 'Qwen/Qwen3-0.6B' }, tolerations: [{ key: 'k', operator: 'Exists', tolerationSeconds: 1.5 }] });
    expect(errors.map(formatFieldError)).toEqual(['spec.tolerations[0].tolerationSeconds: Invalid value: 1.5: must be of type integer']);
    expect(validateModelDeploymentSpecSchema({ model: { id: 'Qwen/Qwen3-0.6B' }, tolerations: [{ key: 'k', operator: 'Exists', tolerationSeconds: 3000000000 }] })).toEqual([]);
  });
});

describe('InferenceProviderConfig manifests: int32 fields', () => {
  test('a selection rule priority above 2^31-1 is a schema error', () => {
    const { entry, errors } = readInferenceProviderConfigManifest({
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'InferenceProviderConfig',
      metadata: { name: 'inhouse' },
      spec: { selectionRules: [{ condition: 'true', priority: 3000000000 }] },
    });
    expect(entry).toBeUndefined();
    expect(errors.map(formatFieldError)).toEqual([`spec.selectionRules[0].priority: Invalid value: 3000000000: ${INT32}`]);
  });
});

describe('one converter: our spec schemas go through the upstream conversion, with their two differences', () => {
  const noPatterns = { dropPattern: () => { throw new Error('no pattern expected'); } };
  const volumes = {
    'type': 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    'items': { type: 'object', properties: { name: { type: 'string' }, size: { type: 'integer', format: 'int32' } } },
  };

  test('upstream: int32 as bounds, int64 unchecked, list-map keys unique', () => {
    const out = convertStructural(volumes, noPatterns) as any;
    expect(out['x-k8s-list-map-keys']).toEqual(['name']);
    expect(out.items.properties.size).toEqual({ type: 'integer', minimum: -2147483648, maximum: 2147483647 });
    expect(convertStructural({ type: 'integer', format: 'int64' }, noPatterns)).toEqual({ type: 'integer' });
  });

  test('our spec: integer formats kept for their range messages, list-map uniqueness left to AI Runway validation', () => {
    const out = toJsonSchema(volumes) as any;
    expect(out['x-k8s-list-map-keys']).toBeUndefined();
    expect(out.items.properties.size).toEqual({ type: 'integer', format: 'int32' });
    expect(out.items.additionalProperties).toBe(false);
  });

  test('our spec: Go patterns are translated like upstream ones, and one that cannot be is an error, not dropped', () => {
    expect((toJsonSchema({ type: 'string', pattern: '^\\z' }) as any).pattern).not.toContain('\\z');
    expect(() => toJsonSchema({ type: 'string', pattern: '(?P<x>a)\\C' })).toThrow(/structural schema: cannot check the pattern/);
  });
});
