import { Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { BodyBasedRouter, EngineType, GatewayRef, ModelDeployment, ModelDeploymentProps, ProviderRegistry, Warnings } from '../../src';

// In the routes' namespace, so no allowedRoutes warning joins in.
const GATEWAY = GatewayRef.of({ namespace: 'team-a', name: 'inference-gateway' });
const props = (name: string, extra: Partial<ModelDeploymentProps> = {}): ModelDeploymentProps => ({
  metadata: { name },
  model: { id: `Qwen/${name}` },
  provider: { name: 'vllm' },
  engine: { engineType: EngineType.VLLM },
  resources: { gpu: { count: 1 } },
  ...extra,
});

/** An app with a Gateway known to the registry, and the chart the deployments go in. */
function routedApp(): { app: Construct; chart: Chart } {
  const app = Testing.app();
  new ProviderRegistry(app, 'Providers', { gateway: GATEWAY });
  return { app, chart: new Chart(app, 'models', { namespace: 'team-a' }) };
}

function bbrWarnings(app: Construct): string[] {
  return Warnings.collect(app).map((w) => w.message).filter((m) => m.includes('X-Gateway-Model-Name'));
}

describe('HTTPRoutes matching on X-Gateway-Model-Name without a body-based router', () => {
  test('warns once per app, on the first routed deployment, naming its route and what to add', () => {
    const { app, chart } = routedApp();
    const first = new ModelDeployment(chart, 'a', props('alpha'));
    new ModelDeployment(chart, 'b', props('beta'));
    expect(bbrWarnings(app)).toEqual([
      'HTTPRoute team-a/alpha matches on the X-Gateway-Model-Name header, which clients do not send: a body-based router must copy ' +
        "the request body's model into it, and none is declared (this holds for every model route of the app). Add a BodyBasedRouter and wire it " +
        "into the Gateway, or install the Inference Extension's body-based-routing Helm chart; if one already runs, declare it with " +
        'BodyBasedRouter.fromExisting (CLI: --body-based-router-installed)',
    ]);
    expect(first.warnings).toEqual(bbrWarnings(app));
    expect(Warnings.collect(app).map((w) => w.path)).toEqual([first.node.path]);
  });

  test('silent when the app synthesizes a BodyBasedRouter, even one added after the deployments', () => {
    const { app, chart } = routedApp();
    new ModelDeployment(chart, 'a', props('alpha'));
    new BodyBasedRouter(new Chart(app, 'gateway', { namespace: 'gateway-system' }), 'BodyBasedRouter');
    expect(bbrWarnings(app)).toEqual([]);
  });

  test('silent when a router installed outside the app is declared', () => {
    const { app, chart } = routedApp();
    BodyBasedRouter.fromExisting(app, 'Installed');
    new ModelDeployment(chart, 'a', props('alpha'));
    expect(bbrWarnings(app)).toEqual([]);
  });

  test('silent when no HTTPRoute is synthesized: routing off, or the user brings the route', () => {
    const { app, chart } = routedApp();
    new ModelDeployment(chart, 'a', props('alpha', { gateway: { enabled: false } }));
    new ModelDeployment(chart, 'b', props('beta', { gateway: { httpRouteRef: 'my-route' } }));
    expect(bbrWarnings(app)).toEqual([]);
  });
});
