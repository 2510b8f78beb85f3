/**
 * The narrower `spec.provider.overrides` rules, as the construct and the controller's record check
 * see them (both run `resolveModelDeployment`: admission's filter, then the provider's checks),
 * so they agree: `replicas`/`resources` refused at any depth for every provider, KAITO's two
 * roots without `resource.count`, every provider's unknown roots, KubeRay's ignored overrides as
 * a warning. The CLI's side is test/cli/cli-override-rules.test.ts.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { sizingOverrideMessage } from '../../src/admission/overrides-filter';
import { ModelDeployment } from '../../src/constructs/model-deployment';
import { readRecord } from '../../src/controller/status/record-deployment';
import { defaultProviderCatalog } from '../../src/pipeline/shipped-providers';

const PROVIDERS = ['vllm', 'llmd', 'dynamo', 'kuberay', 'kaito'] as const;

/** A rendered-looking record: engine and provider named, namespaced, one GPU. */
function record(provider: string, overrides: unknown): any {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'qwen', namespace: 'ml' },
    spec: {
      model: { id: 'Qwen/Qwen3-0.6B' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 } },
      provider: { name: provider, overrides },
    },
  };
}

/** What the construct reports: its validation messages and its warnings. */
function construct(provider: string, overrides: unknown): { errors: string[]; warnings: string[] } {
  const chart = new Chart(new App(), 'c', { disableResourceNameHashes: true });
  const md = ModelDeployment.fromManifest(chart, 'md', record(provider, overrides));
  return { errors: md.node.validate(), warnings: md.warnings };
}

/** What the controller reports when it re-validates the stored record. */
function controller(provider: string, overrides: unknown): readonly string[] {
  return readRecord(record(provider, overrides), defaultProviderCatalog()).errors ?? [];
}

/** Both, which must agree. */
function errorsEverywhere(provider: string, overrides: unknown): string[] {
  const fromConstruct = construct(provider, overrides).errors;
  expect(controller(provider, overrides)).toEqual(fromConstruct);
  return fromConstruct;
}

describe('replicas and resources, at any depth, for every provider', () => {
  test.each(PROVIDERS.flatMap((p) => [[p, 'replicas'], [p, 'resources']]))('%s: %s deep in the overrides is refused', (provider, key) => {
    // `spec` is a root every provider but KAITO accepts, `inference` KAITO's: the sizing rule comes first either way.
    const root = provider === 'kaito' ? 'inference' : 'spec';
    expect(errorsEverywhere(provider, { [root]: { template: { spec: { containers: [{ name: 'm', [key]: 1 }] } } } })).toEqual([
      `spec.provider.overrides.${root}.template.spec.containers[0].${key}: Forbidden: ${sizingOverrideMessage(key)}`,
    ]);
  });

  test('the message says where the value comes from instead', () => {
    expect(sizingOverrideMessage('replicas')).toMatch(/replica counts come from spec\.scaling\.replicas/);
    expect(sizingOverrideMessage('resources')).toMatch(/container resources come from spec\.resources/);
  });
});

describe('KAITO: only the roots resource and inference, and not resource.count', () => {
  test('tuning and spec are refused, each naming the key and the allowed roots', () => {
    const errors = errorsEverywhere('kaito', { tuning: {}, spec: {} });
    expect(errors.map((e) => e.split(': Forbidden: ')[0])).toEqual(['spec.provider.overrides.tuning', 'spec.provider.overrides.spec']);
    for (const e of errors) expect(e).toContain('KAITO overrides accept only the root keys "resource" and "inference"');
  });

  test('resource.count is refused, pointing at spec.scaling.replicas', () => {
    expect(errorsEverywhere('kaito', { resource: { count: 2 } })).toEqual([
      'spec.provider.overrides.resource.count: Forbidden: overriding "resource.count" is not allowed: ' +
        'the Workspace\'s node count comes from spec.scaling.replicas, where admission enforces its limits',
    ]);
  });

  test('fields under resource and inference are accepted', () => {
    expect(errorsEverywhere('kaito', { resource: { preferredNodes: ['n1'] }, inference: { preset: { presetOptions: { modelAccessSecret: 's' } } } })).toEqual([]);
  });
});

describe('a root the provider does not know', () => {
  test.each([
    ['vllm', /^spec\.provider\.overrides\.routerMode: Forbidden: a Deployment has no root field "routerMode"; vLLM overrides merge into each Deployment, so put fields under "spec"$/],
    ['llmd', /^spec\.provider\.overrides\.routerMode: Forbidden: a Deployment has no root field "routerMode"; llm-d overrides merge into each Deployment/],
    ['kaito', /^spec\.provider\.overrides\.routerMode: Forbidden: KAITO overrides accept only the root keys "resource" and "inference".*not "routerMode"/],
  ])('%s refuses it, naming it', (provider, expected) => {
    expect(errorsEverywhere(provider, { routerMode: 'kv' })).toEqual([expect.stringMatching(expected)]);
  });

  test('Dynamo still takes routerMode (one of its typed keys) and refuses an unknown root', () => {
    expect(errorsEverywhere('dynamo', { routerMode: 'kv' })).toEqual([]);
    expect(errorsEverywhere('dynamo', { bogus: 1 })).toEqual([expect.stringMatching(/^spec\.provider\.overrides\.bogus: Forbidden: .*no root field "bogus"/)]);
  });
});

describe('KubeRay ignores overrides: a warning naming them, not an error', () => {
  test('the construct synthesizes and warns; the controller accepts the record', () => {
    const { errors, warnings } = construct('kuberay', { spec: { rayClusterConfig: {} }, extra: 1 });
    expect(errors).toEqual([]);
    expect(warnings.filter((w) => w.includes('overrides'))).toEqual([
      'KubeRay does not apply spec.provider.overrides, so spec.provider.overrides.spec, spec.provider.overrides.extra are ignored ' +
        '(remove them; to change the RayService, patch it with addJsonPatch in a cdk8s app)',
    ]);
    expect(controller('kuberay', { spec: {} })).toEqual([]);
  });

  test('replicas inside them is still refused: admission runs before the provider', () => {
    expect(errorsEverywhere('kuberay', { spec: { rayClusterConfig: { workerGroupSpecs: [{ replicas: 3 }] } } })).toEqual([
      `spec.provider.overrides.spec.rayClusterConfig.workerGroupSpecs[0].replicas: Forbidden: ${sizingOverrideMessage('replicas')}`,
    ]);
  });
});

describe('nothing half-written', () => {
  test('App.synth() fails on an override error before writing any file', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'override-rules-'));
    try {
      const app = new App({ outdir });
      const good = new Chart(app, 'good', { disableResourceNameHashes: true });
      ModelDeployment.fromManifest(good, 'ok', { ...record('kaito', { resource: { preferredNodes: ['n1'] } }), metadata: { name: 'ok', namespace: 'ml' } });
      const bad = new Chart(app, 'bad', { disableResourceNameHashes: true });
      ModelDeployment.fromManifest(bad, 'md', record('kaito', { resource: { count: 2 } }));
      expect(() => app.synth()).toThrow(/spec\.provider\.overrides\.resource\.count/);
      expect(fs.readdirSync(outdir)).toEqual([]);
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });
});
