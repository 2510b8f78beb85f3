import { App, Chart, Testing } from 'cdk8s';
import {
  BodyBasedRouter,
  EngineType,
  gateway as gatewayL1,
  GatewayRef,
  InferencePoolApiVersion,
  InferenceProviderConfig,
  ModelDeployment,
  ModelDeploymentProps,
  ModelSource,
  ProviderRegistry,
  ServingMode,
} from '../../src';
import { defaultEndpointPickerConfig, EndpointPicker, ENDPOINT_PICKER_ANNOTATION } from '../../src/api/gateway/endpoint-picker-choice';
import { DEFAULT_ENDPOINT_PICKER_CONFIG } from '../../src/gateway/endpoint-picker';
import {
  LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG,
  LLMD_ENDPOINT_PICKER_CONFIG,
  LLMD_GAIE_V1_5_DISAGGREGATED_ENDPOINT_PICKER_CONFIG,
  LLMD_GAIE_V1_5_ENDPOINT_PICKER_CONFIG,
} from '../../src/providers/llmd/config';
import { expectValidManifests } from '../support/schema-validator';

const GATEWAY = GatewayRef.fromName('inference-gateway', 'gateway-system');
const VLLM: ModelDeploymentProps = { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'vllm' }, engine: { engineType: EngineType.VLLM }, resources: { gpu: { count: 1 } } };

interface Synth {
  readonly app: App;
  readonly chart: Chart;
  readonly md: ModelDeployment;
  readonly manifests: any[];
  readonly errors: string[];
}

function synth(props: ModelDeploymentProps, registryProps: ConstructorParameters<typeof ProviderRegistry>[2] = { gateway: GATEWAY }, namespace: string | null = 'team-a'): Synth {
  const app = Testing.app();
  new ProviderRegistry(app, 'Providers', registryProps);
  // A body-based router is installed in the cluster (tests of its warning: test/gateway/missing-body-based-router.test.ts).
  BodyBasedRouter.fromExisting(app, 'BodyBasedRouter');
  const chart = new Chart(app, 'models', namespace === null ? {} : { namespace });
  const md = new ModelDeployment(chart, 'qwen', props);
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  const manifests = errors.length === 0 ? app.charts.flatMap((c) => Testing.synth(c)) : [];
  return { app, chart, md, manifests, errors };
}

function find(manifests: any[], kind: string, name?: string): any {
  return manifests.find((m) => m.kind === kind && (name === undefined || m.metadata.name === name));
}

function kinds(manifests: any[]): string[] {
  return manifests.map((m) => `${m.kind}/${m.metadata.name}`);
}

