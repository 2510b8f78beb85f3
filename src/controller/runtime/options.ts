import { BindAddress, parseBindAddress } from './bind-address';
import type { LogLevel } from './logger';
import { MAX_CONCURRENT_RECONCILES } from '../../controller-contract/reconcile-concurrency';

/** Settings of the controller process (its command-line flags, parsed). */
export interface ControllerOptions {
  /** Out of cluster: this kubeconfig. @default - in-cluster config (service account) */
  readonly kubeconfig?: string;
  /** Campaign for a Lease and reconcile only while holding it. */
  readonly leaderElect: boolean;
  /** @default - the pod's namespace (POD_NAMESPACE, else the service account's), else `default` */
  readonly leaderElectionNamespace?: string;
  /** Name of the Lease. */
  readonly leaderElectionId: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  /** @default - metrics disabled */
  readonly metricsBindAddress?: BindAddress;
  /** @default - probes disabled */
  readonly healthProbeBindAddress?: BindAddress;
  /** Watch only this namespace. @default - all namespaces */
  readonly namespace?: string;
  readonly syncPeriodMs: number;
  readonly maxConcurrentReconciles: number;
  readonly gracefulShutdownTimeoutMs: number;
  readonly logLevel: LogLevel;
  /** Give the objects each record lists an ownerReference to it, so deleting the record deletes them. */
  readonly setOwnerReferences: boolean;
}

/** A flag the controller does not accept, or a bad value (exit code 2). */
export class FlagError extends Error {}

export const DEFAULT_LEADER_ELECTION_ID = 'cdk8s-inference-controller';

export const CONTROLLER_USAGE = `Usage:
  cdk8s-inference controller [FLAGS]
      Keep the status of every ModelDeployment record rendered by cdk8s-inference (label
      inference.cdk8s.io/rendered-by=cdk8s-inference) true, from the objects that run it.
      In a cluster it uses the pod's service account; outside, pass --kubeconfig.

Flags (controller-runtime's names and defaults):
  --kubeconfig FILE                      kubeconfig to use out of cluster (default: in-cluster config)
  --namespace NS                         watch only this namespace (default: all namespaces)
  --leader-elect[=true|false]            hold a Lease while reconciling, for more than one replica
                                         (default false; the controller image passes true)
  --leader-election-namespace NS         namespace of the Lease (default: the pod's namespace, else
                                         "default")
  --leader-election-id NAME              name of the Lease (default ${DEFAULT_LEADER_ELECTION_ID})
  --leader-election-lease-duration D     how long standbys wait before taking over (default 15s)
  --leader-election-renew-deadline D     how long the leader retries renewing (default 10s)
  --leader-election-retry-period D       wait between attempts (default 2s)
  --metrics-bind-address ADDR            Prometheus /metrics (default :8080; 0 disables)
  --health-probe-bind-address ADDR       /healthz and /readyz (default :8081; 0 disables)
  --sync-period D                        reconcile every record again this often (default 10h)
  --max-concurrent-reconciles N          workers (default 4: a reconcile mostly waits on the API server)
  --graceful-shutdown-timeout D          how long running reconciles may finish on SIGTERM (default 30s)
  --log-level debug|info|error           (alias --zap-log-level; default info)
  --set-owner-references[=true|false]    give the objects each record lists (annotation
                                         inference.cdk8s.io/rendered-objects) an ownerReference
                                         to it, so deleting the record garbage-collects them
                                         (default false; needs get and patch on those kinds)
  -h, --help                             this text

D is a Go duration (500ms, 15s, 2m, 10h). ADDR is [HOST]:PORT.
Logs are JSON lines on stderr. Exit codes: 0 stopped by SIGTERM/SIGINT; 1 failure (kubeconfig
unreadable, port in use, caches not synced within 2 minutes, leader election lost); 2 usage error.`;

/** Defaults for everything a flag can set. */
export const DEFAULT_CONTROLLER_OPTIONS: ControllerOptions = {
  leaderElect: false,
  leaderElectionId: DEFAULT_LEADER_ELECTION_ID,
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
  metricsBindAddress: { port: 8080 },
  healthProbeBindAddress: { port: 8081 },
  syncPeriodMs: 10 * 60 * 60 * 1000,
  maxConcurrentReconciles: 4,
  gracefulShutdownTimeoutMs: 30_000,
  logLevel: 'info',
  setOwnerReferences: false,
};

/**
 * Parses the controller's flags (`--flag value` or `--flag=value`; booleans as `--flag` or
 * `--flag=true|false`). Returns `'help'` for `-h`/`--help`.
 * @throws FlagError on an unknown flag or a bad value
 */
