import * as fs from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';
import { CONTROLLER_USAGE } from '../controller/runtime/options';
import { didYouMean } from '../core/suggest';

/** A mistake in how the CLI was called (exit code 2), as opposed to invalid input (exit code 1). */
export class UsageError extends Error {
  /** The command whose usage to print with the error. @default - the overview of every command */
  public readonly command?: CommandName;

  public constructor(message: string, command?: CommandName) {
    super(message);
    this.command = command;
  }
}

export type CommandName = 'synth' | 'explain' | 'controller' | 'validate';

const ROUTING_FLAGS = `ROUTING (Gateway API Inference Extension):
  --gateway NAMESPACE/NAME            the Gateway that model routes attach to; turns routing on
                                      for deployments that do not set spec.gateway.enabled
  --inference-pool-api-version V      v1 (default) or v1alpha2
  --body-based-router-installed       a body-based router (or a Gateway that does its work) sets
                                      X-Gateway-Model-Name: no warning that the routes need one`;

const EXIT_CODES = 'Exit codes: 0 success, 1 invalid input (every error is listed), 2 usage error.';

/** The --profile flag of synth and explain, as their help lists it. */
const PROFILE_FLAG = `  --profile FILE                      the target cluster: its InferenceProviderConfigs with
                                      status.ready (or a List, as kubectl get -o yaml prints),
                                      its Gateway and NodePools. Only the ready providers it lists
                                      are auto-selected. Without it, every provider is assumed
                                      installed and ready`;

const SYNTH_USAGE = `Usage:
  cdk8s-inference synth -f FILE|DIR|- [-f ...] [-o DIR] [--profile FILE] [ROUTING]
      Translate AI Runway ModelDeployment YAML into the upstream objects that serve it.
      InferenceProviderConfig documents in the files add or replace providers; NodePool
      documents declare the inventory; Gateway documents are passed through (and admit the
      routes' namespaces when named by --gateway). Writes multi-document YAML to stdout, or one
      file per deployment under DIR. Nothing is written unless every input is valid.

Flags:
  -f, --filename FILE|DIR|-           a YAML file, a directory (its *.yaml and *.yml files,
                                      sorted, not recursive) or - for stdin; repeatable
  -o, --output-dir DIR                write <namespace>/<name>.k8s.yaml files under DIR, replacing
                                      each atomically and removing the files an earlier run wrote
                                      that are no longer produced (listed in DIR/.cdk8s-inference-files)
${PROFILE_FLAG}
  --pod-security LEVEL                baseline (default) or restricted: the Pod Security Standard
                                      of the model-server pods of deployments without their own
                                      inference.cdk8s.io/pod-security annotation
  -h, --help                          this help

${ROUTING_FLAGS}

${EXIT_CODES}`;

const SYNTH_EXAMPLES = `Examples:
  # Print the objects of one deployment
  cdk8s-inference synth -f modeldeployment.yaml

  # Every YAML file of a directory, plus your own providers, written under manifests/
  cdk8s-inference synth -f models/ -f providers.yaml -o manifests/

  # From stdin, straight into the cluster
  cat modeldeployment.yaml | cdk8s-inference synth -f - | kubectl apply -f -

  # Attach the models' routes to a Gateway
  cdk8s-inference synth -f models/ --gateway gateway-system/inference-gateway

  # For the cluster a profile describes: only its ready providers are auto-selected
  kubectl get inferenceproviderconfigs,gateways.gateway.networking.k8s.io -A -o yaml > cluster.yaml
  cdk8s-inference synth -f models/ --profile cluster.yaml`;

const EXPLAIN_USAGE = `Usage:
  cdk8s-inference explain -f FILE|DIR|- [-f ...] [--profile FILE] [ROUTING]
      Print the engine and provider chosen for each ModelDeployment, and why: every provider
      considered, each selection rule, every target and whether it could take the deployment,
      how the model is routed and, with NodePools declared, which pools fit.

Flags:
  -f, --filename FILE|DIR|-           a YAML file, a directory (its *.yaml and *.yml files,
                                      sorted, not recursive) or - for stdin; repeatable
${PROFILE_FLAG}
  --pod-security LEVEL                baseline (default) or restricted, as for synth
  -h, --help                          this help

${ROUTING_FLAGS}

${EXIT_CODES}`;

