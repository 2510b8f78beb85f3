/**
 * The cluster profile in code: `ProviderRegistry` `installedProviders` and `fromProfile`, how
 * selection treats the providers a profile lacks, and the profile reader's errors.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { EngineType, ModelDeployment, ProviderRegistry } from '../../src';
import { formatFieldError } from '../../src/core/field-error';
import { resolveModelDeployment } from '../../src/pipeline/resolve';
import { readClusterProfile } from '../../src/selection/cluster-profile';
import { NO_PROVIDERS_REGISTERED, selectEngine } from '../../src/selection/engine-selection';
import { selectProvider } from '../../src/selection/provider-selection';

const EXAMPLE_PROFILE = path.join(__dirname, '..', '..', 'examples', 'cluster-profile', 'cluster-profile.yaml');

/** A deployment with one GPU and nothing chosen: with all shipped providers ready, Dynamo takes it. */
const ONE_GPU = { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } };

function deploy(registryProps: ConstructorParameters<typeof ProviderRegistry>[2], props: any = ONE_GPU) {
  const app = Testing.app();
  const registry = new ProviderRegistry(app, 'Providers', registryProps);
  const deployment = new ModelDeployment(new Chart(app, 'c', { namespace: 'ml' }), 'qwen', props);
  return { registry, md: deployment };
}

function md(spec: any) {
  return { name: 'qwen', namespace: 'ml', spec: { model: { id: 'Qwen/Qwen3-0.6B' }, ...spec } };
}

describe('ProviderRegistry installedProviders', () => {
  test('without it every registered provider is installed: Dynamo takes a one-GPU vLLM deployment', () => {
    const { registry, md: qwen } = deploy({});
    expect(registry.installedProviders).toBeUndefined();
    expect(qwen.providerName).toBe('dynamo');
  });

  test('auto-selection picks only among the installed providers', () => {
    const { registry, md: qwen } = deploy({ installedProviders: ['vllm', 'kuberay'] });
    expect(registry.installedProviders).toEqual(['kuberay', 'vllm']);
    // kuberay and vllm tie at priority 0; the smaller name wins. Dynamo (50) is not in the cluster.
    expect(qwen.providerName).toBe('kuberay');
    expect(qwen.node.validate()).toEqual([]);
  });

  test('an installed provider that is not ready is skipped', () => {
    const app = Testing.app();
    const registry = new ProviderRegistry(app, 'Providers', { installedProviders: ['dynamo', 'llmd'] });
    registry.setReady('dynamo', false);
    const qwen = new ModelDeployment(new Chart(app, 'c', { namespace: 'ml' }), 'qwen', ONE_GPU);
    expect(qwen.providerName).toBe('llmd');
  });

  test('a deployment naming a provider that is not installed fails, naming the profile and what it lists', () => {
    const { md: qwen } = deploy({ installedProviders: ['kuberay', 'vllm'] }, { ...ONE_GPU, provider: { name: 'dynamo' } });
    expect(qwen.node.validate()).toEqual([
      'spec.provider.name: Invalid value: "dynamo": provider selection failed: provider "dynamo" is not in the cluster profile ' +
        'installedProviders of ProviderRegistry Providers, which lists kuberay, vllm',
    ]);
    expect(qwen.apiObjects).toEqual([]);
  });

  test('a named provider not installed fails the same way when the engine is named too (admission does not check it)', () => {
    const { md: qwen } = deploy({ installedProviders: ['vllm'] }, { ...ONE_GPU, provider: { name: 'kaito' }, engine: { engineType: EngineType.VLLM } });
    expect(qwen.node.validate()).toEqual([expect.stringContaining('provider "kaito" is not in the cluster profile installedProviders of ProviderRegistry Providers, which lists vllm')]);
  });

  test('a misspelt named provider gets a did-you-mean from the installed ones', () => {
    const { md: qwen } = deploy({ installedProviders: ['kuberay', 'vllm'] }, { ...ONE_GPU, provider: { name: 'kubray' } });
    expect(qwen.node.validate()[0]).toMatch(/which lists kuberay, vllm; did you mean "kuberay"\?$/);
  });

  test('a named provider that is installed but not ready is taken, as AI Runway takes it', () => {
    const app = Testing.app();
    const registry = new ProviderRegistry(app, 'Providers', { installedProviders: ['vllm'] });
    registry.setReady('vllm', false);
    // The engine is named too: engine auto-selection looks at ready providers only.
    const qwen = new ModelDeployment(new Chart(app, 'c', { namespace: 'ml' }), 'qwen', { ...ONE_GPU, provider: { name: 'vllm' }, engine: { engineType: EngineType.VLLM } });
    expect(qwen.providerName).toBe('vllm');
    expect(qwen.node.validate()).toEqual([]);
  });

  test('a provider that is not installed does not count for the CPU check: the GPU is required', () => {
    // KAITO would run llamacpp on CPU, but the cluster has only Dynamo.
    const { md: tiny } = deploy({ installedProviders: ['dynamo'] }, { model: { id: 'x/tiny-gguf' }, engine: { engineType: EngineType.LLAMACPP, image: 'example.com/llama:1' } });
    expect(tiny.node.validate()).toEqual(['spec.resources.gpu.count: Invalid value: 0: llamacpp engine requires GPU (set resources.gpu.count > 0)']);
  });

  test('fails when a name is not a registered provider, suggesting the closest', () => {
    const app = Testing.app();
    new ProviderRegistry(app, 'Providers', { installedProviders: ['kuberay', 'kaitoo'] });
    expect(() => new ModelDeployment(new Chart(app, 'c'), 'qwen', ONE_GPU)).toThrow(
      'ProviderRegistry Providers: installedProviders of ProviderRegistry Providers names "kaitoo", which is not registered ' +
        '(registered: dynamo, flexinfer, kaito, kthena, kuberay, llmd, modelplane, vllm); did you mean "kaito"?',
    );
  });

  test('an empty list means no provider is installed', () => {
    const { md: qwen } = deploy({ installedProviders: [] });
    expect(qwen.node.validate()).toEqual([`spec.engine.type: Invalid value: <nil>: engine selection failed: ${NO_PROVIDERS_REGISTERED}`]);
  });
});

