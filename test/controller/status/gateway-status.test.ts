import { catalogWith, CustomProvider, customDeployment } from './custom-provider';
import { ACCEPTED, cond, gatewayObject, GATEWAY_PARENT, poolStatus, RESOLVED, routeStatus } from './gateway-fixtures';
import { GATEWAY, recordOf, rendered, World } from './support';
import { EngineType, InferencePoolApiVersion, ModelDeploymentProps } from '../../../src';
import { gatewayOutcome, isRouted } from '../../../src/controller/status/gateway-status';
import { RecordingLookup } from '../../../src/controller/status/object-ref';
import { readRecord, ValidRecord } from '../../../src/controller/status/record-deployment';
import { defaultProviderCatalog } from '../../../src/pipeline/shipped-providers';
import type { ProviderCatalog } from '../../../src/selection/provider-catalog';
import { expectValidManifests } from '../../support/schema-validator';

const ROUTE = 'gateway.networking.k8s.io/v1';
const POOL = 'inference.networking.k8s.io/v1';
const POOL_ALPHA = 'inference.networking.x-k8s.io/v1alpha2';
const VLLM: ModelDeploymentProps = { model: { id: 'Qwen/Qwen3-0.6B', servedName: 'qwen3' }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } };

function valid(record: any, catalog: ProviderCatalog = defaultProviderCatalog()): ValidRecord {
  const read = readRecord(record, catalog);
  if (read.errors) throw new Error(read.errors.join('\n'));
  return read;
}

/** A routed deployment, its synthesized objects in the cache with the Gateway. */
function routed(props: ModelDeploymentProps = VLLM): { record: ValidRecord; world: World } {
  const r = rendered(props);
  return { record: valid(r.record), world: new World([...r.objects, gatewayObject()]) };
}

function outcome(record: ValidRecord, world: World): { result: ReturnType<typeof gatewayOutcome>; watched: unknown[] } {
  const lookup = new RecordingLookup(world.lookup);
  const result = gatewayOutcome(record, lookup);
  return { result, watched: lookup.watched };
}

/** Sets the route's status and checks the route against its schema. */
function withRouteStatus(world: World, status: unknown, name = 'qwen'): World {
  world.setStatus(ROUTE, 'HTTPRoute', name, status);
  expectValidManifests([world.get(ROUTE, 'HTTPRoute', name)]);
  return world;
}

const configured = { type: 'GatewayReady', status: 'True', reason: 'GatewayConfigured', message: 'InferencePool and HTTPRoute created' };
const routedStatus = { endpoint: '10.0.0.7', modelName: 'qwen3', gatewayName: GATEWAY.name, gatewayNamespace: GATEWAY.namespace };
/** `status.provider.inferencePoolRef` of the routed fixture: the pool the route sends to, with the uid the API server gave it. */
const poolRef = { apiVersion: 'inference.networking.k8s.io/v1', kind: 'InferencePool', name: 'qwen', namespace: 'ml', uid: 'uid-qwen' };

describe('isRouted', () => {
  test('routed when the record says spec.gateway.enabled: true', () => {
    expect(isRouted(routed().record)).toBe(true);
  });

  test('not routed when enabled is false or unset', () => {
    expect(isRouted(valid(rendered(VLLM, { gateway: false }).record))).toBe(false);
    expect(isRouted(valid(recordOf(customDeployment({ provider: { name: 'vllm' } }))))).toBe(false);
  });

  test('not routed on a simulated backend (Dynamo\'s mocker, a custom provider\'s)', () => {
    const mocker = rendered({ ...VLLM, provider: { name: 'dynamo' }, engine: { engineType: EngineType.VLLM }, resources: undefined, metadata: { annotations: { 'airunway.ai/dynamo-test-backend': 'mocker' } } });
    expect(mocker.record.spec.gateway).toEqual({ enabled: true });
    expect(isRouted(valid(mocker.record))).toBe(false);
    const record = recordOf(customDeployment({ gateway: { enabled: true } }));
    expect(isRouted(valid(record, catalogWith(new CustomProvider({ simulated: true }))))).toBe(false);
    expect(isRouted(valid(record, catalogWith(new CustomProvider({}))))).toBe(true);
  });

  test('a provider whose simulatedBackend throws at run time is taken as a real backend (routed)', () => {
    const provider = new CustomProvider({});
    const read = valid(recordOf(customDeployment({ gateway: { enabled: true } })), catalogWith(provider));
    provider.simulatedBackend = () => {
      throw new Error('boom');
    };
    expect(isRouted(read)).toBe(true);
  });
});

