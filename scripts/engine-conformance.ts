/**
 * The engine argument conformance report: every engine command line of the examples and of the
 * generated matrix (test/engines), judged by the engines' REAL parsers from their PyPI packages
 * (scripts/engine-parsers/setup.sh builds their virtualenvs; parse.py runs each parser once over
 * all of its lines), and by what each line's ModelDeployment record asked. Prints the per engine ×
 * provider table the README quotes, then every failure, and exits 1 on any.
 *
 *   npx ts-node --project test/tsconfig.json scripts/engine-conformance.ts            # the real parsers
 *   npx ts-node --project test/tsconfig.json scripts/engine-conformance.ts --replay   # the committed definitions (what the unit tests use)
 *   ... --record test/fixtures/engine-parsers/real-verdicts.json                        # also writes the real verdicts of the corpus
 *   ... --only vllm,sglang                                                              # only the parsers whose names start so
 *
 * `--record` writes what the real parsers said about every line, with hostile variations of
 * some lines, which test/engines/argparse-agreement.test.ts holds the replay to.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { agreementSamples } from '../test/engines/agreement-samples';
import type { ParseVerdict } from '../test/engines/argparse';
import { checkLines, corpusLines, describeFailure, exampleCorpus, matrixCorpus, reportRows, reportTable } from '../test/engines/conformance';

const PARSERS_DIR = path.join(__dirname, 'engine-parsers');

/** The virtualenv each parser's package lives in (scripts/engine-parsers/setup.sh ids). */
function venvOf(parser: string): string {
  const m = /^(vllm|sglang)-(\d+\.\d+\.\d+)-/.exec(parser);
  if (m) return `${m[1]}-${m[2]}`;
  const d = /^dynamo-(\d+\.\d+\.\d+)-(vllm|sglang|trtllm|frontend|mocker)$/.exec(parser);
  if (d) return `dynamo-${d[1]}-${d[2] === 'sglang' ? 'sglang' : 'vllm'}`;
  throw new Error(`no virtualenv for parser ${parser}`);
}

/** Builds (once; cached outside the clone) the virtualenvs `ids` and returns the cache root. */
function engineCache(ids: readonly string[]): string {
  const out = spawnSync('bash', [path.join(PARSERS_DIR, 'setup.sh'), ...ids], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (out.status !== 0) throw new Error(`scripts/engine-parsers/setup.sh ${ids.join(' ')} failed (exit ${out.status})`);
  return out.stdout.trim().split('\n').pop()!;
}

/** Runs every line of each parser through the real parser, one process per parser. */
function realVerdicts(requests: ReadonlyArray<{ parser: string; argv: readonly string[] }>): ParseVerdict[] {
  const byParser = new Map<string, number[]>();
  requests.forEach((r, i) => byParser.set(r.parser, [...(byParser.get(r.parser) ?? []), i]));
  const cache = engineCache([...new Set([...byParser.keys()].map(venvOf))]);
  const verdicts: ParseVerdict[] = new Array(requests.length);
  for (const [parser, indices] of byParser) {
    const python = path.join(cache, venvOf(parser), 'bin', 'python');
    const input = indices.map((i) => JSON.stringify({ id: String(i), argv: requests[i].argv })).join('\n') + '\n';
    const t0 = Date.now();
    const run = spawnSync(python, [path.join(PARSERS_DIR, 'parse.py'), parser], { input, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`parse.py ${parser} failed (exit ${run.status}):\n${run.stderr}`);
    for (const line of run.stdout.split('\n').filter((l) => l.trim().startsWith('{'))) {
      const v = JSON.parse(line) as { id: string; accepted: boolean; error: string | null; values: Record<string, unknown> };
      verdicts[Number(v.id)] = { accepted: v.accepted, ...(v.error ? { error: v.error } : {}), values: v.values ?? {}, unjudged: [] };
    }
    console.error(`${parser}: ${indices.length} command lines through the real parser in ${Date.now() - t0} ms`);
  }
  return verdicts;
}

async function main(): Promise<void> {
  const replay = process.argv.includes('--replay');
  const recordAt = process.argv.indexOf('--record');
  const recordFile = recordAt >= 0 ? process.argv[recordAt + 1] : undefined;

  const t0 = Date.now();
  const lines = corpusLines([...(await exampleCorpus()), ...(await matrixCorpus())]);
  console.error(`corpus: ${lines.length} engine command lines (examples and matrix) in ${Date.now() - t0} ms`);

  let judge: Parameters<typeof checkLines>[1];
  if (!replay) {
    const onlyAt = process.argv.indexOf('--only');
    const only = onlyAt >= 0 ? process.argv[onlyAt + 1].split(',') : undefined;
    const requests = lines
      .filter((l) => typeof l.line.parser === 'string' && (!only || only.some((p) => (l.line.parser as string).startsWith(p))))
      .map((l) => ({ parser: l.line.parser as string, argv: l.line.argv }));
    const verdicts = realVerdicts(requests);
    const byKey = new Map(requests.map((r, i) => [`${r.parser}\0${JSON.stringify(r.argv)}`, verdicts[i]]));
    judge = (parser, argv) => byKey.get(`${parser}\0${JSON.stringify(argv)}`)
      ?? { accepted: false, error: `not run: --only ${only?.join(',')} leaves ${parser} out`, values: {}, unjudged: [] };
    if (recordFile) {
      const samples = agreementSamples(requests);
      const sampleVerdicts = realVerdicts(samples);
      const recorded = samples.map((s, i) => ({
        parser: s.parser, argv: s.argv, accepted: sampleVerdicts[i].accepted, error: sampleVerdicts[i].error ?? null,
      }));
      fs.writeFileSync(recordFile, JSON.stringify({ recordedWith: 'scripts/engine-conformance.ts --record', verdicts: recorded }, null, 1) + '\n');
      console.error(`wrote ${recorded.length} real verdicts to ${recordFile}`);
    }
  }
  const results = checkLines(lines, judge);
  console.log(reportTable(reportRows(results)));
  const unchecked = results.filter((r) => r.unchecked);
  for (const r of unchecked) console.log(`unchecked: ${r.line.source}: ${r.unchecked}`);
  const failed = results.filter((r) => r.verdict && (!r.verdict.accepted || r.mismatches.length > 0));
  for (const r of failed) console.log(`\n${describeFailure(r)}`);
  console.log(`\n${results.length} command lines, ${failed.length} failed, ${unchecked.length} unchecked (${replay ? 'replayed definitions' : 'real parsers'}), ${Date.now() - t0} ms`);
  if (failed.length > 0) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
