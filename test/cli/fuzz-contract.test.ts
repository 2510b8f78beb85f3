/**
 * The CLI's contract under hostile input (issue 14), fuzzed in the suite: every
 * `cdk8s-inference synth -f FILE` run ends with exit 0 and output whose every object the API
 * server accepts, or with exit 1, nothing on stdout and every `error:` line naming FILE (and the
 * document); never another exit code or a stack trace (test/support/cli-contract.ts). The inputs
 * are test/support/hostile-inputs.ts' for a fixed seed, run in-process; scripts/fuzz-cli.ts runs
 * the same contract through the real binary for 100,000 inputs.
 *
 * A failure names the seed and the input's index and keeps the input file:
 * `hostileInput(SEED, index)` gives the same bytes again.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { contractViolations } from '../support/cli-contract';
import { run } from '../support/cli-run';
import { hostileInput } from '../support/hostile-inputs';

const SEED = 14;
/** Inputs per test, and tests: 2,000 inputs (measured time in the report of issue 14). */
const PER_CHUNK = 250;
const CHUNKS = 8;

let dir = '';
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-contract-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What the chunks saw, for the coverage check at the end. */
const seen = { exit0: 0, exit1: 0, mutations: new Set<string>() };

describe(`synth keeps its contract on hostile inputs (seed ${SEED})`, () => {
  test.each(Array.from({ length: CHUNKS }, (_, c) => c))('inputs of chunk %i', async (chunk) => {
    const failures: string[] = [];
    for (let index = chunk * PER_CHUNK; index < (chunk + 1) * PER_CHUNK; index++) {
      const input = hostileInput(SEED, index);
      const file = path.join(dir, `input-${index}.yaml`);
      fs.writeFileSync(file, input.bytes);
      const result = await run('synth', '-f', file, ...input.flags);
      const violations = contractViolations([file], result);
      if (result.code === 0) seen.exit0++;
      if (result.code === 1) seen.exit1++;
      input.mutations.forEach((m) => seen.mutations.add(m.replace(/(deepNesting|manyKeys)\d+(Flow|Block)?$/, '$1')));
      if (violations.length > 0) {
        // Kept for the reader: the failing input, byte for byte.
        const kept = path.join(os.tmpdir(), `fuzz-contract-seed${SEED}-input${index}.yaml`);
        fs.copyFileSync(file, kept);
        failures.push(
          `input ${index} (seed ${SEED}; hostileInput(${SEED}, ${index}); kept as ${kept}; flags [${input.flags.join(' ')}]; mutations ${input.mutations.join(', ')}):\n` +
            violations.map((v) => `  ${v.kind}: ${v.detail}`).join('\n') +
            `\n  input starts: ${JSON.stringify(input.bytes.subarray(0, 600).toString('utf8'))}`,
        );
      }
      fs.rmSync(file);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  test('the inputs reach both outcomes and every kind of mutation', () => {
    // Not a fuzz run that only ever hits parse errors: a good share succeeds and is validated.
    expect(seen.exit0).toBeGreaterThan(CHUNKS * PER_CHUNK * 0.15);
    expect(seen.exit1).toBeGreaterThan(CHUNKS * PER_CHUNK * 0.3);
    for (const m of ['wrongType', 'hostileNumber', 'engineArgs', 'labels', 'nodeSelector', 'tolerations', 'env', 'overrides', 'gateway',
      'yaml:aliasBomb', 'yaml:undefinedAlias', 'yaml:deepNesting', 'yaml:duplicateKey', 'yaml:tabs', 'yaml:flowStyle', 'yaml:yaml11', 'bytes:noise']) {
      expect([...seen.mutations]).toContain(m);
    }
  });
});
