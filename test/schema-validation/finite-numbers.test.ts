import { parse } from 'yaml';
import { checkFiniteNumbers } from '../../src/schema-validation/finite-numbers';

function problems(value: unknown): string[] {
  const out: string[] = [];
  checkFiniteNumbers(value, '', (p, m) => out.push(`${p}: ${m}`));
  return out.sort();
}

describe('numbers must be finite', () => {
  test('YAML .inf, -.inf and .nan are reported at their paths', () => {
    const obj = parse('spec: {replicas: .inf, template: {spec: {containers: [{resources: {limits: {cpu: -.inf}}}], x: .nan}}}');
    expect(problems(obj)).toEqual([
      'spec.replicas: must be a finite number, got Infinity',
      'spec.template.spec.containers[0].resources.limits.cpu: must be a finite number, got -Infinity',
      'spec.template.spec.x: must be a finite number, got NaN',
    ]);
  });

  test('finite numbers, strings and deep nesting pass without recursion', () => {
    let deep: any = { n: 1.5e300 };
    for (let i = 0; i < 50_000; i++) deep = { d: deep };
    expect(problems({ a: [0, -1, 2 ** 53], b: 'Infinity', deep })).toEqual([]);
  });
});
