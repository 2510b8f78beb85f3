/**
 * The engine argument conformance check: every engine command line of every example and of the
 * generated matrix (`./engine-matrix`), judged by the engine's parser — the replay of its argparse
 * definition (`./argparse`) in the unit tests, the real parser from the engine's PyPI package in
 * `npm run test:engine-parsers` — and by what its ModelDeployment record asked for
 * (`./spec-conformance`).
 */
import * as fs from 'fs';
import { parseAllDocuments } from 'yaml';
import { parseArgs, ParserDefinition, ParseVerdict } from './argparse';
import { EngineCommandLine, engineCommandLines, parserDefinitionPath } from './engine-command-lines';
import { engineMatrix, matrixCaseYaml } from './engine-matrix';
import { specMismatches } from './spec-conformance';
import { exampleEntries, synthesizeExample } from '../envtest/examples';
import { runWithStdin } from '../support/cli-run';

type Json = any;

/** One synthesized output to check: an example, or a matrix case. */
export interface CorpusEntry {
  readonly name: string;
  /** The objects it synthesized, or why the synth refused it (then nothing would run). */
  readonly objects?: readonly Json[];
  readonly refused?: string;
  /** What the synth warned about (the CLI's `warning:` lines; matrix cases only). */
  readonly warnings?: readonly string[];
}

/** Every example, synthesized. */
export async function exampleCorpus(): Promise<CorpusEntry[]> {
  const { ts, yaml } = exampleEntries();
  const out: CorpusEntry[] = [];
  for (const name of [...ts, ...yaml]) out.push({ name: `examples/${name}`, objects: (await synthesizeExample(name)).objects });
  return out;
}

/** Every matrix case, synthesized by the CLI (`synth -f -`). */
export async function matrixCorpus(): Promise<CorpusEntry[]> {
  const out: CorpusEntry[] = [];
  for (const c of engineMatrix()) {
    const run = await runWithStdin(matrixCaseYaml(c), 'synth', '-f', '-');
    if (run.code !== 0) {
      out.push({ name: `matrix/${c.name}`, refused: run.stderr.join('\n') });
      continue;
    }
    const warnings = run.stderr.filter((l) => l.startsWith('warning:'));
    out.push({ name: `matrix/${c.name}`, objects: parseAllDocuments(run.stdout).map((d) => d.toJS()).filter((o) => o), warnings });
  }
  return out;
}

/** A command line with the record it was rendered for. */
export interface CheckedLine {
  readonly line: EngineCommandLine;
  /** `spec.provider.name` of the record. */
  readonly provider: string;
  readonly record?: Json;
  /** What the synth of the line's corpus entry warned about. */
  readonly synthWarnings?: readonly string[];
}

/** The engine command lines of a corpus, each with its record. */
export function corpusLines(corpus: readonly CorpusEntry[]): CheckedLine[] {
  const out: CheckedLine[] = [];
  for (const entry of corpus) {
    if (!entry.objects) continue;
    const records = entry.objects.filter((o) => o?.apiVersion === 'airunway.ai/v1alpha1' && o.kind === 'ModelDeployment');
    for (const line of engineCommandLines(entry.objects, entry.name)) {
      const record = records.find((r) => r.metadata?.name === line.deployment && (r.metadata?.namespace ?? undefined) === line.namespace)
        ?? (records.length === 1 ? records[0] : undefined);
      out.push({ line, provider: record?.spec?.provider?.name ?? 'custom', record, synthWarnings: entry.warnings });
    }
  }
  return out;
}

/** What the check concluded about one command line. */
export interface LineResult extends CheckedLine {
  /** The parser name; undefined when no parser definition judges this image (`unchecked` says why). */
  readonly parser?: string;
  readonly unchecked?: string;
  readonly verdict?: ParseVerdict;
  /** What the accepted command line does that the record did not ask, and the synth did not warn about. */
  readonly mismatches: readonly string[];
  /** What it does that the record did not ask, and a provider's known gap the synth warned about (`WARNED_GAPS`). */
  readonly warned: readonly string[];
}

/**
 * Mismatches a target cannot avoid and says so: the synth warns about each, so it is the target's
 * known gap, not a regression. A mismatch is excused only on a line of that provider whose synth
 * printed the warning; any other mismatch still fails.
 */
