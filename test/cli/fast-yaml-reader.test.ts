import * as fs from 'fs';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';
import { parseAllDocuments } from 'yaml';
import { fastYamlDocuments } from '../../src/cli/fast-yaml-reader';
import { Rng } from '../support/rng';

/**
 * The fast reader's contract: a text it takes reads the same as with `yaml` (the non-empty
 * documents, at the same indices, deep-equal with -0 and NaN told apart), and a text `yaml`
 * refuses is never taken.
 */
function expectSameAsYaml(text: string): 'taken' | 'left to yaml' {
  const fast = fastYamlDocuments(text);
  if (fast === undefined) return 'left to yaml';
  const docs = parseAllDocuments(text);
  const refused = docs.flatMap((d) => d.errors.map((e) => e.message.split('\n')[0]));
  if (refused.length > 0) throw new Error(`taken, but yaml refuses it (${refused[0]}):\n${text}`);
  const expected = nonEmpty(docs.map((d) => d.toJS()));
  const actual = nonEmpty(fast);
  if (!isDeepStrictEqual(actual, expected)) {
    throw new Error(`read differently:\n${text}\nyaml: ${JSON.stringify(expected)}\nfast: ${JSON.stringify(actual)}`);
  }
  return 'taken';
}

function nonEmpty(contents: unknown[]): Array<[number, unknown]> {
  return contents.flatMap((c, i): Array<[number, unknown]> => (c === null || c === undefined ? [] : [[i, c]]));
}

/** Plain scalars of every type the core schema knows, and strings that look like them. */
const PLAIN = [
  '0', '-0', '+0', '007', '12', '-12', '+12', '0o17', '+0o17', '0o8', '0x1F', '0X1F', '0xg', '0b101', '1_000', '12345678901234567890',
  '1.', '.5', '-.5', '+.5', '1.5e3', '1e3', '1E-3', '-1.5e+3', '1e400', '.inf', '-.Inf', '+.INF', '.nan', '.NaN', '-.nan', '.Nan',
  'true', 'True', 'TRUE', 'tRue', 'false', 'yes', 'no', 'on', 'off', 'y', 'n', 'null', 'Null', 'NULL', 'nULL', '~',
  '2026-01-01', '2026-01-01T10:00:00Z', '12:30', '1:2:3', 'a', 'Qwen/Qwen3-0.6B', 'nvidia.com/gpu', 'a b', 'a:b', 'a#b', 'x-y', '--max-model-len',
  '=', '@', '`x', 'a,b', 'é', '日本', '__proto__', 'constructor',
];
const QUOTED = ['\'\'', '""', '\'a\'\'b\'', '"a\\"b"', '"\\x41\\u263A\\U0001F600"', '"\\N\\_\\L\\P"', '\'true\'', '"12"', '"a\\tb"', '"\\0"', '\'# not a comment\'', '"multi\n  line"', '\'multi\n\n  line\''];
const KEYS = ['a', 'b', 'model', 'spec', 'name', 'x-y', '1', '0x10', 'true', 'null', '~', '.5', '"q"', "'s'", '__proto__', 'constructor', 'a b', 'é'];
const BLOCK_HEADERS = ['|', '|-', '|+', '>', '>-', '>+', '|2', '>1-'];
const BLOCK_BODIES = ['one', 'one\ntwo', 'one\n\ntwo', ' lead', 'one\n  more', 'trail  ', 'one\n'];

/**
 * Pools of the generator. With `inGrammar`, only what the fast reader's line grammar takes, so
 * that many texts are compared rather than left to yaml; without, anything.
 */
function pools(inGrammar: boolean) {
  const single = (x: string) => !inGrammar || !x.includes('\n');
  return {
    plain: inGrammar ? PLAIN.filter((p) => !['`x', '@', 'a#b'].includes(p)) : PLAIN,
    quoted: QUOTED.filter(single),
    keys: inGrammar ? KEYS.filter((k) => !['null', '~', 'a b'].includes(k)) : KEYS,
    headers: inGrammar ? ['|', '|-', '>', '>-'] : BLOCK_HEADERS,
    bodies: inGrammar ? BLOCK_BODIES.filter((b) => !b.startsWith(' ')) : BLOCK_BODIES,
    others: inGrammar ? ['{}', '[]', 'a # comment'] : ['', '{}', '[]', '# comment', 'a # comment', 'plain\n{indent}  continued'],
    emptyDocuments: inGrammar ? ['', '# only a comment'] : ['', '# only a comment', '~'],
    separators: inGrammar ? ['\n---\n', '\n--- \n'] : ['\n---\n', '\n...\n---\n', '\n--- \n'],
  };
}

function scalar(rng: Rng, indent: string, pool: ReturnType<typeof pools>): string {
  switch (rng.int(0, 5)) {
    case 0:
    case 1:
    case 2:
      return rng.pick(pool.plain);
    case 3:
      return rng.pick(pool.quoted);
    case 4:
      return `${rng.pick(pool.headers)}\n${rng.pick(pool.bodies).split('\n').map((l) => (l ? `${indent}  ${l}` : '')).join('\n')}`;
    default:
      return rng.pick(pool.others).replace('{indent}', indent);
  }
}