describe('gatewayOutcome', () => {
  test('route accepted and its references resolved by the Gateway, pool present: GatewayConfigured', () => {
    const { record, world } = routed();
    withRouteStatus(world, routeStatus([ACCEPTED, RESOLVED]));
    const { result, watched } = outcome(record, world);
    expect(result).toEqual({ condition: configured, status: routedStatus, inferencePool: poolRef });
    expect(watched).toEqual([
      { apiVersion: ROUTE, kind: 'HTTPRoute', namespace: 'ml', name: 'qwen' },
      { apiVersion: ROUTE, kind: 'Gateway', namespace: GATEWAY.namespace, name: GATEWAY.name },
      { apiVersion: POOL, kind: 'InferencePool', namespace: 'ml', name: 'qwen' },
    ]);
  });

  test('Accepted=True without ResolvedRefs reported is configured (only what is reported must be True)', () => {
    const { record, world } = routed();
    withRouteStatus(world, routeStatus([ACCEPTED]));
    expect(outcome(record, world).result.condition).toEqual(configured);
  });

  test('a v1alpha2 pool is read at its version', () => {
    const { record, world } = routed({ ...VLLM, gateway: { inferencePoolApiVersion: InferencePoolApiVersion.V1ALPHA2 } });
    withRouteStatus(world, routeStatus([ACCEPTED, RESOLVED]));
    const { result, watched } = outcome(record, world);
    expect(result.condition).toEqual(configured);
    expect(watched).toContainEqual({ apiVersion: POOL_ALPHA, kind: 'InferencePool', namespace: 'ml', name: 'qwen' });
  });

  test('Dynamo\'s own pool (<md>-pool) is the one the route points at', () => {
    const { record, world } = routed({ ...VLLM, provider: { name: 'dynamo' } });
    withRouteStatus(world, routeStatus([ACCEPTED, RESOLVED]));
    expect(outcome(record, world).result.condition).toMatchObject({ reason: 'InferencePoolFailed', message: 'InferencePool ml/qwen-pool (inference.networking.k8s.io/v1) not found' });
    world.put({ apiVersion: POOL, kind: 'InferencePool', metadata: { name: 'qwen-pool', namespace: 'ml', generation: 1 }, spec: { selector: { matchLabels: { a: 'b' } }, targetPorts: [{ number: 8000 }], endpointPickerRef: { name: 'qwen-epp', port: { number: 9002 } } } });
    expect(outcome(record, world).result.condition).toEqual(configured);
  });

  test('httpRouteRef names the user\'s route, which is read instead', () => {
    const r = rendered({ ...VLLM, gateway: { httpRouteRef: 'team-route' } });
    const world = new World([...r.objects, gatewayObject()]);
    expect(r.objects.find((o) => o.kind === 'HTTPRoute')).toBeUndefined();
    const { result, watched } = outcome(valid(r.record), world);
    expect(result).toEqual({ condition: { type: 'GatewayReady', status: 'False', reason: 'HTTPRouteFailed', message: 'HTTPRoute ml/team-route not found' } });
    expect(watched).toEqual([{ apiVersion: ROUTE, kind: 'HTTPRoute', namespace: 'ml', name: 'team-route' }]);
    world.put({
      apiVersion: ROUTE,
      kind: 'HTTPRoute',
      metadata: { name: 'team-route', namespace: 'ml', generation: 3 },
      spec: {
        parentRefs: [{ name: GATEWAY.name, namespace: GATEWAY.namespace }],
        rules: [{
          matches: [{ headers: [{ name: 'x-gateway-model-name', value: 'team-qwen' }] }],
          backendRefs: [{ group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'qwen' }],
        }],
      },
      status: routeStatus([cond('Accepted', 'True', 'Accepted', '', 3)]),
    });
    expectValidManifests([world.get(ROUTE, 'HTTPRoute', 'team-route')]);
    expect(outcome(valid(r.record), world).result).toEqual({ condition: configured, status: { ...routedStatus, modelName: 'team-qwen' }, inferencePool: poolRef });
  });

  test('the Gateway endpoint is its first non-empty address; none is left out', () => {
    const { record, world } = routed();
    withRouteStatus(world, routeStatus([ACCEPTED]));
    world.put(gatewayObject([{ type: 'Hostname', value: 'gw.example.com' }, { value: '10.0.0.8' }]));
    expect(outcome(record, world).result.status).toEqual({ ...routedStatus, endpoint: 'gw.example.com' });
    world.put(gatewayObject([]));
    expect(outcome(record, world).result.status).toEqual({ modelName: 'qwen3', gatewayName: GATEWAY.name, gatewayNamespace: GATEWAY.namespace });
  });

  describe('not reported yet', () => {
    const notReported = {
      type: 'GatewayReady',
      status: 'False',
      reason: 'GatewayNotReported',
      message: 'Gateway gateway-system/inference-gateway has not reported on HTTPRoute ml/qwen yet',
    };

    test('the route has no status', () => {
      const { record, world } = routed();
      expect(outcome(record, world).result).toEqual({ condition: notReported, status: routedStatus, inferencePool: poolRef });
    });

    test('the route\'s status is only from another Gateway', () => {
      const { record, world } = routed();
      withRouteStatus(world, routeStatus([ACCEPTED], { ...GATEWAY_PARENT, name: 'other-gateway' }));
      expect(outcome(record, world).result.condition).toEqual(notReported);
    });

    test('Accepted is Unknown', () => {
      const { record, world } = routed();
      withRouteStatus(world, routeStatus([cond('Accepted', 'Unknown', 'Pending', 'Waiting for controller')]));
      expect(outcome(record, world).result.condition).toEqual(notReported);
    });

    test('the report is about an older generation of the route (even a False one)', () => {
      const { record, world } = routed();
      const route = world.get(ROUTE, 'HTTPRoute', 'qwen');
      world.put({ ...route, metadata: { ...route.metadata, generation: 2 }, status: routeStatus([cond('Accepted', 'False', 'NotAllowedByListeners', 'old', 1)]) });
      expect(outcome(record, world).result.condition).toEqual(notReported);
    });
  });

  describe('fails when', () => {
    test('the route is missing: HTTPRouteFailed, no status.gateway, nothing else looked up', () => {
      const { record, world } = routed();
      world.remove(ROUTE, 'HTTPRoute', 'qwen');
      const { result, watched } = outcome(record, world);
      expect(result).toEqual({ condition: { type: 'GatewayReady', status: 'False', reason: 'HTTPRouteFailed', message: 'HTTPRoute ml/qwen not found' } });
      expect(watched).toHaveLength(1);
    });

    test('the Gateway does not accept the route: HTTPRouteFailed with its reason and message', () => {
      const { record, world } = routed();
      withRouteStatus(world, routeStatus([
        cond('Accepted', 'False', 'NotAllowedByListeners', 'hostname does not match'),
        RESOLVED,
      ]));
      expect(outcome(record, world).result).toEqual({
        condition: {
          type: 'GatewayReady',
          status: 'False',
          reason: 'HTTPRouteFailed',
          message: 'HTTPRoute ml/qwen on Gateway gateway-system/inference-gateway: Accepted=False (NotAllowedByListeners): hostname does not match',
        },
        status: routedStatus,
        inferencePool: poolRef,
      });
    });

    test('the route\'s references do not resolve: HTTPRouteFailed', () => {
      const { record, world } = routed();
      withRouteStatus(world, routeStatus([ACCEPTED, cond('ResolvedRefs', 'False', 'RefNotPermitted', 'backend not permitted')]));
      expect(outcome(record, world).result.condition).toMatchObject({
        reason: 'HTTPRouteFailed',
        message: 'HTTPRoute ml/qwen on Gateway gateway-system/inference-gateway: ResolvedRefs=False (RefNotPermitted): backend not permitted',
      });
    });

    test('the pool is missing: InferencePoolFailed', () => {
      const { record, world } = routed();
      withRouteStatus(world, routeStatus([ACCEPTED, cond('ResolvedRefs', 'False', 'BackendNotFound', 'pool not found')]));
      world.remove(POOL, 'InferencePool', 'qwen');
      expect(outcome(record, world).result.condition).toEqual({
        type: 'GatewayReady', status: 'False', reason: 'InferencePoolFailed', message: 'InferencePool ml/qwen (inference.networking.k8s.io/v1) not found',
      });
      // A ref to an object that does not exist is left out (never one with an empty uid).
      expect(outcome(record, world).result).not.toHaveProperty('inferencePool');
    });

    test('the pool is not accepted (v1 parents, v1alpha2 parent): InferencePoolFailed', () => {
      const { record, world } = routed();
      withRouteStatus(world, routeStatus([ACCEPTED]));
      world.setStatus(POOL, 'InferencePool', 'qwen', poolStatus([cond('Accepted', 'False', 'NotSupportedByGateway', 'no EPP support')]));
      expectValidManifests([world.get(POOL, 'InferencePool', 'qwen')]);
      expect(outcome(record, world).result.condition).toMatchObject({
        reason: 'InferencePoolFailed',
        message: 'InferencePool ml/qwen on Gateway gateway-system/inference-gateway: Accepted=False (NotSupportedByGateway): no EPP support',
      });

      const alpha = routed({ ...VLLM, gateway: { inferencePoolApiVersion: InferencePoolApiVersion.V1ALPHA2 } });
      withRouteStatus(alpha.world, routeStatus([ACCEPTED]));
      alpha.world.setStatus(POOL_ALPHA, 'InferencePool', 'qwen', { parent: [{ parentRef: GATEWAY_PARENT, conditions: [cond('ResolvedRefs', 'False', 'InvalidExtensionRef', 'epp missing')] }] });
      expectValidManifests([alpha.world.get(POOL_ALPHA, 'InferencePool', 'qwen')]);
      expect(outcome(alpha.record, alpha.world).result.condition).toMatchObject({ reason: 'InferencePoolFailed', message: expect.stringContaining('ResolvedRefs=False (InvalidExtensionRef): epp missing') });
    });

    test('the Gateway is missing: NoGateway', () => {
      const { record, world } = routed();
      withRouteStatus(world, routeStatus([ACCEPTED]));
      world.remove(ROUTE, 'Gateway', GATEWAY.name, GATEWAY.namespace);
      expect(outcome(record, world).result).toEqual({
        condition: { type: 'GatewayReady', status: 'False', reason: 'NoGateway', message: 'Gateway gateway-system/inference-gateway not found' },
        status: { modelName: 'qwen3', gatewayName: GATEWAY.name, gatewayNamespace: GATEWAY.namespace },
        inferencePool: poolRef,
      });
    });

    test('the route attaches to no Gateway, or routes to no InferencePool', () => {
      const { record, world } = routed();
      const route = world.get(ROUTE, 'HTTPRoute', 'qwen');
      world.put({ ...route, spec: { ...route.spec, parentRefs: [{ group: 'example.com', kind: 'Mesh', name: 'm' }] } });
      expect(outcome(record, world).result).toEqual({
        condition: { type: 'GatewayReady', status: 'False', reason: 'HTTPRouteFailed', message: 'HTTPRoute ml/qwen has no Gateway as its first parentRef' },
        status: { modelName: 'qwen3' },
      });
      world.put({ ...route, spec: { ...route.spec, rules: [{ ...route.spec.rules[0], backendRefs: [{ name: 'qwen', port: 8000 }] }] } });
      expect(outcome(record, world).result.condition).toMatchObject({ reason: 'InferencePoolFailed', message: 'HTTPRoute ml/qwen routes to no InferencePool' });
    });

    test.each([
      ['spec is a string', { spec: 'x' }],
      ['parentRefs is an object', { spec: { parentRefs: { name: 'gw' } } }],
      ['rules hold garbage', { spec: { parentRefs: [{ name: GATEWAY.name, namespace: GATEWAY.namespace }], rules: [null, 'x', { matches: 'y', backendRefs: [null, 7] }] } }],
      ['status is garbage', { status: { parents: [null, { parentRef: 'gw' }, { parentRef: GATEWAY_PARENT, conditions: 'Accepted' }] } }],
    ])('the route is hostile (%s): a False GatewayReady, never a throw', (_what, change) => {
      const { record, world } = routed();
      world.put({ ...world.get(ROUTE, 'HTTPRoute', 'qwen'), ...change });
      expect(outcome(record, world).result.condition.status).toBe('False');
    });
  });
});
