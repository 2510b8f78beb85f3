import { ApiObject, Chart, Testing } from 'cdk8s';
import { Warnings } from '../../src/api/warnings';
import { admitRoutesFrom, referencedGatewayWarning } from '../../src/gateway/allowed-routes';
import {
  Gateway,
  GatewaySpecListeners,
  GatewaySpecListenersAllowedRoutesNamespacesFrom as From,
  HttpRoute,
} from '../../src/imports/gateway.networking.k8s.io';
import { expectValidManifests } from '../support/schema-validator';

const NAME_LABEL = 'kubernetes.io/metadata.name';
const HTTP_ROUTE_KIND = [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' }];

/** One listener of each kind the code distinguishes. */
const LISTENERS: GatewaySpecListeners[] = [
  { name: 'none', port: 80, protocol: 'HTTP' },
  { name: 'same', port: 81, protocol: 'HTTP', allowedRoutes: { namespaces: { from: From.SAME }, kinds: HTTP_ROUTE_KIND } },
  { name: 'all', port: 82, protocol: 'HTTP', allowedRoutes: { namespaces: { from: From.ALL } } },
  {
    name: 'matching',
    port: 83,
    protocol: 'HTTP',
    allowedRoutes: {
      namespaces: {
        from: From.SELECTOR,
        selector: { matchExpressions: [{ key: NAME_LABEL, operator: 'In', values: ['team-c'] }] },
      },
    },
  },
  {
    name: 'legacy',
    port: 84,
    protocol: 'HTTP',
    allowedRoutes: { namespaces: { from: From.SELECTOR, selector: { matchLabels: { [NAME_LABEL]: 'team-d' } } } },
  },
  {
    name: 'foreign',
    port: 85,
    protocol: 'HTTP',
    allowedRoutes: { namespaces: { from: From.SELECTOR, selector: { matchLabels: { 'gateway-access': 'true' } } } },
  },
  {
    name: 'not-in',
    port: 86,
    protocol: 'HTTP',
    allowedRoutes: {
      namespaces: {
        from: From.SELECTOR,
        selector: { matchExpressions: [{ key: NAME_LABEL, operator: 'NotIn', values: ['team-b'] }] },
      },
    },
  },
];

function gatewayIn(chart: Chart, listeners: GatewaySpecListeners[] = LISTENERS, namespace = 'gw-system'): Gateway {
  return new Gateway(chart, 'Gateway', {
    metadata: { name: 'inference-gateway', namespace },
    spec: { gatewayClassName: 'istio', listeners },
  });
}

function listenersOf(gatewayJson: any): Record<string, any> {
  return Object.fromEntries(gatewayJson.spec.listeners.map((l: any) => [l.name, l]));
}

function warningsOf(chart: Chart): string[] {
  return Warnings.collect(chart).map((w) => w.message);
}

function nameSelector(values: string[]) {
  return { from: 'Selector', selector: { matchExpressions: [{ key: NAME_LABEL, operator: 'In', values }] } };
}

describe('admitRoutesFrom', () => {
  function admitted() {
    const chart = Testing.chart();
    const gateway = gatewayIn(chart);
    admitRoutesFrom(gateway, 'team-b');
    admitRoutesFrom(gateway, 'team-a');
    const manifests = Testing.synth(chart);
    expectValidManifests(manifests);
    return { chart, gateway, manifests, listeners: listenersOf(manifests[0]) };
  }

  test('renders every listener kind', () => {
    const { manifests, chart } = admitted();
    expect(manifests).toMatchSnapshot();
    expect(warningsOf(chart)).toMatchSnapshot();
  });

  test('admits the registered namespaces and the Gateway\'s own on listeners without allowedRoutes', () => {
    const { listeners } = admitted();
    expect(listeners.none.allowedRoutes).toEqual({ namespaces: nameSelector(['gw-system', 'team-a', 'team-b']) });
  });

  test('replaces from: Same, keeping the allowed kinds', () => {
    const { listeners } = admitted();
    expect(listeners.same.allowedRoutes).toEqual({
      namespaces: nameSelector(['gw-system', 'team-a', 'team-b']),
      kinds: HTTP_ROUTE_KIND,
    });
  });

  test('leaves from: All alone', () => {
    const { listeners } = admitted();
    expect(listeners.all.allowedRoutes).toEqual({ namespaces: { from: 'All' } });
  });

  test('adds to an existing metadata.name In selector', () => {
    const { listeners } = admitted();
    expect(listeners.matching.allowedRoutes).toEqual({ namespaces: nameSelector(['gw-system', 'team-a', 'team-b', 'team-c']) });
  });

  test('rewrites a single-name matchLabels selector into the In form', () => {
    const { listeners } = admitted();
    expect(listeners.legacy.allowedRoutes).toEqual({ namespaces: nameSelector(['gw-system', 'team-a', 'team-b', 'team-d']) });
  });

  test('leaves other selectors alone and warns once per namespace they may not admit', () => {
    const { listeners, chart, gateway } = admitted();
    expect(listeners.foreign.allowedRoutes).toEqual(LISTENERS[5].allowedRoutes);
    expect(listeners['not-in'].allowedRoutes.namespaces.selector.matchExpressions[0].operator).toBe('NotIn');
    const warnings = Warnings.collect(chart);
    expect(warnings.map((w) => w.path)).toEqual([gateway.node.path, gateway.node.path, gateway.node.path]);
    // `not-in` provably admits team-a, not team-b; `foreign` proves nothing.
    expect(warnings.map((w) => w.message)).toEqual([
      'Gateway gw-system/inference-gateway listener "foreign" selects route namespaces with a selector of its own, '
        + 'which is left as it is: HTTPRoutes from namespace "team-b" may not be admitted',
      'Gateway gw-system/inference-gateway listener "not-in" selects route namespaces with a selector of its own, '
        + 'which is left as it is: HTTPRoutes from namespace "team-b" may not be admitted',
      'Gateway gw-system/inference-gateway listener "foreign" selects route namespaces with a selector of its own, '
        + 'which is left as it is: HTTPRoutes from namespace "team-a" may not be admitted',
    ]);
  });

  test('records the warnings before synthesis, and synthesizing again adds none', () => {
    const chart = Testing.chart();
    const gateway = gatewayIn(chart);
    admitRoutesFrom(gateway, 'team-a');
    expect(warningsOf(chart)).toHaveLength(1);
    Testing.synth(chart);
    Testing.synth(chart);
    expect(warningsOf(chart)).toHaveLength(1);
  });

  test('is idempotent: registering a namespace twice wraps toJson once and renders the same', () => {
    const chart = Testing.chart();
    const gateway = gatewayIn(chart);
    admitRoutesFrom(gateway, 'team-a');
    const wrapped = gateway.toJson;
    const once = gateway.toJson();
    admitRoutesFrom(gateway, 'team-a');
    admitRoutesFrom(gateway, 'team-b');
    expect(gateway.toJson).toBe(wrapped);
    admitRoutesFrom(gateway, 'team-a');
    const twice = listenersOf(gateway.toJson());
    expect(twice.none.allowedRoutes).toEqual({ namespaces: nameSelector(['gw-system', 'team-a', 'team-b']) });
    expect(listenersOf(once).none.allowedRoutes).toEqual({ namespaces: nameSelector(['gw-system', 'team-a']) });
    // Rendering twice gives the same JSON (nothing is accumulated into the props).
    expect(gateway.toJson()).toEqual(gateway.toJson());
    // foreign: team-a and team-b; not-in: team-b only.
    expect(warningsOf(chart)).toHaveLength(3);
  });

  test('changes nothing for routes of the Gateway\'s own namespace', () => {
    const chart = Testing.chart();
    const gateway = gatewayIn(chart);
    const render = gateway.toJson;
    const before = gateway.toJson();
    admitRoutesFrom(gateway, 'gw-system');
    expect(gateway.toJson).toBe(render);
    expect(gateway.toJson()).toEqual(before);
    expect(warningsOf(chart)).toEqual([]);
  });

  test('keeps JSON patches and other fields of the Gateway', () => {
    const chart = Testing.chart();
    const gateway = gatewayIn(chart, [{ name: 'http', port: 80, protocol: 'HTTP', hostname: '*.example.com' }]);
    gateway.metadata.addLabel('airunway.ai/inference-gateway', 'true');
    admitRoutesFrom(gateway, 'team-a');
    const [json] = Testing.synth(chart);
    expectValidManifests(json);
    expect(json.metadata.labels).toEqual({ 'airunway.ai/inference-gateway': 'true' });
    expect(json.spec).toEqual({
      gatewayClassName: 'istio',
      listeners: [{
        name: 'http',
        port: 80,
        protocol: 'HTTP',
        hostname: '*.example.com',
        allowedRoutes: { namespaces: nameSelector(['gw-system', 'team-a']) },
      }],
    });
  });

  test('uses the chart namespace of a Gateway without its own', () => {
    const chart = new Chart(Testing.app(), 'Gateways', { namespace: 'edge' });
    const gateway = new Gateway(chart, 'Gateway', {
      metadata: { name: 'inference-gateway' },
      spec: { gatewayClassName: 'istio', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] },
    });
    admitRoutesFrom(gateway, 'team-a');
    const [json] = Testing.synth(chart);
    expectValidManifests(json);
    expect(json.spec.listeners[0].allowedRoutes).toEqual({ namespaces: nameSelector(['edge', 'team-a']) });
  });

  test('fails when the object is not a Gateway', () => {
    const chart = Testing.chart();
    const route = new HttpRoute(chart, 'Route', { metadata: { name: 'r', namespace: 'gw-system' }, spec: {} });
    expect(() => admitRoutesFrom(route, 'team-a'))
      .toThrow('admitRoutesFrom: expected a gateway.networking.k8s.io Gateway, got gateway.networking.k8s.io/v1 HTTPRoute "r"');
  });

  test('fails when the Gateway has no namespace', () => {
    const chart = Testing.chart();
    const gateway = new ApiObject(chart, 'Gateway', {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      metadata: { name: 'inference-gateway' },
    });
    expect(() => admitRoutesFrom(gateway, 'team-a'))
      .toThrow('admitRoutesFrom: Gateway "inference-gateway" has no namespace; give it one (or put it in a chart with a namespace)');
  });
});

describe('referencedGatewayWarning', () => {
  test('names the Gateway and the namespace its listeners must admit', () => {
    expect(referencedGatewayWarning({ name: 'inference-gateway', namespace: 'gw-system' }, 'team-a')).toBe(
      'Gateway gw-system/inference-gateway is not part of this app: the allowedRoutes of its listeners must admit '
      + 'HTTPRoutes from namespace "team-a" (for example from: Selector on kubernetes.io/metadata.name, or from: All), '
      + 'otherwise the route is not attached',
    );
  });
});