export const WARNED_GAPS: ReadonlyArray<{ readonly provider: string; readonly mismatch: RegExp; readonly warning: RegExp; readonly why: string }> = [
  {
    provider: 'flexinfer',
    mismatch: /^1 ranks \(TP 1 × PP 1 × DP 1\) on \d+ GPUs$/,
    warning: /FlexInfer's vllm backend renders no --tensor-parallel-size/,
    why: "FlexInfer's vllm backend renders no parallel size and takes no raw flags: vLLM serves from one of the Model's gpu.count GPUs",
  },
];

function isWarnedGap(l: CheckedLine, mismatch: string): boolean {
  return WARNED_GAPS.some((g) => g.provider === l.provider && g.mismatch.test(mismatch) && (l.synthWarnings ?? []).some((w) => g.warning.test(w)));
}

const definitions = new Map<string, ParserDefinition>();

/** A parser definition from test/fixtures/engine-parsers. */
export function parserDefinition(name: string): ParserDefinition {
  let def = definitions.get(name);
  if (!def) {
    def = JSON.parse(fs.readFileSync(parserDefinitionPath(name), 'utf8')) as ParserDefinition;
    definitions.set(name, def);
  }
  return def;
}

/**
 * Judges each line: `judge` parses it (the replay by default; the real parser in the report),
 * then the parsed values are held against the record.
 */
export function checkLines(
  lines: readonly CheckedLine[],
  judge: (parser: string, argv: readonly string[]) => ParseVerdict = (parser, argv) => parseArgs(parserDefinition(parser), argv),
): LineResult[] {
  return lines.map((l) => {
    if (typeof l.line.parser !== 'string') return { ...l, unchecked: l.line.parser.unchecked, mismatches: [], warned: [] };
    const verdict = judge(l.line.parser, l.line.argv);
    const all = verdict.accepted ? specMismatches(l.line, l.line.parser, verdict.values, l.record) : [];
    const warned = all.filter((m) => isWarnedGap(l, m));
    return { ...l, parser: l.line.parser, verdict, mismatches: all.filter((m) => !warned.includes(m)), warned };
  });
}

/** One row of the report: an engine parser on one provider. */
export interface ReportRow {
  readonly parser: string;
  readonly provider: string;
  tried: number;
  accepted: number;
  rejected: number;
  /** Accepted, but not what the record asked. */
  wrong: number;
  /** Accepted, not what the record asked, in a known gap the synth warned about (`WARNED_GAPS`). */
  warned: number;
}

/** The per engine × provider counts of `results` (unchecked lines are left out). */
export function reportRows(results: readonly LineResult[]): ReportRow[] {
  const rows = new Map<string, ReportRow>();
  for (const r of results) {
    if (!r.parser || !r.verdict) continue;
    const key = `${r.parser} ${r.provider}`;
    const row = rows.get(key) ?? { parser: r.parser, provider: r.provider, tried: 0, accepted: 0, rejected: 0, wrong: 0, warned: 0 };
    row.tried++;
    if (!r.verdict.accepted) row.rejected++;
    else if (r.mismatches.length > 0) row.wrong++;
    else if (r.warned.length > 0) row.warned++;
    else row.accepted++;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => (a.parser === b.parser ? a.provider.localeCompare(b.provider) : a.parser.localeCompare(b.parser)));
}

/** The report as a Markdown table. */
export function reportTable(rows: readonly ReportRow[]): string {
  const lines = [
    '| engine parser | provider | tried | accepted | rejected | accepted, not as asked | accepted, not as asked (warned gap) |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) lines.push(`| \`${r.parser}\` | ${r.provider} | ${r.tried} | ${r.accepted} | ${r.rejected} | ${r.wrong} | ${r.warned} |`);
  return lines.join('\n');
}

/** A line's failure, for messages: where, what was run, and what the parser or the check said. */
export function describeFailure(r: LineResult): string {
  const what = r.verdict && !r.verdict.accepted ? `refused: ${r.verdict.error}` : `accepted, but ${r.mismatches.join('; ')}`;
  return `${r.line.source}\n  ${[...r.line.program, ...r.line.argv].join(' ')}\n  ${r.parser}: ${what}`;
}
