import { formatFieldError } from '../../src/core/field-error';
import { modelSpecErrors } from '../../src/flexinfer/model-rules';
import type { ModelSpecJson } from '../../src/flexinfer/model-spec-json';
import { validateManifests } from '../support/schema-validator';

const BASE: ModelSpecJson = { backend: 'vllm', source: 'HF://Qwen/Qwen3-0.6B', gpu: { vendor: 'nvidia' } };

/** The rules' errors for `spec` (raw JSON, as overrides or a user of the L1 could write it). */
function errorsOf(spec: Partial<ModelSpecJson>): string[] {
  return modelSpecErrors({ ...BASE, ...spec }).map(formatFieldError);
}

/** What the API server's schema and CEL validation say about the same spec. */
function schemaSays(spec: Partial<ModelSpecJson>): string[] {
  return validateManifests([{ apiVersion: 'ai.flexinfer/v1alpha2', kind: 'Model', metadata: { name: 'qwen' }, spec: { ...BASE, ...spec } }]).map((v) => v.message);
}

describe('modelSpecErrors on specs the typed construct cannot produce', () => {
  test('accepts a file:// source with an absolute path and a valid pvc:// source', () => {
    expect(errorsOf({ source: 'file:///models/qwen' })).toEqual([]);
    expect(errorsOf({ source: 'pvc://weights/qwen', cache: { strategy: 'None' } })).toEqual([]);
  });

  test('fails when an enum value is not one the CRD lists, as the API server does', () => {
    const spec = { gpu: { vendor: 'intel' }, cache: { strategy: 'Disk' }, kvCache: { pressurePolicy: 'Panic', reconfigureStrategy: 'Halve' } };
    expect(errorsOf(spec)).toEqual([
      'spec.gpu.vendor: Unsupported value: "intel": supported values: "auto", "nvidia", "amd", "cpu"',
      'spec.cache.strategy: Unsupported value: "Disk": supported values: "Memory", "SharedPVC", "Local", "None"',
      'spec.kvCache.pressurePolicy: Unsupported value: "Panic": supported values: "Observe", "Reconfigure", "Evict"',
      'spec.kvCache.reconfigureStrategy: Unsupported value: "Halve": supported values: "ReduceSeqs", "ReduceMaxLen", "Both"',
    ]);
    expect(schemaSays(spec).length).toBe(4);
  });

  test('fails when GPUs are in resources or a quantity is malformed (CEL rule and schema pattern)', () => {
    const spec = { resources: { limits: { 'amd.com/gpu': '1' }, requests: { memory: 'lots' } }, cache: { size: 'big' } };
    expect(errorsOf(spec)).toEqual([
      'spec.cache.size: Invalid value: "big": must be a quantity such as 50Gi',
      'spec.resources.limits["amd.com/gpu"]: Forbidden: Do not set GPU limits in spec.resources.limits; use spec.gpu.vendor/spec.gpu.count instead',
      'spec.resources.requests["memory"]: Invalid value: "lots": must be a quantity',
    ]);
    expect(schemaSays({ resources: spec.resources })).toEqual(expect.arrayContaining([expect.stringContaining('Do not set GPU limits')]));
  });

  test('fails when a toleration has an unknown operator or effect', () => {
    expect(errorsOf({ tolerations: [{ key: 'a', operator: 'In', effect: 'Never' }] })).toEqual([
      'spec.tolerations[0].operator: Unsupported value: "In": supported values: "Equal", "Exists"',
      'spec.tolerations[0].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ]);
  });

  test('fails when a duration is not one Go parses', () => {
    expect(errorsOf({ gpu: { vendor: 'nvidia', shared: 'g', swapCooldown: '5 min' } })).toEqual([
      'spec.gpu.swapCooldown: Invalid value: "5 min": must be a positive Go duration such as "90s", "5m" or "1h30m"',
    ]);
  });

  test('the CEL rules it restates are the CRD\'s: vendor cpu with a count is refused by both', () => {
    const spec = { backend: 'llamacpp', gpu: { vendor: 'cpu', count: 1 } };
    expect(errorsOf(spec)).toEqual(['spec.gpu.count: Forbidden: gpu.count must be omitted when gpu.vendor is cpu']);
    expect(schemaSays(spec)).toEqual([expect.stringContaining('gpu.count must be omitted when gpu.vendor is cpu')]);
  });
});
