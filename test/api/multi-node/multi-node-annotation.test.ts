import {
  MAX_MULTI_NODE_ANNOTATION_BYTES,
  MULTI_NODE_ANNOTATION,
  multiNodeAnnotationValue,
  readMultiNodeAnnotation,
} from '../../../src/api/multi-node/multi-node-annotation';
import { formatFieldError } from '../../../src/core/field-error';

const read = (value: string) => readMultiNodeAnnotation({ [MULTI_NODE_ANNOTATION]: value });
const errorsOf = (value: string) => read(value).errors.map(formatFieldError);
const PATH = 'metadata.annotations["inference.cdk8s.io/multi-node"]';

describe('the multi-node annotation', () => {
  test('reads gpusPerNode from YAML and from JSON', () => {
    expect(read('gpusPerNode: 8')).toEqual({ settings: { gpusPerNode: 8 }, errors: [] });
    expect(read('{"gpusPerNode": 4}')).toEqual({ settings: { gpusPerNode: 4 }, errors: [] });
  });

  test('is absent without the annotation', () => {
    expect(readMultiNodeAnnotation({})).toEqual({ errors: [] });
    expect(readMultiNodeAnnotation(undefined)).toEqual({ errors: [] });
  });

  test('reads back what the construct writes', () => {
    expect(read(multiNodeAnnotationValue({ gpusPerNode: 16 })).settings).toEqual({ gpusPerNode: 16 });
  });

  test.each([
    ['0', `${PATH}.gpusPerNode: Invalid value: 0: must be an integer from 1 to 64`],
    ['65', `${PATH}.gpusPerNode: Invalid value: 65: must be an integer from 1 to 64`],
    ['2.5', `${PATH}.gpusPerNode: Invalid value: 2.5: must be an integer from 1 to 64`],
    ['"8"', `${PATH}.gpusPerNode: Invalid value: "8": must be an integer from 1 to 64`],
  ])('fails when gpusPerNode is %s', (value, message) => {
    expect(errorsOf(`gpusPerNode: ${value}`)).toEqual([expect.stringContaining(message)]);
  });

  test('fails when gpusPerNode is missing', () => {
    expect(errorsOf('{}')).toEqual([`${PATH}.gpusPerNode: Required value: the GPUs of one node (an integer from 1 to 64) are required`]);
  });

  test('fails when a key is unknown, naming the allowed ones', () => {
    expect(errorsOf('gpusPerNode: 8\nnodes: 2')).toEqual([`${PATH}.nodes: Invalid value: 2: unknown key; known keys: gpusPerNode`]);
  });

  test.each([
    ['a list', '- 8'],
    ['a number', '8'],
    ['not YAML', 'gpusPerNode: [8'],
    ['a duplicate key', 'gpusPerNode: 8\ngpusPerNode: 4'],
  ])('fails when the value is %s', (_name, value) => {
    const { settings, errors } = read(value);
    expect(settings).toBeUndefined();
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0].path.startsWith(PATH)).toBe(true);
  });

  test('fails on a value larger than the cap without parsing it', () => {
    const value = `gpusPerNode: 8\n#${'x'.repeat(MAX_MULTI_NODE_ANNOTATION_BYTES)}`;
    expect(errorsOf(value)).toEqual([expect.stringContaining(`bytes, more than the ${MAX_MULTI_NODE_ANNOTATION_BYTES} allowed`)]);
  });
});
