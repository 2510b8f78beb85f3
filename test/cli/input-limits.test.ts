import * as fs from 'fs';
import { stackExhaustedProblem } from '../../src/cli/input-documents';
import { inputShapeProblem, MAX_INPUT_NESTING, readBoundedText } from '../../src/cli/input-limits';
import { yamlPackage } from '../../src/core/yaml-package';
import { MAX_OBJECT_DEPTH } from '../../src/schema-validation/object-validation';
import { run, runWithStdin, tempFolderPerTest } from '../support/cli-run';

const { file } = tempFolderPerTest('cdk8s-inference-limits-');

const MODEL = 'apiVersion: airunway.ai/v1alpha1\nkind: ModelDeployment\nmetadata:\n  name: m\nspec:\n  model:\n    id: Qwen/Qwen3-0.6B\n';

/**
 * synth and explain end with exit 1 and an error naming the file (and document where known);
 * synth writes nothing (explain still explains the documents it could read).
 */
async function expectRefused(args: string[], expected: RegExp, stdin?: string): Promise<void> {
  for (const command of ['synth', 'explain']) {
    const r = stdin === undefined ? await run(command, ...args) : await runWithStdin(stdin, command, ...args);
    expect({ command, code: r.code }).toEqual({ command, code: 1 });
    if (command === 'synth') expect(r.stdout).toBe('');
    expect(r.stderr.find((l) => l.startsWith('error: '))).toMatch(expected);
  }
}

