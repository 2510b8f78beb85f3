/**
 * The `ModelDeploymentController` construct's synthesized output on a real kube-apiserver
 * (control-plane.ts: real etcd + kube-apiserver, the RBAC authorizer, the default admission
 * plugins incl. PodSecurity). Everything is created for real (not dry-run) with
 * `fieldValidation=Strict` unless a test says otherwise.
 *
 * What is proven:
 *
 * 1. CRDs. The two `airunway.ai/v1alpha1` CRDs the construct synthesizes are accepted, become
 *    Established with their names accepted, are served with a `status` subresource, and come back
 *    as sent. They accept every ModelDeployment record the examples synthesize, with nothing
 *    pruned (object-diff.ts). On AI Runway's own examples (airunway-spec-examples.ts: every
 *    ModelDeployment and InferenceProviderConfig manifest of ../shared/spec, plus the spec-only
 *    walk-through fragments wrapped into manifests) our CRDs and the upstream AI Runway CRDs
 *    (swapped in on the same server: deleted, re-created, and the served one identified by its
 *    printer columns) decide every example the same way — with `fieldValidation=Strict` and again
 *    with `Warn` (unknown fields pruned, so type and enum errors show too): accepted by both and
 *    stored identically (same defaults, same warnings), or rejected by both with the same reason
 *    and the same fields. The comparison has teeth: a copy of our CRD that no longer requires
 *    `spec.model` decides an example differently. A Table list (`kubectl get`) of
 *    ModelDeployments comes back with our columns (Provider, Engine, Phase, Ready, Endpoint, Age)
 *    filled from the status, and of InferenceProviderConfigs with Ready, Version, Age. The status
 *    subresource works: a merge patch through `/status` sticks (is validated, and does not bump
 *    `metadata.generation`); a status change through the main resource (patch or update) is
 *    ignored while the rest of the change is kept.
 * 2. Pod Security "restricted". The harness does not disable the PodSecurity admission plugin.
 *    The construct's Namespace carries `pod-security.kubernetes.io/enforce: restricted`; a Pod
 *    made of the controller Deployment's pod template is admitted there (server-side dry-run) with
 *    no warning; the same Pod without `runAsNonRoot`, or with `allowPrivilegeEscalation: true`, is
 *    rejected with the PodSecurity message naming the violation, and is admitted in a namespace
 *    without the label (so the label, not something else, rejects it). The Deployment and the
 *    metrics Service are created for real in the namespace as sent, with no warning.
 * 3. Least privilege. With the construct's ServiceAccount, ClusterRole(Binding) and
 *    Role(Binding) created for real, the identity a pod of that ServiceAccount has
 *    (`system:serviceaccount:cdk8s-inference-system:cdk8s-inference-controller` and its groups)
 *    is asked about through SelfSubjectAccessReviews — the real RBAC authorizer — and the access
 *    matrix is printed. It CAN get/list/watch modeldeployments and every kind the shipped
 *    providers emit and the controller runtime watches, patch modeldeployments/status, create and
 *    patch events, create Leases in its namespace (of any name: RBAC cannot limit `create` by
 *    name) and get/update the Lease `cdk8s-inference-controller` there. It CANNOT write
 *    ModelDeployments (create, update, patch, delete, update of /status), write any emitted kind,
 *    read secrets or configmaps, list pods, read or update another Lease, list Leases, use its
 *    Lease in another namespace, read InferenceProviderConfigs, or do anything cluster-wide beyond
 *    its rules (namespaces, nodes, CRDs, RBAC objects, bind/escalate, impersonate, token
 *    requests, `*`). A SelfSubjectRulesReview shows the authorizer grants it exactly the
 *    construct's rules on top of what every ServiceAccount has. Real requests as that identity
 *    agree with the reviews.
 *
 * One control plane for the file. Run time on 2 shared cores: ~25 s (15 s of it the four CRD
 * swaps, 3 s the control plane's start).
 */
import * as fs from 'fs';
import * as https from 'https';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { AIRUNWAY_API_VERSION, airunwaySpecExamples, SpecExample } from './airunway-spec-examples';
import { ControlPlane, serviceAccountUser } from './control-plane';
import { installCrds } from './crds';
import { exampleEntries, synthesizeExample } from './examples';
import { KubeApiError, KubeClient, KubeObject, refOf, waitFor } from './kube-client';
import { fieldDifferences, formatDifferences } from './object-diff';
import { ModelDeploymentController } from '../../src/constructs/model-deployment-controller';
import { dependencyKinds, ROUTING_KINDS } from '../../src/controller/runtime/watched-kinds';
import { upstreamCrdNames } from '../../src/controller-contract/upstream-crds';
import { defaultProviderCatalog } from '../../src/pipeline/shipped-providers';
import { upstreamDir } from '../../src/schema-validation/upstream-schemas';

const SETUP_TIMEOUT_MS = 45 * 60_000; // the first run on a machine may compile the binaries
const SWAP_TIMEOUT_MS = 5 * 60_000;
const CONTROLLER = 'cdk8s-inference-controller';
const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const MD = { apiVersion: AIRUNWAY_API_VERSION, kind: 'ModelDeployment' };
const IPC = { apiVersion: AIRUNWAY_API_VERSION, kind: 'InferenceProviderConfig' };
const STRICT = { fieldValidation: 'Strict' };

// ---- The construct's output ----

const app = Testing.app();
const controller = new ModelDeploymentController(new Chart(app, 'controller'), 'Controller', { image: 'registry.example.com/cdk8s-inference-controller:0.1.0' });
const synthesized: KubeObject[] = Testing.synth(app.charts[0]);
const NS = controller.namespace;
const SA = serviceAccountUser(NS, controller.serviceAccountName);
/** Another ServiceAccount, bound to nothing: what every ServiceAccount may do. */
const BASELINE = serviceAccountUser('elsewhere', 'nobody');

function emitted(kind: string, name?: string): KubeObject {
  const found = synthesized.filter((o) => o.kind === kind && (name === undefined || o.metadata?.name === name));
  if (found.length !== 1) throw new Error(`the construct emits ${found.length} ${kind}${name ? ` ${name}` : ''}`);
  return structuredClone(found[0]);
}
const ourCrds = synthesized.filter((o) => o.kind === 'CustomResourceDefinition');

let cp: ControlPlane | undefined;
let admin: KubeClient;
const warnings: string[] = [];
const report: string[] = [];
const matrix: AccessRow[] = [];

