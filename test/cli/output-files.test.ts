import * as path from 'path';
import { outputFile } from '../../src/cli/output-files';

describe('outputFile', () => {
  const out = path.resolve('/tmp/out');

  test('one directory per namespace, none without', () => {
    expect(outputFile(out, 'team-a', 'qwen', '.k8s.yaml')).toBe(path.join(out, 'team-a', 'qwen.k8s.yaml'));
    expect(outputFile(out, undefined, 'qwen', '.k8s.yaml')).toBe(path.join(out, 'qwen.k8s.yaml'));
    expect(outputFile(out, 'gw', 'edge', '.gateway.k8s.yaml')).toBe(path.join(out, 'gw', 'edge.gateway.k8s.yaml'));
  });

  test.each([
    ['..', 'x'],
    ['../../escaped', 'x'],
    ['a/b', 'x'],
    ['team-a', '../x'],
    ['.', 'x'],
  ])('fails when namespace %j and name %j would leave the output directory', (namespace, name) => {
    expect(() => outputFile(out, namespace, name, '.k8s.yaml')).toThrow(/refusing to write/);
  });
});