function node(rng: Rng, indent: string, depth: number, pool: ReturnType<typeof pools>): string {
  // Documents are collections, as inputs are (a scalar document is left to yaml).
  const kind = depth > 3 ? 'scalar' : rng.weighted({ scalar: depth === 0 ? 0 : 4, map: 2, seq: 1 });
  if (kind === 'scalar') return ` ${scalar(rng, indent, pool)}`;
  const lines: string[] = [];
  for (let i = rng.int(1, 3); i > 0; i--) {
    if (kind === 'map') lines.push(`${indent}${rng.pick(pool.keys)}:${node(rng, indent + '  ', depth + 1, pool)}`);
    else lines.push(`${indent}-${node(rng, indent + '  ', depth + 1, pool)}`);
  }
  return `\n${lines.join('\n')}`;
}

function documentText(rng: Rng): string {
  const pool = pools(rng.chance(0.5));
  const docs: string[] = [];
  for (let i = rng.int(1, 3); i > 0; i--) {
    docs.push(rng.chance(0.1) ? rng.pick(pool.emptyDocuments) : node(rng, '', 0, pool).replace(/^\n/, ''));
  }
  return docs.join(rng.pick(pool.separators)) + rng.pick(['\n', '', '\n---\n', '\n\n']);
}

/** A character of YAML's syntax inserted, removed or replaced somewhere. */
function mutate(rng: Rng, text: string): string {
  const at = rng.int(0, text.length);
  const ch = rng.pick([':', '-', ' ', '\n', '#', "'", '"', '|', '>', ',', '\\', '  ', '---', '...', '\u0000', '\uFEFF']);
  switch (rng.int(0, 2)) {
    case 0:
      return text.slice(0, at) + ch + text.slice(at);
    case 1:
      return text.slice(0, at) + text.slice(at + 1);
    default:
      return text.slice(0, at) + ch + text.slice(at + 1);
  }
}

describe('the CLI fast YAML reader', () => {
  test('reads every example and test input as yaml does, and takes the plain ones', () => {
    const files = [
      ...fs.readdirSync('examples', { recursive: true }).map(String).filter((f) => /\.ya?ml$/.test(f)).map((f) => path.join('examples', f)),
      ...fs.readdirSync('test', { recursive: true }).map(String).filter((f) => /\.ya?ml$/.test(f)).map((f) => path.join('test', f)),
    ];
    const taken = files.filter((f) => expectSameAsYaml(fs.readFileSync(f, 'utf8')) === 'taken');
    expect(files.length).toBeGreaterThan(5);
    expect(taken).toContain(path.join('examples', 'airunway-modeldeployment.yaml'));
  });

  test('reads generated texts as yaml does (fixed seed)', () => {
    const rng = new Rng(20261127);
    let taken = 0;
    const count = 3000;
    for (let i = 0; i < count; i++) {
      if (expectSameAsYaml(documentText(rng)) === 'taken') taken++;
    }
    // Most generated texts avoid what is left to yaml: the comparison above is not vacuous.
    expect(taken).toBeGreaterThan(count * 0.25);
  });

  test('never takes a mutated text that yaml refuses, and reads the rest as yaml does (fixed seed)', () => {
    const rng = new Rng(7);
    let refusedByYaml = 0;
    for (let i = 0; i < 3000; i++) {
      let text = documentText(rng);
      for (let m = rng.int(1, 3); m > 0; m--) text = mutate(rng, text);
      expectSameAsYaml(text);
      if (parseAllDocuments(text).some((d) => d.errors.length > 0)) refusedByYaml++;
    }
    // Enough of the mutations break the YAML for the refusal half of the contract to be tested.
    expect(refusedByYaml).toBeGreaterThan(300);
  });

  test.each([
    ['a tag', 'a: !!str 5\n'],
    ['an anchor and alias', 'a: &x 1\nb: *x\n'],
    ['a directive', '%YAML 1.1\n---\na: yes\n'],
    ['an explicit key', '? a\n: 1\n'],
    ['a merge key', 'a: {x: 1}\nb:\n  <<: 1\n'],
    ['a flow collection', 'a: [1, 2]\n'],
    ['a flow collection as a key', '[a, b]: 1\n'],
    ['an empty flow mapping as a key', '{}: 1\n'],
    ['a tab', 'a:\t1\n'],
    ['a null key', 'a: 1\n~: 2\n'],
    ['a null key in a sequence', '- null : 1\n'],
    ['a YAML error', 'a: 1\na: 2\n'],
  ])('leaves %s to yaml', (_name, text) => {
    expect(fastYamlDocuments(text)).toBeUndefined();
  });

  test('reads the core schema as YAML 1.2 defines it, not as js-yaml or YAML 1.1 would', () => {
    expect(fastYamlDocuments('a: -.5\nb: 0b101\nc: 1_000\nd: 2026-01-01\ne: yes\nf: 0o17\ng: 0x1F\nh: .NaN\ni: -.inf\nj: null\nk: ~\n')).toEqual([
      { a: -0.5, b: '0b101', c: '1_000', d: '2026-01-01', e: 'yes', f: 15, g: 31, h: NaN, i: -Infinity, j: null, k: null },
    ]);
  });
});