const EXPLAIN_EXAMPLES = `Examples:
  # Why this provider?
  cdk8s-inference explain -f modeldeployment.yaml

  # With the providers and node pools of your cluster
  cdk8s-inference explain -f modeldeployment.yaml -f providers.yaml -f gpu-inventory.yaml

  # Which providers the cluster profile left out, and why
  cdk8s-inference explain -f modeldeployment.yaml --profile cluster.yaml`;

const CONTROLLER_EXAMPLES = `Examples:
  # Out of cluster, against the current kubeconfig context
  cdk8s-inference controller --kubeconfig ~/.kube/config

  # In a cluster with more than one replica
  cdk8s-inference controller --leader-elect`;

const VALIDATE_USAGE = `Usage:
  cdk8s-inference validate -f FILE|DIR|- [-f ...] [--skip-unknown-kinds]
      Check Kubernetes YAML (synth output or written by hand) against the upstream schemas the
      synth output is tested with: the Kubernetes 1.35 OpenAPI and the CRDs of the targets
      (AI Runway, Dynamo, KubeRay, KAITO, LeaderWorkerSet, Gateway API, ...) with their CEL
      rules, as the API server checks them on create, except that unknown fields (which the
      API server silently drops) are errors. Every problem is listed with its file, document,
      kind/name and field path. The schemas ship in the package: no cluster is needed.

Flags:
  -f, --filename FILE|DIR|-           a YAML file, a directory (its *.yaml and *.yml files,
                                      sorted, not recursive) or - for stdin; repeatable; at
                                      most 4 MiB per file
  --skip-unknown-kinds                objects of a kind without a schema (e.g. networking.k8s.io
                                      Ingress) are skipped with a warning instead of an error
  -h, --help                          this help

Exit codes: 0 every object valid, 1 any problem (every one is listed), 2 usage error.`;

const VALIDATE_EXAMPLES = `Examples:
  # Check what synth wrote
  cdk8s-inference synth -f models/ -o manifests/ && cdk8s-inference validate -f manifests/

  # Straight from synth, through stdin
  cdk8s-inference synth -f modeldeployment.yaml | cdk8s-inference validate -f -

  # Hand-written manifests that also hold kinds without a schema here
  cdk8s-inference validate -f k8s/ --skip-unknown-kinds`;

export const USAGE = `Usage:
  cdk8s-inference synth -f FILE|DIR|- [-f ...] [-o DIR] [--profile FILE] [ROUTING]
      Translate AI Runway ModelDeployment YAML into the upstream objects that serve it.
  cdk8s-inference explain -f FILE|DIR|- [-f ...] [--profile FILE] [ROUTING]
      Print the engine and provider chosen for each ModelDeployment, and why.
  cdk8s-inference controller [--kubeconfig FILE] [--leader-elect] [FLAGS]
      Run the in-cluster controller that keeps rendered ModelDeployment records' status true.
  cdk8s-inference validate -f FILE|DIR|- [-f ...] [--skip-unknown-kinds]
      Check Kubernetes YAML against the upstream schemas and CEL rules (unknown fields are errors).
  cdk8s-inference help COMMAND | COMMAND --help
      Flags and examples of a command.
  cdk8s-inference --version

${ROUTING_FLAGS}

${EXIT_CODES}`;

/** The usage of a command (or the overview), printed after a usage error. */
export function usageOf(command?: CommandName): string {
  switch (command) {
    case 'synth': return SYNTH_USAGE;
    case 'explain': return EXPLAIN_USAGE;
    case 'controller': return CONTROLLER_USAGE;
    case 'validate': return VALIDATE_USAGE;
    default: return USAGE;
  }
}

/** The full help of a command: its usage and examples. */
export function helpOf(command?: CommandName): string {
  switch (command) {
    case 'synth': return `${SYNTH_USAGE}\n\n${SYNTH_EXAMPLES}`;
    case 'explain': return `${EXPLAIN_USAGE}\n\n${EXPLAIN_EXAMPLES}`;
    case 'controller': return `${CONTROLLER_USAGE}\n\n${CONTROLLER_EXAMPLES}`;
    case 'validate': return `${VALIDATE_USAGE}\n\n${VALIDATE_EXAMPLES}`;
    default: return USAGE;
  }
}

