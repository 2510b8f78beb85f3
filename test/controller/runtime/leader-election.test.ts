import { FakeClock, settle } from './support/fake-clock';
import { FakeKubeApi } from './support/fake-kube-api';
import { KubeApi, LEASE_KIND } from '../../../src/controller/runtime/kube-api';
import { LeaderElector, LeaderElectionOptions, microTime } from '../../../src/controller/runtime/leader-election';
import { jsonLogger, NULL_LOGGER } from '../../../src/controller/runtime/logger';

/** One process's view of the API: it can be cut off (requests fail) or hung (requests never answer). */
function connection(api: FakeKubeApi) {
  let mode: 'up' | 'down' | 'hung' = 'up';
  const wrap = <T extends (...args: any[]) => Promise<any>>(fn: T): T =>
    ((...args: any[]) => {
      if (mode === 'down') return Promise.reject(new Error('connect ECONNREFUSED'));
      if (mode === 'hung') return new Promise(() => undefined);
      return fn.apply(api, args);
    }) as T;
  const proxied: KubeApi = {
    list: wrap(api.list),
    watch: api.watch.bind(api),
    get: wrap(api.get),
    create: wrap(api.create),
    replace: wrap(api.replace),
    patch: wrap(api.patch),
    patchStatus: wrap(api.patchStatus),
  };
  return { api: proxied, set: (m: typeof mode) => (mode = m) };
}

interface Candidate {
  readonly elector: LeaderElector;
  readonly conn: ReturnType<typeof connection>;
  readonly log: string[];
  readonly leadingHistory: Array<[number, boolean]>;
}

function setup(count = 2, overrides: Partial<LeaderElectionOptions> = {}) {
  const clock = new FakeClock();
  const api = new FakeKubeApi().serve(LEASE_KIND);
  const candidates: Candidate[] = [];
  for (let i = 0; i < count; i++) {
    const conn = connection(api);
    const log: string[] = [];
    const leadingHistory: Array<[number, boolean]> = [];
    const elector = new LeaderElector({
      api: conn.api,
      clock,
      logger: NULL_LOGGER,
      namespace: 'cdk8s-inference-system',
      name: 'cdk8s-inference-controller',
      identity: `pod-${i}`,
      random: () => 1,
      onStartedLeading: () => log.push(`started ${clock.now()}`),
      onStoppedLeading: () => log.push(`stopped ${clock.now()}`),
      onLeadingChanged: (l) => leadingHistory.push([clock.now(), l]),
      ...overrides,
    });
    candidates.push({ elector, conn, log, leadingHistory });
  }
  const lease = () => api.object(LEASE_KIND, 'cdk8s-inference-system', 'cdk8s-inference-controller');
  const leaders = () => candidates.filter((c) => c.elector.isLeader).length;
  return { clock, api, candidates, lease, leaders };
}

