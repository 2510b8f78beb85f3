import { decodeRenderedObjects, encodeRenderedObjects } from '../../src/core/rendered-objects';

describe('rendered-objects annotation', () => {
  test('encodes in order, with a namespace only where given, and decodes back', () => {
    const refs = [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'qwen' },
      { apiVersion: 'gateway.networking.k8s.io/v1beta1', kind: 'ReferenceGrant', name: 'qwen-referencegrant', namespace: 'gw' },
    ];
    const value = encodeRenderedObjects(refs);
    expect(JSON.parse(value)).toEqual(refs);
    expect(decodeRenderedObjects(value)).toEqual({ refs });
  });

  test('a record without the annotation lists nothing', () => {
    expect(decodeRenderedObjects(undefined)).toEqual({ refs: [] });
  });

  test.each([
    [5, /is not a string/],
    ['{', /is not JSON/],
    ['{"a":1}', /is not a JSON array/],
    ['[{"apiVersion":"v1","kind":"Service"}]', /\[0\]: expected \{apiVersion, kind, name\[, namespace\]\} strings/],
    ['[{"apiVersion":"v1","kind":"Service","name":"a"},{"apiVersion":"v1","kind":"","name":"b"}]', /\[1\]/],
    ['[{"apiVersion":"v1","kind":"Service","name":"a","namespace":3}]', /\[0\]/],
    ['[null]', /\[0\]/],
  ])('%p is an error, not a partial list', (value, message) => {
    const decoded = decodeRenderedObjects(value);
    expect(decoded).toEqual({ error: expect.stringMatching(message) });
  });
});
