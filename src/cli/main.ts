import { helpOf, packageVersion, parseArguments, usageOf, UsageError } from './arguments';
import { runControllerCommand } from './controller-command';
import { runExplain } from './explain-command';
import { CliIo, PROCESS_IO } from './io';
import { runSynth } from './synth-command';
import { runValidate } from './validate-command';

/**
 * Entry point of the `cdk8s-inference` command. Returns the exit code: 0 success, 1 invalid
 * input, 2 usage error. A user's mistake never prints a stack trace; an internal failure prints
 * one only with CDK8S_INFERENCE_DEBUG=1.
 */
export async function main(argv: readonly string[], io: CliIo = PROCESS_IO): Promise<number> {
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
      case 'synth':
        return runSynth(args.files, args.outdir, args.routing, io);
      case 'explain':
        return runExplain(args.files, args.routing, io);
      case 'validate':
        return runValidate(args.files, { skipUnknownKinds: args.skipUnknownKinds }, io);
      case 'controller':
        return await runControllerCommand(args.controllerArgs ?? [], io);
    }
  } catch (e: any) {
    io.stderr(`internal error: ${e?.message ?? e}`);
    if (process.env.CDK8S_INFERENCE_DEBUG === '1') io.stderr(String(e?.stack));
    return 70;
  }
}
