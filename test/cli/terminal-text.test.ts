import { terminalSafe } from '../../src/cli/terminal-text';
import { run, tempFolderPerTest } from '../support/cli-run';

const { file } = tempFolderPerTest('cdk8s-inference-terminal-');

describe('what the CLI prints on stderr cannot act on the terminal', () => {
  test('control and bidi characters are shown escaped; line feeds, tabs and other text stay', () => {
    expect(terminalSafe('a\u001b[31mred\rb\u0000c\u007fd\u009be\u202egnp.exe\u2066f')).toBe('a\\u001b[31mred\\u000db\\u0000c\\u007fd\\u009be\\u202egnp.exe\\u2066f');
    expect(terminalSafe('line one\n\tline two: ünïcødé 😀 \u0085')).toBe('line one\n\tline two: ünïcødé 😀 \\u0085');
  });

  test('a name holding an escape sequence is printed escaped in the error that quotes it', async () => {
    const f = file('esc.yaml', 'apiVersion: airunway.ai/v1alpha1\nkind: ModelDeployment\nmetadata:\n  name: "a\\e[2Jb"\nspec:\n  model:\n    id: Qwen/Qwen3-0.6B\n  resources:\n    gpu:\n      count: 1\n');
    const r = await run('synth', '-f', f);
    expect(r.code).toBe(1);
    const text = r.stderr.join('\n');
    expect(text).not.toMatch(/\u001b/);
    expect(text).toContain('ModelDeployment a\\u001b[2Jb: metadata.name: Invalid value: "a\\u001b[2Jb"');
  });
});
