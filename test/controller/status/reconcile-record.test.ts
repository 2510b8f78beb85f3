import { catalogWith, CustomProvider, customDeployment } from './custom-provider';
import { ACCEPTED, cond, gatewayObject, poolStatus, RESOLVED, routeStatus } from './gateway-fixtures';
import { LIFECYCLES } from './lifecycles';
import { applyMergePatch, GATEWAY, recordOf, rendered, Store, T, translated, TT, World } from './support';
import { isRenderedRecord, reconcileRecord, RecordReconcile } from '../../../src/controller/status';
import { defaultProviderCatalog } from '../../../src/pipeline/shipped-providers';
import { validateManifest } from '../../../src/schema-validation/manifest-validator';
import { vllmDeployment } from '../../providers/vllm/fixtures';
import { expectValidManifests } from '../../support/schema-validator';

const catalog = defaultProviderCatalog();
const ROUTE = 'gateway.networking.k8s.io/v1';
const POOL = 'inference.networking.k8s.io/v1';

/** Schema violations of `status` on a clean record shell: what the /status subresource would refuse or prune. */
function statusViolations(status: any): string[] {
  // AI Runway's newer status fields are not in the imported upstream CRD (ours adds them: src/controller-contract/crds.ts):
  // checked here for the shape the overlay declares, then left out of the check against the upstream schema.
  const violations: string[] = [];
  const copy = structuredClone(status ?? {});
  for (const [parent, field] of [['gateway', 'gatewayName'], ['provider', 'requestRef'], ['provider', 'workloadRef'], ['provider', 'inferencePoolRef']]) {
    const value = copy[parent]?.[field];
    if (value === undefined) continue;
    const fine = field === 'gatewayName'
      ? typeof value === 'string' && value !== ''
      : Object.keys(value).sort().join() === 'apiVersion,kind,name,namespace,uid' && Object.values(value).every((v) => typeof v === 'string' && v !== '');
    if (!fine) violations.push(`status.${parent}.${field}: ${JSON.stringify(value)} is not what the overlay declares`);
    delete copy[parent][field];
  }
  const record = recordOf(vllmDeployment(), { status: copy });
  return [...violations, ...validateManifest(record).map((v) => `${v.path}: ${v.message}`)];
}

/** What a lookup was asked for, without the CRDs (IncompatibleUpstream's reads, tested in upstream-compatibility.test.ts). */
function upstreamReads(result: RecordReconcile): RecordReconcile['watched'] {
  return result.watched.filter((w) => w.kind !== 'CustomResourceDefinition');
}

/**
 * One reconcile through the store, checking what every reconcile must satisfy: the patch applied
 * to the stored status gives exactly the desired status, the desired status passes the CRD
 * schema, and an immediate repeat (later) with the stored status gives no patch.
 */
function pass(store: Store, world: World, now: Date): RecordReconcile {
  const before = structuredClone(store.record);
  const result = store.reconcile(world, now);
  expect(applyMergePatch(before, result.patch ?? {})).toEqual({ ...before, status: result.status });
  expect(statusViolations(result.status)).toEqual([]);
  const repeat = reconcileRecord(store.record, catalog, world.lookup, new Date(now.getTime() + 30_000));
  expect(repeat.patch).toBeUndefined();
  expect(repeat.status).toEqual(result.status);
  return result;
}

describe('isRenderedRecord', () => {
  test('true for a record carrying inference.cdk8s.io/rendered-by: cdk8s-inference', () => {
    expect(isRenderedRecord(recordOf(vllmDeployment()))).toBe(true);
    expect(isRenderedRecord(rendered({ model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } }).record)).toBe(true);
  });

  test('fails when the label is missing, has another value, or the record is hostile', () => {
    const r = recordOf(vllmDeployment());
    for (const labels of [undefined, {}, { 'inference.cdk8s.io/rendered-by': 'someone-else' }, { 'inference.cdk8s.io/rendered-by': true }, 'x', ['inference.cdk8s.io/rendered-by']]) {
      expect(isRenderedRecord({ ...r, metadata: { ...r.metadata, labels } })).toBe(false);
    }
    for (const record of [undefined, null, 'record', 7, [], {}, { metadata: 'm' }, { metadata: null }]) expect(isRenderedRecord(record)).toBe(false);
  });
});