/** The version of this package, from its package.json (two levels above src/cli and lib/cli). */
export function packageVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  return String(manifest.version);
}

/** Routing settings given on the command line (AI Runway's controller flags). */
export interface CliRouting {
  readonly gateway?: { readonly namespace: string; readonly name: string };
  readonly inferencePoolApiVersion?: 'v1' | 'v1alpha2';
  /** `--body-based-router-installed`: the cluster sets the model-name header the routes match on. */
  readonly bodyBasedRouterInstalled?: boolean;
  /**
   * `--profile FILE`: the target cluster's profile (installed providers and their readiness, its
   * Gateway, node pools). Here because, like the Gateway, it describes the cluster the output is for.
   */
  readonly profile?: string;
  /**
   * `--pod-security LEVEL`: the Pod Security Standard of model-server pods for deployments that
   * do not choose one. Here because, like the profile, it describes the cluster (its namespaces'
   * `pod-security.kubernetes.io/enforce` level). @default - baseline
   */
  readonly podSecurity?: 'baseline' | 'restricted';
}

export interface CliArguments {
  readonly command: 'synth' | 'explain' | 'controller' | 'validate' | 'help' | 'version';
  /** `-f` values in the order given: files, directories, or `-` for stdin. */
  readonly files: string[];
  readonly outdir?: string;
  readonly routing: CliRouting;
  /** The controller's own flags, parsed by the controller command. */
  readonly controllerArgs?: readonly string[];
  /** With `help`: the command to describe. @default - the overview */
  readonly helpFor?: CommandName;
  /** `validate --skip-unknown-kinds`: skip objects of kinds without a schema. @default false */
  readonly skipUnknownKinds?: boolean;
}

const COMMANDS: readonly CommandName[] = ['synth', 'explain', 'controller', 'validate'];

const INPUT_OPTIONS = {
  'filename': { type: 'string', short: 'f', multiple: true },
  'gateway': { type: 'string' },
  'inference-pool-api-version': { type: 'string' },
  'body-based-router-installed': { type: 'boolean' },
  'profile': { type: 'string' },
  'pod-security': { type: 'string' },
  'help': { type: 'boolean', short: 'h' },
} as const;

const SYNTH_OPTIONS = { ...INPUT_OPTIONS, 'output-dir': { type: 'string', short: 'o' } } as const;

const VALIDATE_OPTIONS = {
  'filename': { type: 'string', short: 'f', multiple: true },
  'skip-unknown-kinds': { type: 'boolean' },
  'help': { type: 'boolean', short: 'h' },
} as const;

