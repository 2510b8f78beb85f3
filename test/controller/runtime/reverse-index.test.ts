import { objectKey, recordKey, splitRecordKey } from '../../../src/controller/runtime/object-key';
import { ReverseIndex } from '../../../src/controller/runtime/reverse-index';

describe('ReverseIndex', () => {
  test('maps each object to the records that watch it; set replaces a record\'s list', () => {
    const index = new ReverseIndex();
    index.set('ml/a', ['d/x', 'g/gw']);
    index.set('ml/b', ['d/y', 'g/gw']);
    expect(index.recordsWatching('g/gw').sort()).toEqual(['ml/a', 'ml/b']);
    index.set('ml/a', ['d/z']);
    expect(index.recordsWatching('g/gw')).toEqual(['ml/b']);
    expect(index.recordsWatching('d/x')).toEqual([]);
    expect(index.watchedBy('ml/a')).toEqual(['d/z']);
    expect(index.objectCount).toBe(3);
  });

  test('an object read by many records (a Gateway) goes from one record to several and back, nobody lost', () => {
    const index = new ReverseIndex();
    for (const r of ['ml/a', 'ml/b', 'ml/c']) index.set(r, ['g/gw', `d/${r}`]);
    index.set('ml/a', ['g/gw', 'd/ml/a']);
    expect(index.recordsWatching('g/gw').sort()).toEqual(['ml/a', 'ml/b', 'ml/c']);
    index.remove('ml/b');
    index.set('ml/c', ['d/ml/c']);
    expect(index.recordsWatching('g/gw')).toEqual(['ml/a']);
    index.set('ml/b', ['g/gw']);
    expect(index.recordsWatching('g/gw').sort()).toEqual(['ml/a', 'ml/b']);
    expect(index.watchedBy('ml/a')).toEqual(['g/gw', 'd/ml/a']);
    expect(index.watchedBy('ml/b')).toEqual(['g/gw']);
    index.remove('ml/a');
    index.remove('ml/b');
    expect(index.recordsWatching('g/gw')).toEqual([]);
    expect(index.objectCount).toBe(1);
  });

  test('remove forgets a record and objects nobody watches any more', () => {
    const index = new ReverseIndex();
    index.set('ml/a', ['d/x', 'd/x']);
    index.remove('ml/a');
    index.remove('ml/unknown');
    expect(index.objectCount).toBe(0);
    expect(index.watchedBy('ml/a')).toEqual([]);
  });
});

describe('keys', () => {
  test('objects by apiVersion, kind, namespace and name; records by namespace/name', () => {
    expect(objectKey({ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', namespace: 'ml', name: 'q' })).toBe('nvidia.com/v1beta1 DynamoGraphDeployment ml/q');
    expect(recordKey('ml', 'q')).toBe('ml/q');
    expect(splitRecordKey('ml/q')).toEqual({ namespace: 'ml', name: 'q' });
  });
});
