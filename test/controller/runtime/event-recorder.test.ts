import { FakeClock } from './support/fake-clock';
import { FakeKubeApi } from './support/fake-kube-api';
import { EVENT_KIND, EventRecorder } from '../../../src/controller/runtime/event-recorder';
import { KubeApiError } from '../../../src/controller/runtime/kube-api';
import { jsonLogger } from '../../../src/controller/runtime/logger';

const RECORD = {
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  metadata: { name: 'qwen', namespace: 'ml', uid: 'uid-1', resourceVersion: '7' },
};

function setup() {
  const clock = new FakeClock();
  const api = new FakeKubeApi().serve(EVENT_KIND);
  const logs: any[] = [];
  const events = new EventRecorder({ api, clock, logger: jsonLogger({ level: 'debug', write: (l) => logs.push(JSON.parse(l)) }), component: 'cdk8s-inference-controller', instance: 'host_1' });
  const stored = async () => (await api.list(EVENT_KIND, { namespace: 'ml' })).items;
  return { clock, api, events, logs, stored };
}

describe('EventRecorder', () => {
  test('creates a core v1 Event about the record', async () => {
    const s = setup();
    s.events.record(RECORD, 'Normal', 'Running', 'Deployment is ready');
    await s.events.flush();
    const [event] = await s.stored();
    expect(event).toMatchObject({
      metadata: { namespace: 'ml', name: expect.stringMatching(/^qwen\.[0-9a-f]+$/) },
      involvedObject: { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', namespace: 'ml', name: 'qwen', uid: 'uid-1', resourceVersion: '7' },
      type: 'Normal',
      reason: 'Running',
      message: 'Deployment is ready',
      source: { component: 'cdk8s-inference-controller' },
      reportingComponent: 'cdk8s-inference-controller',
      reportingInstance: 'host_1',
      firstTimestamp: '2026-11-24T12:00:00Z',
      lastTimestamp: '2026-11-24T12:00:00Z',
      count: 1,
    });
  });

  test('a queued event keeps the record as it was when recorded, not the record itself', async () => {
    const s = setup();
    const record = structuredClone(RECORD) as any;
    s.events.record(record, 'Normal', 'Running', 'Deployment is ready');
    // The object changes (or is dropped by the cache) before the event is written.
    record.metadata.resourceVersion = '8';
    record.kind = 'Changed';
    await s.events.flush();
    const [event] = await s.stored();
    expect(event.involvedObject).toEqual({ apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', namespace: 'ml', name: 'qwen', uid: 'uid-1', resourceVersion: '7' });
  });

  test('a repeat within ten minutes counts on the same Event; later, a new one', async () => {
    const s = setup();
    s.events.record(RECORD, 'Warning', 'Failed', 'x');
    await s.events.flush();
    await s.clock.advance(60_000);
    s.events.record(RECORD, 'Warning', 'Failed', 'x');
    await s.events.flush();
    let stored = await s.stored();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ count: 2, firstTimestamp: '2026-11-24T12:00:00Z', lastTimestamp: '2026-11-24T12:01:00Z' });
    s.events.record(RECORD, 'Warning', 'Failed', 'another message');
    await s.clock.advance(11 * 60_000);
    s.events.record(RECORD, 'Warning', 'Failed', 'x');
    await s.events.flush();
    stored = await s.stored();
    expect(stored).toHaveLength(3);
    expect(new Set(stored.map((e: any) => e.metadata.name)).size).toBe(3);
  });

  test('a failure is logged, not thrown; a long message is cut to what the API server takes', async () => {
    const s = setup();
    s.api.fail('create', () => new KubeApiError(403, 'events is forbidden', 'Forbidden'));
    s.events.record(RECORD, 'Normal', 'Running', 'ok');
    await s.events.flush();
    expect(s.logs).toEqual([expect.objectContaining({ msg: 'cannot record an event', reason: 'Running', name: 'qwen', error: expect.stringMatching(/forbidden/) })]);
    s.events.record(RECORD, 'Normal', 'Running', 'm'.repeat(5000));
    await s.events.flush();
    const [event] = await s.stored();
    expect(event.message).toHaveLength(1024);
    expect(event.message.endsWith('...')).toBe(true);
  });

  test('one write at a time; past 1,000 waiting, new events are dropped, counted and logged once', async () => {
    const s = setup();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    s.api.gate = (call) => (call.op === 'create' ? held : undefined);
    for (let i = 0; i < 1006; i++) s.events.record({ ...RECORD, metadata: { ...RECORD.metadata, uid: `u${i}` } }, 'Normal', 'Pending', 'waiting');
    await Promise.resolve();
    expect(s.api.callsOf('create')).toHaveLength(1); // the one being written; the rest wait
    expect(s.events.dropped).toBe(5);
    expect(s.logs.filter((l) => /dropping/.test(l.msg))).toHaveLength(1);
    release();
    await s.events.flush();
    expect(await s.stored()).toHaveLength(1001);
  });
});
