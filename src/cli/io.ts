import { readBoundedText } from './input-limits';

/** Where the CLI reads and writes; tests capture it instead of the process streams. */
export interface CliIo {
  stdout(text: string): void;
  stderr(line: string): void;
  /** All of standard input (for `-f -`). @default - nothing to read: `-f -` is an error */
  stdin?(): string;
}

export const PROCESS_IO: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (line) => process.stderr.write(`${line}\n`),
  stdin: () => {
    const { text, problem } = readBoundedText(0);
    if (problem !== undefined) throw new Error(problem.line === undefined ? problem.message : `line ${problem.line}: ${problem.message}`);
    return text!;
  },
};
