import { runControllerCommand } from '../../src/cli/controller-command';
import { main } from '../../src/cli/main';
import type { ControllerOptions } from '../../src/controller/runtime/options';

async function run(argv: string[], runner?: (o: ControllerOptions) => Promise<number>) {
  let stdout = '';
  const stderr: string[] = [];
  const io = { stdout: (t: string) => (stdout += t), stderr: (l: string) => stderr.push(l) };
  const code = runner ? await runControllerCommand(argv, io, runner) : await main(argv, io);
  return { code, stdout, stderr };
}

describe('cdk8s-inference controller', () => {
  test('--help prints the flags and exits 0', async () => {
    const r = await run(['controller', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage:\n  cdk8s-inference controller \[FLAGS\]/);
    for (const flag of ['--kubeconfig', '--leader-elect', '--leader-election-namespace', '--leader-election-id', '--metrics-bind-address', '--health-probe-bind-address', '--namespace', '--sync-period', '--log-level']) {
      expect(r.stdout).toContain(flag);
    }
  });

  test('a bad flag exits 2 with the message and the usage, no stack trace', async () => {
    const r = await run(['controller', '--leader-elect=perhaps']);
    expect(r.code).toBe(2);
    expect(r.stderr).toHaveLength(1);
    expect(r.stderr[0]).toMatch(/^error: --leader-elect="perhaps": expected true or false\n\nUsage:/);
    expect(r.stderr[0]).not.toMatch(/\n\s+at /);
  });

  test('the top-level usage lists the command', async () => {
    const r = await run(['--help']);
    expect(r.stdout).toContain('cdk8s-inference controller [--kubeconfig FILE] [--leader-elect] [FLAGS]');
  });

  test('runs the controller with the parsed flags and returns its exit code', async () => {
    const seen: ControllerOptions[] = [];
    const r = await run(['--kubeconfig', 'kc.yaml', '--leader-elect'], async (o) => {
      seen.push(o);
      return 1;
    });
    expect(r.code).toBe(1);
    expect(seen[0]).toEqual(expect.objectContaining({ kubeconfig: 'kc.yaml', leaderElect: true }));
  });
});