describe('selection with a cluster profile', () => {
  const registry = new ProviderRegistry(Testing.app(), 'Providers', { installedProviders: ['kaito', 'vllm'] });
  registry.setReady('kaito', false);
  const entries = registry._catalog().entries;

  test('engine selection traces the providers the profile lacks and the ones not ready, apart', () => {
    const selection = selectEngine(md({ resources: { gpu: { count: 1 } } }), entries);
    expect(selection.engine).toBe('vllm');
    expect(selection.reason).toBe('auto-selected from provider vllm capabilities');
    expect(selection.trace.map((t) => [t.provider, t.excluded ?? 'looked at'])).toEqual([
      ['dynamo', 'not-in-profile'],
      ['flexinfer', 'not-in-profile'],
      ['kaito', 'not-ready'],
      ['kthena', 'not-in-profile'],
      ['kuberay', 'not-in-profile'],
      ['llmd', 'not-in-profile'],
      ['modelplane', 'not-in-profile'],
      ['vllm', 'looked at'],
    ]);
  });

  test('provider selection says why each skipped provider is out, naming the profile', () => {
    const selection = selectProvider(md({ resources: { gpu: { count: 1 } } }), 'vllm', entries);
    expect(selection.provider).toBe('vllm');
    expect(selection.candidates).toEqual([{ name: 'vllm', priority: 0 }]);
    const byName = Object.fromEntries(selection.trace.map((t) => [t.provider, t]));
    expect(byName.dynamo).toEqual({ provider: 'dynamo', excluded: 'not-in-profile', detail: 'not in the cluster profile installedProviders of ProviderRegistry Providers', rules: [] });
    expect(byName.kaito).toEqual({ provider: 'kaito', excluded: 'not-ready', detail: 'not ready in the cluster profile installedProviders of ProviderRegistry Providers', rules: [] });
    expect(selection.trace.map((t) => t.provider)).toEqual(['dynamo', 'flexinfer', 'kaito', 'kthena', 'kuberay', 'llmd', 'modelplane', 'vllm']);
  });

  test('only not-ready and absent providers: no healthy providers, with both kinds traced', () => {
    const onlyKaito = entries.map((e) => (e.name === 'vllm' ? { ...e, ready: false } : e));
    const selection = selectProvider(md({ resources: { gpu: { count: 1 } } }), 'vllm', onlyKaito);
    expect(selection.error).toBe('no healthy providers available');
    expect(selection.trace.filter((t) => t.excluded === 'not-ready').map((t) => t.provider)).toEqual(['kaito', 'vllm']);
    expect(selection.trace.filter((t) => t.excluded === 'not-in-profile')).toHaveLength(6);
  });

  test('the providers a profile lacks have no translation and no capabilities', () => {
    const catalog = registry._catalog();
    expect(catalog.provider('dynamo')).toBeUndefined();
    expect(catalog.provider('vllm')).toBe(registry.tryGetProvider('vllm'));
    expect(entries.find((e) => e.name === 'dynamo')).toMatchObject({ notInProfile: true, ready: false, spec: {} });
    const r = resolveModelDeployment(md({ resources: { gpu: { count: 1 } } }), catalog);
    expect(r.errors).toEqual([]);
    expect(r.resolved?.provider).toBe('vllm');
  });
});

