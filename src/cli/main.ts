import { helpOf, packageVersion, parseArguments, usageOf, UsageError } from './arguments';
import { CliIo, PROCESS_IO } from './io';

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
      // Each command loads its own modules: the controller, a long-running process, never holds
      // the translators, cdk8s-plus and the generated bindings (measured: 137 against 153 MiB
      // peak RSS in the controller benchmark), and help or --version load none of them.
      case 'synth':
        return load<typeof import('./synth-command')>('./synth-command').runSynth(args.files, args.outdir, args.routing, io);
      case 'explain':
        return load<typeof import('./explain-command')>('./explain-command').runExplain(args.files, args.routing, io);
      case 'validate':
        return load<typeof import('./validate-command')>('./validate-command').runValidate(args.files, { skipUnknownKinds: args.skipUnknownKinds }, io);
      case 'controller':
        return await load<typeof import('./controller-command')>('./controller-command').runControllerCommand(args.controllerArgs ?? [], io);
    }
  } catch (e: any) {
    io.stderr(`internal error: ${e?.message ?? e}`);
    if (process.env.CDK8S_INFERENCE_DEBUG === '1') io.stderr(String(e?.stack));
    return 70;
  }
}

/**
 * A command's module, required when the command runs (a static import would load every command's
 * dependencies into every process).
 */
function load<T>(id: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(id) as T;
}