describe('gateway routing of a ModelDeployment', () => {
  test('controller-managed pool: InferencePool, endpoint picker and HTTPRoute, all schema-valid', () => {
    const { manifests, errors } = synth(VLLM);
    expect(errors).toEqual([]);
    expect(kinds(manifests)).toEqual([
      'Deployment/qwen',
      'Service/qwen',
      'InferencePool/qwen',
      'ServiceAccount/qwen-epp',
      'Role/qwen-epp',
      'RoleBinding/qwen-epp',
      'ConfigMap/qwen-epp',
      'Deployment/qwen-epp',
      'Service/qwen-epp',
      'HTTPRoute/qwen',
      'ModelDeployment/qwen',
    ]);
    expectValidManifests(manifests);
    const pool = find(manifests, 'InferencePool');
    expect(pool.apiVersion).toBe('inference.networking.k8s.io/v1');
    expect(pool.spec.selector.matchLabels).toEqual({ 'airunway.ai/model-deployment': 'qwen' });
    expect(pool.spec.targetPorts).toEqual([{ number: 8000 }]);
    expect(pool.spec.endpointPickerRef).toEqual({ name: 'qwen-epp', port: { number: 9002 } });
    // The pool selects the model server pods.
    const server = find(manifests, 'Deployment', 'qwen');
    expect(server.spec.template.metadata.labels['airunway.ai/model-deployment']).toBe('qwen');
    const route = find(manifests, 'HTTPRoute');
    expect(route.spec.parentRefs).toEqual([{ name: 'inference-gateway', namespace: 'gateway-system' }]);
    expect(route.spec.rules[0].matches[0].headers).toEqual([{ type: 'Exact', name: 'X-Gateway-Model-Name', value: 'Qwen/Qwen3-0.6B' }]);
    expect(route.spec.rules[0].backendRefs).toEqual([{ group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'qwen', namespace: 'team-a' }]);
    expect(find(manifests, 'ConfigMap').data['default-plugins.yaml']).toBe(DEFAULT_ENDPOINT_PICKER_CONFIG);
    expect(find(manifests, 'Deployment', 'qwen-epp').spec.template.spec.containers[0].image).toBe('ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0');
  });

  test('a referenced Gateway in another namespace gets a warning about allowedRoutes', () => {
    const { md } = synth(VLLM);
    expect(md.warnings).toEqual([
      expect.stringContaining('inference-gateway'),
    ]);
    expect(md.warnings[0]).toContain('team-a');
  });

  test('no Gateway known: routing is off and nothing routing-related is synthesized', () => {
    const { manifests, errors } = synth(VLLM, {});
    expect(errors).toEqual([]);
    expect(kinds(manifests)).toEqual(['Deployment/qwen', 'Service/qwen', 'ModelDeployment/qwen']);
  });

  test('gateway.enabled: false turns routing off even with a Gateway', () => {
    const { manifests } = synth({ ...VLLM, gateway: { enabled: false } });
    expect(find(manifests, 'HTTPRoute')).toBeUndefined();
    expect(find(manifests, 'InferencePool')).toBeUndefined();
  });

  test('the deployment can name its own Gateway and pool version', () => {
    const { manifests } = synth(
      { ...VLLM, gateway: { gatewayRef: GatewayRef.of({ namespace: 'team-a', name: 'edge' }), inferencePoolApiVersion: InferencePoolApiVersion.V1ALPHA2 } },
      {},
    );
    expectValidManifests(manifests);
    expect(find(manifests, 'InferencePool').apiVersion).toBe('inference.networking.x-k8s.io/v1alpha2');
    const route = find(manifests, 'HTTPRoute');
    expect(route.spec.parentRefs).toEqual([{ name: 'edge', namespace: 'team-a' }]);
    expect(route.spec.rules[0].backendRefs[0].group).toBe('inference.networking.x-k8s.io');
    expect(find(manifests, 'Role').rules).toEqual(expect.arrayContaining([expect.objectContaining({ apiGroups: ['inference.networking.x-k8s.io'], resources: ['inferencepools'] })]));
  });

  test('httpRouteRef keeps the pool and endpoint picker but leaves the route to the user', () => {
    const { manifests } = synth({ ...VLLM, gateway: { httpRouteRef: 'my-route' } });
    expect(find(manifests, 'HTTPRoute')).toBeUndefined();
    expect(find(manifests, 'InferencePool')).toBeDefined();
  });

  test('model name: gateway.modelName, then servedName, then the model id', () => {
    const name = (props: ModelDeploymentProps) => find(synth(props).manifests, 'HTTPRoute').spec.rules[0].matches[0].headers[0].value;
    expect(name({ ...VLLM, model: { id: 'Qwen/Qwen3-0.6B', servedName: 'qwen' }, gateway: { modelName: 'routed' } })).toBe('routed');
    expect(name({ ...VLLM, model: { id: 'Qwen/Qwen3-0.6B', servedName: 'qwen' } })).toBe('qwen');
    expect(name(VLLM)).toBe('Qwen/Qwen3-0.6B');
  });

  test('KAITO llama.cpp ignores servedName, and its pool selects the Workspace pods on port 5000', () => {
    const { manifests, errors } = synth({
      model: { id: 'unsloth/gemma-3-1b-it-GGUF', servedName: 'ignored' },
      engine: { engineType: EngineType.LLAMACPP, image: 'ghcr.io/kaito-project/aikit/llama3.2:1b' },
      provider: { name: 'kaito' },
    });
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    expect(find(manifests, 'HTTPRoute').spec.rules[0].matches[0].headers[0].value).toBe('unsloth/gemma-3-1b-it-GGUF');
    const pool = find(manifests, 'InferencePool');
    expect(pool.spec.selector.matchLabels).toEqual({ 'kaito.sh/workspace': 'qwen' });
    expect(pool.spec.targetPorts).toEqual([{ number: 5000 }]);
  });

  test('KubeRay: the pool selects the Ray pods on the Serve port', () => {
    const { manifests } = synth({ model: { id: 'Qwen/Qwen3-32B' }, provider: { name: 'kuberay' }, engine: { engineType: EngineType.VLLM }, resources: { gpu: { count: 4 } } });
    expectValidManifests(manifests);
    expect(find(manifests, 'InferencePool').spec.targetPorts).toEqual([{ number: 8000 }]);
  });

  test('llm-d uses its endpoint picker image and configuration; prefill/decode gets the P/D configuration', () => {
    const aggregated = synth({ model: { id: 'Qwen/Qwen3-8B' }, provider: { name: 'llmd' }, engine: { engineType: EngineType.VLLM }, resources: { gpu: { count: 1 } } }).manifests;
    expect(find(aggregated, 'Deployment', 'qwen-epp').spec.template.spec.containers[0].image).toBe('ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0');
    expect(find(aggregated, 'ConfigMap').data['default-plugins.yaml']).toContain('decode-filter');

    const pd = synth({
      model: { id: 'Qwen/Qwen3-8B' },
      provider: { name: 'llmd' },
      engine: { engineType: EngineType.VLLM },
      servingMode: ServingMode.DISAGGREGATED,
      scaling: { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 1 } } },
    }).manifests;
    expectValidManifests(pd);
    expect(find(pd, 'ConfigMap').data['default-plugins.yaml']).toBe(LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG);
    expect(find(pd, 'Deployment', 'qwen-prefill').spec.template.metadata.labels['llm-d.ai/role']).toBe('prefill');
    expect(find(pd, 'Deployment', 'qwen-decode').spec.template.metadata.labels['llm-d.ai/role']).toBe('decode');
    expect(find(pd, 'InferencePool').spec.selector.matchLabels).toEqual({ 'airunway.ai/model-deployment': 'qwen' });
  });

  test('Dynamo manages its own pool: no pool or endpoint picker of ours, the route points at <md>-pool', () => {
    const { manifests, errors } = synth({ model: { id: 'Qwen/Qwen3-8B' }, engine: { engineType: EngineType.SGLANG }, resources: { gpu: { count: 1 } } });
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    expect(kinds(manifests)).toEqual(['DynamoGraphDeployment/qwen', 'HTTPRoute/qwen', 'ModelDeployment/qwen']);
    expect(find(manifests, 'HTTPRoute').spec.rules[0].backendRefs).toEqual([
      { group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'qwen-pool', namespace: 'team-a' },
    ]);
  });

  test('a provider pool in another namespace gets a ReferenceGrant there', () => {
    const app = Testing.app();
    const registry = new ProviderRegistry(app, 'Providers', { gateway: GATEWAY });
    const dynamo = registry.tryGet('dynamo')!.toManifest();
    for (const e of dynamo.spec.capabilities.engines) e.gateway.inferencePoolNamespace = 'pools';
    registry.register(InferenceProviderConfig.fromManifest(dynamo));
    const chart = new Chart(app, 'models', { namespace: 'team-a' });
    new ModelDeployment(chart, 'qwen', { model: { id: 'Qwen/Qwen3-8B' }, engine: { engineType: EngineType.SGLANG }, resources: { gpu: { count: 1 } } });
    const manifests = Testing.synth(chart);
    expectValidManifests(manifests);
    const grant = find(manifests, 'ReferenceGrant');
    expect(grant.metadata).toEqual(expect.objectContaining({ name: 'qwen-pool-referencegrant', namespace: 'pools' }));
    expect(grant.spec.from).toEqual([{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', namespace: 'team-a' }]);
    expect(find(manifests, 'HTTPRoute').spec.rules[0].backendRefs[0].namespace).toBe('pools');
  });

  test('a Gateway in the same app admits the namespaces of every route attached to it', () => {
    const app = Testing.app();
    const infra = new Chart(app, 'infra', { namespace: 'gateway-system' });
    const gw = new gatewayL1.Gateway(infra, 'Gateway', { metadata: { name: 'gw' }, spec: { gatewayClassName: 'istio', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] } });
    new ProviderRegistry(app, 'Providers', { gateway: GatewayRef.fromGateway(gw) });
    BodyBasedRouter.fromExisting(app, 'BodyBasedRouter');
    const a = new ModelDeployment(new Chart(app, 'a', { namespace: 'team-a' }), 'qwen', VLLM);
    new ModelDeployment(new Chart(app, 'b', { namespace: 'team-b' }), 'qwen', VLLM);
    const gateway = Testing.synth(infra)[0];
    expectValidManifests(gateway);
    expect(gateway.spec.listeners[0].allowedRoutes.namespaces.selector.matchExpressions[0].values).toEqual(['gateway-system', 'team-a', 'team-b']);
    expect(a.warnings).toEqual([]);
  });

  test('Dynamo mocker mode never routes', () => {
    const { manifests } = synth({
      metadata: { annotations: { 'airunway.ai/dynamo-test-backend': 'mocker' } },
      model: { id: 'Qwen/Qwen3-8B' },
      provider: { name: 'dynamo' },
      engine: { engineType: EngineType.VLLM },
      resources: { gpu: { count: 1 } },
    });
    expect(find(manifests, 'HTTPRoute')).toBeUndefined();
  });

  test('fails when gateway.enabled is true but no Gateway is known', () => {
    const { errors, md } = synth({ ...VLLM, gateway: { enabled: true } }, {});
    expect(errors).toEqual([
      'spec.gateway.enabled: Invalid value: true: routing needs a Gateway: set gateway.gatewayRef on the deployment or gateway on the ProviderRegistry (CLI: --gateway NAMESPACE/NAME), or set gateway.enabled to false',
    ]);
    expect(md.apiObjects).toEqual([]);
  });

  test('fails when there is no model name to route', () => {
    const { errors } = synth({ ...VLLM, model: { source: ModelSource.CUSTOM }, engine: { engineType: EngineType.VLLM, image: 'example.com/baked:1' } });
    expect(errors).toEqual([
      'spec.gateway.modelName: Required value: no model name to route: the model has no id and no served name (custom source); set gateway.modelName',
    ]);
  });

  test('fails when the deployment has no namespace', () => {
    const { errors } = synth(VLLM, { gateway: GATEWAY }, null);
    expect(errors).toEqual([
      'metadata.namespace: Required value: routing needs the deployment namespace: the HTTPRoute and InferencePool references name it (set it, or the chart namespace)',
    ]);
  });

  test('fails when the endpoint picker name would be too long, naming the deployment', () => {
    const name = 'a'.repeat(60);
    const { errors } = synth({ ...VLLM, metadata: { name } });
    expect(errors).toEqual([
      `metadata.name: Invalid value: "${name}": derived Service name "${name}-epp" is 64 characters long, more than the 63 allowed; use a shorter ModelDeployment name`,
    ]);
  });
});