describe('input limits of every command', () => {
  test('an alias bomb is exit 1 naming the file and document, not a crash', async () => {
    let bomb = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 10; i++) bomb += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]\n`;
    const f = file('bomb.yaml', `${MODEL}---\n${bomb}`);
    await expectRefused(['-f', f], new RegExp(`^error: ${f}\\[doc 2\\]: invalid YAML: Excessive alias count`));
  });

  test('an undefined alias is exit 1 naming the file and document', async () => {
    const f = file('alias.yaml', `${MODEL}  nodeSelector: *nope\n`);
    await expectRefused(['-f', f], new RegExp(`^error: ${f}\\[doc 1\\]: invalid YAML: Unresolved alias .*: nope`));
  });

  test.each([
    ['flow', `${MODEL}  args: ${'['.repeat(700)}${']'.repeat(700)}\n`],
    ['block', `${MODEL}  nodeSelector:\n${Array.from({ length: 700 }, (_, i) => `${' '.repeat(2 * i + 4)}k${i}:`).join('\n')} v\n`],
  ])('%s nesting 700 deep is exit 1 at its document and line, before the parser can overflow its stack', async (_kind, text) => {
    const f = file('deep.yaml', `${MODEL}---\n${text}`);
    await expectRefused(['-f', f], new RegExp(`^error: ${f}\\[doc 2\\]:\\d+:1: nested more than ${MAX_INPUT_NESTING} levels deep`));
  });

  test.each([
    ['a lone carriage return', 'apiVersion: airunway.ai/v1alpha1\nkind: ModelDeployment\nmetadata: {name: a\r}\n'],
    ['a line separator (U+2028)', 'a: "x\u2028y"\n'],
  ])('%s inside a line is read, not a crash (the limits scan took lines as ending there)', async (_what, text) => {
    const f = file('odd.yaml', text);
    const r = await run('synth', '-f', f);
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toMatch(new RegExp(`^error: ${f}\\[doc 1\\]`));
  });

  const SERVED = `${MODEL}  resources:\n    gpu:\n      count: 1\n`;

  test.each([
    ['a NUL character in a value', Buffer.from(`${SERVED}---\n${SERVED.replace('name: m', 'name: m2').replace('Qwen3-0.6B', 'Qwen3\u0000-0.6B')}`), 2, 18, 19, 'control character U+0000 is not allowed in YAML'],
    ['an escape character in a key', Buffer.from(`${SERVED}  \u001b[31m: x\n`), 1, 11, 3, 'control character U+001B is not allowed in YAML'],
    ['DEL', Buffer.from(`${SERVED.replace('name: m', 'name: "m\u007f"')}`), 1, 4, 11, 'control character U+007F'],
    ['invalid UTF-8', Buffer.concat([Buffer.from(`${SERVED}---\n${MODEL.replace('name: m', 'name: a')}  engine:\n    image: x`), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('\n')]), 2, 20, 1, 'not valid UTF-8 on this line'],
  ])('%s is exit 1 at its document, line and column, not output with other bytes than the input\'s', async (_what, bytes, doc, line, col, message) => {
    const f = file('bytes.yaml', '');
    fs.writeFileSync(f, bytes);
    for (const command of ['synth', 'explain', 'validate']) {
      const r = await run(command, '-f', f);
      expect({ command, code: r.code, stdout: command === 'synth' ? r.stdout : '' }).toEqual({ command, code: 1, stdout: '' });
      expect(r.stderr[0]).toContain(`error: ${f}[doc ${doc}]:${line}:${col}: ${message}`);
    }
  });

  test('what YAML allows is read: tab, CR LF, U+0085, a byte order mark, U+FFFD, and escaped control characters', async () => {
    const text = `\uFEFF${SERVED.replace(/\n/g, '\r\n')}  env:\r\n  - name: NOTE\r\n    value: "tab\there, NEL \u0085, \ufffd, escaped \\0 and \\x1b"\r\n`;
    const r = await run('synth', '-f', file('allowed.yaml', text));
    expect(r.stderr).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('NEL \u0085, \ufffd, escaped \\0 and \\e');
  });

  test('a malformed line early in a long mapping, on which the yaml parser may run out of stack, is reported at its line (found by the fuzz script)', async () => {
    const keys = Array.from({ length: 4900 }, (_, i) => `    k${i}: ${i}`);
    keys[190] = '   !6,x- k190: 190';
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  many:\n${keys.join('\n')}\n`;
    const f = file('recursion.yaml', text);
    // Whether the parser runs out of stack on the whole text depends on the stack left to it
    // (the CLI ran out on such an input, jest may not): either way the line is named.
    const r = await run('validate', '-f', f);
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toMatch(new RegExp(`^error: ${f}\\[doc 1\\]:197:\\d+: invalid YAML: Tags and anchors must be separated`));
    expect(r.stderr.join('\n')).not.toMatch(/Maximum call stack/);
    // What the reader reports when it does: the first error of the longest beginning that parses.
    expect(stackExhaustedProblem(f, text)).toMatchObject({
      file: f, index: 0, line: 197, message: expect.stringMatching(/^invalid YAML: Tags and anchors must be separated .*\(the parser ran out of stack on the lines after it\)$/),
    });
    expect(stackExhaustedProblem(f, 'a: 1\nb: 2\n').message).toBe('invalid YAML: the YAML parser ran out of stack on this input (a malformed line early in a long mapping?)');
  });

  test('an input without an end (/dev/zero) is refused at the size limit, naming it', async () => {
    await expectRefused(['-f', '/dev/zero'], /^error: \/dev\/zero: more than 16777216 bytes: cdk8s-inference reads at most 16777216 bytes \(16 MiB\) from one input; split it$/);
  });

  test('a large standard input is refused at the size limit', async () => {
    await expectRefused(['-f', '-'], /^error: <stdin>: \d+ bytes: cdk8s-inference reads at most 16777216 bytes/, `${MODEL}#${'x'.repeat(17 * 1024 * 1024)}\n`);
  });

  test('the documents limit applies only to inputs the yaml package reads, whose time grows with their square', async () => {
    const served = `${MODEL}  resources:\n    gpu:\n      count: 1\n`;
    const blockStyle = file('fleet.yaml', Array.from({ length: 2500 }, (_, i) => served.replace('name: m', `name: m${i}`)).join('---\n'));
    const fleet = await run('synth', '-f', blockStyle);
    expect(fleet.code).toBe(0);
    expect(fleet.stdout.match(/^kind: ModelDeployment$/gm)).toHaveLength(2500);
    const flowStyle = file('flow.yaml', Array.from({ length: 2001 }, (_, i) => served.replace('name: m', `name: m${i}`).replace('  model:\n    id: Qwen/Qwen3-0.6B', '  model: {id: Qwen/Qwen3-0.6B}')).join('---\n'));
    await expectRefused(['-f', flowStyle], /: more than 2000 YAML documents \(line \d+\); cdk8s-inference reads at most 2000 from one input in this YAML style/);
  });

  test('the limits pass what manifests are: nesting of 100 levels, files of 16 MiB', () => {
    expect(MAX_INPUT_NESTING).toBe(MAX_OBJECT_DEPTH);
    const hundred = `a:\n${Array.from({ length: 99 }, (_, i) => `${' '.repeat(i + 1)}k${i}:`).join('\n')} v\n`;
    expect(inputShapeProblem(hundred)).toBeUndefined();
    expect(inputShapeProblem(`a:\n${Array.from({ length: 100 }, (_, i) => `${' '.repeat(i + 1)}k${i}:`).join('\n')} v\n`)?.message).toMatch(/nested more than 100/);
    // Brackets in quoted strings and comments are not nesting.
    expect(inputShapeProblem(`a: "${'['.repeat(500)}"\nb: x # ${'{'.repeat(500)}\nc: '${'['.repeat(500)}'\n`)).toBeUndefined();
    const f = file('big.yaml', `${MODEL}#${'x'.repeat(16 * 1024 * 1024 - MODEL.length - 2)}\n`);
    expect(readBoundedText(f).text?.length).toBe(16 * 1024 * 1024);
  });

  test('a problem of the scan names the document as the parser numbers them, whatever markers open the stream', () => {
    const deep = `a: ${'['.repeat(101)}${']'.repeat(101)}\n`;
    for (const [text, index] of [
      [deep, 0],
      [`---\n${deep}`, 0],
      [`# a comment\n---\n${deep}`, 0],
      [`%YAML 1.2\n---\n${deep}`, 0],
      [`b: 1\n---\n${deep}`, 1],
      [`---\nb: 1\n---\n${deep}`, 1],
      [`---\n---\n${deep}`, 1],
      [`b: 1\n...\n---\n${deep}`, 1],
    ] as Array<[string, number]>) {
      expect(inputShapeProblem(text)?.index).toBe(index);
      // The parser's own numbering of the same stream, with the deep value made shallow.
      const docs = yamlPackage().parseAllDocuments(text.replace(deep, 'a: []\n'));
      expect(docs).toHaveLength(index + 1);
    }
  });
});

describe('-o onto what is not a writable directory', () => {
  test.each(['/proc', '/proc/self/fd', '/proc/self/new-dir', '/dev/null'])('synth -o %s ends at once with exit 1, writing nothing', async (target) => {
    const f = file('m.yaml', `${MODEL}  resources:\n    gpu:\n      count: 1\n`);
    const started = Date.now();
    const r = await run('synth', '-f', f, '-o', target);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 1, stdout: '' });
    expect(r.stderr.at(-1)).toMatch(new RegExp(`^error: cannot write ${target}: `));
  });
});
