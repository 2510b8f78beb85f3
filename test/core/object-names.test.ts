import { FieldErrorKind } from '../../src/core/field-error';
import { checkDerivedObjectNames } from '../../src/core/object-names';

const SERVICE_FORM = 'a DNS-1035 label (lowercase letters, digits and "-", starting with a letter and ending with a letter or digit)';

describe('checkDerivedObjectNames', () => {
  test('passes names that fit their kind', () => {
    expect(
      checkDerivedObjectNames('qwen', [
        { kind: 'Service', name: 'q'.repeat(63) },
        { kind: 'Job', name: 'qwen-model-download' },
        { kind: 'Deployment', name: 'qwen.v1' },
      ]),
    ).toEqual([]);
  });

  test('fails when a derived name is too long, advising a shorter deployment name', () => {
    const name = 'a'.repeat(60);
    expect(checkDerivedObjectNames(name, [{ kind: 'Service', name: `${name}-epp` }])).toEqual([
      {
        path: 'metadata.name',
        kind: FieldErrorKind.INVALID,
        value: name,
        message: `derived Service name "${name}-epp" is 64 characters long, more than the 63 allowed; use a shorter ModelDeployment name`,
      },
    ]);
  });

  test('fails when a derived name has the wrong form, without advising a shorter name', () => {
    expect(checkDerivedObjectNames('3-qwen', [{ kind: 'Service', name: '3-qwen' }])).toEqual([
      {
        path: 'metadata.name',
        kind: FieldErrorKind.INVALID,
        value: '3-qwen',
        message: `derived Service name "3-qwen" must be ${SERVICE_FORM}`,
      },
    ]);
  });

  test('fails with both problems in one error', () => {
    const name = `3${'a'.repeat(63)}`;
    expect(checkDerivedObjectNames(name, [{ kind: 'Service', name }]).map((e) => e.message)).toEqual([
      `derived Service name "${name}" is 64 characters long, more than the 63 allowed, and must be ${SERVICE_FORM}; use a shorter ModelDeployment name`,
    ]);
  });

  test('applies the 253-character limit to other kinds and 63 to Jobs', () => {
    const job = `${'j'.repeat(50)}-model-download`;
    expect(checkDerivedObjectNames('j'.repeat(50), [{ kind: 'Job', name: job }]).map((e) => e.message)).toEqual([
      `derived Job name "${job}" is 65 characters long, more than the 63 allowed; use a shorter ModelDeployment name`,
    ]);
    expect(checkDerivedObjectNames('x', [{ kind: 'PersistentVolumeClaim', name: 'p'.repeat(253) }])).toEqual([]);
    expect(checkDerivedObjectNames('x', [{ kind: 'PersistentVolumeClaim', name: 'p'.repeat(254) }])).toHaveLength(1);
  });
});
