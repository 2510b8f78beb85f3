import { FakeClock, settle } from './support/fake-clock';
import { FakeKubeApi } from './support/fake-kube-api';
import { Informer, InformerEvent, InformerOptions } from '../../../src/controller/runtime/informer';
import { KubeApiError, ResourceKind } from '../../../src/controller/runtime/kube-api';
import { jsonLogger } from '../../../src/controller/runtime/logger';

const DEPLOYMENT: ResourceKind = { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' };
const WORKSPACE: ResourceKind = { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', resource: 'workspaces' };
const SELECTOR = 'airunway.ai/managed-by=airunway';

function deployment(name: string, extra: any = {}, namespace = 'ml') {
  return { metadata: { name, namespace, labels: { 'airunway.ai/managed-by': 'airunway' } }, spec: { replicas: 1 }, ...extra };
}

function setup(kind: ResourceKind = DEPLOYMENT, options: Partial<InformerOptions> = {}) {
  const clock = new FakeClock();
  const api = new FakeKubeApi().serve(DEPLOYMENT);
  const events: string[] = [];
  const logs: any[] = [];
  const informer = new Informer({
    api,
    kind,
    labelSelector: SELECTOR,
    clock,
    logger: jsonLogger({ level: 'debug', write: (l) => logs.push(JSON.parse(l)) }),
    onEvent: (e: InformerEvent) => events.push(`${e.type} ${e.object.metadata.name}`),
    random: () => 0,
    watchTimeoutSeconds: () => 300,
    ...options,
  });
  return { clock, api, informer, events, logs };
}

describe('Informer', () => {
  test('lists, then watches from the list version with bookmarks and the label selector', async () => {
    const { api, informer, events } = setup();
    api.put(DEPLOYMENT, deployment('a'));
    api.put(DEPLOYMENT, deployment('b'));
    api.put(DEPLOYMENT, { metadata: { name: 'not-ours', namespace: 'ml' } });
    informer.start();
    await settle();
    expect(informer.hasSynced).toBe(true);
    expect(events).toEqual(['add a', 'add b']);
    expect(api.callsOf('list')[0].options).toEqual(expect.objectContaining({ labelSelector: SELECTOR, limit: 500 }));
    const watch = api.callsOf('watch')[0].options;
    expect(watch).toEqual(
      expect.objectContaining({ resourceVersion: api.resourceVersion, allowWatchBookmarks: true, labelSelector: SELECTOR, timeoutSeconds: 300 }),
    );
    // List items of built-in kinds lack apiVersion and kind: the cache fills them in.
    expect(informer.get('ml', 'a')).toEqual(expect.objectContaining({ apiVersion: 'apps/v1', kind: 'Deployment' }));
    expect(informer.get('ml', 'not-ours')).toBeUndefined();
  });

  test('drops managedFields and kubectl last-applied-configuration from cached objects, listed or watched', async () => {
    const { api, informer } = setup();
    const heavy = (name: string) => deployment(name, {
      metadata: {
        name,
        namespace: 'ml',
        labels: { 'airunway.ai/managed-by': 'airunway' },
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"big":true}', 'team': 'ml' },
        managedFields: [{ manager: 'kubectl', operation: 'Apply' }],
      },
    });
    api.put(DEPLOYMENT, heavy('listed'));
    informer.start();
    await settle();
    api.put(DEPLOYMENT, heavy('watched'));
    await settle();
    for (const name of ['listed', 'watched']) {
      const cached = informer.get('ml', name);
      expect(cached.metadata.managedFields).toBeUndefined();
      expect(cached.metadata.annotations).toEqual({ team: 'ml' });
      expect(cached.spec).toEqual({ replicas: 1 });
    }
  });

  test('keeps what `transform` returns of each object, page by page and for every watch event', async () => {
    const seen: Array<{ name: string; listed: number }> = [];
    const { api, informer, events, clock } = setup(DEPLOYMENT, {
      pageSize: 2,
      // What the transform is given: managedFields already dropped, apiVersion/kind filled in.
      transform: (obj) => {
        seen.push({ name: obj.metadata.name, listed: api.callsOf('list').length });
        expect(obj.metadata.managedFields).toBeUndefined();
        expect(obj.kind).toBe('Deployment');
        const { name, namespace, resourceVersion } = obj.metadata;
        return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { name, namespace, resourceVersion }, kept: true };
      },
    });
    for (const name of ['a', 'b', 'c']) api.put(DEPLOYMENT, deployment(name, { metadata: { name, namespace: 'ml', labels: { 'airunway.ai/managed-by': 'airunway' }, managedFields: [{ manager: 'm' }] } }));
    informer.start();
    await settle();
    // Pages of 2: a and b are transformed before the second page is asked for.
    expect(seen).toEqual([{ name: 'a', listed: 1 }, { name: 'b', listed: 1 }, { name: 'c', listed: 2 }]);
    api.put(DEPLOYMENT, deployment('d', { status: { readyReplicas: 1 } }));
    await settle();
    expect(events).toEqual(['add a', 'add b', 'add c', 'add d']);
    for (const name of ['a', 'c', 'd']) {
      expect(informer.get('ml', name)).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: expect.objectContaining({ name }), kept: true });
    }
    // On a relist after a failure, the kept resourceVersion tells unchanged objects from changed ones.
    api.closeWatches(new Error('connection reset'));
    api.put(DEPLOYMENT, deployment('c', { spec: { replicas: 2 } }));
    await clock.advance(800);
    expect(api.callsOf('list').length).toBeGreaterThan(2);
    expect(events.slice(4).sort()).toEqual(['resync a', 'resync b', 'resync d', 'update c']);
  });

  test('applies watch events to the cache and follows their resourceVersions and bookmarks', async () => {
    const { api, informer, events } = setup();
    informer.start();
    await settle();
    api.put(DEPLOYMENT, deployment('a'));
    api.put(DEPLOYMENT, deployment('a', { status: { readyReplicas: 1 } }));
    await settle();
    expect(informer.get('ml', 'a').status).toEqual({ readyReplicas: 1 });
    api.remove(DEPLOYMENT, 'ml', 'a');
    await settle();
    expect(events).toEqual(['add a', 'update a', 'delete a']);
    expect(informer.get('ml', 'a')).toBeUndefined();
    expect(informer.lastResourceVersion).toBe(api.resourceVersion);
    api.send(DEPLOYMENT, { type: 'BOOKMARK', object: { metadata: { resourceVersion: '9999' } } });
    expect(informer.lastResourceVersion).toBe('9999');
  });

  test('a watch the server ends normally resumes from the last version, without relisting', async () => {
    const { api, informer, events } = setup();
    informer.start();
    await settle();
    api.put(DEPLOYMENT, deployment('a'));
    await settle();
    const rv = informer.lastResourceVersion;
    api.closeWatches();
    api.put(DEPLOYMENT, deployment('b'));
    await settle();
    expect(api.callsOf('list')).toHaveLength(1);
    expect(api.callsOf('watch')[1].options.resourceVersion).toBe(rv);
    // The event made while no watch was open is replayed by the new watch.
    expect(events).toEqual(['add a', 'add b']);
  });

  test('410 Gone (as a watch ERROR event or a refused watch) relists at once', async () => {
    const { api, informer, clock, logs } = setup();
    informer.start();
    await settle();
    api.send(DEPLOYMENT, { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' } });
    await settle();
    expect(api.callsOf('list')).toHaveLength(2);
    api.compact();
    api.closeWatches();
    api.put(DEPLOYMENT, deployment('x'));
    api.compact();
    await settle();
    // The resumed watch (from an expired version) got 410: relisted, without waiting.
    expect(clock.pending).toBe(0);
    expect(api.callsOf('list')).toHaveLength(3);
    expect(informer.get('ml', 'x')).toBeDefined();
    expect(logs.filter((l) => /410 Gone/.test(l.msg))).toHaveLength(2);
  });

  test('a broken watch reconnects after a backoff with a relist, reporting every change it missed', async () => {
    const { api, informer, events, clock, logs } = setup();
    api.put(DEPLOYMENT, deployment('kept'));
    api.put(DEPLOYMENT, deployment('changed'));
    api.put(DEPLOYMENT, deployment('deleted'));
    informer.start();
    await settle();
    events.length = 0;
    // The API server restarts: the watch breaks, and changes happen while nothing watches.
    api.closeWatches(new Error('socket hang up'));
    api.fail('list', () => new Error('connect ECONNREFUSED'), 2);
    api.compact();
    await settle();
    api.put(DEPLOYMENT, deployment('changed', { spec: { replicas: 2 } }));
    api.remove(DEPLOYMENT, 'ml', 'deleted');
    api.put(DEPLOYMENT, deployment('new'));
    expect(events).toEqual([]);
    // Backoff 800 ms, then list fails twice (1.6 s, 3.2 s), then succeeds.
    await clock.advance(799);
    expect(api.callsOf('list')).toHaveLength(1);
    await clock.advance(1);
    expect(api.callsOf('list')).toHaveLength(2);
    await clock.advance(1600);
    expect(api.callsOf('list')).toHaveLength(3);
    await clock.advance(3200);
    expect(api.callsOf('list')).toHaveLength(4);
    expect(events.sort()).toEqual(['add new', 'delete deleted', 'resync kept', 'update changed']);
    expect(api.openWatches(DEPLOYMENT)).toBe(1);
    expect(logs.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual(['watch failed; reconnecting with a relist', 'list failed; retrying', 'list failed; retrying']);
    expect(logs.find((l) => l.level === 'error').error).toBe('socket hang up');
  });

  test('the backoff doubles up to 30 s and resets after a watch that lasted', async () => {
    const { api, informer, clock } = setup();
    informer.start();
    await settle();
    api.fail('list', () => new Error('down'), 100);
    api.closeWatches(new Error('reset'));
    const times: number[] = [];
    const start = clock.now();
    for (let i = 0; i < 8; i++) {
      const n = api.callsOf('list').length;
      await clock.advanceUntil(() => api.callsOf('list').length > n, 60_000, 100);
      times.push(clock.now() - start);
    }
    const gaps = times.map((t, i) => t - (i ? times[i - 1] : 0));
    expect(gaps).toEqual([800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
    // The API server is back: list and watch succeed; a watch that breaks quickly keeps backing off.
    api.clearFailures();
    await clock.advance(30_000);
    expect(api.openWatches(DEPLOYMENT)).toBe(1);
    let lists = api.callsOf('list').length;
    api.closeWatches(new Error('reset'));
    await clock.advanceUntil(() => api.callsOf('list').length > lists, 60_000, 100);
    expect(api.openWatches(DEPLOYMENT)).toBe(1);
    // ...but one that lasted a minute starts the backoff over at 800 ms.
    await clock.advance(60_000);
    lists = api.callsOf('list').length;
    api.closeWatches(new Error('reset'));
    const before = clock.now();
    await clock.advanceUntil(() => api.callsOf('list').length > lists, 60_000, 100);
    expect(clock.now() - before).toBe(800);
  });

  test('a kind that is not served is skipped, logged once, and picked up when its CRD appears', async () => {
    const { api, informer, events, clock, logs } = setup(WORKSPACE, { absentRetryMs: 60_000 });
    informer.start();
    await settle();
    expect(informer.state).toBe('absent');
    expect(informer.hasSynced).toBe(true);
    expect(api.openWatches()).toBe(0);
    await clock.advance(60_000);
    expect(api.callsOf('list')).toHaveLength(2);
    expect(logs.filter((l) => /not served/.test(l.msg) && l.level === 'info')).toHaveLength(1);
    expect(logs[0]).toEqual(expect.objectContaining({ kind: 'kaito.sh/v1beta1 Workspace', retrySeconds: 60 }));
    api.serve(WORKSPACE);
    api.put(WORKSPACE, deployment('ws'));
    await clock.advance(60_000);
    expect(informer.state).toBe('synced');
    expect(events).toEqual(['add ws']);
    expect(api.openWatches(WORKSPACE)).toBe(1);
    // The CRD is deleted: the watch ends, the relist answers 404, the cache empties.
    api.unserve(WORKSPACE);
    await clock.advance(1000);
    expect(informer.state).toBe('absent');
    expect(events).toEqual(['add ws', 'delete ws']);
  });

  test('403 Forbidden: retried with backoff and never synced, unless the read is optional (forbiddenAsAbsent): then an empty synced cache', async () => {
    const forbidden = () => new KubeApiError(403, 'customresourcedefinitions is forbidden', 'Forbidden');
    const required = setup();
    required.api.fail('list', forbidden, 3);
    required.informer.start();
    await settle();
    expect(required.informer.hasSynced).toBe(false);
    await required.clock.advance(10_000);
    expect(required.informer.hasSynced).toBe(true);

    const optional = setup(DEPLOYMENT, { forbiddenAsAbsent: true, absentRetryMs: 60_000 });
    optional.api.put(DEPLOYMENT, deployment('a'));
    optional.api.fail('list', forbidden, 1);
    optional.informer.start();
    await settle();
    expect(optional.informer.state).toBe('absent');
    expect(optional.informer.hasSynced).toBe(true);
    expect(optional.logs.filter((l) => /not allowed to read it/.test(l.msg))).toHaveLength(1);
    // Granted later: the next attempt lists it.
    await optional.clock.advance(60_000);
    expect(optional.informer.state).toBe('synced');
    expect(optional.events).toEqual(['add a']);
  });

  test('lists in pages and restarts a list whose continue token expired', async () => {
    const { api, informer } = setup(DEPLOYMENT, { pageSize: 2 });
    for (const n of ['a', 'b', 'c', 'd', 'e']) api.put(DEPLOYMENT, deployment(n));
    api.gate = (call) => {
      if (call.op === 'list' && call.options.continue === '4' && !expired) {
        expired = true;
        return Promise.reject(new KubeApiError(410, 'continue token expired', 'Expired'));
      }
      return undefined;
    };
    let expired = false;
    informer.start();
    await settle();
    expect(api.callsOf('list').map((c) => c.options.continue)).toEqual([undefined, '2', '4', undefined, '2', '4']);
    expect(informer.list().map((o) => o.metadata.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  test('stop ends the watch and delivers nothing more; the cache stays readable', async () => {
    const { api, informer, events, clock } = setup();
    api.put(DEPLOYMENT, deployment('a'));
    informer.start();
    await settle();
    informer.stop();
    api.put(DEPLOYMENT, deployment('b'));
    api.closeWatches(new Error('x'));
    await clock.advance(60_000);
    expect(events).toEqual(['add a']);
    expect(informer.get('ml', 'a')).toBeDefined();
    expect(api.callsOf('list')).toHaveLength(1);
    expect(clock.pending).toBe(0);
  });

  test('whenSynced waits for the first list', async () => {
    const { api, informer, clock } = setup();
    api.fail('list', () => new Error('down'));
    let synced = false;
    void informer.whenSynced().then(() => (synced = true));
    informer.start();
    await settle();
    expect(synced).toBe(false);
    await clock.advance(800);
    expect(synced).toBe(true);
  });
});
