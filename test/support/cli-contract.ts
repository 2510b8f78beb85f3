/**
 * The contract of `cdk8s-inference synth -f FILE...` (issue 14: "exit 0 means it applies"), as a
 * check of one run's exit code and output:
 *
 * - exit 0: stdout is YAML kubectl can read (only the characters YAML allows, as its parser
 *   demands) whose every document is an object the API server accepts (`validateManifest`: the
 *   upstream schemas, CEL rules, names, labels, tolerations, env var names, finite numbers,
 *   object size);
 * - exit 1: stdout is empty, there is at least one `error:` line, and every `error:` line names one
 *   of the input files, with the document (`FILE[doc N]`) or for a whole-input problem just `FILE`;
 * - never another exit code, and never a stack trace on stderr.
 *
 * Hangs are the runner's to detect (the in-suite test by its timeout, scripts/fuzz-cli.ts by a
 * process timeout).
 */
import { parseAllDocuments } from 'yaml';
import { unprintableCharacterProblem } from '../../src/cli/input-characters';
import { formatViolation, validateManifest } from '../../src/schema-validation/manifest-validator';

/** One way a run broke the contract. */
export interface ContractViolation {
  /** A short, stable kind for counting (`exit 70`, `invalid object`, ...). */
  readonly kind: string;
  readonly detail: string;
}

/** A run of the CLI: its exit code, stdout and stderr lines. */
export interface ContractRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: readonly string[];
}

const STACK_TRACE = /^\s+at |\b(TypeError|RangeError|ReferenceError|SyntaxError|InternalError)\b|Maximum call stack/;

/** Every way `run` of `synth -f <files...>` broke the contract (empty when it kept it). */
export function contractViolations(files: readonly string[], run: ContractRun): ContractViolation[] {
  const out: ContractViolation[] = [];
  const lines = run.stderr.flatMap((l) => l.split('\n'));
  const trace = lines.find((l) => STACK_TRACE.test(l));
  if (trace !== undefined) out.push({ kind: 'stack trace', detail: trace });
  if (run.code === 0) {
    out.push(...outputViolations(run.stdout));
  } else if (run.code === 1) {
    if (run.stdout !== '') out.push({ kind: 'exit 1 with stdout', detail: run.stdout.slice(0, 200) });
    const errors = lines.filter((l) => l.startsWith('error:'));
    if (errors.length === 0) out.push({ kind: 'exit 1 without error line', detail: lines.join('\n').slice(0, 500) });
    for (const line of errors) {
      if (!namesAnInput(line, files)) out.push({ kind: 'error line without file', detail: line.slice(0, 500) });
    }
  } else {
    out.push({ kind: `exit ${run.code}`, detail: lines.join('\n').slice(0, 500) });
  }
  return out;
}

/** `error: FILE[doc N]...` or `error: FILE: ...` (also `error: A, B: ...` naming several inputs). */
function namesAnInput(line: string, files: readonly string[]): boolean {
  const rest = line.slice('error: '.length);
  return files.some((f) => rest.startsWith(`${f}[doc `) ? /^\[doc [1-9]\d*\]/.test(rest.slice(f.length)) : rest.startsWith(`${f}: `) || rest.startsWith(`${f}, `));
}

function outputViolations(stdout: string): ContractViolation[] {
  const out: ContractViolation[] = [];
  const unreadable = unprintableCharacterProblem(stdout);
  if (unreadable) out.push({ kind: 'output kubectl cannot read', detail: `document ${unreadable.index + 1}, line ${unreadable.line}: ${unreadable.message}` });
  const docs = parseAllDocuments(stdout);
  for (const [i, doc] of docs.entries()) {
    if (doc.errors.length > 0 || doc.warnings.length > 0) {
      out.push({ kind: 'output not YAML', detail: `document ${i + 1}: ${(doc.errors[0] ?? doc.warnings[0]).message.split('\n')[0]}` });
      continue;
    }
    const obj = doc.toJS({ maxAliasCount: -1 });
    if (obj === null || obj === undefined) continue;
    for (const v of validateManifest(obj)) out.push({ kind: 'invalid object', detail: formatViolation(v).slice(0, 500) });
  }
  if (stdout.trim() === '') out.push({ kind: 'exit 0 without output', detail: '' });
  return out;
}
