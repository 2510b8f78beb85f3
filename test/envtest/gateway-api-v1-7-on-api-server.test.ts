/**
 * Our Gateway API output — a Gateway's listener admitting the routes' namespaces, the model
 * HTTPRoutes (base model and a LoRA adapter, both endpoint picker generations), and the
 * ReferenceGrant of a provider pool in another namespace — sent to a real kube-apiserver with the
 * Gateway API v1.7 standard-channel CRDs installed (scripts/gateway-api/fetch-crds.sh fetches
 * them from the Go module proxy; ../shared/upstream holds v1.6.1). Each object is created with
 * `dryRun=All` and `fieldValidation=Strict`: the v1.7 OpenAPI schemas and CEL rules accept it and
 * nothing is pruned.
 *
 * Also pinned: what v1.7 serves for the kinds we emit. ReferenceGrant is still served as
 * `v1beta1` (its storage version) beside `v1`, so the `v1beta1` grant AI Runway writes stays
 * valid; HTTPRoute and Gateway are `v1`.
 *
 * Binaries: KUBEBUILDER_ASSETS or scripts/envtest/build-binaries.sh (binaries.ts); never skipped.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, Chart, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { runBuildScript } from './binaries';
import { ControlPlane } from './control-plane';
import { installCrds, InstalledCrd } from './crds';
import { KubeApiError, KubeClient, KubeObject } from './kube-client';
import { fieldDifferences, formatDifferences } from './object-diff';
import {
  BodyBasedRouter,
  EngineType,
  gateway as gatewayL1,
  GatewayRef,
  InferenceProviderConfig,
  LoraSource,
  ModelDeployment,
  ProviderRegistry,
} from '../../src';
import { ENDPOINT_PICKER_ANNOTATION } from '../../src/api/gateway/endpoint-picker-choice';

const FETCH_SCRIPT = path.resolve(__dirname, '..', '..', 'scripts', 'gateway-api', 'fetch-crds.sh');
const SETUP_TIMEOUT_MS = 45 * 60_000;
const KINDS = ['gateways', 'httproutes', 'referencegrants'];

let cp: ControlPlane | undefined;
let client: KubeClient;
let crdDir: string;
let crds: InstalledCrd[] = [];

beforeAll(async () => {
  crdDir = await runBuildScript(FETCH_SCRIPT, 'Gateway API CRDs', 'set GATEWAY_API_VERSION to a served release, or check the Go module proxy');
  cp = await ControlPlane.start();
  client = cp.client();
  crds = await installCrds(client, KINDS.map((k) => path.join(crdDir, `gateway.networking.k8s.io_${k}.yaml`)));
  for (const name of ['gateway-system', 'team-a', 'pools']) {
    try {
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    } catch (e) {
      if (!(e instanceof KubeApiError && e.status === 409)) throw e;
    }
  }
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await cp?.stop();
}, 60_000);

/** A Gateway, two routed deployments (one per picker generation, one with a LoRA adapter) and a provider pool in another namespace. */
function synthesize(): KubeObject[] {
  const app: App = Testing.app();
  const infra = new Chart(app, 'infra', { namespace: 'gateway-system' });
  const gw = new gatewayL1.Gateway(infra, 'Gateway', {
    metadata: { name: 'inference-gateway' },
    spec: { gatewayClassName: 'istio', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] },
  });
  const registry = new ProviderRegistry(app, 'Providers', { gateway: GatewayRef.fromGateway(gw) });
  const dynamo = registry.tryGet('dynamo')!.toManifest();
  for (const e of dynamo.spec.capabilities.engines) e.gateway.inferencePoolNamespace = 'pools';
  registry.register(InferenceProviderConfig.fromManifest(dynamo));
  BodyBasedRouter.fromExisting(app, 'BodyBasedRouter');
  const models = new Chart(app, 'models', { namespace: 'team-a' });
  new ModelDeployment(models, 'qwen', {
    model: { id: 'Qwen/Qwen3-8B' },
    provider: { name: 'vllm' },
    engine: { engineType: EngineType.VLLM },
    resources: { gpu: { count: 1 } },
    lora: { adapters: [{ name: 'qwen-sql', source: LoraSource.huggingFace('example/qwen-sql-lora') }] },
  });
  new ModelDeployment(models, 'phi', {
    metadata: { annotations: { [ENDPOINT_PICKER_ANNOTATION]: 'gaie-v1.5' } },
    model: { id: 'microsoft/Phi-4-mini-instruct' },
    provider: { name: 'vllm' },
    engine: { engineType: EngineType.VLLM },
    resources: { gpu: { count: 1 } },
  });
  new ModelDeployment(models, 'llama', { model: { id: 'meta-llama/Llama-3.1-8B-Instruct' }, engine: { engineType: EngineType.SGLANG }, resources: { gpu: { count: 1 } } });
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  if (errors.length > 0) throw new Error(`the app does not synthesize:\n  ${errors.join('\n  ')}`);
  return app.charts.flatMap((c) => Testing.synth(c)).filter((o: KubeObject) => o.apiVersion.startsWith('gateway.networking.k8s.io/'));
}

