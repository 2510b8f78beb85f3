/**
 * The argparse replay on a small definition of our own, for the rules that decide acceptance
 * (CPython's Lib/argparse.py). Agreement with the real engine parsers on the real definitions is
 * argparse-agreement.test.ts's.
 */
import { parseArgs, ParserAction, ParserDefinition } from './argparse';
import { parserDefinition } from './conformance';

const option = (flags: string[], dest: string, more: Partial<ParserAction> = {}): ParserAction =>
  ({ flags, dest, action: 'store', nargs: null, choices: null, type: 'str', ...more });

function definition(over: Partial<ParserDefinition> = {}): ParserDefinition {
  return {
    parser: 'test',
    package: 'test',
    version: '0',
    entrypoint: ['test'],
    allowAbbrev: true,
    prefixChars: '-',
    positionals: [],
    options: [
      option(['--max-model-len'], 'max_model_len', { type: 'int' }),
      option(['--max-model-len-cap'], 'cap', { type: 'int' }),
      option(['--tensor-parallel-size', '-tp'], 'tensor_parallel_size', { type: 'int' }),
      option(['--enforce-eager'], 'enforce_eager', { action: 'store_true', default: false }),
      option(['--enable-prefix-caching', '--no-enable-prefix-caching'], 'enable_prefix_caching', { action: 'boolean_optional' }),
      option(['--dtype'], 'dtype', { choices: ['auto', 'half'] }),
      option(['--served-model-name'], 'served_model_name', { nargs: '+' }),
      option(['--kv-transfer-config'], 'kv_transfer_config', { type: 'json' }),
      option(['--gpu-memory-utilization'], 'gpu', { type: 'float' }),
      option(['--seed'], 'seed', { type: 'int' }),
      option(['--block-size'], 'block_size', { type: 'other:human_readable_int', typeProbes: { 16: true, x: false } }),
    ],
    ...over,
  };
}

describe('argparse replay', () => {
  test('values, switches, BooleanOptionalAction and defaults', () => {
    const v = parseArgs(definition(), ['--max-model-len', '8192', '--enforce-eager', '--no-enable-prefix-caching', '-tp', '2']);
    expect(v).toMatchObject({
      accepted: true,
      values: { max_model_len: 8192, enforce_eager: true, enable_prefix_caching: false, tensor_parallel_size: 2, dtype: null },
    });
  });

  test('a value after a switch is a stray positional: unrecognized without positionals, the positional with one', () => {
    expect(parseArgs(definition(), ['--enforce-eager', 'true'])).toMatchObject({ accepted: false, error: 'unrecognized arguments: true' });
    const serve = definition({ positionals: [{ flags: [], dest: 'model_tag', action: 'store', nargs: '?', choices: null, type: 'str' }] });
    expect(parseArgs(serve, ['--enforce-eager', 'true', '--seed', '1'])).toMatchObject({ accepted: true, values: { model_tag: 'true' } });
  });

  test('--opt=value, unique prefixes, and ambiguous ones', () => {
    expect(parseArgs(definition(), ['--max-model-len=4096']).values.max_model_len).toBe(4096);
    expect(parseArgs(definition(), ['--tensor', '4']).values.tensor_parallel_size).toBe(4);
    expect(parseArgs(definition(), ['--max-model', '1'])).toMatchObject({ accepted: false, error: expect.stringContaining('ambiguous option: --max-model') });
    expect(parseArgs(definition({ allowAbbrev: false }), ['--tensor', '4'])).toMatchObject({ accepted: false, error: 'unrecognized arguments: --tensor 4' });
  });

  test('types, choices, JSON and probed callables', () => {
    expect(parseArgs(definition(), ['--max-model-len', '8k']).error).toBe("argument --max-model-len: invalid int value: '8k'");
    expect(parseArgs(definition(), ['--dtype', 'float8']).error).toBe("argument --dtype: invalid choice: 'float8' (choose from 'auto', 'half')");
    expect(parseArgs(definition(), ['--kv-transfer-config', '{"kv_connector":"NixlConnector"}']).values.kv_transfer_config).toEqual({ kv_connector: 'NixlConnector' });
    expect(parseArgs(definition(), ['--kv-transfer-config', '{x']).accepted).toBe(false);
    expect(parseArgs(definition(), ['--gpu-memory-utilization', '0.92']).values.gpu).toBe(0.92);
    expect(parseArgs(definition(), ['--block-size', 'x']).accepted).toBe(false);
    expect(parseArgs(definition(), ['--block-size', '32'])).toMatchObject({ accepted: true, unjudged: ['--block-size 32'] });
  });

  test('a missing value, a negative number, nargs "+" and the last occurrence winning', () => {
    expect(parseArgs(definition(), ['--seed']).error).toBe('argument --seed: expected one argument');
    expect(parseArgs(definition(), ['--seed', '-1']).values.seed).toBe(-1);
    expect(parseArgs(definition(), ['--served-model-name', 'a', 'b']).values.served_model_name).toEqual(['a', 'b']);
    expect(parseArgs(definition(), ['--served-model-name']).error).toBe('argument --served-model-name: expected at least one argument');
    expect(parseArgs(definition(), ['--seed', '1', '--seed', '2']).values.seed).toBe(2);
  });

  test('an unknown option, and its value, are unrecognized', () => {
    expect(parseArgs(definition(), ['--no-such', 'x'])).toMatchObject({ accepted: false, error: 'unrecognized arguments: --no-such x' });
  });

  test('vLLM-style parsers read --foo_bar as --foo-bar', () => {
    expect(parseArgs(definition(), ['--max_model_len', '1']).accepted).toBe(false);
    expect(parseArgs(definition({ underscoreToDash: true }), ['--max_model_len', '1']).values.max_model_len).toBe(1);
  });
});

describe('argparse replay of vLLM 0.33.0 `vllm serve` (EnableDisableAction)', () => {
  // Verdicts of the real parser on 2026-12-02 (scripts/engine-parsers/parse.py vllm-0.33.0-serve):
  // `--no-enable-prefix-caching`, hidden from help, still stores False, as `--disable-prefix-caching` does.
  const vllm033 = parserDefinition('vllm-0.33.0-serve');
  const values = (argv: string[]) => {
    const v = parseArgs(vllm033, ['--model', 'Qwen/Qwen3-0.6B', ...argv]);
    expect(v.error).toBeUndefined();
    return v.values ?? {};
  };

  test.each([
    [['--enable-prefix-caching'], true],
    [['--disable-prefix-caching'], false],
    [['--no-enable-prefix-caching'], false],
    [[], null],
  ] as const)('%j sets enable_prefix_caching to %j', (argv, expected) => {
    expect(values([...argv]).enable_prefix_caching).toBe(expected);
  });

  test('--trust-remote-code and --no-enforce-eager, the pairs of the same action class', () => {
    expect(values(['--trust-remote-code', '--no-enforce-eager'])).toMatchObject({ trust_remote_code: true, enforce_eager: false });
  });

  test('a flag it does not know is refused, as the real parser refuses it', () => {
    expect(parseArgs(vllm033, ['--model', 'x', '--no-such-flag']).error).toBe('unrecognized arguments: --no-such-flag');
  });
});
