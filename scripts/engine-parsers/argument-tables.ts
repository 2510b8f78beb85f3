/**
 * Writes src/provider-kit/generated/engine-arguments.ts: for each engine parser the library
 * renders command lines for, every option with its destination and how it takes a value.
 * The library reads it to render `engine.args` values of "true"/"false" as the engine's switch
 * forms, and to type KubeRay's `engine_kwargs`. The input is the parser definitions that
 * extract.py dumped from the real packages (test/fixtures/engine-parsers/<parser>.json);
 * test/engines/argument-tables.test.ts fails when the committed module is not what this writes.
 *
 *   npx ts-node --project test/tsconfig.json scripts/engine-parsers/argument-tables.ts [--check]
 */
import * as fs from 'fs';
import * as path from 'path';

const FIXTURES = path.join(__dirname, '..', '..', 'test', 'fixtures', 'engine-parsers');
export const TABLES_MODULE = path.join(__dirname, '..', '..', 'src', 'provider-kit', 'generated', 'engine-arguments.ts');

/** The parsers the library renders for (the default images' engines), by table id. */
export const TABLE_PARSERS: Readonly<Record<string, string>> = {
  'vllm-0.33.0': 'vllm-0.33.0-serve',
  'vllm-0.29.0': 'vllm-0.29.0-serve',
  'sglang-0.5.23': 'sglang-0.5.23-launch-server',
  'dynamo-1.1.1-vllm': 'dynamo-1.1.1-vllm',
  'dynamo-1.1.1-sglang': 'dynamo-1.1.1-sglang',
  'dynamo-1.1.1-trtllm': 'dynamo-1.1.1-trtllm',
  'dynamo-1.6.1-vllm': 'dynamo-1.6.1-vllm',
  'dynamo-1.6.1-sglang': 'dynamo-1.6.1-sglang',
  'dynamo-1.6.1-trtllm': 'dynamo-1.6.1-trtllm',
};

/**
 * The parsers of the releases a table's engine replaced as our default (the versions users upgrade
 * from): an option of theirs that the table's parser no longer has is a removed flag, an error at
 * synth time (`src/provider-kit/retired-engine-flags.ts`).
 */
export const PREVIOUS_PARSERS: Readonly<Record<string, readonly string[]>> = {
  'vllm-0.33.0': ['vllm-0.9.1-api-server', 'vllm-0.11.0-api-server'],
  'sglang-0.5.23': ['sglang-0.5.4-launch-server'],
  'dynamo-1.6.1-vllm': ['dynamo-1.1.1-vllm'],
  'dynamo-1.6.1-sglang': ['dynamo-1.1.1-sglang'],
  'dynamo-1.6.1-trtllm': ['dynamo-1.1.1-trtllm'],
};

interface Action {
  readonly flags: readonly string[];
  readonly dest: string;
  readonly action: string;
  readonly nargs: null | string | number;
  readonly type: string | null;
  readonly negativeFlags?: readonly string[];
  /** The argparse action a custom action stands for (vLLM's EnableDisableAction is a BooleanOptionalAction). */
  readonly baseAction?: string;
  readonly deprecated?: boolean;
  /** The option the parser names as the deprecated one's replacement (SGLang's `new_flag`). */
  readonly replacement?: string;
}

/** How an option takes its value, in one letter (see the generated module's header). */
function kindOf(a: Action): string {
  if (a.action === 'boolean_optional' || a.baseAction === 'boolean_optional') return 'b';
  if (['store_true', 'store_false', 'store_const', 'count', 'append_const'].includes(a.action)) return 's';
  if (a.nargs === '+' || a.nargs === '*' || typeof a.nargs === 'number') return 'l';
  const type = a.type ?? 'str';
  // vLLM wraps its types: optional_type(int), human_readable_int, parse_dataclass (a JSON object), union_dict_and_str.
  if (type === 'int' || /optional_type\(int\)|human_readable_int/.test(type)) return 'i';
  if (type === 'float' || /optional_type\(float\)/.test(type)) return 'f';
  if (type === 'json' || /parse_dataclass/.test(type)) return 'j';
  if (/union_dict_and_str/.test(type)) return 'u';
  if (type === 'bool') return 'o';
  return 'v';
}

/** Long options of `previous` parsers that `current` does not have, each with the current option of the same destination. */
function removedOptions(current: readonly Action[], previous: readonly string[]): Map<string, string | null> {
  const flags = new Set(current.flatMap((a) => a.flags));
  const byDest = new Map<string, string>();
  for (const a of current) {
    const long = a.flags.find((f) => f.startsWith('--') && !(a.negativeFlags ?? []).includes(f));
    if (long && !byDest.has(a.dest)) byDest.set(a.dest, long);
  }
  const removed = new Map<string, string | null>();
  for (const parser of previous) {
    const def = JSON.parse(fs.readFileSync(path.join(FIXTURES, `${parser}.json`), 'utf8')) as { options: Action[] };
    for (const a of def.options) {
      for (const flag of a.flags) {
        if (flag.startsWith('--') && !flags.has(flag) && !removed.has(flag)) removed.set(flag, byDest.get(a.dest) ?? null);
      }
    }
  }
  return removed;
}

