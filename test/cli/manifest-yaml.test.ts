import * as fs from 'fs';
import * as path from 'path';
import { Testing, Yaml } from 'cdk8s';
import { fastDocument, manifestsYaml } from '../../src/cli/manifest-yaml';
import { Rng } from '../support/rng';

const examplesDir = path.join(__dirname, '..', '..', 'examples');

/** Every object of every TypeScript example, as `cdk8s synth` would write them. */
function exampleObjects(): any[] {
  const files = fs.readdirSync(examplesDir).filter((f) => f.endsWith('.ts') || fs.existsSync(path.join(examplesDir, f, 'index.ts')));
  return files.flatMap((file) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const example = require(path.join(examplesDir, file));
    const app = Testing.app();
    example.build(app);
    return app.charts.flatMap((chart) => Testing.synth(chart));
  });
}

function hasMultiLineString(x: unknown): boolean {
  if (typeof x === 'string') return x.includes('\n');
  if (x && typeof x === 'object') return Object.values(x).some(hasMultiLineString);
  return false;
}

/** Pieces that each decide something in yaml's choice of scalar style. */
const PIECES = [
  'a', 'Qwen/Qwen3-0.6B', 'nvidia.com/gpu', 'true', 'False', 'yes', 'no', 'on', 'OFF', 'y', 'N', '~', 'null', 'NULL', '',
  '0', '8080', '-1', '+1', '012', '0x1F', '0b101', '1_000', '1:20', '1:20.5', '1e3', '.5', '5.', '.inf', '-.Inf', '.nan',
  '2026-01-01', '2026-1-1 10:00:00', '<<', '---', '...', '%', '#', ' #', ': ', ':', '-', '- ', '?', '? ', '*', '&', '!', '|', '>',
  "'", '"', '`', '@', ',', '[', ']', '{', '}', ' ', '\t', '\n', '\r', '\u0000', '\u007f', '\u0085', '\u00a0', '\u2028', '\ufeff',
  'é', '日本', '😀', '\ud800', '\\', '$(x)', 'a b', 'a: b', 'a #b', 'a#b', '--max-model-len=4096', 'http://x:8000/v1',
];

function randomString(rng: Rng): string {
  let s = '';
  const n = Math.floor(rng.next() * 4);
  for (let i = 0; i <= n; i++) s += PIECES[Math.floor(rng.next() * PIECES.length)];
  if (rng.chance(0.15)) {
    // Several lines, as a script or an embedded config: blank lines, indented lines, a final line feed or not.
    const lines = Array.from({ length: 2 + rng.int(0, 3) }, () => rng.pick(['', '  ', 'a', '  key: value', 'x #y', s, `${s} `]));
    s = lines.join(rng.pick(['\n', '\n\n'])) + rng.pick(['', '\n', '\n\n', ' ']);
  }
  return s;
}

function randomValue(rng: Rng, depth: number, shared: object[]): unknown {
  const r = rng.next();
  if (depth > 3 || r < 0.45) {
    const s = rng.next();
    if (s < 0.6) return randomString(rng);
    if (s < 0.7) return [0, 1, -5, 0.25, 1e21, -0, 2 ** 53, 3.5e-7, NaN, Infinity][Math.floor(rng.next() * 10)];
    if (s < 0.8) return rng.next() < 0.5;
    if (s < 0.85) return null;
    if (s < 0.88) return undefined;
    return rng.next() < 0.5 ? {} : [];
  }
  if (r < 0.5 && shared.length > 0) return shared[Math.floor(rng.next() * shared.length)]; // met twice: yaml aliases it
  if (r < 0.75) {
    const items = Array.from({ length: 1 + Math.floor(rng.next() * 3) }, () => randomValue(rng, depth + 1, shared));
    if (rng.next() < 0.1) shared.push(items);
    return items;
  }
  const obj: Record<string, unknown> = {};
  for (let i = 0, n = 1 + Math.floor(rng.next() * 4); i < n; i++) {
    const key = rng.next() < 0.7 ? ['name', 'app.kubernetes.io/name', 'spec', 'x_1', 'nvidia.com/gpu'][Math.floor(rng.next() * 5)] + (i || '') : randomString(rng);
    obj[key] = randomValue(rng, depth + 1, shared);
  }
  if (rng.next() < 0.1) shared.push(obj);
  return obj;
}

describe('manifest YAML (the CLI output)', () => {
  test('every example object is written exactly as Yaml.stringify writes it, all by the fast path', () => {
    const objects = exampleObjects();
    expect(objects.length).toBeGreaterThan(100);
    expect(manifestsYaml(objects)).toBe(Yaml.stringify(...objects));
    expect(objects.filter((o) => fastDocument(o) === undefined).map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual([]);
    // (among them literal blocks: KubeRay's serve config, Kthena's scripts)
    expect(objects.filter(hasMultiLineString).length).toBeGreaterThan(0);
  });

  test('3,000 generated documents of hostile strings, numbers, keys, empty and shared collections: the same text as Yaml.stringify', () => {
    const rng = new Rng(20261126);
    let fast = 0;
    const differences: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const shared: object[] = [];
      const doc: Record<string, unknown> = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `doc-${i}` }, data: randomValue(rng, 0, shared) };
      if (rng.next() < 0.3) doc[randomString(rng)] = randomValue(rng, 1, shared);
      if (fastDocument(doc) !== undefined) fast++;
      const ours = manifestsYaml([doc]);
      const theirs = Yaml.stringify(doc);
      if (ours !== theirs && differences.length < 5) differences.push(`${JSON.stringify(doc)}\nours:\n${ours}\nyaml:\n${theirs}`);
    }
    expect(differences).toEqual([]);
    // Both paths are exercised: most documents by the fast one.
    expect(fast).toBeGreaterThan(750);
    expect(fast).toBeLessThan(3000);
  });

  test('1,000 multi-line strings, in mappings and sequences at every depth: the same text as Yaml.stringify, most as literal blocks by the fast path', () => {
    const rng = new Rng(7);
    const line = (): string => rng.pick(['', ' ', '  ', 'a', '  key: value', 'x #y', '- item', '---', '...', '"quoted"', "it's", 'trailing ', 'é 日本', '{', '#']);
    let fast = 0;
    const differences: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const text = Array.from({ length: 2 + rng.int(0, 4) }, line).join(rng.pick(['\n', '\n\n'])) + rng.pick(['', '\n', '\n\n', ' ', '\n ']);
      let value: unknown = text;
      for (let depth = rng.int(0, 3); depth > 0; depth--) value = rng.chance(0.5) ? [value] : { [`k${depth}`]: value };
      const doc = { kind: 'ConfigMap', data: value };
      if (fastDocument(doc) !== undefined) fast++;
      if (manifestsYaml([doc]) !== Yaml.stringify(doc) && differences.length < 5) differences.push(JSON.stringify(doc));
    }
    expect(differences).toEqual([]);
    expect(fast).toBeGreaterThan(150); // (the others start with a blank or end in one: yaml writes those)
  });

  test('several documents are separated by ---, an empty object is {}', () => {
    const docs = [{ a: 1 }, {}, { b: ['x', { c: 'true' }] }];
    expect(manifestsYaml(docs)).toBe(Yaml.stringify(...docs));
    expect(manifestsYaml(docs)).toBe('a: 1\n---\n{}\n---\nb:\n  - x\n  - c: "true"\n');
  });
});