describe('ProviderRegistry.fromProfile', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-inference-profile-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  test('reads examples/cluster-profile/cluster-profile.yaml: installed providers, readiness, Gateway, node pools', () => {
    const app = Testing.app();
    const registry = ProviderRegistry.fromProfile(app, 'Providers', EXAMPLE_PROFILE);
    expect(registry.installedProviders).toEqual(['kaito', 'kuberay', 'vllm']);
    expect(registry.tryGet('kaito')!.ready).toBe(false);
    expect(registry.tryGet('kuberay')!.ready).toBe(true);
    expect([registry.gateway?.namespace, registry.gateway?.name, registry.gateway?.gateway]).toEqual(['gateway-system', 'inference-gateway', undefined]);
    expect(registry.nodePoolNames).toEqual(['l40s']);
    const qwen = new ModelDeployment(new Chart(app, 'c', { namespace: 'ml' }), 'qwen', ONE_GPU);
    expect(qwen.providerName).toBe('kuberay');
  });

  test('reads a List, as kubectl get -o yaml prints it; a spec replaces the registered one, status.ready absent is not ready', () => {
    const file = write('profile.yaml', `apiVersion: v1
kind: List
metadata: {resourceVersion: ""}
items:
- apiVersion: airunway.ai/v1alpha1
  kind: InferenceProviderConfig
  metadata: {name: llmd, uid: 1234, resourceVersion: "77", managedFields: [{manager: shim}]}
  spec:
    capabilities:
      engines: [{name: vllm, servingModes: [aggregated], gpuSupport: true}]
    selectionRules: [{condition: "true", priority: 7}]
  status: {ready: true, version: v0.6.0}
- apiVersion: airunway.ai/v1alpha1
  kind: InferenceProviderConfig
  metadata: {name: dynamo}
`);
    const registry = ProviderRegistry.fromProfile(Testing.app(), 'Providers', file);
    expect(registry.installedProviders).toEqual(['dynamo', 'llmd']);
    expect(registry.tryGet('dynamo')!.ready).toBe(false);
    expect(registry.tryGet('llmd')!.toManifest().spec.selectionRules).toEqual([{ condition: 'true', priority: 7 }]);
    expect(registry.tryGetProvider('llmd')).toBeDefined();
  });

  test('throws listing every problem with file, document number and field path', () => {
    const file = write('bad.yaml', `apiVersion: airunway.ai/v1alpha1
kind: InferenceProviderConfig
metadata: {name: vllm}
status: {ready: "yes"}
---
apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: {name: x}
---
apiVersion: v1
kind: List
items:
- apiVersion: airunway.ai/v1alpha1
  kind: InferenceProviderConfig
  metadata: {}
`);
    expect(() => ProviderRegistry.fromProfile(Testing.app(), 'Providers', file)).toThrow(
      'ProviderRegistry.fromProfile: invalid cluster profile:\n' +
        `  ${file}[doc 1]: status.ready: Invalid value: "yes": must be a boolean\n` +
        `  ${file}[doc 2]: kind: Unsupported value: "ModelDeployment": supported values: "InferenceProviderConfig", "Gateway", "NodePool", "List", "InferenceProviderConfigList"\n` +
        `  ${file}[doc 3]: items[0].metadata.name: Required value: name is required`,
    );
  });

  test('a provider without a spec must be registered already', () => {
    const file = write('p.yaml', 'apiVersion: airunway.ai/v1alpha1\nkind: InferenceProviderConfig\nmetadata: {name: tgi}\nstatus: {ready: true}\n');
    expect(() => ProviderRegistry.fromProfile(Testing.app(), 'Providers', file)).toThrow(
      `${file}[doc 1]: spec: Required value: "tgi" is not a registered provider (registered: dynamo, flexinfer, kaito, kthena, kuberay, llmd, modelplane, vllm); ` +
        'give its spec here, or define it with an InferenceProviderConfig of its own',
    );
  });

  test('two Gateways need props.gateway to choose; installedProviders is refused; a missing file is named', () => {
    const gateway = (name: string) => `apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: ${name}, namespace: gw}\n`;
    const file = write('gw.yaml', `${gateway('a')}---\n${gateway('b')}`);
    expect(() => ProviderRegistry.fromProfile(Testing.app(), 'Providers', file)).toThrow(`${file}: the profile holds 2 Gateways (gw/a, gw/b); keep the one model routes attach to, or pass props.gateway`);
    expect(() => ProviderRegistry.fromProfile(Testing.app(), 'Providers', file, { installedProviders: ['vllm'] })).toThrow(/installedProviders must not be set/);
    expect(() => ProviderRegistry.fromProfile(Testing.app(), 'Providers', path.join(dir, 'nope.yaml'))).toThrow(`ProviderRegistry.fromProfile: cannot read ${path.join(dir, 'nope.yaml')}: ENOENT`);
  });
});

