/** A mistake in how the CLI was called (exit code 2), as opposed to invalid input (exit code 1). */
export class UsageError extends Error {}

export const USAGE = `Usage:
  cdk8s-inference synth -f FILE [-f FILE ...] [-o DIR] [ROUTING]
      Translate AI Runway ModelDeployment YAML into the upstream objects that serve it.
      InferenceProviderConfig documents in the files add or replace providers; Gateway
      documents are passed through (and admit the routes' namespaces when named by --gateway).
      Writes multi-document YAML to stdout, or one file per deployment under DIR.
  cdk8s-inference explain -f FILE [-f FILE ...] [ROUTING]
      Print the engine and provider chosen for each ModelDeployment, and why.
  cdk8s-inference controller [--kubeconfig FILE] [--leader-elect] [FLAGS]
      Run the in-cluster controller that keeps rendered ModelDeployment records' status true
      (cdk8s-inference controller --help lists its flags).

ROUTING (Gateway API Inference Extension):
  --gateway NAMESPACE/NAME            the Gateway that model routes attach to; turns routing on
                                      for deployments that do not set spec.gateway.enabled
  --inference-pool-api-version V      v1 (default) or v1alpha2

Exit codes: 0 success, 1 invalid input (every error is listed), 2 usage error.`;

/** Routing settings given on the command line (AI Runway's controller flags). */
export interface CliRouting {
  readonly gateway?: { readonly namespace: string; readonly name: string };
  readonly inferencePoolApiVersion?: 'v1' | 'v1alpha2';
}

export interface CliArguments {
  readonly command: 'synth' | 'explain' | 'controller' | 'help';
  readonly files: string[];
  readonly outdir?: string;
  readonly routing: CliRouting;
  /** The controller's own flags, parsed by the controller command. */
  readonly controllerArgs?: readonly string[];
}

/** Parses `argv` (without node and script); throws UsageError on anything unexpected. */
export function parseArguments(argv: readonly string[]): CliArguments {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    return { command: 'help', files: [], routing: {} };
  }
  if (command === 'controller') return { command, files: [], routing: {}, controllerArgs: rest };
  if (command !== 'synth' && command !== 'explain') throw new UsageError(`unknown command "${command}"`);
  const files: string[] = [];
  let outdir: string | undefined;
  let gateway: CliRouting['gateway'];
  let inferencePoolApiVersion: CliRouting['inferencePoolApiVersion'];
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
    else if (arg === '--gateway') gateway = parseGateway(value());
    else if (arg.startsWith('--gateway=')) gateway = parseGateway(arg.slice('--gateway='.length));
    else if (arg === '--inference-pool-api-version') inferencePoolApiVersion = parsePoolVersion(value());
    else if (arg.startsWith('--inference-pool-api-version=')) inferencePoolApiVersion = parsePoolVersion(arg.slice('--inference-pool-api-version='.length));
    else if (arg === '--help' || arg === '-h') return { command: 'help', files: [], routing: {} };
    else throw new UsageError(`unexpected argument "${arg}" for ${command}`);
  }
  if (files.length === 0) throw new UsageError(`${command} needs at least one -f FILE`);
  const routing: CliRouting = { ...(gateway && { gateway }), ...(inferencePoolApiVersion && { inferencePoolApiVersion }) };
  return { command, files, ...(outdir !== undefined && { outdir }), routing };
}

function parseGateway(value: string): { namespace: string; name: string } {
  const match = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)$/.exec(value);
  if (!match) throw new UsageError(`--gateway ${JSON.stringify(value)}: expected NAMESPACE/NAME`);
  return { namespace: match[1], name: match[3] };
}

function parsePoolVersion(value: string): 'v1' | 'v1alpha2' {
  if (value !== 'v1' && value !== 'v1alpha2') throw new UsageError(`--inference-pool-api-version ${JSON.stringify(value)}: expected v1 or v1alpha2`);
  return value;
}
