import { checkEnvVarNames, envVarNameErrors } from '../../src/schema-validation/env-var-names';

describe('environment variable names (Kubernetes 1.35: printable ASCII except "=")', () => {
  test.each(['HF_TOKEN', 'a.b-c', '1ST', 'with space', 'weird!@#$%^&*()~'])('accepts %j', (name) => {
    expect(envVarNameErrors(name)).toEqual([]);
  });

  test.each(['A=B', '', 'tab\there', 'new\nline', 'ünïcode', '\u0000'])('refuses %j', (name) => {
    expect(envVarNameErrors(name)).toHaveLength(1);
  });

  test('reports each bad name at its path, and ignores entries the schema reports', () => {
    const out: string[] = [];
    checkEnvVarNames([{ name: 'OK', value: '1' }, { name: 'A=B' }, { value: 'no name' }, 'junk'], 'spec.containers[0].env', (p, m) => out.push(`${p}: ${m}`));
    expect(out).toEqual([
      'spec.containers[0].env[1].name: environment variable name "A=B" is invalid: must consist of printable ASCII characters other than \'=\'',
    ]);
  });
});