describe('readClusterProfile', () => {
  const read = (...contents: unknown[]) => {
    const { profile, problems } = readClusterProfile(contents.map((content, index) => ({ index, content })));
    return { profile, problems: problems.map((p) => `doc ${p.index + 1}: ${formatFieldError(p.error)}`) };
  };
  const ipc = (name: unknown, status?: unknown) => ({ apiVersion: 'airunway.ai/v1alpha1', kind: 'InferenceProviderConfig', metadata: { name }, ...(status !== undefined && { status }) });

  test('collects every problem with its document and path', () => {
    const { problems } = read(
      ipc('vllm', { ready: 1 }),
      { ...ipc('x'), apiVersion: 'airunway.ai/v1' },
      { kind: 'List', items: [ipc('kaito', { ready: true }), { kind: 'List', items: [] }, 'text'] },
      { kind: 'List' },
      ipc('kaito', { ready: true }),
      { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'gw' } },
      { metadata: {} },
    );
    expect(problems).toEqual([
      'doc 1: status.ready: Invalid value: 1: must be a boolean',
      'doc 2: apiVersion: Unsupported value: "airunway.ai/v1": supported values: "airunway.ai/v1alpha1"; did you mean "airunway.ai/v1alpha1"?',
      'doc 3: items[1].kind: Unsupported value: "List": supported values: "InferenceProviderConfig", "Gateway", "NodePool"',
      'doc 3: items[2]: Invalid value: "text": must be an object of kind InferenceProviderConfig, Gateway, NodePool, List, InferenceProviderConfigList',
      'doc 4: items: Required value: a List needs an items list',
      'doc 5: metadata.name: Invalid value: "kaito": the profile lists this provider twice (also in doc 3 items[0])',
      'doc 6: metadata.namespace: Required value: a Gateway needs a namespace',
      'doc 7: kind: Required value: a cluster profile holds InferenceProviderConfig, Gateway, NodePool, List, InferenceProviderConfigList',
    ]);
  });

  test('readiness: status.ready as given, absent counts as not ready and is flagged', () => {
    const { profile, problems } = read(ipc('vllm', { ready: true }), ipc('kaito', { ready: false }), ipc('llmd'));
    expect(problems).toEqual([]);
    expect(profile.providers.map((p) => [p.name, p.ready, p.readyStated, p.entry !== undefined])).toEqual([
      ['vllm', true, true, false],
      ['kaito', false, true, false],
      ['llmd', false, false, false],
    ]);
  });
});
