import { MAX_OBJECT_BYTES, objectSizeProblem } from '../../src/schema-validation/object-size';

describe('objects of at most 1.5 MiB of JSON', () => {
  test('an object just under the limit passes, one byte more is refused with its size', () => {
    const skeleton = JSON.stringify({ v: '' }).length;
    expect(objectSizeProblem({ v: 'a'.repeat(MAX_OBJECT_BYTES - skeleton) })).toBeUndefined();
    expect(objectSizeProblem({ v: 'a'.repeat(MAX_OBJECT_BYTES - skeleton + 1) })).toBe(
      'is 1.5 MiB as JSON, more than the 1.5 MiB (1572864 bytes) the API server stores in one object',
    );
  });

  test('bytes are counted in UTF-8', () => {
    // 600,000 three-byte characters: 1.7 MiB, though only 600,000 UTF-16 units.
    expect(objectSizeProblem({ v: '€'.repeat(600_000) })).toMatch(/^is 1\.7 MiB as JSON/);
  });

  test('a 50 MB value is refused', () => {
    expect(objectSizeProblem({ spec: { model: { id: 'x'.repeat(50_000_000) } } })).toMatch(/^is 47\.7 MiB as JSON/);
  });
});
