/**
 * The command lines whose real verdicts `scripts/engine-conformance.ts --record` writes to
 * test/fixtures/engine-parsers/real-verdicts.json: for every parser, a few of the corpus's own
 * lines and, around them, the mistakes a parser must refuse or the forms it must read — an unknown
 * option, a stray positional after a switch, a bad integer, a value missing at the end, `--x=v`,
 * `--x_y` spellings, abbreviations, repeated options, negative numbers, malformed JSON. The replay
 * (./argparse) has to reach the same verdict on each (argparse-agreement.test.ts).
 */

/** A command line for one parser. */
export interface ParserRequest {
  readonly parser: string;
  readonly argv: readonly string[];
}

const PER_PARSER = 4;

/** Variations of `argv` that exercise how argparse reads tokens. */
function variations(argv: readonly string[]): string[][] {
  const out: string[][] = [[...argv]];
  const switchAt = argv.findIndex((a, i) => a.startsWith('--') && !a.includes('=') && (i + 1 >= argv.length || argv[i + 1].startsWith('--')));
  if (switchAt >= 0) out.push([...argv.slice(0, switchAt + 1), 'true', ...argv.slice(switchAt + 1)]);
  out.push([...argv, '--no-such-option-anywhere']);
  out.push([...argv, '--max-model-len', 'abc']);
  out.push([...argv, '--max-model-len']);
  out.push([...argv, '--max-model-len=4096']);
  out.push([...argv, '--max_model_len', '4096']);
  out.push([...argv, '--max-model', '4096']);
  out.push([...argv, '--max-model-len', '2048', '--max-model-len', '4096']);
  out.push([...argv, '--seed', '-1']);
  out.push([...argv, '--kv-transfer-config', '{not json']);
  out.push([...argv, '--served-model-name', 'a', 'b']);
  out.push([...argv, '--tensor-parallel-size', '2.5']);
  out.push([...argv, '--enable-prefix-caching', '--no-enable-prefix-caching']);
  out.push([...argv, '--disable-radix-cache', '--disable-cuda-graph']);
  out.push([...argv, '--context-length', '8192', '--tp-size', '2']);
  out.push([...argv, '--max-seq-len', '8192']);
  out.push([...argv, 'stray-positional']);
  return out;
}

/** The samples for `requests` (the corpus), deduplicated, in a stable order. */
export function agreementSamples(requests: readonly ParserRequest[]): ParserRequest[] {
  const byParser = new Map<string, Array<readonly string[]>>();
  for (const r of requests) {
    const list = byParser.get(r.parser) ?? [];
    if (list.length < PER_PARSER && !list.some((a) => JSON.stringify(a) === JSON.stringify(r.argv))) list.push(r.argv);
    byParser.set(r.parser, list);
  }
  const seen = new Set<string>();
  const out: ParserRequest[] = [];
  for (const [parser, argvs] of [...byParser].sort(([a], [b]) => a.localeCompare(b))) {
    for (const argv of argvs) {
      for (const v of variations(argv)) {
        const key = `${parser}\0${JSON.stringify(v)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ parser, argv: v });
      }
    }
  }
  return out;
}
