import { Chart, Testing } from 'cdk8s';
import { addHttpRoute, HttpRouteOptions, ROUTE_REQUEST_TIMEOUT } from '../../src/gateway/http-route';
import { MODEL_NAME_HEADER } from '../../src/gateway/model-name';
import { HttpRoute } from '../../src/imports/gateway.networking.k8s.io';
import { expectValidManifests } from '../support/schema-validator';

const OPTIONS: HttpRouteOptions = {
  name: 'qwen',
  namespace: 'team-a',
  labels: { 'airunway.ai/managed-by': 'airunway', 'airunway.ai/deployment': 'qwen' },
  gateway: { name: 'inference-gateway', namespace: 'gw-system' },
  modelName: 'Qwen/Qwen3-0.6B',
  pool: { group: 'inference.networking.k8s.io', name: 'qwen', namespace: 'team-a' },
};

function synth(options: HttpRouteOptions = OPTIONS) {
  const chart = Testing.chart();
  const returned = addHttpRoute(chart, options);
  const manifests = Testing.synth(chart);
  expectValidManifests(manifests);
  return { chart, returned, manifests };
}

describe('addHttpRoute', () => {
  test('renders the model route of §6.5.4', () => {
    const { manifests } = synth();
    expect(manifests).toMatchSnapshot();
  });

  test('returns the HTTPRoute it adds, as child "HTTPRoute" of the scope', () => {
    const { chart, returned } = synth();
    expect(returned.kind).toBe('HTTPRoute');
    expect(returned.apiVersion).toBe(HttpRoute.GVK.apiVersion);
    expect(chart.node.tryFindChild('HTTPRoute')).toBe(returned);
  });

  test('attaches to the Gateway with its namespace', () => {
    const [route] = synth().manifests;
    expect(route.spec.parentRefs).toEqual([{ name: 'inference-gateway', namespace: 'gw-system' }]);
  });

  test('has one rule: every path, exact model-name header, the pool as only backend, 300s timeout', () => {
    const [route] = synth().manifests;
    expect(route.spec.rules).toEqual([{
      matches: [{
        path: { type: 'PathPrefix', value: '/' },
        headers: [{ type: 'Exact', name: 'X-Gateway-Model-Name', value: 'Qwen/Qwen3-0.6B' }],
      }],
      backendRefs: [{ group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'qwen', namespace: 'team-a' }],
      timeouts: { request: '300s' },
    }]);
    expect(MODEL_NAME_HEADER).toBe('X-Gateway-Model-Name');
    expect(ROUTE_REQUEST_TIMEOUT).toBe('300s');
  });

  test('points at a pool of another namespace and API group (provider-managed, v1alpha2)', () => {
    const [route] = synth({
      ...OPTIONS,
      pool: { group: 'inference.networking.x-k8s.io', name: 'qwen-pool', namespace: 'ns-x' },
    }).manifests;
    expect(route.spec.rules[0].backendRefs).toEqual([
      { group: 'inference.networking.x-k8s.io', kind: 'InferencePool', name: 'qwen-pool', namespace: 'ns-x' },
    ]);
  });

  test('omits an unset namespace and empty labels', () => {
    const [route] = synth({ ...OPTIONS, namespace: undefined, labels: {} }).manifests;
    expect(route.metadata).toEqual({ name: 'qwen' });
  });

  test('takes the chart namespace when none is given', () => {
    const nsChart = new Chart(Testing.app(), 'Routes', { namespace: 'team-b' });
    addHttpRoute(nsChart, { ...OPTIONS, namespace: undefined });
    const [route] = Testing.synth(nsChart);
    expectValidManifests(route);
    expect(route.metadata.namespace).toBe('team-b');
  });

  test('copies the labels', () => {
    const labels: Record<string, string> = { a: '1' };
    const chart = Testing.chart();
    addHttpRoute(chart, { ...OPTIONS, labels });
    labels.a = '2';
    expect(Testing.synth(chart)[0].metadata.labels).toEqual({ a: '1' });
  });

  test('fails when the model name is empty', () => {
    expect(() => addHttpRoute(Testing.chart(), { ...OPTIONS, modelName: '' }))
      .toThrow('HTTPRoute "qwen": the model name matched in X-Gateway-Model-Name must not be empty');
  });
});