/** `    name: { ... },` of a flag → string-or-null map, sorted. */
function recordLines(name: string, entries: ReadonlyMap<string, string | null>): string[] {
  if (entries.size === 0) return [`    ${name}: {},`];
  const quote = (v: string | null) => (v === null ? 'null' : `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`);
  return [`    ${name}: {`, ...[...entries.keys()].sort().map((k) => `      '${k}': ${quote(entries.get(k)!)},`), '    },'];
}

export function generateTables(): string {
  const out: string[] = [
    '// Generated by scripts/engine-parsers/argument-tables.ts from test/fixtures/engine-parsers (the real',
    '// parsers\' definitions); do not edit. Each option: [destination, kind], kind one of',
    '// s: a switch (no value; store_true and the like), b: a switch with a `--no-` form (BooleanOptionalAction),',
    '// i: an int, f: a float, j: JSON, u: a JSON object or a string, o: a boolean value, l: a list of values, v: any other value.',
    '',
    '/** How an option takes its value (see the header). */',
    "export type EngineArgumentKind = 's' | 'b' | 'i' | 'f' | 'j' | 'u' | 'o' | 'l' | 'v';",
    '',
    '/** The long options of one engine parser. */',
    'export interface EngineArgumentTable {',
    '  /** The parser it was extracted from (test/fixtures/engine-parsers). */',
    '  readonly parser: string;',
    '  /** Option (`--max-model-len`) → [destination, kind]. */',
    '  readonly options: Readonly<Record<string, readonly [string, EngineArgumentKind]>>;',
    '  /** Options the parser marks deprecated → the replacement it names, or null. */',
    '  readonly deprecated: Readonly<Record<string, string | null>>;',
    '  /**',
    '   * Options of the releases this one replaced as our default (`previousParsers`) that this parser no longer',
    '   * has → the option of this parser with the same destination (a rename), or null.',
    '   */',
    '  readonly removed: Readonly<Record<string, string | null>>;',
    '  /** The parsers `removed` compares against. */',
    '  readonly previousParsers: readonly string[];',
    '}',
    '',
    'export const ENGINE_ARGUMENT_TABLES: Readonly<Record<string, EngineArgumentTable>> = {',
  ];
  for (const [id, parser] of Object.entries(TABLE_PARSERS)) {
    const file = path.join(FIXTURES, `${parser}.json`);
    if (!fs.existsSync(file)) continue;
    const def = JSON.parse(fs.readFileSync(file, 'utf8')) as { options: Action[] };
    out.push(`  '${id}': {`, `    parser: '${parser}',`, '    options: {');
    const rows = new Map<string, string>();
    for (const a of def.options) {
      for (const flag of a.flags) if (!rows.has(flag)) rows.set(flag, `      '${flag}': ['${a.dest}', '${kindOf(a)}'],`);
    }
    for (const flag of [...rows.keys()].sort()) out.push(rows.get(flag)!);
    out.push('    },');
    const deprecated = new Map<string, string | null>();
    for (const a of def.options) {
      if (a.deprecated) for (const flag of a.flags) if (flag.startsWith('--')) deprecated.set(flag, a.replacement ?? null);
    }
    out.push(...recordLines('deprecated', deprecated));
    const previous = (PREVIOUS_PARSERS[id] ?? []).filter((p) => fs.existsSync(path.join(FIXTURES, `${p}.json`)));
    out.push(...recordLines('removed', removedOptions(def.options, previous)));
    out.push(`    previousParsers: [${previous.map((p) => `'${p}'`).join(', ')}],`, '  },');
  }
  out.push('};', '');
  return out.join('\n');
}

if (require.main === module) {
  const text = generateTables();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(TABLES_MODULE) ? fs.readFileSync(TABLES_MODULE, 'utf8') : '';
    if (current !== text) {
      console.error(`${path.relative(process.cwd(), TABLES_MODULE)} is stale: run scripts/engine-parsers/argument-tables.ts`);
      process.exitCode = 1;
    }
  } else {
    fs.mkdirSync(path.dirname(TABLES_MODULE), { recursive: true });
    fs.writeFileSync(TABLES_MODULE, text);
    console.log(`wrote ${path.relative(process.cwd(), TABLES_MODULE)} (${text.split('\n').length} lines)`);
  }
}
