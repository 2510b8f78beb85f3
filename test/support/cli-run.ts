/**
 * Running the CLI in-process the way the CLI tests do: `main(argv)` with stdout and stderr
 * captured, and input files written to a temporary folder made fresh for each test.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../src/cli/main';

/** What one CLI run printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string[];
}

/** Runs `cdk8s-inference <argv>` in-process, with nothing on stdin. */
export async function run(...argv: string[]): Promise<CliRun> {
  return runWithStdin(undefined, ...argv);
}

/** Runs `cdk8s-inference <argv>` in-process with `stdin` as its standard input (`-f -`). */
export async function runWithStdin(stdin: string | undefined, ...argv: string[]): Promise<CliRun> {
  let stdout = '';
  const stderr: string[] = [];
  const code = await main(argv, {
    stdout: (t) => (stdout += t),
    stderr: (l) => stderr.push(l),
    stdin: () => {
      if (stdin === undefined) throw Object.assign(new Error('no stdin in this test'), { code: 'EBADF' });
      return stdin;
    },
  });
  return { code, stdout, stderr };
}

/**
 * A temporary folder per test (created before each, removed after each) and a writer of files in
 * it. Call at the top of a test file.
 */
export function tempFolderPerTest(prefix: string): { dir: () => string; file: (name: string, text: string) => string } {
  let dir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    dir: () => dir,
    file: (name, text) => {
      const p = path.join(dir, name);
      fs.writeFileSync(p, text);
      return p;
    },
  };
}
