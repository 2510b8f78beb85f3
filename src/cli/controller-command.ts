import { helpOf } from './arguments';
import type { CliIo } from './io';
import { CONTROLLER_USAGE, ControllerOptions, FlagError, parseControllerFlags } from '../controller/runtime/options';
import { runController } from '../controller/runtime/run-controller';

/** Runs the controller with parsed options; resolves with the exit code. */
export type ControllerRunner = (options: ControllerOptions) => Promise<number>;

/**
 * `cdk8s-inference controller [FLAGS]`: parses the flags (exit code 2 and the usage on a bad one,
 * with no stack trace) and runs the in-cluster status controller until SIGTERM/SIGINT.
 *
 * @param run replaces the controller in tests
 */
export async function runControllerCommand(argv: readonly string[], io: CliIo, run?: ControllerRunner): Promise<number> {
  let parsed;
  try {
    parsed = parseControllerFlags(argv);
  } catch (e) {
    if (e instanceof FlagError) {
      io.stderr(`error: ${e.message}\n\n${CONTROLLER_USAGE}`);
      return 2;
    }
    throw e;
  }
  if (parsed === 'help') {
    io.stdout(`${helpOf('controller')}\n`);
    return 0;
  }
  const code = await (run ?? runController)(parsed);
  if (run === undefined) {
    // Lingering keep-alive sockets must not delay a restart after a lost lease.
    setTimeout(() => process.exit(code), 2000).unref();
  }
  return code;
}
