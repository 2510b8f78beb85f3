import { helpOf, packageVersion, parseArguments, usageOf, UsageError } from './arguments';
import { CliIo, PROCESS_IO } from './io';
import { terminalSafe } from './terminal-text';

/**
 * Entry point of the `cdk8s-inference` command. Returns the exit code: 0 success, 1 invalid
 * input, 2 usage error. A user's mistake never prints a stack trace; an internal failure prints
 * one only with CDK8S_INFERENCE_DEBUG=1.
 */
export async function main(argv: readonly string[], processIo: CliIo = PROCESS_IO): Promise<number> {
  // Messages quote the input: what would act on a terminal is shown escaped (terminal-text.ts).
  const io: CliIo = {
    stdout: (text) => processIo.stdout(text),
    stderr: (line) => processIo.stderr(terminalSafe(line)),
    ...(processIo.stdin && { stdin: () => processIo.stdin!() }),
  };
  let args;
  try {
    args = parseArguments(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      const help = e.command ? `\n\nRun 'cdk8s-inference help ${e.command}' for examples.` : '';
      io.stderr(`error: ${e.message}\n\n${usageOf(e.command)}${help}`);
      return 2;
    }
    throw e;
  }
  try {
    switch (args.command) {
      case 'help':
        io.stdout(`${helpOf(args.helpFor)}\n`);
        return 0;
      case 'version':
        io.stdout(`${packageVersion()}\n`);
        return 0;
      // Each command loads its own modules: the controller, a long-running process, never holds
      // the translators, cdk8s-plus and the generated bindings (measured: 137 against 153 MiB
      // peak RSS in the controller benchmark), and help or --version load none of them. The
      // requires name their modules literally so that the CLI bundle (lib/cli/bundle.js) holds
      // them; bundled, each still runs only when its command does.
      /* eslint-disable @typescript-eslint/no-require-imports */
      case 'synth':
        return (require('./synth-command') as typeof import('./synth-command')).runSynth(args.files, args.outdir, args.routing, io);
      case 'explain':
        return (require('./explain-command') as typeof import('./explain-command')).runExplain(args.files, args.routing, io);
      case 'validate':
        return (require('./validate-command') as typeof import('./validate-command')).runValidate(args.files, { skipUnknownKinds: args.skipUnknownKinds }, io);
      case 'controller':
        return await (require('./controller-command') as typeof import('./controller-command')).runControllerCommand(args.controllerArgs ?? [], io);
      /* eslint-enable @typescript-eslint/no-require-imports */
    }
  } catch (e: any) {
    io.stderr(`internal error: ${e?.message ?? e}`);
    if (process.env.CDK8S_INFERENCE_DEBUG === '1') io.stderr(String(e?.stack));
    return 70;
  }
}