describe('LeaderElector', () => {
  test("creates the Lease with controller-runtime's timings and leads; renews it every retry period", async () => {
    const { clock, candidates, lease } = setup(1);
    const [a] = candidates;
    void a.elector.run();
    await settle();
    expect(a.elector.isLeader).toBe(true);
    expect(a.log).toEqual([`started ${clock.now()}`]);
    const created = lease();
    expect(created.spec).toEqual({
      holderIdentity: 'pod-0',
      leaseDurationSeconds: 15,
      acquireTime: microTime(clock.now()),
      renewTime: microTime(clock.now()),
      leaseTransitions: 0,
    });
    expect(created.spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    await clock.advance(2000);
    expect(lease().spec.renewTime).toBe(microTime(clock.now()));
    expect(lease().spec.acquireTime).toBe(created.spec.acquireTime);
    expect(Number(lease().metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
  });

  test('a second candidate waits while the leader renews', async () => {
    const { clock, candidates, lease, leaders } = setup(2);
    const [a, b] = candidates;
    void a.elector.run();
    await settle();
    void b.elector.run();
    for (let t = 0; t < 120; t++) {
      await clock.advance(1000);
      expect(leaders()).toBe(1);
    }
    expect(a.elector.isLeader).toBe(true);
    expect(b.elector.observedLeader).toBe('pod-0');
    expect(lease().spec.holderIdentity).toBe('pod-0');
  });

  test('of two candidates starting together, exactly one wins (the create and the update are conditional)', async () => {
    const { clock, candidates, leaders } = setup(3);
    for (const c of candidates) void c.elector.run();
    await settle();
    expect(leaders()).toBe(1);
    await clock.advance(30_000);
    expect(leaders()).toBe(1);
  });

  test('a leader that cannot renew stops leading within the renew deadline, before a standby takes over', async () => {
    const { clock, candidates, lease, leaders } = setup(2);
    const [a, b] = candidates;
    void a.elector.run();
    await settle();
    void b.elector.run();
    await clock.advance(10_000);
    const lastRenew = Date.parse(lease().spec.renewTime);
    a.conn.set('down');
    let maxLeaders = 0;
    await clock.advanceUntil(() => {
      maxLeaders = Math.max(maxLeaders, leaders());
      return b.elector.isLeader;
    }, 60_000, 50);
    expect(maxLeaders).toBe(1);
    const lost = Number(a.log[1].split(' ')[1]);
    expect(a.log[1]).toMatch(/^stopped/);
    // The renewal round starts a retry period after the last renewal and gives up after the renew deadline.
    expect(lost - lastRenew).toBeLessThanOrEqual(2000 + 10_000);
    const tookOver = Number(b.log[0].split(' ')[1]);
    // The standby takes over a lease duration after it saw the last renewal, which it saw at most one jittered retry period late.
    expect(tookOver - lastRenew).toBeGreaterThanOrEqual(15_000);
    expect(tookOver - lastRenew).toBeLessThanOrEqual(15_000 + 4_400);
    expect(lost).toBeLessThan(tookOver);
    expect(lease().spec).toEqual(expect.objectContaining({ holderIdentity: 'pod-1', leaseTransitions: 1, acquireTime: microTime(tookOver) }));
  });

  test('a renewal that hangs counts as failed when the renew deadline passes', async () => {
    const { clock, candidates } = setup(1);
    const [a] = candidates;
    void a.elector.run();
    await settle();
    a.conn.set('hung');
    const took = await clock.advanceUntil(() => !a.elector.isLeader, 30_000, 50);
    expect(took).toBeLessThanOrEqual(12_000);
    expect(a.log[1]).toMatch(/^stopped/);
  });

  test('a renewal that fails once is retried and leadership is kept', async () => {
    const { clock, candidates, api } = setup(1);
    const [a] = candidates;
    void a.elector.run();
    await settle();
    api.fail('replace', () => new Error('etcdserver: request timed out'), 3);
    api.fail('get', () => new Error('etcdserver: request timed out'), 1);
    await clock.advance(30_000);
    expect(a.elector.isLeader).toBe(true);
    expect(a.log).toHaveLength(1);
  });

  test('stop releases the Lease, so a standby takes over at its next attempt instead of after the lease duration', async () => {
    const { clock, candidates, lease } = setup(2);
    const [a, b] = candidates;
    void a.elector.run();
    await settle();
    void b.elector.run();
    await clock.advance(5000);
    await a.elector.stop();
    expect(a.elector.isLeader).toBe(false);
    expect(a.log).toEqual([expect.stringMatching(/^started/)]);
    expect(lease().spec).toEqual(expect.objectContaining({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 0 }));
    const took = await clock.advanceUntil(() => b.elector.isLeader, 15_000, 10);
    expect(took).toBeLessThanOrEqual(4_400);
    expect(lease().spec).toEqual(expect.objectContaining({ holderIdentity: 'pod-1', leaseDurationSeconds: 15 }));
    // A released Lease has no holder, so taking it is not a transition from another holder.
    expect(lease().spec.leaseTransitions).toBe(0);
  });

  test('stop during a renewal still on the wire: the release waits for it, and the Lease stays released', async () => {
    const logs: any[] = [];
    const { clock, api, candidates, lease } = setup(1, { logger: jsonLogger({ level: 'debug', write: (l) => logs.push(JSON.parse(l)) }) });
    const [a] = candidates;
    void a.elector.run();
    await settle();
    expect(a.elector.isLeader).toBe(true);
    // Hold the next renewal (a replace) open, then stop: its wait is abandoned, its request is not.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let gated = false;
    api.gate = (call) => (call.op === 'replace' && !gated ? ((gated = true), held) : undefined);
    await clock.advance(2_000);
    expect(gated).toBe(true);
    const stopping = a.elector.stop();
    await settle();
    release(); // the renewal lands only now
    await stopping;
    await clock.advance(5_000);
    // Released, and not taken again by the renewal that was on the wire; the release was not refused.
    expect(lease().spec).toEqual(expect.objectContaining({ holderIdentity: '', leaseDurationSeconds: 1 }));
    expect(a.elector.isLeader).toBe(false);
    expect(logs.filter((l) => /failed to release/.test(l.msg))).toEqual([]);
  });

  test('stop of a candidate that never led writes nothing', async () => {
    const { clock, candidates, api } = setup(2);
    const [a, b] = candidates;
    void a.elector.run();
    await settle();
    void b.elector.run();
    await clock.advance(3000);
    const writes = api.callsOf('replace').length + api.callsOf('create').length;
    await b.elector.stop();
    expect(api.callsOf('replace').length + api.callsOf('create').length).toBe(writes);
    expect(clock.pending).toBeGreaterThan(0); // a's renew loop
    await a.elector.stop();
    expect(clock.pending).toBe(0);
  });

  test('reports leadership changes (leader_election_master_status)', async () => {
    const { clock, candidates } = setup(1);
    const [a] = candidates;
    void a.elector.run();
    await settle();
    await clock.advance(1000);
    await a.elector.stop();
    expect(a.leadingHistory.map(([, l]) => l)).toEqual([true, false]);
  });

  test('logs as JSON lines', async () => {
    const lines: any[] = [];
    const { candidates } = setup(1, { logger: jsonLogger({ level: 'info', write: (l) => lines.push(JSON.parse(l)) }) });
    void candidates[0].elector.run();
    await settle();
    expect(lines.map((l) => l.msg)).toEqual(['attempting to acquire leader lease', 'new leader observed', 'successfully acquired lease']);
    await candidates[0].elector.stop();
  });

  test('fails when the timings cannot work (renew deadline not below the lease duration)', () => {
    const base = { api: new FakeKubeApi(), clock: new FakeClock(), logger: NULL_LOGGER, namespace: 'n', name: 'l', identity: 'i', onStartedLeading: () => {}, onStoppedLeading: () => {} };
    expect(() => new LeaderElector({ ...base, leaseDurationMs: 10_000, renewDeadlineMs: 10_000 })).toThrow(/longer than the renew deadline/);
    expect(() => new LeaderElector({ ...base, renewDeadlineMs: 2_000, retryPeriodMs: 2_000 })).toThrow(/1.2/);
  });
});
