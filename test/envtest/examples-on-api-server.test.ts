/**
 * Every example's synthesized objects, sent to a real kube-apiserver (control-plane.ts) with the
 * upstream CRDs installed: created with `dryRun=All` (server-side dry-run: admission, defaulting,
 * validation — OpenAPI schemas, CEL rules, Kubernetes' own validation of built-in kinds — and the
 * round trip through the storage encoding, nothing persisted) and `fieldValidation=Strict` (an
 * unknown or duplicate field is an error instead of being dropped). Each example asserts that
 * (a) the server rejects none of its objects and (b) prunes nothing: every field sent comes back
 * with the value sent (object-diff.ts; fields the server adds are ignored; quantities respelled
 * in canonical form are listed in the summary, not failed).
 *
 * Prerequisites the harness creates for real — the upstream CRDs and the namespaces the objects
 * live in — can also be objects an example emits (the controller example ships the airunway.ai
 * CRDs and its namespace). A dry-run create of those answers AlreadyExists, so they are checked
 * by a dry-run replace (PUT over the existing object, as `kubectl apply --dry-run=server` would
 * update it): the object sent replaces the whole existing one, so the same two assertions hold.
 *
 * The control plane starts once for the file. The binaries come from KUBEBUILDER_ASSETS or
 * scripts/envtest/build-binaries.sh (binaries.ts); without them the setup fails with the reason —
 * these tests are never skipped.
 */
import * as path from 'path';
import { ControlPlane } from './control-plane';
import { installCrds, InstalledCrd, upstreamCrdIndex, useStorageVersion } from './crds';
import { exampleEntries, synthesizeExample, SynthesizedExample } from './examples';
import { KubeApiError, KubeClient, KubeObject, refOf, splitApiVersion } from './kube-client';
import { fieldDifferences, formatDifferences } from './object-diff';
import { upstreamDir } from '../../src/schema-validation/upstream-schemas';

/** Generous: the first run on a machine may compile the binaries (build-binaries.sh), 15–35 minutes. */
const SETUP_TIMEOUT_MS = 45 * 60_000;
const EXAMPLE_TIMEOUT_MS = 5 * 60_000;

/**
 * CRDs installed whatever the examples emit today: the kinds the library synthesizes or refers to
 * (AI Runway's two, the routing kinds of both Inference Extension versions, Gateway API). The CRD
 * of any other custom kind an example emits is found in the upstream directory and added.
 */
const BASE_CRDS = [
  'airunway/airunway.ai_modeldeployments.yaml',
  'airunway/airunway.ai_inferenceproviderconfigs.yaml',
  'dynamo/nvidia.com_dynamographdeployments.yaml',
  'kuberay/ray.io_rayservices.yaml',
  'kaito/kaito.sh_workspaces.yaml',
  'gateway-api-inference-extension/inference.networking.k8s.io_inferencepools.yaml',
  'gateway-api-inference-extension/inference.networking.x-k8s.io_inferencepools.yaml',
  'gateway-api/gateway.networking.k8s.io_gateways.yaml',
  'gateway-api/gateway.networking.k8s.io_httproutes.yaml',
  'gateway-api/gateway.networking.k8s.io_referencegrants.yaml',
];

const { ts, yaml } = exampleEntries();
const exampleNames = [...ts, ...yaml];

let cp: ControlPlane | undefined;
let client: KubeClient;
let crds: InstalledCrd[] = [];
const synthesized = new Map<string, SynthesizedExample | Error>();
const timings: Record<string, number> = {};
const perExample: Array<{ example: string; objects: number; ms: number; kinds: string }> = [];
const warnings = new Set<string>();
const normalized: string[] = [];
/** Objects the harness created for real (CRDs, namespaces), by `objectKey`. */
const prerequisites = new Set<string>();

beforeAll(async () => {
  const t0 = Date.now();
  cp = await ControlPlane.start();
  timings.controlPlaneStartMs = cp.startTimings.totalMs;
  client = cp.client();
  client.onWarning = (w) => warnings.add(w);

  for (const name of exampleNames) {
    try {
      synthesized.set(name, await synthesizeExample(name));
    } catch (e) {
      synthesized.set(name, e as Error);
    }
  }

  const upstream = upstreamDir();
  const index = upstreamCrdIndex(upstream);
  const files = new Set(BASE_CRDS.map((f) => path.join(upstream, f)));
  for (const obj of allObjects()) {
    const file = index.get(`${splitApiVersion(obj.apiVersion).group}/${obj.kind}`);
    if (file) files.add(file);
  }
  const t1 = Date.now();
  crds = await installCrds(client, [...files]);
  timings.crdInstallMs = Date.now() - t1;
  for (const c of crds) prerequisites.add(objectKey({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: c.name } }));

  const namespaces = new Set(allObjects().map((o) => o.metadata?.namespace).filter((n): n is string => !!n));
  for (const ns of namespaces) {
    try {
      const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } };
      await client.create(namespace);
      prerequisites.add(objectKey(namespace));
    } catch (e) {
      if (!(e instanceof KubeApiError && e.status === 409)) throw e;
    }
  }
  timings.setupMs = Date.now() - t0;
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await cp?.stop();
  const lines = [
    `control plane start ${timings.controlPlaneStartMs} ms, CRD install ${timings.crdInstallMs} ms (${crds.length} CRDs), setup ${timings.setupMs} ms`,
    ...perExample.map((r) => `${r.example}: ${r.objects} objects in ${r.ms} ms (${r.kinds})`),
    ...normalized.map((n) => `quantity respelled by the server (same value): ${n}`),
    ...[...warnings].map((w) => `server warning: ${w}`),
  ];
  process.stdout.write(`\nexamples on the API server:\n  ${lines.join('\n  ')}\n`);
}, 60_000);

