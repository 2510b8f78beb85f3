import { Report } from '../../src/core/field-path';
import { checkTolerations } from '../../src/schema-validation/tolerations';

function problems(tolerations: unknown): string[] {
  const out: string[] = [];
  const report: Report = (path, message) => out.push(`${path}: ${message}`);
  checkTolerations(tolerations, 'spec.tolerations', report);
  return out;
}

describe('tolerations (the API server\'s Go-side rules)', () => {
  test.each([
    [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
    [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'PreferNoSchedule' }],
    [{ key: 'dedicated', value: '' }],
    [{ operator: 'Exists' }],
    [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
  ])('accepts %j', (t) => {
    expect(problems([t])).toEqual([]);
  });

  test('an empty key needs operator Exists', () => {
    expect(problems([{ operator: 'Equal', value: 'x' }])).toEqual([
      'spec.tolerations[0].operator: must be "Exists" when key is empty (that matches all keys and values), got "Equal"',
    ]);
    expect(problems([{ value: 'x' }])[0]).toContain('got "Equal"');
  });

  test('Exists with a value is refused', () => {
    expect(problems([{ key: 'a', operator: 'Exists', value: 'v' }])).toEqual([
      'spec.tolerations[0].value: must be empty when operator is "Exists", got "v"',
    ]);
  });

  test('an unknown operator, and Lt/Gt (alpha, off by default), are refused with the allowed ones', () => {
    expect(problems([{ key: 'a', operator: 'In', value: 'v' }])).toEqual([
      'spec.tolerations[0].operator: "In" is not supported: allowed are "Exists", "Equal" (empty means "Equal")',
    ]);
    expect(problems([{ key: 'a', operator: 'Lt', value: '3' }])).toHaveLength(1);
  });

  test('an unknown effect is refused', () => {
    expect(problems([{ key: 'a', operator: 'Exists', effect: 'NoRun' }])).toEqual([
      'spec.tolerations[0].effect: "NoRun" is not supported: allowed are "NoSchedule", "PreferNoSchedule", "NoExecute" or empty (all effects)',
    ]);
  });

  test('tolerationSeconds needs effect NoExecute', () => {
    expect(problems([{ key: 'a', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }])).toEqual([
      'spec.tolerations[0].effect: must be "NoExecute" when tolerationSeconds is set, got "NoSchedule"',
    ]);
  });

  test('keys are qualified names and Equal values label values', () => {
    const out = problems([{ key: 'bad key', operator: 'Equal', value: 'a b' }, { key: 'x/y/z', operator: 'Exists' }]);
    expect(out).toHaveLength(3);
    expect(out[0]).toMatch(/^spec\.tolerations\[0\]\.key: toleration key "bad key" is invalid/);
    expect(out[1]).toMatch(/^spec\.tolerations\[0\]\.value: toleration value "a b" is invalid/);
    expect(out[2]).toMatch(/^spec\.tolerations\[1\]\.key: /);
  });

  test('a long value is shown cut short', () => {
    const [message] = problems([{ key: 'a', operator: 'Exists', value: 'v'.repeat(10_000) }]);
    expect(message.length).toBeLessThan(300);
    expect(message).toContain('(10000 characters)');
  });
});
