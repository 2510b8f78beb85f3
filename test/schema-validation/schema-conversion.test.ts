import * as path from 'path';
import { problems } from './fixtures';
import { useSyntheticUpstream, widget } from './synthetic-upstream';
import { findUpstreamSchema } from '../../src/schema-validation/upstream-schemas';

// --- Structural-schema semantics, on CRDs written for this test ----------------------------------------

describe('structural schema semantics (synthetic CRDs)', () => {
  useSyntheticUpstream();

  test('a minimal object passes; defaulted required fields may be omitted', () => {
    expect(problems(widget({ size: 3 }))).toEqual([]);
    expect(problems(widget({ size: '3Gi', mode: 'slow' }))).toEqual([]);
    expect(problems(widget({}))).toEqual(['spec.size: required field is missing']);
  });

  test('objects are closed unless x-kubernetes-preserve-unknown-fields; bare objects accept nothing', () => {
    expect(problems(widget({ size: 1, free: { any: { thing: [1] } }, marker: {} }))).toEqual([]);
    expect(problems(widget({ size: 1, marker: { on: true }, other: 1 }))).toEqual([
      'spec.marker.on: unknown field (not in the upstream schema; the API server would drop it)',
      'spec.other: unknown field (not in the upstream schema; the API server would drop it)',
    ]);
    expect(problems({ ...widget({ size: 1 }), extra: {} })).toEqual(['extra: unknown field (not in the upstream schema; the API server would drop it)']);
  });

  test('int-or-string, nullable, int32 with exclusive minimum, set lists', () => {
    expect(problems(widget({ size: 1, note: null, count: 1, tags: ['a', 'b'] }))).toEqual([]);
    expect(problems(widget({ size: false, count: 0, tags: ['a', 'a'] }))).toEqual([
      'spec.count: must be > 0, got number 0',
      'spec.size: must be integer or string, got boolean false',
      'spec.tags[1]: duplicate entry string "a" in a set-type list (same as item 0)',
    ]);
    expect(problems(widget({ size: 1, count: 2 ** 31, mode: null }))).toEqual([
      'spec.count: must be <= 2147483647, got number 2147483648',
      'spec.mode: must be string, got null',
    ]);
  });

  test('embedded resources need apiVersion and kind, and their metadata is ObjectMeta', () => {
    expect(problems(widget({ size: 1, child: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } } }))).toEqual([]);
    expect(problems(widget({ size: 1, child: { kind: 'ConfigMap', metadata: { nam: 'c' } } }))).toEqual([
      'spec.child.apiVersion: required field is missing',
      'spec.child.metadata.nam: unknown field (not in the upstream schema; the API server would drop it)',
    ]);
  });

  test('ipv4 is checked; other formats are not', () => {
    expect(problems(widget({ size: 1, address: '10.0.0.1', since: 'yesterday', ratio: 0.5 }))).toEqual([]);
    expect(problems(widget({ size: 1, address: '10.0.0.256' }))).toEqual(['spec.address: must match format "ipv4", got string "10.0.0.256"']);
  });

  test('properties inside oneOf/anyOf are value checks and do not close the object', () => {
    expect(problems(widget({ size: 1, either: { a: 'x' } }))).toEqual([]);
    expect(problems(widget({ size: 1, either: { a: 'x', b: 'y' } }))).toEqual([
      'spec.either: must match exactly one of the allowed shapes, but matches several (0, 1)',
    ]);
    expect(problems(widget({ size: 1, either: {} }))).toEqual([
      'spec.either: must match exactly one of the allowed shapes, got object (must have required property \'a\'; must have required property \'b\')',
    ]);
  });

  test('a CRD may restrict metadata.name; the rest of metadata is still ObjectMeta', () => {
    expect(problems({ apiVersion: 'test.example/v1', kind: 'Gadget', metadata: { name: 'too-long-name', labels: { a: 'b' }, owner: 'x' } })).toEqual([
      'metadata.name: must NOT have more than 8 characters, got string "too-long-name"',
      'metadata.owner: unknown field (not in the upstream schema; the API server would drop it)',
    ]);
  });

  test('Crossplane XRDs: spec is closed, Crossplane machinery fields are accepted', () => {
    const stack = { apiVersion: 'test.example/v1alpha1', kind: 'Stack', metadata: { name: 's', namespace: 'team-a' }, spec: { size: 'l', crossplane: { compositionRef: { name: 'c' } } } };
    expect(problems(stack)).toEqual([]);
    expect(problems({ ...stack, spec: { sise: 'l' } })).toEqual(['spec.sise: unknown field (not in the upstream schema; the API server would drop it)']);
    expect(findUpstreamSchema('test.example/v1alpha1', 'Stack')).toMatchObject({ source: 'xrd', file: path.join('synthetic', 'xrd.yaml') });
  });
});