test('the installed CRDs are the v1.7 standard channel', () => {
  expect(crds.map((c) => c.kind).sort()).toEqual(['Gateway', 'HTTPRoute', 'ReferenceGrant']);
  for (const c of crds) {
    expect(c.manifest.metadata?.annotations?.['gateway.networking.k8s.io/bundle-version']).toMatch(/^v1\.7\.\d+$/);
    expect(c.manifest.metadata?.annotations?.['gateway.networking.k8s.io/channel']).toBe('standard');
  }
});

test('v1.7 still serves ReferenceGrant v1beta1 (its storage version) beside v1; HTTPRoute and Gateway store v1', () => {
  const byKind = Object.fromEntries(crds.map((c) => [c.kind, c]));
  expect(byKind.ReferenceGrant.versions).toEqual(expect.arrayContaining(['v1', 'v1beta1']));
  expect(byKind.ReferenceGrant.storageVersion).toBe('v1beta1');
  const deprecated = (YAML.parse(fs.readFileSync(byKind.ReferenceGrant.file, 'utf8')).spec.versions as any[]).filter((v) => v.deprecated);
  expect(deprecated).toEqual([]);
  expect(byKind.HTTPRoute.storageVersion).toBe('v1');
  expect(byKind.Gateway.storageVersion).toBe('v1');
});

test('our Gateway, HTTPRoutes and ReferenceGrant are accepted as sent (dryRun=All, fieldValidation=Strict)', async () => {
  const objects = synthesize();
  const kinds = objects.map((o) => `${o.apiVersion} ${o.kind} ${o.metadata?.namespace}/${o.metadata?.name}`).sort();
  expect(kinds).toEqual([
    'gateway.networking.k8s.io/v1 Gateway gateway-system/inference-gateway',
    'gateway.networking.k8s.io/v1 HTTPRoute team-a/llama',
    'gateway.networking.k8s.io/v1 HTTPRoute team-a/phi',
    'gateway.networking.k8s.io/v1 HTTPRoute team-a/qwen',
    'gateway.networking.k8s.io/v1beta1 ReferenceGrant pools/llama-pool-referencegrant',
  ]);
  // The LoRA adapter is routed as a model name of its own.
  expect(JSON.stringify(objects.find((o) => o.kind === 'HTTPRoute' && o.metadata?.name === 'qwen'))).toContain('qwen-sql');
  const problems: string[] = [];
  for (const obj of objects) {
    const where = `${obj.kind} ${obj.metadata?.namespace}/${obj.metadata?.name}`;
    try {
      const returned = await client.create(obj, { dryRun: 'All', fieldValidation: 'Strict' });
      const lost = fieldDifferences(obj, returned).filter((d) => d.kind !== 'normalized');
      if (lost.length > 0) problems.push(`${where}: not returned as sent:\n    ${formatDifferences(lost).join('\n    ')}`);
    } catch (e) {
      problems.push(`${where}: rejected: ${(e as Error).message}`);
    }
  }
  expect(problems).toEqual([]);
});

test('the v1.7 schema is enforced here: an HTTPRoute breaking one of its rules is refused', async () => {
  const route = synthesize().find((o) => o.kind === 'HTTPRoute' && o.metadata?.name === 'qwen')!;
  // Two rules of one name: v1.7 added the CEL rule that rule names are unique within a route.
  const rules = (route.spec.rules as any[]).map((r) => ({ ...r, name: 'same' }));
  const bad = { ...route, spec: { ...route.spec, rules: rules.length > 1 ? rules : [rules[0], rules[0]] } };
  await expect(client.create(bad, { dryRun: 'All', fieldValidation: 'Strict' })).rejects.toThrow(/unique/);
});