describe('reconcileRecord', () => {
  describe('a valid record', () => {
    test('writes every status field AI Runway writes, in AI Runway\'s shapes', () => {
      const { record, objects } = rendered({ model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } }, { gateway: false });
      const world = new World(objects);
      world.setStatus('apps/v1', 'Deployment', 'qwen', { readyReplicas: 1, availableReplicas: 1, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: '' }] });
      const result = reconcileRecord({ ...record, metadata: { ...record.metadata, generation: 4 } }, catalog, world.lookup, T[0]);
      const at = (type: string, status: string, reason: string, message: string) =>
        ({ type, status, observedGeneration: 4, lastTransitionTime: TT[0], reason, message });
      expect(result.status).toEqual({
        observedGeneration: 4,
        phase: 'Running',
        message: 'Deployments created, pods are ready',
        provider: {
          name: 'vllm',
          selectedReason: 'explicit provider selection',
          resourceName: 'qwen',
          resourceKind: 'Deployment',
          requestRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'qwen', namespace: 'ml', uid: 'uid-qwen' },
          workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'qwen', namespace: 'ml', uid: 'uid-qwen' },
        },
        engine: { type: 'vllm', selectedReason: 'auto-selected from provider dynamo capabilities' },
        replicas: { desired: 1, ready: 1, available: 1 },
        endpoint: { service: 'qwen', port: 8000 },
        conditions: [
          at('Validated', 'True', 'ValidationPassed', 'Schema validation passed'),
          at('EngineSelected', 'True', 'AutoSelected', 'Engine vllm auto-selected from provider capabilities'),
          at('ProviderSelected', 'True', 'ExplicitSelection', 'Provider explicitly specified in spec'),
          at('Ready', 'True', 'DeploymentReady', 'All replicas are ready'),
        ],
      });
      expect(result.patch).toEqual({ status: result.status });
      expect(result.watched).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ml', name: 'qwen' }]);
      expect(statusViolations(result.status)).toEqual([]);
    });

    test('selection conditions say ExplicitSelection or AutoSelected after the reason annotations', () => {
      const explicit = reconcileRecord(recordOf(vllmDeployment()), catalog, () => undefined, T[0]).status.conditions;
      expect(explicit.slice(1, 3).map((c: any) => [c.type, c.reason, c.message])).toEqual([
        ['EngineSelected', 'ExplicitSelection', 'Engine explicitly specified in spec'],
        ['ProviderSelected', 'ExplicitSelection', 'Provider explicitly specified in spec'],
      ]);
      const auto = reconcileRecord(rendered({ model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } }).record, catalog, () => undefined, T[0]).status;
      expect(auto.conditions.slice(1, 3).map((c: any) => [c.type, c.reason, c.message])).toEqual([
        ['EngineSelected', 'AutoSelected', 'Engine vllm auto-selected from provider capabilities'],
        ['ProviderSelected', 'AutoSelected', 'Provider dynamo auto-selected'],
      ]);
      expect(auto.provider.selectedReason).toBe('matched capabilities: engine=vllm, gpu=true, mode=aggregated');
      expect(auto.engine.selectedReason).toBe('auto-selected from provider dynamo capabilities');
    });

    test('a provider without status mapping: Pending and Ready Unknown, schema-valid', () => {
      const record = recordOf(customDeployment());
      const result = reconcileRecord(record, catalogWith(new CustomProvider()), () => undefined, T[0]);
      expect(result.status).toMatchObject({ phase: 'Pending', message: 'provider custom has no status mapping: the controller cannot observe this deployment', replicas: { desired: 1, ready: 0, available: 0 } });
      expect(result.status.provider).toEqual({ name: 'custom', selectedReason: 'explicit provider selection' });
      expect(result.status.conditions[3]).toMatchObject({ type: 'Ready', status: 'Unknown', reason: 'NoStatusMapping' });
      expect(result.watched).toEqual([]);
      expect(statusViolations(result.status)).toEqual([]);
    });

    test('keeps conditions of other types and status fields it does not own, untouched and in place', () => {
      const theirs = { type: 'ImageVerified', status: 'True', reason: 'SignatureValid', message: 'cosign ok', lastTransitionTime: '2025-12-01T00:00:00Z', observedGeneration: 1 };
      const status = {
        image: { requested: 'vllm/vllm-openai:v0.11.0', verified: true },
        conditions: [theirs, { type: 'Ready', status: 'False', reason: 'DeploymentInProgress', message: 'Deployment is in progress', lastTransitionTime: '2026-02-01T00:00:00Z', observedGeneration: 1 }],
      };
      const result = reconcileRecord(recordOf(vllmDeployment(), { status }), catalog, () => undefined, T[0]);
      expect(result.status.image).toEqual(status.image);
      expect(result.status.conditions.map((c: any) => c.type)).toEqual(['ImageVerified', 'Ready', 'Validated', 'EngineSelected', 'ProviderSelected']);
      expect(result.status.conditions[0]).toEqual(theirs);
      expect(result.status.conditions[1]).toMatchObject({ reason: 'ResourceNotFound', lastTransitionTime: '2026-02-01T00:00:00Z' });
      expect(result.patch.status).not.toHaveProperty('image');
      expect(statusViolations(result.status)).toEqual([]);
    });

    test('a new generation moves observedGeneration everywhere, and no lastTransitionTime', () => {
      const store = new Store(recordOf(vllmDeployment()));
      const world = new World();
      pass(store, world, T[0]);
      store.record = { ...store.record, metadata: { ...store.record.metadata, generation: 2 } };
      const result = pass(store, world, T[1]);
      expect(result.patch.status.observedGeneration).toBe(2);
      expect(store.status.conditions.every((c: any) => c.observedGeneration === 2 && c.lastTransitionTime === TT[0])).toBe(true);
    });

    test('a record without a usable metadata.generation (which the API server always sets) writes no observedGeneration', () => {
      for (const generation of ['one', -1, 1.5, undefined]) {
        const record = recordOf(vllmDeployment(), { status: { observedGeneration: 1 } });
        record.metadata.generation = generation;
        const result = reconcileRecord(record, catalog, () => undefined, T[0]);
        expect(result.status).not.toHaveProperty('observedGeneration');
        expect(result.patch.status.observedGeneration).toBeNull();
        expect(result.status.conditions.some((c: any) => 'observedGeneration' in c)).toBe(false);
        expect(statusViolations(result.status)).toEqual([]);
      }
    });

    test('being deleted: Terminating, nothing looked up, the rest kept', () => {
      const store = new Store(recordOf(vllmDeployment()));
      pass(store, new World(), T[0]);
      store.record = { ...store.record, metadata: { ...store.record.metadata, deletionTimestamp: '2026-03-01T11:00:00Z', finalizers: ['foregroundDeletion'] } };
      const world = new World();
      const result = pass(store, world, T[1]);
      expect(result.patch).toEqual({ status: { phase: 'Terminating', message: 'ModelDeployment is being deleted' } });
      expect(result.watched).toEqual([]);
      expect(world.asked).toEqual([]);
    });
  });

  describe.each(LIFECYCLES)('lifecycle of $title', (lc) => {
    test('Pending -> Deploying -> Running -> Failed -> Running; Ready moves only on flips; resyncs cost no patch', () => {
      const provider = catalog.provider(lc.md.provider)!;
      const store = new Store(recordOf(lc.md));
      const world = new World();
      const source = translated(provider, lc.md).find((o) => o.kind === lc.source.kind && o.metadata.name === lc.source.name);
      expect(source).toBeDefined();
      const sourceRef = { ...lc.source, namespace: 'ml' };
      const set = (status: unknown) => {
        world.setStatus(lc.source.apiVersion, lc.source.kind, lc.source.name, status);
        expectValidManifests([world.get(lc.source.apiVersion, lc.source.kind, lc.source.name)]);
      };

      // Pending: the synth's objects are not applied yet.
      let result = pass(store, world, T[0]);
      expect(result.watched).toEqual([sourceRef]);
      for (const a of lc.alongside ?? []) {
        const object = translated(provider, lc.md).find((o) => o.kind === a.source.kind && o.metadata.name === a.source.name);
        expect(object).toBeDefined();
        world.put(object);
        world.setStatus(a.source.apiVersion, a.source.kind, a.source.name, a.running);
      }
      const waiting = `waiting for ${lc.source.kind} ml/${lc.source.name} (${lc.source.apiVersion}) to be created`;
      expect(store.status).toMatchObject({ phase: 'Pending', message: waiting, replicas: { ready: 0, available: 0 }, provider: { resourceName: lc.source.name, resourceKind: lc.source.kind } });
      expect(store.status).not.toHaveProperty('endpoint');
      expect(store.condition('Ready')).toMatchObject({ status: 'False', reason: 'ResourceNotFound', message: waiting, lastTransitionTime: TT[0] });

      // Deploying: applied, pods starting (Ready stays False: no transition).
      world.put(source);
      set(lc.deploying);
      result = pass(store, world, T[1]);
      expect(result.watched).toEqual([sourceRef, ...(lc.alongside ?? []).map((a) => ({ ...a.source, namespace: 'ml' }))]);
      expect(store.status).toMatchObject({ phase: 'Deploying', message: `${lc.created} created, waiting for pods to be ready`, endpoint: lc.endpoint });
      expect(store.condition('Ready')).toMatchObject({ status: 'False', reason: 'DeploymentInProgress', message: 'Deployment is in progress', lastTransitionTime: TT[0] });
      // The source exists now: requestRef names it (and workloadRef, when it runs the pods itself).
      const liveSource = { ...sourceRef, uid: `uid-${lc.source.name}` };
      expect(result.patch.status.provider).toEqual({ requestRef: liveSource, ...(lc.source.kind === 'Deployment' && { workloadRef: liveSource }) });
      expect(result.patch.status).not.toHaveProperty('engine');

      // Running.
      set(lc.running);
      pass(store, world, T[2]);
      expect(store.status).toMatchObject({ phase: 'Running', replicas: lc.runningReplicas, endpoint: lc.endpoint });
      expect(store.condition('Ready')).toMatchObject({ status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready', lastTransitionTime: TT[2] });

      // Failed.
      set(lc.failed);
      pass(store, world, T[3]);
      expect(store.status).toMatchObject({ phase: 'Failed', message: lc.failedMessage });
      expect(store.condition('Ready')).toMatchObject({ status: 'False', reason: 'DeploymentFailed', message: lc.failedMessage, lastTransitionTime: TT[3] });

      // Running again.
      set(lc.running);
      pass(store, world, T[4]);
      expect(store.status.phase).toBe('Running');
      expect(store.condition('Ready')).toMatchObject({ status: 'True', lastTransitionTime: TT[4] });

      // The core conditions never flipped.
      for (const type of ['Validated', 'EngineSelected', 'ProviderSelected']) {
        expect(store.condition(type)).toMatchObject({ status: 'True', lastTransitionTime: TT[0], observedGeneration: 1 });
      }
      expect(store.status.conditions.map((c: any) => c.type)).toEqual(['Validated', 'EngineSelected', 'ProviderSelected', 'Ready']);
      expect(store.status.provider).toMatchObject({ name: lc.md.provider, selectedReason: 'explicit provider selection', resourceName: lc.source.name, resourceKind: lc.source.kind });
      expect(store.status.engine).toEqual({ type: lc.md.engine, selectedReason: 'explicit engine selection' });
    });
  });

  describe('a routed record', () => {
    const props = { model: { id: 'Qwen/Qwen3-0.6B', servedName: 'qwen3' }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } };

    test('GatewayReady follows the route, pool and Gateway; status.gateway once the route exists; removed when routing is turned off', () => {
      const { record, objects } = rendered(props);
      const store = new Store(record);
      const world = new World([gatewayObject()]);
      const running = { readyReplicas: 1, availableReplicas: 1, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: '' }] };

      // Nothing applied: the route is missing.
      let result = pass(store, world, T[0]);
      expect(store.condition('GatewayReady')).toMatchObject({ status: 'False', reason: 'HTTPRouteFailed', message: 'HTTPRoute ml/qwen not found', lastTransitionTime: TT[0] });
      expect(store.status).not.toHaveProperty('gateway');
      expect(upstreamReads(result)).toEqual([
        { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ml', name: 'qwen' },
        { apiVersion: ROUTE, kind: 'HTTPRoute', namespace: 'ml', name: 'qwen' },
      ]);

      // Applied, the Gateway has not reported yet.
      for (const o of objects) world.put(o);
      world.setStatus('apps/v1', 'Deployment', 'qwen', running);
      result = pass(store, world, T[1]);
      expect(store.condition('GatewayReady')).toMatchObject({ status: 'False', reason: 'GatewayNotReported', lastTransitionTime: TT[0] });
      expect(store.status.gateway).toEqual({ endpoint: '10.0.0.7', modelName: 'qwen3', gatewayName: GATEWAY.name, gatewayNamespace: GATEWAY.namespace });
      expect(store.status.provider.inferencePoolRef).toEqual({ apiVersion: POOL, kind: 'InferencePool', name: 'qwen', namespace: 'ml', uid: 'uid-qwen' });
      expect(upstreamReads(result)).toEqual([
        { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ml', name: 'qwen' },
        { apiVersion: ROUTE, kind: 'HTTPRoute', namespace: 'ml', name: 'qwen' },
        { apiVersion: ROUTE, kind: 'Gateway', namespace: GATEWAY.namespace, name: GATEWAY.name },
        { apiVersion: POOL, kind: 'InferencePool', namespace: 'ml', name: 'qwen' },
      ]);

      // Accepted: configured.
      world.setStatus(ROUTE, 'HTTPRoute', 'qwen', routeStatus([ACCEPTED, RESOLVED]));
      world.setStatus(POOL, 'InferencePool', 'qwen', poolStatus([cond('Accepted', 'True', 'Accepted', ''), cond('ResolvedRefs', 'True', 'ResolvedRefs', '')]));
      expectValidManifests([world.get(ROUTE, 'HTTPRoute', 'qwen'), world.get(POOL, 'InferencePool', 'qwen')]);
      pass(store, world, T[2]);
      expect(store.condition('GatewayReady')).toEqual({
        type: 'GatewayReady', status: 'True', observedGeneration: 1, lastTransitionTime: TT[2], reason: 'GatewayConfigured', message: 'InferencePool and HTTPRoute created',
      });
      expect(store.status.conditions.map((c: any) => c.type)).toEqual(['Validated', 'EngineSelected', 'ProviderSelected', 'Ready', 'GatewayReady']);

      // The Gateway's address changes: only status.gateway.endpoint is patched.
      world.put(gatewayObject([{ type: 'IPAddress', value: '10.0.0.9' }]));
      result = pass(store, world, T[3]);
      expect(result.patch).toEqual({ status: { gateway: { endpoint: '10.0.0.9' } } });

      // The pool is deleted.
      world.remove(POOL, 'InferencePool', 'qwen');
      result = pass(store, world, T[4]);
      expect(store.condition('GatewayReady')).toMatchObject({ status: 'False', reason: 'InferencePoolFailed', lastTransitionTime: TT[4] });
      expect(result.patch.status.provider).toEqual({ inferencePoolRef: null });

      // Re-rendered without routing (generation 2): GatewayReady and status.gateway removed.
      const unrouted = rendered(props, { gateway: false }).record;
      store.record = { ...unrouted, metadata: { ...unrouted.metadata, generation: 2 }, status: store.status };
      result = pass(store, world, T[5]);
      expect(result.patch.status.gateway).toBeNull();
      expect(store.status).not.toHaveProperty('gateway');
      expect(store.status.conditions.map((c: any) => c.type)).toEqual(['Validated', 'EngineSelected', 'ProviderSelected', 'Ready']);
      expect(upstreamReads(result)).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ml', name: 'qwen' }]);
    });

    test('Dynamo\'s mocker is never routed: no GatewayReady, no route looked up', () => {
      const r = rendered({ model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'dynamo' }, engine: { engineType: 'vllm' as any }, metadata: { annotations: { 'airunway.ai/dynamo-test-backend': 'mocker' } } });
      const result = reconcileRecord(r.record, catalog, () => undefined, T[0]);
      expect(result.status.conditions.map((c: any) => c.type)).not.toContain('GatewayReady');
      expect(upstreamReads(result).map((w) => w.kind)).toEqual(['DynamoGraphDeployment']);
    });
  });

  describe('fails when the record is invalid', () => {
    test('Validated=False with every field error, phase Failed, nothing looked up, the rest as stored', () => {
      const store = new Store(recordOf(vllmDeployment()));
      const world = new World();
      pass(store, world, T[0]);
      const before = store.status;
      const spec = { ...store.record.spec, scaling: { replicas: 40 }, bogus: true };
      store.record = { ...store.record, metadata: { ...store.record.metadata, generation: 2 }, spec };
      world.asked.length = 0;
      const result = pass(store, world, T[1]);
      const errors = 'spec.bogus: Forbidden: unknown field (not in the schema)';
      expect(store.status).toEqual({
        ...before,
        observedGeneration: 2,
        phase: 'Failed',
        message: `Validation failed: ${errors}`,
        conditions: [
          { type: 'Validated', status: 'False', observedGeneration: 2, lastTransitionTime: TT[1], reason: 'ValidationFailed', message: errors },
          ...before.conditions.slice(1),
        ],
      });
      expect(result.watched).toEqual([]);
      expect(world.asked).toEqual([]);

      // Fixed again: Validated flips back, the rest is recomputed.
      store.record = { ...store.record, metadata: { ...store.record.metadata, generation: 3 }, spec: recordOf(vllmDeployment()).spec };
      pass(store, world, T[2]);
      expect(store.condition('Validated')).toMatchObject({ status: 'True', lastTransitionTime: TT[2], observedGeneration: 3 });
      expect(store.status.phase).toBe('Pending');
    });

    test('every error, joined with "; "', () => {
      const record = recordOf(vllmDeployment());
      record.spec.scaling.replicas = 40;
      record.spec.resources.gpu.count = 100;
      const status = reconcileRecord(record, catalog, () => undefined, T[0]).status;
      expect(status.message).toBe('Validation failed: spec.resources.gpu.count: Invalid value: 100: exceeds maximum allowed (64); spec.scaling.replicas: Invalid value: 40: exceeds maximum allowed (32)');
      expect(status.conditions[0].message).toBe(status.message.slice('Validation failed: '.length));
    });

    test('a provider selection that differs from the record', () => {
      const record = recordOf(vllmDeployment());
      delete record.spec.provider;
      const status = reconcileRecord(record, catalog, () => undefined, T[0]).status;
      expect(status.phase).toBe('Failed');
      expect(status.conditions[0]).toMatchObject({ type: 'Validated', status: 'False', reason: 'ValidationFailed' });
      expect(status.message).toMatch(/^Validation failed: spec\.provider\.name: Required value: a rendered record names its provider/);
    });

    const huge = 'é'.repeat(200_000);
    test.each([
      ['no spec', (r: any) => delete r.spec],
      ['a spec of the wrong type', (r: any) => (r.spec = ['vllm'])],
      ['metadata of the wrong type', (r: any) => (r.metadata = 5)],
      ['a huge name', (r: any) => (r.metadata.name = huge)],
      ['a huge unknown field', (r: any) => (r.spec[huge.slice(0, 5000)] = huge)],
      ['a huge invalid value', (r: any) => (r.spec.serving.mode = huge)],
      ['a garbage stored status', (r: any) => {
        r.spec.bogus = 1;
        r.status = { conditions: [null, 'x', { type: 'Validated' }, { type: 'Validated', status: 'True' }], phase: 'Dancing' };
      }],
    ])('a hostile record (%s) never throws, is Validated=False and its status fits the schema', (_what, change) => {
      const record = recordOf(vllmDeployment());
      change(record);
      const result = reconcileRecord(record, catalog, () => {
        throw new Error('must not look anything up');
      }, T[0]);
      expect(result.status.phase).toBe('Failed');
      expect(result.status.conditions.find((c: any) => c.type === 'Validated')).toMatchObject({ status: 'False', reason: 'ValidationFailed' });
      expect(result.watched).toEqual([]);
      expect(statusViolations(result.status)).toEqual([]);
      expect(applyMergePatch({ status: record.status }, result.patch)).toEqual({ status: result.status });
    });

    test('hostile whole records never throw', () => {
      for (const record of [undefined, null, 0, 'ModelDeployment', [], {}, { status: 'Running' }, { metadata: { generation: 3 } }]) {
        const result = reconcileRecord(record, catalog, () => undefined, T[0]);
        expect(result.status).toMatchObject({ phase: 'Failed', conditions: [{ type: 'Validated', status: 'False' }] });
        expect(result.patch).toEqual({ status: result.status });
      }
    });
  });
});