/** Parses `argv` (without node and script); throws UsageError on anything unexpected. */
export function parseArguments(argv: readonly string[]): CliArguments {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') return help();
  if (command === '--version' || command === 'version') {
    if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])} for ${command}`);
    return { command: 'version', files: [], routing: {} };
  }
  if (command === 'help') {
    const [topic, ...extra] = rest;
    if (topic === undefined) return help();
    if (!isCommand(topic)) throw unknownCommand(topic);
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])} for help`);
    return help(topic);
  }
  if (command === 'controller') return { command, files: [], routing: {}, controllerArgs: rest };
  if (command !== 'synth' && command !== 'explain' && command !== 'validate') {
    throw unknownCommand(command);
  }
  const options = command === 'synth' ? SYNTH_OPTIONS : command === 'validate' ? VALIDATE_OPTIONS : INPUT_OPTIONS;
  // Not strict: every token is checked below, so the errors name the flag the way the user wrote it.
  const { tokens } = parseArgs({ args: [...rest], options, strict: false, allowPositionals: true, tokens: true });
  const values: Record<string, string[]> = {};
  for (const token of tokens) {
    if (token.kind === 'positional') throw new UsageError(`unexpected argument ${JSON.stringify(token.value)} for ${command}`, command);
    if (token.kind === 'option-terminator') continue;
    const flag = token.rawName;
    const spec = (options as Record<string, { type: 'string' | 'boolean' }>)[token.name];
    if (!spec) {
      const flags = Object.keys(options).map((name) => `--${name}`);
      throw new UsageError(`unknown flag ${JSON.stringify(flag)} for ${command}${didYouMean(flag, flags)}`, command);
    }
    if (spec.type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`${flag} takes no value`, command);
      if (token.name === 'help') return help(command);
      (values[token.name] ??= []).push('true');
      continue;
    }
    // A value that looks like a flag is a forgotten value (`-f --gateway x`), unless attached (`--filename=-x`).
    if (token.value === undefined || (!token.inlineValue && token.value.length > 1 && token.value.startsWith('-'))) {
      throw new UsageError(`${flag} needs a value`, command);
    }
    (values[token.name] ??= []).push(token.value);
  }
  const files = values.filename ?? [];
  if (files.length === 0) throw new UsageError(`${command} needs at least one -f FILE`, command);
  if (files.filter((f) => f === '-').length > 1) throw new UsageError('-f - (stdin) may be given only once', command);
  const outdir = last(values['output-dir']);
  const gatewayValue = last(values.gateway);
  const poolValue = last(values['inference-pool-api-version']);
  const gateway = gatewayValue === undefined ? undefined : parseGateway(gatewayValue, command);
  const inferencePoolApiVersion = poolValue === undefined ? undefined : parsePoolVersion(poolValue, command);
  const profile = profileOf(values.profile, files, command);
  const podSecurityValue = last(values['pod-security']);
  const podSecurity = podSecurityValue === undefined ? undefined : parsePodSecurity(podSecurityValue, command);
  const routing: CliRouting = {
    ...(gateway && { gateway }),
    ...(inferencePoolApiVersion && { inferencePoolApiVersion }),
    ...(values['body-based-router-installed'] && { bodyBasedRouterInstalled: true }),
    ...(profile !== undefined && { profile }),
    ...(podSecurity && { podSecurity }),
  };
  const skipUnknownKinds = values['skip-unknown-kinds'] !== undefined;
  return { command, files, ...(outdir !== undefined && { outdir }), routing, ...(skipUnknownKinds && { skipUnknownKinds }) };
}

function help(helpFor?: CommandName): CliArguments {
  return { command: 'help', files: [], routing: {}, ...(helpFor && { helpFor }) };
}

function unknownCommand(name: string): UsageError {
  return new UsageError(`unknown command ${JSON.stringify(name)}; commands: ${COMMANDS.join(', ')}${didYouMean(name, COMMANDS)}`);
}

function isCommand(name: string): name is CommandName {
  return (COMMANDS as readonly string[]).includes(name);
}

function last(values: readonly string[] | undefined): string | undefined {
  return values?.[values.length - 1];
}

/** `--profile`: one file, not stdin, and not also an input (its documents would count twice). */
function profileOf(values: readonly string[] | undefined, files: readonly string[], command: CommandName): string | undefined {
  if (values === undefined) return undefined;
  if (values.length > 1) throw new UsageError('--profile may be given only once: a profile describes one cluster', command);
  const profile = values[0];
  if (profile === '-') throw new UsageError('--profile - is not supported: give the profile as a file', command);
  if (files.some((f) => f !== '-' && path.resolve(f) === path.resolve(profile))) {
    throw new UsageError(`${profile} is given both with -f and with --profile; give it once`, command);
  }
  return profile;
}

function parseGateway(value: string, command: CommandName): { namespace: string; name: string } {
  const match = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)$/.exec(value);
  if (!match) throw new UsageError(`--gateway ${JSON.stringify(value)}: expected NAMESPACE/NAME`, command);
  return { namespace: match[1], name: match[3] };
}

function parsePoolVersion(value: string, command: CommandName): 'v1' | 'v1alpha2' {
  if (value !== 'v1' && value !== 'v1alpha2') throw new UsageError(`--inference-pool-api-version ${JSON.stringify(value)}: expected v1 or v1alpha2`, command);
  return value;
}

function parsePodSecurity(value: string, command: CommandName): 'baseline' | 'restricted' {
  if (value !== 'baseline' && value !== 'restricted') throw new UsageError(`--pod-security ${JSON.stringify(value)}: expected baseline or restricted`, command);
  return value;
}