describe('the endpoint picker generation (EndpointPicker, annotation inference.cdk8s.io/endpoint-picker)', () => {
  const LLMD: ModelDeploymentProps = { model: { id: 'Qwen/Qwen3-8B' }, provider: { name: 'llmd' }, engine: { engineType: EngineType.VLLM }, resources: { gpu: { count: 1 } } };
  const LLMD_PD: ModelDeploymentProps = {
    ...LLMD,
    resources: undefined,
    servingMode: ServingMode.DISAGGREGATED,
    scaling: { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 1 } } },
  };
  const ROUTER = 'ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0';
  const GAIE = 'registry.k8s.io/gateway-api-inference-extension/epp:v1.5.0';
  const SCHEDULER = 'ghcr.io/llm-d/llm-d-inference-scheduler:v0.6.0';

  function picker(manifests: any[]): { image: string; config: string; objectiveGroups: string[] } {
    const role = find(manifests, 'Role');
    return {
      image: find(manifests, 'Deployment', 'qwen-epp').spec.template.spec.containers[0].image,
      config: find(manifests, 'ConfigMap').data['default-plugins.yaml'],
      objectiveGroups: role.rules.filter((r: any) => r.resources.includes('inferenceobjectives')).flatMap((r: any) => r.apiGroups),
    };
  }
  const annotated = (props: ModelDeploymentProps, value: string): ModelDeploymentProps => ({
    ...props,
    metadata: { annotations: { [ENDPOINT_PICKER_ANNOTATION]: value } },
  });

  test.each([
    ['vllm', VLLM, { image: ROUTER, config: DEFAULT_ENDPOINT_PICKER_CONFIG }, { image: GAIE, config: defaultEndpointPickerConfig(EndpointPicker.GAIE_V1_5) }],
    ['llm-d', LLMD, { image: ROUTER, config: LLMD_ENDPOINT_PICKER_CONFIG }, { image: SCHEDULER, config: LLMD_GAIE_V1_5_ENDPOINT_PICKER_CONFIG }],
    ['llm-d P/D', LLMD_PD, { image: ROUTER, config: LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG }, { image: SCHEDULER, config: LLMD_GAIE_V1_5_DISAGGREGATED_ENDPOINT_PICKER_CONFIG }],
  ] as const)('%s: the llm-d Router by default; GAIE v1.5 from the registry or the annotation', (_, props, router, gaie) => {
    const byDefault = synth(props);
    expect(byDefault.errors).toEqual([]);
    expect(picker(byDefault.manifests)).toEqual({ ...router, objectiveGroups: ['llm-d.ai', 'inference.networking.x-k8s.io'] });
    const fromRegistry = synth(props, { gateway: GATEWAY, endpointPicker: EndpointPicker.GAIE_V1_5 });
    expect(fromRegistry.errors).toEqual([]);
    expectValidManifests(fromRegistry.manifests);
    expect(picker(fromRegistry.manifests)).toEqual({ ...gaie, objectiveGroups: ['inference.networking.x-k8s.io'] });
    // The annotation wins over the registry, both ways.
    expect(picker(synth(annotated(props, 'gaie-v1.5')).manifests)).toEqual(picker(fromRegistry.manifests));
    expect(picker(synth(annotated(props, 'llmd-router'), { gateway: GATEWAY, endpointPicker: EndpointPicker.GAIE_V1_5 }).manifests))
      .toEqual(picker(byDefault.manifests));
  });

  test('the registry\'s image follows its generation unless named', () => {
    const registry = (props: ConstructorParameters<typeof ProviderRegistry>[2]) => new ProviderRegistry(Testing.app(), 'Providers', props);
    expect(registry({}).endpointPickerImage).toBe(ROUTER);
    expect(registry({ endpointPicker: EndpointPicker.GAIE_V1_5 }).endpointPickerImage).toBe(GAIE);
    expect(registry({ endpointPicker: EndpointPicker.GAIE_V1_5 }).endpointPicker).toBe(EndpointPicker.GAIE_V1_5);
    expect(registry({ endpointPicker: EndpointPicker.GAIE_V1_5, endpointPickerImage: 'example.com/epp:1.0.0' }).endpointPickerImage).toBe('example.com/epp:1.0.0');
  });

  test('a named image and configuration are kept whatever the generation; only the RBAC follows it', () => {
    const custom = new InferenceProviderConfig({
      name: 'vllm',
      engines: [{
        engineType: EngineType.VLLM,
        gpuSupport: true,
        gateway: { endpointPickerImage: 'example.com/picker:2.0.0', endpointPickerConfig: 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins: []\n' },
      }],
    });
    for (const endpointPicker of [EndpointPicker.LLMD_ROUTER, EndpointPicker.GAIE_V1_5]) {
      const { manifests, errors } = synth(VLLM, { gateway: GATEWAY, endpointPicker, providerConfigs: [custom] });
      expect(errors).toEqual([]);
      const p = picker(manifests);
      expect(p.image).toBe('example.com/picker:2.0.0');
      expect(p.config).toContain('plugins: []');
      expect(p.objectiveGroups).toContain('inference.networking.x-k8s.io');
      expect(p.objectiveGroups.includes('llm-d.ai')).toBe(endpointPicker === EndpointPicker.LLMD_ROUTER);
    }
    // An older shipped image a user names is kept too.
    const named = synth(VLLM, { gateway: GATEWAY, endpointPickerImage: GAIE });
    expect(picker(named.manifests).image).toBe(GAIE);
  });

  test('an annotation that is no generation is a field error naming the allowed values', () => {
    const { errors } = synth(annotated(VLLM, 'gaie-v1.6'));
    expect(errors.join('\n')).toContain(`metadata.annotations["${ENDPOINT_PICKER_ANNOTATION}"]`);
    expect(errors.join('\n')).toContain('gaie-v1.6');
    expect(errors.join('\n')).toContain('"llmd-router", "gaie-v1.5"');
  });

  test('an annotation that picks no picker gets a warning (routing off; a provider\'s own pool)', () => {
    const off = synth(annotated(VLLM, 'gaie-v1.5'), {});
    expect(off.errors).toEqual([]);
    expect(off.md.warnings.join('\n')).toContain('not routed');
    const dynamo = synth(annotated({ model: { id: 'Qwen/Qwen3-8B' }, engine: { engineType: EngineType.SGLANG }, resources: { gpu: { count: 1 } } }, 'gaie-v1.5'));
    expect(dynamo.errors).toEqual([]);
    expect(dynamo.md.warnings.join('\n')).toMatch(/endpoint-picker: gaie-v1.5 changes nothing: provider "dynamo" manages its own InferencePool/);
    // Without the annotation, no such warning.
    expect(synth(VLLM, {}).md.warnings.join('\n')).not.toContain(ENDPOINT_PICKER_ANNOTATION);
  });
});