beforeAll(async () => {
  cp = await ControlPlane.start({ users: [SA, BASELINE] });
  admin = cp.client();
  admin.onWarning = (w, method, p) => warnings.push(`${method} ${p}: ${w}`);
  report.push(`control plane start ${cp.startTimings.totalMs} ms`);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await cp?.stop();
  const lines = [...report, '', 'access matrix of the controller ServiceAccount (SelfSubjectAccessReview; "real" = an actual request agreed):', ...formatMatrix(matrix)];
  process.stdout.write(`\ncontroller construct on the API server:\n  ${lines.join('\n  ')}\n`);
}, 60_000);

// ---- Helpers ----

/** What a promise rejects with (fails if it resolves). */
async function rejection(p: Promise<unknown>): Promise<KubeApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof KubeApiError) return e;
    throw e;
  }
  throw new Error('expected the API server to refuse the request');
}

/** Creates `obj` unless it exists (for prerequisites). */
async function ensure(obj: KubeObject): Promise<void> {
  try {
    await admin.create(obj);
  } catch (e) {
    if (!(e instanceof KubeApiError && e.status === 409)) throw e;
  }
}

async function ensureNamespace(name: string): Promise<void> {
  await ensure({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

/** Creates `obj` for real with fieldValidation=Strict, collecting the server's warnings, and returns what did not come back as sent. */
interface Created {
  readonly returned: KubeObject;
  readonly lost: string[];
  readonly warnings: string[];
}

async function createAsSent(obj: KubeObject, query: Record<string, string> = STRICT): Promise<Created> {
  const seen: string[] = [];
  const client = cp!.client();
  client.onWarning = (w) => seen.push(w);
  const returned = await client.create(obj, query);
  const lost = formatDifferences(fieldDifferences(obj, returned).filter((d) => d.kind !== 'normalized'));
  return { returned, lost, warnings: seen };
}

/** One GET with another Accept header (the client always asks for JSON). */
function getAs(token: string, urlPath: string, accept: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = https.request(new URL(cp!.baseUrl + urlPath), {
      method: 'GET',
      headers: { Authorization: `Bearer ${token}`, Accept: accept },
      ca: cp!.caPem,
      agent: false,
      timeout: 30_000,
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => ((res.statusCode ?? 0) < 300 ? resolve(JSON.parse(body)) : reject(new Error(`GET ${urlPath}: HTTP ${res.statusCode}: ${body}`))));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

/** A `kubectl get`-style Table of a collection. */
async function table(urlPath: string): Promise<{ columns: Array<{ name: string; type: string; description: string }>; rows: any[][] }> {
  const t = await getAs(cp!.adminToken, urlPath, TABLE);
  if (t.kind !== 'Table') throw new Error(`${urlPath}: asked for a Table, got ${t.kind}`);
  return { columns: t.columnDefinitions, rows: t.rows.map((r: any) => r.cells) };
}

async function deleteCrd(name: string): Promise<void> {
  try {
    await admin.request('DELETE', `${CRD_PATH}/${name}`);
  } catch (e) {
    if (!(e instanceof KubeApiError && e.status === 404)) throw e;
  }
  await waitFor(async () => {
    try {
      await admin.request('GET', `${CRD_PATH}/${name}`);
      return false;
    } catch (e) {
      if (e instanceof KubeApiError && e.status === 404) return true;
      throw e;
    }
  }, 120_000, `CRD ${name} to be deleted`, 200);
}

/** Writes CRD manifests to a file of the control plane's temp dir, for `installCrds`. */
function crdFile(name: string, manifests: KubeObject[]): string {
  const file = path.join(cp!.dir, name);
  fs.writeFileSync(file, manifests.map((m) => YAML.stringify(m)).join('---\n'));
  return file;
}

const UPSTREAM_CRD_FILES = ['airunway.ai_modeldeployments.yaml', 'airunway.ai_inferenceproviderconfigs.yaml'].map((f) => path.join(upstreamDir(), 'airunway', f));

function printerColumns(crd: KubeObject): Array<{ name: string; type: string; description?: string }> {
  return crd.spec.versions[0].additionalPrinterColumns;
}

/** Installs our CRDs (a no-op replace when they are installed), so that a test run alone (`-t`) has them. */
async function ensureOurCrds(): Promise<void> {
  await installCrds(admin, [crdFile('our-crds.yaml', ourCrds)]);
}

function upstreamCrds(): KubeObject[] {
  return UPSTREAM_CRD_FILES.map((f) => YAML.parse(fs.readFileSync(f, 'utf8')) as KubeObject);
}

/**
 * Makes `manifests` the airunway.ai CRDs served: deletes the installed pair (their objects go with
 * them), installs these, and waits until the Table columns of both kinds are theirs (the
 * apiextensions handler reads CRDs from an informer; the columns tell which one it serves).
 */
async function serveCrds(label: string, manifests: KubeObject[]): Promise<void> {
  for (const m of manifests) await deleteCrd(m.metadata!.name!);
  await installCrds(admin, [crdFile(`${label}-crds.yaml`, manifests)]);
  for (const m of manifests) {
    const plural = m.spec.names.plural;
    const collection = `/apis/${AIRUNWAY_API_VERSION}/${plural}`;
    // Names, and the descriptions the CRD declares (the server makes up one for a column without).
    const want = ['Name', ...printerColumns(m).map((c) => c.name)].join(',') + '|' + printerColumns(m).map((c) => c.description ?? '-').join(',');
    await waitFor(async () => {
      const t = await table(collection);
      const got = t.columns.map((c) => c.name).join(',') + '|' + t.columns.slice(1).map((c, k) => (printerColumns(m)[k]?.description === undefined ? '-' : c.description)).join(',');
      if (got !== want) throw new Error(`columns ${got}, not ${want}`);
      return true;
    }, 60_000, `${plural} to be served by the ${label} CRD`, 200);
  }
}

// ---- 1. CRDs ----

describe('1. the construct\'s CRDs on a real API server', () => {
  test('they install from the synthesized output, become Established with their names accepted, serve /status, and come back as sent', async () => {
    expect(ourCrds.map((c) => c.metadata!.name).sort()).toEqual(['inferenceproviderconfigs.airunway.ai', 'modeldeployments.airunway.ai']);
    const before = warnings.length;
    const installed = await installCrds(admin, [crdFile('our-crds.yaml', ourCrds)]);
    expect(warnings.slice(before)).toEqual([]);
    expect(installed.map((c) => `${c.kind} ${c.scope} ${c.versions.join(',')}`).sort()).toEqual([
      'InferenceProviderConfig Cluster v1alpha1',
      'ModelDeployment Namespaced v1alpha1',
    ]);
    for (const crd of ourCrds) {
      const live = await admin.request<KubeObject>('GET', `${CRD_PATH}/${crd.metadata!.name}`);
      const conditions = Object.fromEntries((live.status.conditions as any[]).map((c) => [c.type, c.status]));
      expect(conditions).toMatchObject({ NamesAccepted: 'True', Established: 'True' });
      expect(live.status.acceptedNames).toMatchObject({ kind: crd.spec.names.kind, plural: crd.spec.names.plural });
      expect(live.status.storedVersions).toEqual(['v1alpha1']);
      expect(formatDifferences(fieldDifferences(crd, live))).toEqual([]);
      const resource = await admin.resourceFor(AIRUNWAY_API_VERSION, crd.spec.names.kind);
      expect(resource.subresources).toEqual(['status']);
    }
    report.push(`our CRDs established: ${ourCrds.map((c) => c.metadata!.name).join(', ')}`);
  }, SWAP_TIMEOUT_MS);

  test('every ModelDeployment record the examples synthesize is created for real (fieldValidation=Strict) and nothing is pruned', async () => {
    await ensureOurCrds();
    const { ts, yaml } = exampleEntries();
    const records: Array<{ example: string; record: KubeObject }> = [];
    for (const name of [...ts, ...yaml]) {
      for (const o of (await synthesizeExample(name)).objects) {
        if (o.apiVersion === MD.apiVersion && o.kind === MD.kind) records.push({ example: name, record: o });
      }
    }
    expect(records.length).toBeGreaterThanOrEqual(5);
    const problems: string[] = [];
    const created = new Set<string>();
    for (const { example, record } of records) {
      const ns = record.metadata?.namespace ?? 'default';
      await ensureNamespace(ns);
      const key = `${ns}/${record.metadata!.name}`;
      // Two examples may render a record of the same name: the later one replaces the earlier.
      if (created.has(key)) await admin.delete(refOf({ ...record, metadata: { ...record.metadata, namespace: ns } }));
      try {
        const { lost, warnings: w } = await createAsSent(record);
        created.add(key);
        if (lost.length > 0) problems.push(`${example} ${key}: not returned as sent:\n    ${lost.join('\n    ')}`);
        if (w.length > 0) problems.push(`${example} ${key}: warnings: ${w.join('; ')}`);
      } catch (e) {
        problems.push(`${example} ${key}: ${(e as Error).message}`);
      }
    }
    report.push(`example records created on our CRD: ${records.length} (from ${new Set(records.map((r) => r.example)).size} examples), ${problems.length} problems`);
    expect(problems).toEqual([]);
  }, SWAP_TIMEOUT_MS);

  test('kubectl get columns: a Table list comes back with our column names, filled from the status', async () => {
    await ensureOurCrds();
    const ns = 'construct-columns';
    await ensureNamespace(ns);
    const ref = { ...MD, namespace: ns, name: 'qwen' };
    await admin.create({ ...MD, metadata: { name: 'qwen', namespace: ns }, spec: { model: { id: 'Qwen/Qwen3-0.6B' }, engine: { type: 'vllm' } } }, STRICT);
    await admin.patchStatus(ref, { status: { phase: 'Running', provider: { name: 'kaito' }, engine: { type: 'vllm' }, replicas: { desired: 2, ready: 2 }, endpoint: { service: 'qwen', port: 80 } } }, 'merge', STRICT);

    const md = await table(`/apis/${AIRUNWAY_API_VERSION}/namespaces/${ns}/modeldeployments`);
    const expected = printerColumns(emitted('CustomResourceDefinition', 'modeldeployments.airunway.ai'));
    expect(md.columns.map((c) => c.name)).toEqual(['Name', 'Provider', 'Engine', 'Phase', 'Ready', 'Endpoint', 'Age']);
    expect(md.columns.slice(1).map((c) => [c.name, c.type, c.description])).toEqual(expected.map((c) => [c.name, c.type, c.description]));
    expect(md.rows).toHaveLength(1);
    expect(md.rows[0].slice(0, 6)).toEqual(['qwen', 'kaito', 'vllm', 'Running', 2, 'qwen']);
    expect(md.rows[0][6]).toMatch(/^\d+s$/);

    await admin.create({ ...IPC, metadata: { name: 'columns-probe' }, spec: { capabilities: { engines: [{ name: 'vllm', gpuSupport: true }] } } }, STRICT);
    await admin.patchStatus({ ...IPC, name: 'columns-probe' }, { status: { ready: true, version: 'probe:v1' } }, 'merge', STRICT);
    const ipc = await table(`/apis/${AIRUNWAY_API_VERSION}/inferenceproviderconfigs`);
    expect(ipc.columns.map((c) => c.name)).toEqual(['Name', 'Ready', 'Version', 'Age']);
    expect(ipc.rows.find((r) => r[0] === 'columns-probe')?.slice(0, 3)).toEqual(['columns-probe', true, 'probe:v1']);
    report.push(`kubectl get modeldeployments: ${md.columns.map((c) => c.name).join(' ')} → ${md.rows[0].join(' ')}`);
    report.push(`kubectl get inferenceproviderconfigs: ${ipc.columns.map((c) => c.name).join(' ')}`);
  });

  test('the status subresource: a status patch through /status sticks; a status change through the main resource is ignored', async () => {
    await ensureOurCrds();
    const ns = 'construct-status';
    await ensureNamespace(ns);
    const ref = { ...MD, namespace: ns, name: 'status-probe' };
    const created = await admin.create({ ...MD, metadata: { name: 'status-probe', namespace: ns }, spec: { model: { id: 'Qwen/Qwen3-0.6B' }, engine: { type: 'vllm' } } }, STRICT);
    expect(created.status).toBeUndefined();
    expect(created.metadata!.generation).toBe(1);

    // Through /status: sticks, validated against the status schema, no generation bump.
    const patched = await admin.patchStatus(ref, { status: { phase: 'Deploying', message: 'through /status' } }, 'merge', STRICT);
    expect(patched.status).toEqual({ phase: 'Deploying', message: 'through /status' });
    expect(patched.metadata!.generation).toBe(1);
    expect((await admin.get(ref)).status).toEqual({ phase: 'Deploying', message: 'through /status' });
    const invalid = await rejection(admin.patchStatus(ref, { status: { phase: 'Exploded' } }, 'merge', STRICT));
    expect(invalid).toMatchObject({ status: 422, reason: 'Invalid' });
    expect(invalid.serverMessage).toContain('status.phase');

    // Through the main resource: the status part is dropped, the rest of the change kept.
    const viaMain = await admin.patch(ref, { metadata: { labels: { touched: 'by-main-resource' } }, status: { phase: 'Failed', message: 'through the main resource' } }, 'merge', STRICT);
    expect(viaMain.metadata!.labels).toEqual({ touched: 'by-main-resource' });
    expect(viaMain.status).toEqual({ phase: 'Deploying', message: 'through /status' });
    const current = await admin.get(ref);
    const replaced = await admin.replace({ ...current, spec: { ...current.spec, scaling: { replicas: 3 } }, status: { phase: 'Running' } }, STRICT);
    expect(replaced.spec.scaling).toEqual({ replicas: 3 });
    expect(replaced.metadata!.generation).toBe(2);
    expect(replaced.status).toEqual({ phase: 'Deploying', message: 'through /status' });
    expect((await admin.get(ref)).status).toEqual({ phase: 'Deploying', message: 'through /status' });
  });

  test('AI Runway\'s spec examples: each one the upstream CRD accepts ours accepts (stored identically), each one it rejects ours rejects with the same fields', async () => {
    // From empty CRDs (re-created), so no record of an earlier test shares a name with an example.
    await serveCrds('ours', ourCrds);
    const examples = airunwaySpecExamples();
    expect(examples.filter((e) => e.source === 'document').length).toBeGreaterThanOrEqual(3);
    for (const ns of new Set(examples.map((e) => e.manifest.metadata?.namespace).filter((n): n is string => !!n))) await ensureNamespace(ns);

    const ours = await decideBoth(examples);
    let upstream: Record<Mode, Decision[]>;
    try {
      await serveCrds('upstream', upstreamCrds());
      upstream = await decideBoth(examples);
    } finally {
      await serveCrds('ours', ourCrds);
    }

    const mismatches: string[] = [];
    for (const mode of MODES) {
      const rows: string[] = [];
      examples.forEach((e, k) => {
        const o = ours[mode][k];
        const u = upstream[mode][k];
        const id = `${e.id} [${mode}]`;
        rows.push(`${e.id} (${e.source}, ${e.how}) ${e.manifest.kind} ${e.manifest.metadata?.name}: upstream ${outcomeText(u)}; ours ${outcomeText(o)}`);
        if (o.accepted !== u.accepted) {
          mismatches.push(`${id}: upstream ${outcomeText(u)}, ours ${outcomeText(o)}`);
        } else if (!o.accepted) {
          if (o.reason !== u.reason || JSON.stringify(o.fields) !== JSON.stringify(u.fields)) mismatches.push(`${id}: rejected differently: upstream ${outcomeText(u)}, ours ${outcomeText(o)}`);
        } else {
          if (JSON.stringify(o.stored) !== JSON.stringify(u.stored)) mismatches.push(`${id}: stored differently:\n    upstream ${JSON.stringify(u.stored)}\n    ours     ${JSON.stringify(o.stored)}`);
          if (JSON.stringify(o.warnings) !== JSON.stringify(u.warnings)) mismatches.push(`${id}: warned differently: upstream ${u.warnings.join('; ')}, ours ${o.warnings.join('; ')}`);
        }
        // With Strict, an accepted example keeps every field; with Warn, ours prunes what upstream prunes (compared above).
        if (mode === 'Strict' && o.accepted && o.lost.length > 0) mismatches.push(`${id}: our CRD did not return it as sent: ${o.lost.join('; ')}`);
      });
      const count = (list: Decision[], accepted: boolean, source?: SpecExample['source']): number =>
        list.filter((d, k) => d.accepted === accepted && (source === undefined || examples[k].source === source)).length;
      for (const [label, list] of [['the upstream CRD', upstream[mode]], ['our CRD', ours[mode]]] as const) {
        report.push(`AI Runway spec examples, fieldValidation=${mode}, on ${label}: ${count(list, true)} accepted, ${count(list, false)} rejected of ${examples.length}` +
          ` (documents ${count(list, true, 'document')} accepted/${count(list, false, 'document')} rejected, fragments ${count(list, true, 'fragment')}/${count(list, false, 'fragment')})`);
      }
      report.push(...rows.map((r) => `  ${r}`));
    }
    expect(mismatches).toEqual([]);
    // Both outcomes occur, so the comparison compared something on each side.
    expect(upstream.Strict.some((d) => d.accepted)).toBe(true);
    expect(upstream.Strict.some((d) => !d.accepted)).toBe(true);
  }, SWAP_TIMEOUT_MS);

  test('fails when the schema differs: a copy of our ModelDeployment CRD that does not require spec.model decides an example otherwise', async () => {
    // The comparison has teeth: the Direct vLLM fragment of the CRD reference (no spec.model) is
    // rejected by upstream's CRD and ours, and accepted by a CRD that drops the requirement.
    const fragment = airunwaySpecExamples().find((e) => e.source === 'fragment' && e.manifest.spec.model === undefined && e.manifest.kind === 'ModelDeployment');
    expect(fragment).toBeDefined();
    await ensureNamespace(fragment!.manifest.metadata!.namespace!);
    const altered = structuredClone(ourCrds).map((crd) => {
      if (crd.spec.names.kind === 'ModelDeployment') {
        const spec = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;
        spec.required = (spec.required as string[]).filter((r) => r !== 'model');
        if (spec.required.length === 0) delete spec.required;
      }
      return crd;
    });
    await ensureOurCrds();
    const [ours] = await decideAll([fragment!], 'Strict');
    let alteredDecision: Decision;
    try {
      await serveCrds('altered', altered);
      [alteredDecision] = await decideAll([fragment!], 'Strict');
    } finally {
      await serveCrds('ours', ourCrds);
    }
    expect(outcomeText(ours)).toBe('rejected Invalid [spec.model]');
    expect(outcomeText(alteredDecision)).toBe('accepted');
  }, SWAP_TIMEOUT_MS);
});

/**
 * `Strict`: an unknown field is an error (what the brief's CRD comparison is about). `Warn` (the
 * server's default): unknown fields are pruned with a warning, so the structural schema's other
 * errors (types, enums, required fields) show even for an example that also has unknown fields.
 */
type Mode = 'Strict' | 'Warn';
const MODES: Mode[] = ['Strict', 'Warn'];

interface Decision {
  readonly accepted: boolean;
  /** Rejected: the Status reason and the fields it names (causes, `unknown field "..."`), sorted. */
  readonly reason?: string;
  readonly fields: string[];
  readonly message?: string;
  /** Accepted: the object as stored, without the server-owned metadata. */
  readonly stored?: KubeObject;
  /** Accepted: fields not returned as sent. */
  readonly lost: string[];
  /** The server's warnings, sorted. */
  readonly warnings: string[];
}

function outcomeText(d: Decision): string {
  if (!d.accepted) return `rejected ${d.reason} [${d.fields.join(', ')}]`;
  return `accepted${d.lost.length > 0 ? ` (pruned: ${d.lost.map((l) => l.replace(/ \(sent .*$/, '').replace(/^pruned /, '')).join(', ')})` : ''}`;
}

async function decideBoth(examples: SpecExample[]): Promise<Record<Mode, Decision[]>> {
  return { Strict: await decideAll(examples, 'Strict'), Warn: await decideAll(examples, 'Warn') };
}

/** Creates each example for real, records the outcome, deletes what was created. */
async function decideAll(examples: SpecExample[], fieldValidation: Mode): Promise<Decision[]> {
  const client = cp!.client();
  let seen: string[] = [];
  client.onWarning = (w) => seen.push(w);
  const out: Decision[] = [];
  for (const e of examples) {
    const obj = structuredClone(e.manifest);
    seen = [];
    try {
      const returned = await client.create(obj, { fieldValidation });
      await admin.delete(refOf(returned));
      const stored = structuredClone(returned);
      for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields']) delete stored.metadata![k];
      const lost = formatDifferences(fieldDifferences(obj, returned).filter((d) => d.kind !== 'normalized'));
      out.push({ accepted: true, fields: [], stored, lost, warnings: [...seen].sort() });
    } catch (err) {
      // Not a decision on the example: the harness's fault (a leftover object) or the server's.
      if (!(err instanceof KubeApiError) || err.status === 0 || err.status === 409 || err.status >= 500) throw err;
      const causes: any[] = err.body?.details?.causes ?? [];
      const fields = new Set<string>(causes.map((c) => c.field).filter((f: unknown): f is string => typeof f === 'string' && f !== ''));
      for (const m of err.serverMessage.matchAll(/unknown field "([^"]+)"/g)) fields.add(m[1]);
      out.push({ accepted: false, reason: err.reason, fields: [...fields].sort(), message: err.serverMessage, lost: [], warnings: [...seen].sort() });
    }
  }
  return out;
}

// ---- 2. Pod Security "restricted" ----

/** A Pod made of the controller Deployment's pod template. */
function controllerPod(namespace: string, name: string): KubeObject {
  const template = emitted('Deployment', CONTROLLER).spec.template;
  return { apiVersion: 'v1', kind: 'Pod', metadata: { ...template.metadata, name, namespace }, spec: template.spec };
}

describe('2. Pod Security "restricted"', () => {
  test('the harness leaves the PodSecurity admission plugin on', () => {
    const firstLine = fs.readFileSync(path.join(cp!.dir, 'kube-apiserver.log'), 'utf8').split('\n')[0];
    const flag = (name: string): string | undefined => new RegExp(`\\s--${name}=(\\S*)`).exec(firstLine)?.[1];
    expect(firstLine).toContain('kube-apiserver');
    expect(flag('disable-admission-plugins')?.split(',')).not.toContain('PodSecurity');
    // No admission configuration that could exempt namespaces or change the defaults.
    expect(flag('admission-control-config-file')).toBeUndefined();
    const enabled = flag('enable-admission-plugins');
    if (enabled !== undefined) expect(enabled.split(',')).toContain('PodSecurity');
  });

  test('the construct\'s Namespace enforces "restricted", and a Pod of the controller\'s pod template is admitted there with no warning', async () => {
    const namespace = emitted('Namespace');
    expect(namespace.metadata!.name).toBe(NS);
    expect(namespace.metadata!.labels).toMatchObject({ 'pod-security.kubernetes.io/enforce': 'restricted' });
    const ns = await createAsSent(namespace);
    expect(ns.lost).toEqual([]);
    expect(ns.warnings).toEqual([]);

    const pod = controllerPod(NS, 'controller-pod-security-probe');
    const admitted = await createAsSent(pod, { ...STRICT, dryRun: 'All' });
    expect(admitted.warnings).toEqual([]);
    expect(admitted.lost).toEqual([]);
    expect(admitted.returned.metadata!.uid).toBeTruthy();
    report.push(`Pod Security: the controller pod is admitted in ${NS} (enforce=restricted) with no warning`);
  });

  const violations: Array<[string, (pod: KubeObject) => void, RegExp[]]> = [
    ['without runAsNonRoot', (pod) => delete pod.spec.securityContext.runAsNonRoot, [/runAsNonRoot != true/]],
    ['with allowPrivilegeEscalation: true', (pod) => (pod.spec.containers[0].securityContext.allowPrivilegeEscalation = true), [/allowPrivilegeEscalation != false/]],
    ['without runAsNonRoot and with allowPrivilegeEscalation: true', (pod) => {
      delete pod.spec.securityContext.runAsNonRoot;
      pod.spec.containers[0].securityContext.allowPrivilegeEscalation = true;
    }, [/runAsNonRoot != true/, /allowPrivilegeEscalation != false/]],
  ];

  test.each(violations)('fails when the pod is %s: rejected with a PodSecurity message, admitted where nothing is enforced', async (what, mutate, expected) => {
    await ensure(emitted('Namespace'));
    const pod = controllerPod(NS, 'controller-pod-security-violation');
    mutate(pod);
    const e = await rejection(admin.create(pod, { ...STRICT, dryRun: 'All' }));
    expect(e).toMatchObject({ status: 403, reason: 'Forbidden' });
    expect(e.serverMessage).toContain('violates PodSecurity "restricted:latest"');
    for (const r of expected) expect(e.serverMessage).toMatch(r);
    report.push(`Pod Security: pod ${what}: ${e.serverMessage.replace(/^.*?(violates)/, '$1')}`);

    // The control: the same pod where no level is enforced is admitted.
    await ensureNamespace('no-pod-security');
    await admin.create({ ...pod, metadata: { ...pod.metadata, namespace: 'no-pod-security' } }, { ...STRICT, dryRun: 'All' });
  });

  test('the Deployment and the metrics Service are created for real in that namespace, as sent and with no warning', async () => {
    await ensure(emitted('Namespace'));
    for (const obj of [emitted('Deployment'), emitted('Service')]) {
      const r = await createAsSent(obj);
      expect({ kind: obj.kind, lost: r.lost, warnings: r.warnings }).toEqual({ kind: obj.kind, lost: [], warnings: [] });
    }
  });
});

// ---- 3. Least privilege ----

interface AccessCheck {
  readonly verb: string;
  readonly group?: string;
  readonly resource: string;
  readonly subresource?: string;
  /** '' or absent: all namespaces / cluster-scoped. */
  readonly namespace?: string;
  readonly name?: string;
}

interface AccessRow extends AccessCheck {
  readonly expected: boolean;
  readonly allowed: boolean;
  /** Set when an actual request was made as the ServiceAccount too: did it agree with the review? */
  real?: string;
}

async function review(client: KubeClient, check: AccessCheck): Promise<boolean> {
  const r = await client.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: check.verb, group: check.group ?? '', resource: check.resource, subresource: check.subresource, namespace: check.namespace ?? '', name: check.name } },
    },
  });
  return r.status.allowed === true;
}

function describeCheck(c: AccessCheck): string {
  const resource = `${c.resource}${c.subresource ? `/${c.subresource}` : ''}${c.group ? `.${c.group}` : ''}`;
  return `${c.verb} ${resource}${c.name ? ` ${c.name}` : ''} ${c.namespace ? `in ${c.namespace}` : '(all namespaces / cluster)'}`;
}

/** The matrix, one line per answer and object with the verbs joined (`!` marks an answer other than expected). */
function formatMatrix(rows: AccessRow[]): string[] {
  if (rows.length === 0) return ['(not run)'];
  const lines = new Map<string, { head: string; verbs: string[]; tail: string }>();
  for (const r of rows) {
    const head = `${r.allowed ? 'CAN   ' : 'CANNOT'} ${r.allowed === r.expected ? ' ' : '!'}`;
    const tail = ` ${`${r.resource}${r.subresource ? `/${r.subresource}` : ''}`.padEnd(30)} ${(r.group || 'core').padEnd(30)}` +
      ` ${(r.namespace || '*').padEnd(23)} ${(r.name ?? '').padEnd(28)}${r.real ? ` real request: ${r.real}` : ''}`;
    const key = head + tail;
    const line = lines.get(key) ?? { head, verbs: [], tail };
    line.verbs.push(r.verb);
    lines.set(key, line);
  }
  const header = `${'ANSWER'.padEnd(8)} ${'verbs'.padEnd(26)} ${'resource'.padEnd(30)} ${'group'.padEnd(30)} ${'namespace'.padEnd(23)} name`;
  return [header, ...[...lines.values()].map((l) => `${l.head} ${l.verbs.join(',').padEnd(26)}${l.tail}`.trimEnd())];
}

const RECORD_NS = 'team-a';
const AIRUNWAY = 'airunway.ai';

/** Every kind the shipped providers emit plus the routing kinds; and every kind the runtime watches (a subset). */
function readKinds(): Array<{ group: string; resource: string }> {
  const catalog = defaultProviderCatalog();
  const kinds = [
    ...catalog.entries.flatMap((e) => catalog.provider(e.name)?.emittedKinds() ?? []),
    ...ROUTING_KINDS,
    // The CRDs are read by name only (crdChecks).
    ...dependencyKinds(catalog).filter((k) => k.objectName === undefined),
  ];
  const out = new Map<string, { group: string; resource: string }>();
  for (const k of kinds) {
    const group = k.apiVersion.includes('/') ? k.apiVersion.split('/')[0] : '';
    out.set(`${k.resource}.${group}`, { group, resource: k.resource });
  }
  return [...out.values()].sort((a, b) => `${a.group}/${a.resource}`.localeCompare(`${b.group}/${b.resource}`));
}

function allowedChecks(): AccessCheck[] {
  const checks: AccessCheck[] = [];
  for (const verb of ['get', 'list', 'watch']) {
    checks.push({ verb, group: AIRUNWAY, resource: 'modeldeployments' }, { verb, group: AIRUNWAY, resource: 'modeldeployments', namespace: RECORD_NS });
  }
  checks.push({ verb: 'patch', group: AIRUNWAY, resource: 'modeldeployments', subresource: 'status', namespace: RECORD_NS, name: 'any-record' });
  for (const k of readKinds()) for (const verb of ['get', 'list', 'watch']) checks.push({ verb, group: k.group, resource: k.resource });
  // IncompatibleUpstream: each CRD of a kind a record can hold, by name (list and watch with a metadata.name field selector).
  for (const name of upstreamCrdNames(defaultProviderCatalog())) {
    for (const verb of ['get', 'list', 'watch']) checks.push({ verb, group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', name });
  }
  checks.push(
    { verb: 'create', resource: 'events', namespace: RECORD_NS },
    { verb: 'patch', resource: 'events', namespace: RECORD_NS },
    { verb: 'create', group: 'coordination.k8s.io', resource: 'leases', namespace: NS },
    // RBAC cannot limit `create` by name (the name is not part of a create's attributes): any name
    // can be created, but only `cdk8s-inference-controller` read or renewed afterwards.
    { verb: 'create', group: 'coordination.k8s.io', resource: 'leases', namespace: NS, name: 'any-name' },
    { verb: 'get', group: 'coordination.k8s.io', resource: 'leases', namespace: NS, name: CONTROLLER },
    { verb: 'update', group: 'coordination.k8s.io', resource: 'leases', namespace: NS, name: CONTROLLER },
  );
  return checks;
}

function deniedChecks(): AccessCheck[] {
  const lease = { group: 'coordination.k8s.io', resource: 'leases' };
  const checks: AccessCheck[] = [];
  for (const verb of ['create', 'update', 'patch', 'delete', 'deletecollection']) checks.push({ verb, group: AIRUNWAY, resource: 'modeldeployments', namespace: RECORD_NS });
  checks.push(
    { verb: 'update', group: AIRUNWAY, resource: 'modeldeployments', subresource: 'status', namespace: RECORD_NS, name: 'any-record' },
    { verb: 'update', group: AIRUNWAY, resource: 'modeldeployments', subresource: 'finalizers', namespace: RECORD_NS, name: 'any-record' },
    { verb: 'list', group: AIRUNWAY, resource: 'inferenceproviderconfigs' },
    { verb: 'update', group: AIRUNWAY, resource: 'inferenceproviderconfigs', name: 'dynamo' },
  );
  for (const k of readKinds()) for (const verb of ['create', 'patch', 'delete']) checks.push({ verb, group: k.group, resource: k.resource, namespace: RECORD_NS });
  checks.push(
    { verb: 'patch', group: 'apps', resource: 'deployments', namespace: NS, name: CONTROLLER },
    { verb: 'get', resource: 'secrets', namespace: NS },
    { verb: 'get', resource: 'secrets', namespace: RECORD_NS, name: 'hf-token' },
    { verb: 'list', resource: 'secrets' },
    { verb: 'get', resource: 'configmaps', namespace: RECORD_NS },
    { verb: 'list', resource: 'pods', namespace: RECORD_NS },
    { verb: 'list', resource: 'pods' },
    { verb: 'create', resource: 'pods', subresource: 'exec', namespace: RECORD_NS, name: 'any-pod' },
    { verb: 'get', resource: 'events', namespace: RECORD_NS },
    { verb: 'delete', resource: 'events', namespace: RECORD_NS },
    { verb: 'update', ...lease, namespace: NS, name: 'another-lease' },
    { verb: 'get', ...lease, namespace: NS, name: 'another-lease' },
    { verb: 'delete', ...lease, namespace: NS, name: CONTROLLER },
    { verb: 'list', ...lease, namespace: NS },
    { verb: 'watch', ...lease, namespace: NS },
    { verb: 'get', ...lease, namespace: 'kube-system', name: CONTROLLER },
    { verb: 'update', ...lease, namespace: 'kube-system', name: CONTROLLER },
    { verb: 'create', ...lease, namespace: 'kube-system' },
    { verb: 'list', resource: 'namespaces' },
    { verb: 'create', resource: 'namespaces' },
    { verb: 'list', resource: 'nodes' },
    { verb: 'create', resource: 'serviceaccounts', subresource: 'token', namespace: NS, name: CONTROLLER },
    { verb: 'impersonate', resource: 'users' },
    { verb: 'impersonate', resource: 'serviceaccounts', namespace: NS },
    { verb: 'list', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'watch', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'get', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', name: 'modeldeployments.airunway.ai' },
    { verb: 'update', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', name: 'modeldeployments.airunway.ai' },
    { verb: 'update', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', name: 'httproutes.gateway.networking.k8s.io' },
    { verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'clusterroles' },
    { verb: 'update', group: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: CONTROLLER },
    { verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'rolebindings', namespace: NS },
    { verb: 'bind', group: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: 'cluster-admin' },
    { verb: 'escalate', group: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: CONTROLLER },
    { verb: 'create', group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations' },
    { verb: '*', group: '*', resource: '*' },
    { verb: 'get', group: '*', resource: '*', namespace: NS },
  );
  return checks;
}

/** Rules as sorted JSON strings, for comparing sets of PolicyRules. */
function ruleKeys(rules: any[]): string[] {
  return rules.map((r) => JSON.stringify({
    verbs: [...(r.verbs ?? [])].sort(),
    apiGroups: [...(r.apiGroups ?? [])].sort(),
    resources: [...(r.resources ?? [])].sort(),
    resourceNames: [...(r.resourceNames ?? [])].sort(),
    nonResourceURLs: [...(r.nonResourceURLs ?? [])].sort(),
  })).sort();
}

function minus(all: string[], taken: string[]): string[] {
  const rest = [...all];
  for (const t of taken) {
    const k = rest.indexOf(t);
    if (k >= 0) rest.splice(k, 1);
  }
  return rest;
}

async function rulesReview(client: KubeClient, namespace: string): Promise<{ resource: string[]; nonResource: string[]; incomplete: boolean }> {
  const r = await client.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace } },
  });
  const { resourceRules, nonResourceRules, incomplete } = r.status;
  return { resource: ruleKeys(resourceRules ?? []), nonResource: ruleKeys(nonResourceRules ?? []), incomplete };
}

describe('3. least privilege, by the real RBAC authorizer', () => {
  let sa: KubeClient;
  beforeAll(async () => {
    sa = cp!.client(SA.name);
    await ensure(emitted('Namespace'));
  });

  test('the ServiceAccount, ClusterRole(Binding) and Role(Binding) are created for real, as sent', async () => {
    const rbac = synthesized.filter((o) => ['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'].includes(o.kind));
    expect(rbac.map((o) => o.kind).sort()).toEqual(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'ServiceAccount']);
    for (const obj of rbac) {
      const r = await createAsSent(obj);
      expect({ kind: obj.kind, lost: r.lost, warnings: r.warnings }).toEqual({ kind: obj.kind, lost: [], warnings: [] });
    }
    // The binding names the identity the harness authenticates.
    expect(emitted('ClusterRoleBinding').subjects).toEqual([{ kind: 'ServiceAccount', name: CONTROLLER, namespace: NS }]);
    expect(SA.name).toBe(`system:serviceaccount:${NS}:${CONTROLLER}`);
  });

  test('it CAN read the records and every emitted and watched kind, patch records\' status, write events, and take its own Lease', async () => {
    const refused: string[] = [];
    for (const check of allowedChecks()) {
      const allowed = await review(sa, check);
      matrix.push({ ...check, expected: true, allowed });
      if (!allowed) refused.push(describeCheck(check));
    }
    expect(refused).toEqual([]);
    // Informational (the README's design: every emitted kind is readable): what is granted that the
    // runtime does not use today.
    const watched = new Set(dependencyKinds(defaultProviderCatalog()).map((k) => k.resource));
    const unread = readKinds().filter((k) => !watched.has(k.resource)).map((k) => `${k.resource}${k.group ? `.${k.group}` : ''}`);
    report.push(`granted but not read by the controller runtime (emitted kinds no status reads): ${unread.join(', ') || 'none'}`);
  });

  test('fails when it tries anything else: it CANNOT write records or upstream kinds, read secrets, list pods, touch another Lease, or act cluster-wide', async () => {
    const granted: string[] = [];
    for (const check of deniedChecks()) {
      const allowed = await review(sa, check);
      matrix.push({ ...check, expected: false, allowed });
      if (allowed) granted.push(describeCheck(check));
    }
    expect(granted).toEqual([]);
  });

  test('the authorizer grants it exactly the construct\'s rules on top of what every ServiceAccount has', async () => {
    const clusterRules = ruleKeys(emitted('ClusterRole').rules);
    const roleRules = ruleKeys(emitted('Role').rules);
    const baseline = cp!.client(BASELINE.name);
    for (const [namespace, expected] of [[NS, [...clusterRules, ...roleRules].sort()], [RECORD_NS, clusterRules]] as const) {
      const mine = await rulesReview(sa, namespace);
      const base = await rulesReview(baseline, namespace);
      expect(mine.incomplete).toBe(false);
      expect(minus(mine.resource, base.resource)).toEqual(expected);
      expect(minus(base.resource, mine.resource)).toEqual([]);
      expect(mine.nonResource).toEqual(base.nonResource);
    }
    // No wildcard anywhere in the construct's rules.
    for (const rule of [...emitted('ClusterRole').rules, ...emitted('Role').rules]) {
      for (const field of ['verbs', 'apiGroups', 'resources']) expect(rule[field]).not.toContain('*');
    }
  });

  test('real requests as the ServiceAccount agree with the reviews', async () => {
    await ensureOurCrds();
    await ensureNamespace(RECORD_NS);
    const record = { ...MD, metadata: { name: 'rbac-probe', namespace: RECORD_NS, labels: { 'inference.cdk8s.io/rendered-by': 'cdk8s-inference' } }, spec: { model: { id: 'Qwen/Qwen3-0.6B' }, engine: { type: 'vllm' } } };
    await admin.create(record, STRICT);
    await admin.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'hf-token', namespace: RECORD_NS }, stringData: { HF_TOKEN: 'x' } });
    await admin.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'another-lease', namespace: NS }, spec: { holderIdentity: 'someone-else' } });
    const recordRef = refOf(record);
    const leaseRef = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: NS, name: CONTROLLER };
    const otherLeaseRef = { ...leaseRef, name: 'another-lease' };

    const attempts: Array<[AccessCheck, boolean, () => Promise<unknown>]> = [
      [{ verb: 'list', group: AIRUNWAY, resource: 'modeldeployments' }, true, () => sa.list(MD)],
      [{ verb: 'watch', group: AIRUNWAY, resource: 'modeldeployments' }, true, () => sa.request('GET', `/apis/${AIRUNWAY_API_VERSION}/modeldeployments`, { query: { watch: 'true', timeoutSeconds: 1 } })],
      [{ verb: 'get', group: AIRUNWAY, resource: 'modeldeployments', namespace: RECORD_NS, name: 'rbac-probe' }, true, () => sa.get(recordRef)],
      [{ verb: 'patch', group: AIRUNWAY, resource: 'modeldeployments', subresource: 'status', namespace: RECORD_NS, name: 'rbac-probe' }, true,
        () => sa.patchStatus(recordRef, { status: { phase: 'Pending' } }, 'merge')],
      [{ verb: 'update', group: AIRUNWAY, resource: 'modeldeployments', subresource: 'status', namespace: RECORD_NS, name: 'rbac-probe' }, false,
        async () => sa.request('PUT', `${await sa.pathFor(recordRef)}/status`, { body: await admin.get(recordRef) })],
      [{ verb: 'patch', group: AIRUNWAY, resource: 'modeldeployments', namespace: RECORD_NS, name: 'rbac-probe' }, false, () => sa.patch(recordRef, { metadata: { labels: { x: 'y' } } }, 'merge')],
      [{ verb: 'delete', group: AIRUNWAY, resource: 'modeldeployments', namespace: RECORD_NS, name: 'rbac-probe' }, false, () => sa.delete(recordRef)],
      [{ verb: 'list', group: 'apps', resource: 'deployments' }, true, () => sa.list({ apiVersion: 'apps/v1', kind: 'Deployment' })],
      [{ verb: 'patch', group: 'apps', resource: 'deployments', namespace: NS, name: CONTROLLER }, false,
        () => sa.patch({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: NS, name: CONTROLLER }, { spec: { replicas: 0 } }, 'merge')],
      [{ verb: 'create', resource: 'events', namespace: RECORD_NS }, true, () => sa.create({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'rbac-probe.1', namespace: RECORD_NS },
        involvedObject: { apiVersion: AIRUNWAY_API_VERSION, kind: 'ModelDeployment', name: 'rbac-probe', namespace: RECORD_NS },
        reason: 'Probe',
        message: 'written by the controller identity',
        type: 'Normal',
      })],
      [{ verb: 'get', resource: 'secrets', namespace: RECORD_NS, name: 'hf-token' }, false, () => sa.get({ apiVersion: 'v1', kind: 'Secret', namespace: RECORD_NS, name: 'hf-token' })],
      [{ verb: 'list', resource: 'pods', namespace: RECORD_NS }, false, () => sa.list({ apiVersion: 'v1', kind: 'Pod', namespace: RECORD_NS })],
      [{ verb: 'create', group: 'coordination.k8s.io', resource: 'leases', namespace: NS }, true, () => sa.create({
        apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: CONTROLLER, namespace: NS }, spec: { holderIdentity: 'controller-0', leaseDurationSeconds: 15 },
      })],
      [{ verb: 'get', group: 'coordination.k8s.io', resource: 'leases', namespace: NS, name: CONTROLLER }, true, () => sa.get(leaseRef)],
      [{ verb: 'update', group: 'coordination.k8s.io', resource: 'leases', namespace: NS, name: CONTROLLER }, true,
        async () => sa.replace({ ...(await sa.get(leaseRef)), spec: { holderIdentity: 'controller-1', leaseDurationSeconds: 15 } })],
      [{ verb: 'update', group: 'coordination.k8s.io', resource: 'leases', namespace: NS, name: 'another-lease' }, false,
        async () => sa.replace({ ...(await admin.get(otherLeaseRef)), spec: { holderIdentity: 'controller-0' } })],
      [{ verb: 'get', group: 'coordination.k8s.io', resource: 'leases', namespace: NS, name: 'another-lease' }, false, () => sa.get(otherLeaseRef)],
      [{ verb: 'list', group: 'coordination.k8s.io', resource: 'leases', namespace: NS }, false, () => sa.list({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: NS })],
      [{ verb: 'list', resource: 'namespaces' }, false, () => sa.list({ apiVersion: 'v1', kind: 'Namespace' })],
      // The controller's CRD informers: list and watch one CRD by a metadata.name field selector, which resourceNames authorizes.
      [{ verb: 'list', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', name: 'httproutes.gateway.networking.k8s.io' }, true,
        () => sa.request('GET', CRD_PATH, { query: { fieldSelector: 'metadata.name=httproutes.gateway.networking.k8s.io' } })],
      [{ verb: 'watch', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', name: 'httproutes.gateway.networking.k8s.io' }, true,
        () => sa.request('GET', CRD_PATH, { query: { watch: 'true', timeoutSeconds: 1, fieldSelector: 'metadata.name=httproutes.gateway.networking.k8s.io' } })],
      [{ verb: 'list', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' }, false, () => sa.request('GET', CRD_PATH)],
      [{ verb: 'get', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', name: 'modeldeployments.airunway.ai' }, false,
        () => sa.request('GET', `${CRD_PATH}/modeldeployments.airunway.ai`)],
    ];
    const disagreements: string[] = [];
    for (const [check, expected, attempt] of attempts) {
      let outcome: string;
      let allowed: boolean;
      try {
        await attempt();
        allowed = true;
        outcome = 'done';
      } catch (e) {
        if (!(e instanceof KubeApiError) || e.status !== 403) throw e;
        allowed = false;
        outcome = '403 Forbidden';
        expect(e.serverMessage).toContain(`User "${SA.name}" cannot ${check.verb} resource "${check.resource}${check.subresource ? `/${check.subresource}` : ''}"`);
      }
      const reviewed = await review(sa, check);
      if (allowed !== expected || reviewed !== allowed) disagreements.push(`${describeCheck(check)}: expected ${expected}, request ${outcome}, review ${reviewed}`);
      const row = matrix.find((r) => describeCheck(r) === describeCheck(check));
      if (row) row.real = outcome;
      else matrix.push({ ...check, expected, allowed: reviewed, real: outcome });
    }
    expect(disagreements).toEqual([]);
    // The status patch really landed; the Lease really changed hands.
    expect((await admin.get(recordRef)).status).toEqual({ phase: 'Pending' });
    expect((await admin.get(leaseRef)).spec.holderIdentity).toBe('controller-1');
  });
});