function allObjects(): KubeObject[] {
  return [...synthesized.values()].flatMap((s) => (s instanceof Error ? [] : s.objects));
}

function objectKey(o: KubeObject): string {
  return `${splitApiVersion(o.apiVersion).group}/${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
}

/**
 * Sends `obj` with dryRun=All and fieldValidation=Strict — a create, or a replace of the existing
 * object when the harness created it already — and returns what is wrong with the answer.
 */
async function check(obj: KubeObject): Promise<string | undefined> {
  const query = { dryRun: 'All', fieldValidation: 'Strict' };
  let returned: KubeObject;
  let how = 'create';
  try {
    try {
      returned = await client.create(obj, query);
    } catch (e) {
      if (!(e instanceof KubeApiError && e.reason === 'AlreadyExists' && prerequisites.has(objectKey(obj)))) throw e;
      how = 'replace of the object the harness created';
      const existing = await client.get(refOf(obj));
      returned = await client.replace({ ...obj, metadata: { ...obj.metadata, resourceVersion: existing.metadata!.resourceVersion } }, query);
    }
  } catch (e) {
    return `rejected: ${(e as Error).message}`;
  }
  const diffs = fieldDifferences(obj, returned);
  for (const line of formatDifferences(diffs.filter((d) => d.kind === 'normalized'))) normalized.push(`${describeObject(obj)}: ${line}`);
  const lost = diffs.filter((d) => d.kind !== 'normalized');
  return lost.length > 0 ? `not returned as sent (dry-run ${how}):\n    ${formatDifferences(lost).join('\n    ')}` : undefined;
}

function describeObject(o: KubeObject): string {
  const ns = o.metadata?.namespace ? `${o.metadata.namespace}/` : '';
  return `${o.apiVersion} ${o.kind} ${ns}${o.metadata?.name}`;
}

test('there are examples, and every one synthesizes', () => {
  expect(exampleNames.length).toBeGreaterThanOrEqual(5);
  const failed = [...synthesized].filter(([, s]) => s instanceof Error).map(([n, s]) => `${n}: ${(s as Error).message}`);
  expect(failed).toEqual([]);
});

test('every kind the examples emit is served by the API server', async () => {
  const kinds = [...new Set(allObjects().map((o) => `${o.apiVersion} ${o.kind}`))].sort();
  const unserved: string[] = [];
  for (const k of kinds) {
    const [apiVersion, kind] = k.split(' ');
    try {
      await client.resourceFor(apiVersion, kind);
    } catch (e) {
      unserved.push(`${k}: ${(e as Error).message}`);
    }
  }
  expect(unserved).toEqual([]);
});

test.each(exampleNames)('%s: the API server accepts every object (dryRun=All, fieldValidation=Strict) and prunes nothing', async (name) => {
  const s = synthesized.get(name);
  if (!s || s instanceof Error) throw new Error(`${name} did not synthesize: ${s?.message}`);
  expect(s.objects.length).toBeGreaterThan(0);
  const t0 = Date.now();
  const problems: string[] = [];
  for (const obj of s.objects) {
    const { group, version } = splitApiVersion(obj.apiVersion);
    const crd = crds.find((c) => c.group === group && c.kind === obj.kind);
    // Each version of a CRD whose conversion webhook was replaced is checked against its own
    // schema (crds.ts explains why).
    if (crd?.conversionReplaced) await useStorageVersion(client, crd, version);
    const problem = await check(obj);
    if (problem) problems.push(`${describeObject(obj)}: ${problem}`);
  }
  const kinds = new Map<string, number>();
  for (const o of s.objects) kinds.set(o.kind, (kinds.get(o.kind) ?? 0) + 1);
  perExample.push({ example: name, objects: s.objects.length, ms: Date.now() - t0, kinds: [...kinds].map(([k, n]) => `${n} ${k}`).join(', ') });
  if (problems.length > 0) {
    throw new Error(`${problems.length} of ${s.objects.length} objects of ${name}:\n  ${problems.join('\n  ')}`);
  }
}, EXAMPLE_TIMEOUT_MS);
