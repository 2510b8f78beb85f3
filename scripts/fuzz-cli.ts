/**
 * The CLI's contract (issue 14, test/support/cli-contract.ts) for many hostile inputs through the
 * real binary: every `cdk8s-inference synth -f FILE...` run ends with exit 0 and output whose
 * every object the API server accepts, or with exit 1 and every `error:` line naming an input
 * file (and its document); never another exit code, a stack trace or a hang.
 *
 * Usage (from the repository root, after `npx projen compile`, which builds lib/ for the binary):
 *
 *   npx ts-node --project test/tsconfig.json scripts/fuzz-cli.ts [--count N] [--seed N] [--batch N] [--jobs N]
 *
 * Defaults: --count 100000, --seed 14, --batch 200 (inputs per process: one file each, several
 * documents per file), --jobs 2 (processes at once). The inputs are test/support/hostile-inputs.ts'
 * `hostileInput(seed, index)`, so a reported index reproduces alone. A process that exits 1 is
 * run again with its inputs that no error line named, so the valid inputs of a batch are
 * validated too (their output checked), and an input's outcome is counted once: exit 0 when a
 * run that included it succeeded, exit 1 when an error line named it. Each process has 120 s
 * before it counts as a hang. Prints the figures: inputs, outcomes, violations by kind, time.
 * Exit code 1 when any violation was found; the first few are printed with their indexes.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ContractViolation, contractViolations } from '../test/support/cli-contract';
import { hostileInput } from '../test/support/hostile-inputs';

interface Options {
  readonly count: number;
  readonly seed: number;
  readonly batch: number;
  readonly jobs: number;
}

const BIN = path.resolve(__dirname, '..', 'bin', 'cdk8s-inference');
const TIMEOUT_MS = 120_000;

function parseOptions(argv: readonly string[]): Options {
  const o = { count: 100_000, seed: 14, batch: 200, jobs: 2 };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, '') as keyof typeof o;
    if (!(key in o) || argv[i + 1] === undefined) throw new Error(`usage: fuzz-cli.ts [--count N] [--seed N] [--batch N] [--jobs N] (got ${argv[i]})`);
    o[key] = Number(argv[++i]);
    if (!Number.isInteger(o[key]) || o[key] < (key === 'seed' ? 0 : 1)) throw new Error(`--${key} must be a positive integer`);
  }
  return o;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string[];
  hung: boolean;
}

function runBinary(args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8').split('\n');
      if (stderr[stderr.length - 1] === '') stderr.pop();
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr, hung });
    });
  });
}

interface Figures {
  inputs: number;
  exit0: number;
  exit1: number;
  undecided: number;
  processes: number;
  violations: Map<string, number>;
  examples: string[];
}

/** The contract for one group of inputs run with the same flags; reruns the clean ones after an exit 1. */
async function checkGroup(dir: string, indexes: readonly number[], flags: readonly string[], f: Figures): Promise<void> {
  let pending = indexes.map((i) => ({ index: i, file: path.join(dir, `input-${i}.yaml`) }));
  for (let attempt = 0; attempt < 2 && pending.length > 0; attempt++) {
    const files = pending.map((p) => p.file);
    const r = await runBinary(['synth', ...files.flatMap((file) => ['-f', file]), ...flags]);
    f.processes++;
    const violations: ContractViolation[] = r.hung ? [{ kind: 'hang', detail: `no exit within ${TIMEOUT_MS / 1000} s` }] : contractViolations(files, r);
    for (const v of violations) {
      f.violations.set(v.kind, (f.violations.get(v.kind) ?? 0) + 1);
      if (f.examples.length < 20) f.examples.push(`inputs ${pending.map((p) => p.index).join(',')} [${flags.join(' ')}]: ${v.kind}: ${v.detail}`);
    }
    if (r.code === 0) {
      f.exit0 += pending.length;
      return;
    }
    if (r.code !== 1) {
      f.undecided += pending.length;
      return;
    }
    const errorLines = r.stderr.filter((l) => l.startsWith('error: '));
    const named = (file: string) => errorLines.some((l) => l.startsWith(`error: ${file}[doc `) || l.startsWith(`error: ${file}: `) || l.startsWith(`error: ${file}:`));
    const failed = pending.filter((p) => named(p.file));
    f.exit1 += failed.length;
    const clean = pending.filter((p) => !named(p.file));
    // No input named, yet exit 1 (a problem of the whole run): nothing to narrow down.
    if (failed.length === 0) {
      f.undecided += clean.length;
      return;
    }
    pending = clean;
  }
  f.undecided += pending.length;
}

async function main(): Promise<number> {
  const o = parseOptions(process.argv.slice(2));
  if (!fs.existsSync(path.resolve(__dirname, '..', 'lib', 'cli', 'main.js'))) throw new Error('lib/ is missing: run `npx projen compile` first');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-cli-'));
  const f: Figures = { inputs: 0, exit0: 0, exit1: 0, undecided: 0, processes: 0, violations: new Map(), examples: [] };
  const started = Date.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < o.count) {
      const first = next;
      const end = Math.min(o.count, next + o.batch);
      next = end;
      const groups = new Map<string, number[]>();
      for (let index = first; index < end; index++) {
        const input = hostileInput(o.seed, index);
        fs.writeFileSync(path.join(dir, `input-${index}.yaml`), input.bytes);
        f.inputs++;
        const key = input.flags.join(' ');
        groups.set(key, [...(groups.get(key) ?? []), index]);
      }
      for (const [key, indexes] of groups) await checkGroup(dir, indexes, key === '' ? [] : key.split(' '), f);
      for (let index = first; index < end; index++) fs.rmSync(path.join(dir, `input-${index}.yaml`));
      if (Math.floor(end / 5000) > Math.floor(first / 5000)) process.stderr.write(`${end} inputs, ${Math.round((Date.now() - started) / 1000)} s\n`);
    }
  };
  try {
    await Promise.all(Array.from({ length: o.jobs }, worker));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const seconds = (Date.now() - started) / 1000;
  const total = [...f.violations.values()].reduce((a, b) => a + b, 0);
  console.log(`seed ${o.seed}, ${f.inputs} inputs in ${f.processes} processes of the real binary, ${seconds.toFixed(0)} s`);
  console.log(`  exit 0: ${f.exit0} inputs (output validated)`);
  console.log(`  exit 1: ${f.exit1} inputs (named by an error line)`);
  if (f.undecided > 0) console.log(`  undecided: ${f.undecided} inputs (their run failed for another input or kind of reason)`);
  console.log(`  contract violations: ${total}`);
  for (const [kind, n] of [...f.violations].sort()) console.log(`    ${kind}: ${n}`);
  for (const e of f.examples) console.log(`  e.g. ${e.slice(0, 600)}`);
  return total === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e?.stack ?? e);
    process.exit(1);
  },
);
