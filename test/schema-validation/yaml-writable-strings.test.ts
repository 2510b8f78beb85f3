import { Chart, Testing, Yaml } from 'cdk8s';
import { ModelDeployment } from '../../src';
import { checkYamlWritableStrings } from '../../src/schema-validation/yaml-writable-strings';
import { run, tempFolderPerTest } from '../support/cli-run';

const { file } = tempFolderPerTest('cdk8s-inference-writable-');

function found(value: unknown, withJson = true): string[] {
  const out: string[] = [];
  checkYamlWritableStrings(value, '', (path, message) => out.push(`${path}: ${message}`), withJson ? JSON.stringify(value) : undefined);
  return out;
}

describe('strings YAML output can carry', () => {
  test('why: cdk8s\'s writer leaves DEL and C1 controls unescaped, which YAML forbids; it escapes C0 controls', () => {
    expect(Yaml.stringify({ a: 'x\u007fy\u009fz' })).toContain('x\u007fy\u009fz');
    expect(Yaml.stringify({ a: 'x\u001by' })).toBe('a: "x\\ey"\n');
  });

  test('DEL, C1 controls, U+FFFE/U+FFFF and lone surrogates, in values and keys, at their paths', () => {
    expect(found({ spec: { env: [{ name: 'A', value: 'a\u007fb' }], args: ['ok', 'x\u0090'], labels: { 'k\uffff': 'v' } } })).toEqual([
      expect.stringMatching(/^spec\.labels\["k\uffff"\]: key holds U\+FFFF at character 2, which YAML allows only escaped and cdk8s's YAML writer does not escape: kubectl would refuse the manifest; remove it$/),
      expect.stringMatching(/^spec\.args\[1\]: value holds U\+0090 at character 2,/),
      expect.stringMatching(/^spec\.env\[0\]\.value: value holds U\+007F at character 2,/),
    ]);
    expect(found({ a: 'x\ud800y', b: 'z\udc00' })).toEqual([
      'b: value holds a lone surrogate (U+DC00) at character 2, which has no UTF-8 encoding: the YAML output would hold U+FFFD instead; remove it',
      'a: value holds a lone surrogate (U+D800) at character 2, which has no UTF-8 encoding: the YAML output would hold U+FFFD instead; remove it',
    ]);
  });

  test('what YAML carries passes: NEL, escaped C0 controls, non-BMP characters, U+FFFD; the JSON text lets a clean object skip the walk', () => {
    const clean = { a: 'line\u0085next', b: 'tab\tesc\u001bnul\u0000', c: 'emoji \ud83d\ude00 \ufffd', d: [{ e: 1.5, f: null, g: true }] };
    expect(found(clean)).toEqual([]);
    expect(found(clean, false)).toEqual([]);
    // The walk runs only when the JSON text hints at such a string: given a clean text, it does not.
    const out: string[] = [];
    checkYamlWritableStrings({ a: 'x\u007f' }, '', (path) => out.push(path), JSON.stringify({ a: 'x' }));
    expect(out).toEqual([]);
    checkYamlWritableStrings({ a: 'x\u007f' }, '', (path) => out.push(path), JSON.stringify({ a: 'x\u007f' }));
    expect(out).toEqual(['a']);
  });

  test('a deployment whose env value holds DEL is a field error at that value, not YAML kubectl refuses', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c', { namespace: 'ml' });
    new ModelDeployment(chart, 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } }, env: [{ name: 'NOTE', value: 'a\u007fb' }] });
    expect(() => app.synth()).toThrow(/spec\.env\[0\]\.value: Invalid value: .*value holds U\+007F at character 2/);
  });

  test('a Gateway document passed through by the CLI is checked too', async () => {
    const model = 'apiVersion: airunway.ai/v1alpha1\nkind: ModelDeployment\nmetadata:\n  name: m\n  namespace: ml\nspec:\n  model:\n    id: Qwen/Qwen3-0.6B\n  resources:\n    gpu:\n      count: 1\n';
    const gateway = 'apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: gw\n  namespace: ml\n  annotations:\n    note: "a\\x7fb"\nspec:\n  gatewayClassName: c\n  listeners:\n  - name: http\n    port: 80\n    protocol: HTTP\n';
    const f = file('gw.yaml', `${model}---\n${gateway}`);
    const r = await run('synth', '-f', f, '--gateway', 'ml/gw');
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 1, stdout: '' });
    expect(r.stderr.join('\n')).toMatch(new RegExp(`error: ${f}\\[doc 2\\].*metadata\\.annotations\\.note: value holds U\\+007F at character 2`));
  });
});
