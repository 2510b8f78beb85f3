/** A mistake in how the CLI was called (exit code 2), as opposed to invalid input (exit code 1). */
export class UsageError extends Error {}

export const USAGE = `Usage:
  cdk8s-inference synth -f FILE [-f FILE ...] [-o DIR]
      Translate AI Runway ModelDeployment YAML into the upstream objects that serve it.
      InferenceProviderConfig documents in the files add or replace providers.
      Writes multi-document YAML to stdout, or one file per deployment under DIR.
  cdk8s-inference explain -f FILE [-f FILE ...]
      Print the engine and provider chosen for each ModelDeployment, and why.

Exit codes: 0 success, 1 invalid input (every error is listed), 2 usage error.`;

export interface CliArguments {
  readonly command: 'synth' | 'explain' | 'help';
  readonly files: string[];
  readonly outdir?: string;
}

/** Parses `argv` (without node and script); throws UsageError on anything unexpected. */
export function parseArguments(argv: readonly string[]): CliArguments {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    return { command: 'help', files: [] };
  }
  if (command !== 'synth' && command !== 'explain') throw new UsageError(`unknown command "${command}"`);
  const files: string[] = [];
  let outdir: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const value = (): string => {
      const v = rest[++i];
      if (v === undefined || v.startsWith('-')) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === '-f' || arg === '--filename') files.push(value());
    else if (arg.startsWith('--filename=')) files.push(arg.slice('--filename='.length));
    else if ((arg === '-o' || arg === '--output-dir') && command === 'synth') outdir = value();
    else if (arg.startsWith('--output-dir=') && command === 'synth') outdir = arg.slice('--output-dir='.length);
    else if (arg === '--help' || arg === '-h') return { command: 'help', files: [] };
    else throw new UsageError(`unexpected argument "${arg}" for ${command}`);
  }
  if (files.length === 0) throw new UsageError(`${command} needs at least one -f FILE`);
  return { command, files, ...(outdir !== undefined && { outdir }) };
}
