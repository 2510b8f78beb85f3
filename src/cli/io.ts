/** Where the CLI writes; tests capture it instead of the process streams. */
export interface CliIo {
  stdout(text: string): void;
  stderr(line: string): void;
}

export const PROCESS_IO: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (line) => process.stderr.write(`${line}\n`),
};
