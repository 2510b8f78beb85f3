/**
 * The replay of the engines' argparse definitions (./argparse) reaches the real parsers' verdicts:
 * test/fixtures/engine-parsers/real-verdicts.json holds what the real parsers, from the engines'
 * PyPI packages, said about corpus lines and hostile variations of them (./agreement-samples;
 * recorded by `scripts/engine-conformance.ts --record`). A replay that accepts what a real parser
 * refuses (or the reverse) would let the conformance test pass command lines that never start.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseArgs } from './argparse';
import { parserDefinition } from './conformance';

interface RecordedVerdict {
  readonly parser: string;
  readonly argv: readonly string[];
  readonly accepted: boolean;
  readonly error: string | null;
}

const recorded: RecordedVerdict[] = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'engine-parsers', 'real-verdicts.json'), 'utf8'),
).verdicts;

test('the recording covers every parser, with refusals as well as acceptances', () => {
  const parsers = new Set(recorded.map((v) => v.parser));
  expect(parsers.size).toBeGreaterThanOrEqual(5);
  for (const p of parsers) {
    const mine = recorded.filter((v) => v.parser === p);
    expect({ p, accepted: mine.some((v) => v.accepted), refused: mine.some((v) => !v.accepted) }).toEqual({ p, accepted: true, refused: true });
  }
});

/**
 * A refusal by argparse itself (`<prog>: error: ...`, its exit); anything else the real parser
 * refused was refused after parsing, by the engine's own validation (vLLM's ValueErrors, SGLang's
 * `__post_init__`), which the replay does not model: those verdicts are the real run's
 * (`npm run test:engine-parsers`), not the replay's.
 */
function refusedByArgparse(v: RecordedVerdict): boolean {
  return !v.accepted && / error: /.test(v.error ?? '');
}

test('most recorded verdicts are argparse\'s own, which the replay must reach', () => {
  const postParse = recorded.filter((v) => !v.accepted && !refusedByArgparse(v));
  expect(postParse.length).toBeLessThan(recorded.length / 4);
});

test.each([...new Set(recorded.map((v) => v.parser))])('the replay of %s agrees with the real parser on every recorded command line', (parser) => {
  const def = parserDefinition(parser);
  const disagreements = recorded
    .filter((v) => v.parser === parser && (v.accepted || refusedByArgparse(v)))
    .map((v) => ({ v, replay: parseArgs(def, v.argv) }))
    .filter(({ v, replay }) => replay.accepted !== v.accepted)
    .map(({ v, replay }) => `${v.argv.join(' ')}\n  real: ${v.accepted ? 'accepted' : `refused (${v.error})`}\n  replay: ${replay.accepted ? 'accepted' : `refused (${replay.error})`}`);
  expect(disagreements).toEqual([]);
});
