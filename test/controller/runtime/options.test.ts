import { parseBindAddress } from '../../../src/controller/runtime/bind-address';
import { ControllerOptions, DEFAULT_CONTROLLER_OPTIONS, parseControllerFlags, parseGoDuration } from '../../../src/controller/runtime/options';

function parse(...argv: string[]): ControllerOptions {
  const o = parseControllerFlags(argv);
  if (o === 'help') throw new Error('help');
  return o;
}

describe('controller flags', () => {
  test("defaults are controller-runtime's", () => {
    expect(parse()).toEqual({
      leaderElect: false,
      leaderElectionId: 'cdk8s-inference-controller',
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      metricsBindAddress: { port: 8080 },
      healthProbeBindAddress: { port: 8081 },
      syncPeriodMs: 36_000_000,
      maxConcurrentReconciles: 4,
      gracefulShutdownTimeoutMs: 30_000,
      logLevel: 'info',
      setOwnerReferences: false,
    });
  });

  test('every flag, as --flag value and --flag=value', () => {
    const o = parse(
      '--kubeconfig', '/tmp/kc',
      '--leader-elect',
      '--leader-election-namespace=ops',
      '--leader-election-id', 'my-lease.example.com',
      '--leader-election-lease-duration=30s',
      '--leader-election-renew-deadline', '20s',
      '--leader-election-retry-period=4s',
      '--metrics-bind-address', '127.0.0.1:9090',
      '--health-probe-bind-address=[::1]:9091',
      '--namespace', 'team-a',
      '--sync-period=1h30m',
      '--max-concurrent-reconciles', '2',
      '--graceful-shutdown-timeout', '0',
      '--zap-log-level=debug',
      '--set-owner-references',
    );
    expect(o).toEqual({
      kubeconfig: '/tmp/kc',
      leaderElect: true,
      leaderElectionNamespace: 'ops',
      leaderElectionId: 'my-lease.example.com',
      leaseDurationMs: 30_000,
      renewDeadlineMs: 20_000,
      retryPeriodMs: 4_000,
      metricsBindAddress: { host: '127.0.0.1', port: 9090 },
      healthProbeBindAddress: { host: '::1', port: 9091 },
      namespace: 'team-a',
      syncPeriodMs: 5_400_000,
      maxConcurrentReconciles: 2,
      gracefulShutdownTimeoutMs: 0,
      logLevel: 'debug',
      setOwnerReferences: true,
    });
  });

  test('booleans take =true/=false; 0 disables a server', () => {
    expect(parse('--leader-elect=false').leaderElect).toBe(false);
    expect(parse('--leader-elect=true').leaderElect).toBe(true);
    expect(parse('--set-owner-references=false').setOwnerReferences).toBe(false);
    expect(parse('--set-owner-references=true').setOwnerReferences).toBe(true);
    const o = parse('--metrics-bind-address', '0', '--health-probe-bind-address=0');
    expect(o.metricsBindAddress).toBeUndefined();
    expect(o.healthProbeBindAddress).toBeUndefined();
    expect(parse('--log-level', 'error').logLevel).toBe('error');
  });

  test('-h and --help ask for the usage', () => {
    expect(parseControllerFlags(['--leader-elect', '--help'])).toBe('help');
    expect(parseControllerFlags(['-h'])).toBe('help');
  });

  test.each([
    [['--bogus'], 'unknown flag --bogus'],
    [['positional'], 'unexpected argument "positional"'],
    [['--kubeconfig'], '--kubeconfig needs a value'],
    [['--namespace', '--leader-elect'], '--namespace needs a value'],
    [['--namespace', 'Team_A'], 'expected a namespace name'],
    [['--leader-elect=maybe'], 'expected true or false'],
    [['--metrics-bind-address', '8080'], 'expected [HOST]:PORT, or 0 to disable'],
    [['--health-probe-bind-address', ':99999'], 'out of range'],
    [['--sync-period', '10'], 'expected a duration'],
    [['--sync-period', '0s'], 'must be more than 0'],
    [['--max-concurrent-reconciles', '0'], 'expected a whole number'],
    [['--log-level', 'warn'], 'expected debug, info or error'],
    [['--leader-election-id', 'Not_A_Name'], 'expected a Lease name'],
    [['--leader-election-renew-deadline', '20s'], 'must be longer than --leader-election-renew-deadline'],
    [['--leader-election-retry-period', '9s'], 'longer than 1.2'],
  ])('fails when %j', (argv, message) => {
    expect(() => parseControllerFlags(argv)).toThrow(message);
  });

  test('Go durations', () => {
    expect(['500ms', '15s', '2m', '10h', '1h30m', '1.5s', '0', '300us'].map(parseGoDuration)).toEqual([500, 15_000, 120_000, 36_000_000, 5_400_000, 1_500, 0, 0.3]);
    for (const bad of ['', '10', 's', '1d', '1h 30m', '-1s']) expect(() => parseGoDuration(bad)).toThrow();
  });

  test('bind addresses', () => {
    expect(parseBindAddress(':8080')).toEqual({ port: 8080 });
    expect(parseBindAddress('0.0.0.0:80')).toEqual({ host: '0.0.0.0', port: 80 });
    expect(parseBindAddress('localhost:8443')).toEqual({ host: 'localhost', port: 8443 });
    expect(parseBindAddress('[::]:8080')).toEqual({ host: '::', port: 8080 });
    expect(parseBindAddress('0')).toBeUndefined();
    expect(() => parseBindAddress('::1:80')).toThrow();
  });

  test('DEFAULT_CONTROLLER_OPTIONS is what no flags give', () => {
    expect(parse()).toEqual(DEFAULT_CONTROLLER_OPTIONS);
  });
});
