/**
 * `IncompatibleUpstream` through the whole status computation: a routed vLLM record (its
 * HTTPRoute and InferencePool are custom resources) against the upstream CRDs as installed, an
 * older HTTPRoute CRD without a field the route sets, and one that does not serve its version.
 */
import { gatewayObject } from './gateway-fixtures';
import { rendered, Store, T, TT, World } from './support';
import { HTTP_ROUTE_CRD, INFERENCE_POOL_CRD, upstreamCrd, withoutField, withVersionNotServed } from './upstream-crd-fixtures';
import { reconcileRecord } from '../../../src/controller/status';
import { ANNOTATION_UPSTREAM_FIELDS } from '../../../src/controller-contract/upstream-fields';
import { defaultProviderCatalog } from '../../../src/pipeline/shipped-providers';

const catalog = defaultProviderCatalog();
const ROUTED = { model: { id: 'Qwen/Qwen3-0.6B', servedName: 'qwen3' }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } };
const RUNNING = { readyReplicas: 1, availableReplicas: 1, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: '' }] };
const CRD = 'apiextensions.k8s.io/v1';

/** A routed record, its objects applied and Running, and the given CRDs installed. */
function cluster(crds: any[]): { store: Store; world: World } {
  const { record, objects } = rendered(ROUTED);
  const world = new World([...objects, gatewayObject(), ...crds]);
  world.setStatus('apps/v1', 'Deployment', 'qwen', RUNNING);
  return { store: new Store(record), world };
}

describe('IncompatibleUpstream', () => {
  test('the installed CRDs take the objects: no ResourceCreated, Ready from the provider; the CRDs are watched', () => {
    const { store, world } = cluster([upstreamCrd(HTTP_ROUTE_CRD), upstreamCrd(INFERENCE_POOL_CRD)]);
    const result = store.reconcile(world, T[0]);
    expect(store.status.phase).toBe('Running');
    expect(store.condition('Ready')).toMatchObject({ status: 'True', reason: 'DeploymentReady' });
    expect(store.status.conditions.map((c: any) => c.type)).not.toContain('ResourceCreated');
    expect(result.watched.filter((w) => w.kind === 'CustomResourceDefinition')).toEqual([
      { apiVersion: CRD, kind: 'CustomResourceDefinition', namespace: '', name: 'inferencepools.inference.networking.k8s.io' },
      { apiVersion: CRD, kind: 'CustomResourceDefinition', namespace: '', name: 'httproutes.gateway.networking.k8s.io' },
    ]);
  });

  test('an older HTTPRoute CRD without spec.rules[].timeouts: Failed, ResourceCreated and Ready False/IncompatibleUpstream naming kind, apiVersion and field', () => {
    const older = withoutField(upstreamCrd(HTTP_ROUTE_CRD), 'v1', 'spec.rules[].timeouts');
    const { store, world } = cluster([older, upstreamCrd(INFERENCE_POOL_CRD)]);
    store.reconcile(world, T[0]);
    const message = 'the cluster\'s CRDs do not take this deployment\'s objects: HTTPRoute gateway.networking.k8s.io/v1: the installed CustomResourceDefinition '
      + 'httproutes.gateway.networking.k8s.io has no field spec.rules[].timeouts, which the rendered object sets (the API server drops unknown fields); '
      + 'upgrade the operator (or its CRDs) to the version the library targets, or render for the version installed';
    expect(store.status.phase).toBe('Failed');
    expect(store.status.message).toBe(message);
    expect(store.condition('ResourceCreated')).toEqual({ type: 'ResourceCreated', status: 'False', observedGeneration: 1, lastTransitionTime: TT[0], reason: 'IncompatibleUpstream', message });
    expect(store.condition('Ready')).toEqual({ type: 'Ready', status: 'False', observedGeneration: 1, lastTransitionTime: TT[0], reason: 'IncompatibleUpstream', message });
    // What is observed is still reported.
    expect(store.status.replicas).toEqual({ desired: 1, ready: 1, available: 1 });
    expect(store.status.provider.requestRef).toMatchObject({ kind: 'Deployment', name: 'qwen' });

    // The operator is upgraded: the condition written for it goes, Ready follows the provider again.
    world.put(upstreamCrd(HTTP_ROUTE_CRD));
    const result = store.reconcile(world, T[1]);
    expect(store.status.phase).toBe('Running');
    expect(store.status.conditions.map((c: any) => c.type)).not.toContain('ResourceCreated');
    expect(store.condition('Ready')).toMatchObject({ status: 'True', reason: 'DeploymentReady', lastTransitionTime: TT[1] });
    expect(result.patch.status.conditions).toBeDefined();
  });

  test('a CRD that does not serve the objects\' apiVersion: IncompatibleUpstream naming the served ones', () => {
    const { store, world } = cluster([withVersionNotServed(upstreamCrd(HTTP_ROUTE_CRD), 'v1'), upstreamCrd(INFERENCE_POOL_CRD)]);
    store.reconcile(world, T[0]);
    expect(store.condition('Ready')).toMatchObject({
      status: 'False',
      reason: 'IncompatibleUpstream',
      message: expect.stringContaining('HTTPRoute gateway.networking.k8s.io/v1: the installed CustomResourceDefinition httproutes.gateway.networking.k8s.io '
        + 'does not serve gateway.networking.k8s.io/v1 (it serves gateway.networking.k8s.io/v1beta1)'),
    });
    expect(store.status.phase).toBe('Failed');
  });

  test('a CRD not installed is not judged (the objects cannot exist: the provider\'s outcome says so)', () => {
    const { store, world } = cluster([]);
    store.reconcile(world, T[0]);
    expect(store.status.phase).toBe('Running');
    expect(store.status.conditions.map((c: any) => c.type)).not.toContain('ResourceCreated');
  });

  test('a ResourceCreated condition of another reason is someone else\'s: kept', () => {
    const { store, world } = cluster([upstreamCrd(HTTP_ROUTE_CRD)]);
    const theirs = { type: 'ResourceCreated', status: 'True', reason: 'ResourceCreated', message: 'Deployment created successfully', lastTransitionTime: '2026-01-01T00:00:00Z' };
    store.record = { ...store.record, status: { conditions: [theirs] } };
    store.reconcile(world, T[0]);
    expect(store.condition('ResourceCreated')).toEqual(theirs);
  });

  test('a malformed annotation fails re-validation, naming it', () => {
    const { record } = rendered(ROUTED);
    const bad = { ...record, metadata: { ...record.metadata, annotations: { ...record.metadata.annotations, [ANNOTATION_UPSTREAM_FIELDS]: '{"not":"a list"}' } } };
    const result = reconcileRecord(bad, catalog, () => undefined, T[0]);
    expect(result.status.phase).toBe('Failed');
    expect(result.status.conditions.find((c: any) => c.type === 'Validated')).toMatchObject({
      status: 'False',
      reason: 'ValidationFailed',
      message: expect.stringContaining(`metadata.annotations["${ANNOTATION_UPSTREAM_FIELDS}"]: Invalid value: "{\\"not\\":\\"a list\\"}": annotation ${ANNOTATION_UPSTREAM_FIELDS} is not a JSON array`),
    });
  });
});
