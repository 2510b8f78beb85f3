import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { outputFile, writeOutputDirectory, WRITTEN_FILES_LIST } from '../../src/cli/output-files';

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

describe('writeOutputDirectory', () => {
  let parent = '';
  let out = '';
  beforeEach(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-inference-out-'));
    out = path.join(parent, 'nested', 'out');
  });
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  test('creates the directory, writes every file, lists them and leaves no staging directory', () => {
    const files = new Map([[path.join(out, 'a.k8s.yaml'), 'a: 1\n'], [path.join(out, 'ns', 'b.k8s.yaml'), 'b: 2\n']]);
    const changes = writeOutputDirectory(out, files);
    expect(changes).toEqual({ written: [...files.keys()], removed: [] });
    expect(fs.readFileSync(path.join(out, 'ns', 'b.k8s.yaml'), 'utf8')).toBe('b: 2\n');
    expect(fs.readFileSync(path.join(out, WRITTEN_FILES_LIST), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'))).toEqual(['a.k8s.yaml', 'ns/b.k8s.yaml']);
    expect(fs.readdirSync(path.dirname(out))).toEqual(['out']);
  });

  test('never removes what a hand-edited list names outside the directory or that synth could not have written', () => {
    const outside = path.join(parent, 'keep.k8s.yaml');
    fs.writeFileSync(outside, 'keep');
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, 'notes.txt'), 'keep');
    fs.writeFileSync(path.join(out, WRITTEN_FILES_LIST), ['../../keep.k8s.yaml', 'notes.txt', '/etc/passwd', 'a/b/c.k8s.yaml', ''].join('\n'));
    const changes = writeOutputDirectory(out, new Map([[path.join(out, 'x.k8s.yaml'), 'x']]));
    expect(changes.removed).toEqual([]);
    expect(fs.existsSync(outside)).toBe(true);
    expect(fs.existsSync(path.join(out, 'notes.txt'))).toBe(true);
  });
});