export function parseControllerFlags(argv: readonly string[]): ControllerOptions | 'help' {
  const o: { -readonly [K in keyof ControllerOptions]: ControllerOptions[K] } = { ...DEFAULT_CONTROLLER_OPTIONS };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help' || arg === '-help') return 'help';
    const m = /^--?([a-z][a-z0-9-]*)(?:=([\s\S]*))?$/.exec(arg);
    if (!m) throw new FlagError(`unexpected argument ${JSON.stringify(arg)}`);
    const flag = m[1];
    const inline = m[2];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const v = argv[++i];
      if (v === undefined || (v.startsWith('-') && v.length > 1)) throw new FlagError(`--${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case 'kubeconfig':
        o.kubeconfig = nonEmpty(flag, value());
        break;
      case 'namespace':
        o.namespace = dnsLabel(flag, value());
        break;
      case 'leader-elect':
        o.leaderElect = inline === undefined ? true : bool(flag, inline);
        break;
      case 'set-owner-references':
        o.setOwnerReferences = inline === undefined ? true : bool(flag, inline);
        break;
      case 'leader-election-namespace':
        o.leaderElectionNamespace = dnsLabel(flag, value());
        break;
      case 'leader-election-id':
        o.leaderElectionId = dnsSubdomain(flag, value());
        break;
      case 'leader-election-lease-duration':
        o.leaseDurationMs = positiveDuration(flag, value());
        break;
      case 'leader-election-renew-deadline':
        o.renewDeadlineMs = positiveDuration(flag, value());
        break;
      case 'leader-election-retry-period':
        o.retryPeriodMs = positiveDuration(flag, value());
        break;
      case 'metrics-bind-address':
        o.metricsBindAddress = bindAddress(flag, value());
        break;
      case 'health-probe-bind-address':
        o.healthProbeBindAddress = bindAddress(flag, value());
        break;
      case 'sync-period':
        o.syncPeriodMs = positiveDuration(flag, value());
        break;
      case 'max-concurrent-reconciles': {
        const v = value();
        if (!/^[1-9]\d*$/.test(v) || Number(v) > MAX_CONCURRENT_RECONCILES) throw new FlagError(`--${flag} ${JSON.stringify(v)}: expected a whole number from 1 to ${MAX_CONCURRENT_RECONCILES}`);
        o.maxConcurrentReconciles = Number(v);
        break;
      }
      case 'graceful-shutdown-timeout':
        o.gracefulShutdownTimeoutMs = duration(flag, value());
        break;
      case 'log-level':
      case 'zap-log-level': {
        const v = value();
        if (v !== 'debug' && v !== 'info' && v !== 'error') throw new FlagError(`--${flag} ${JSON.stringify(v)}: expected debug, info or error`);
        o.logLevel = v;
        break;
      }
      default:
        throw new FlagError(`unknown flag --${flag}`);
    }
  }
  if (o.leaseDurationMs <= o.renewDeadlineMs) {
    throw new FlagError('--leader-election-lease-duration must be longer than --leader-election-renew-deadline');
  }
  if (o.renewDeadlineMs <= o.retryPeriodMs * 1.2) {
    throw new FlagError('--leader-election-renew-deadline must be longer than 1.2 × --leader-election-retry-period');
  }
  return o;
}

const DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a Go duration (`1h30m`, `15s`, `500ms`, `0`) into milliseconds.
 * @throws Error when it is not one
 */
export function parseGoDuration(value: string): number {
  if (value === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(value)) !== null) {
    total += Number(m[1]) * DURATION_UNITS[m[2]];
    matched = re.lastIndex;
  }
  if (matched === 0 || matched !== value.length) throw new Error(`${JSON.stringify(value)}: expected a duration such as 15s, 2m or 10h`);
  return total;
}

function duration(flag: string, value: string): number {
  try {
    return parseGoDuration(value);
  } catch (e) {
    throw new FlagError(`--${flag} ${(e as Error).message}`);
  }
}

function positiveDuration(flag: string, value: string): number {
  const ms = duration(flag, value);
  if (ms <= 0) throw new FlagError(`--${flag} ${JSON.stringify(value)}: must be more than 0`);
  return ms;
}

function bindAddress(flag: string, value: string): BindAddress | undefined {
  try {
    return parseBindAddress(value);
  } catch (e) {
    throw new FlagError(`--${flag} ${(e as Error).message}`);
  }
}

function bool(flag: string, value: string): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new FlagError(`--${flag}=${JSON.stringify(value)}: expected true or false`);
}

function nonEmpty(flag: string, value: string): string {
  if (!value) throw new FlagError(`--${flag} needs a value`);
  return value;
}

function dnsLabel(flag: string, value: string): string {
  if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(value)) throw new FlagError(`--${flag} ${JSON.stringify(value)}: expected a namespace name (RFC 1123 label)`);
  return value;
}

function dnsSubdomain(flag: string, value: string): string {
  if (value.length > 253 || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(value)) {
    throw new FlagError(`--${flag} ${JSON.stringify(value)}: expected a Lease name (lowercase RFC 1123 subdomain)`);
  }
  return value;
}
