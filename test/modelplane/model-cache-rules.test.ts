import { formatFieldError } from '../../src/core/field-error';
import { cacheSizeErrors } from '../../src/modelplane/model-cache-rules';

describe('cacheSizeErrors', () => {
  test('accepts 1 to 100000 GiB', () => {
    expect([...cacheSizeErrors(1, 'size', '1Gi'), ...cacheSizeErrors(100000, 'size', '100000Gi')]).toEqual([]);
  });

  test.each([[0], [100001], [NaN], [Infinity]])('fails for %d GiB at the path given, quoting the size as written', (gib) => {
    const why = 'a modelplane ModelCache holds 1 to 100000 GiB (the size is rounded up to whole GiB)';
    expect(cacheSizeErrors(gib, 'size', '0Gi').map(formatFieldError)).toEqual([`size: Invalid value: "0Gi": ${why}`]);
    expect(cacheSizeErrors(gib, 'spec.model.storage.volumes[0].size', '1e30').map(formatFieldError)).toEqual([
      `spec.model.storage.volumes[0].size: Invalid value: "1e30": ${why}`,
    ]);
  });
});
