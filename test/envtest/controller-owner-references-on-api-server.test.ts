/**
 * The controller's optional ownerReferences and its Events, on a real kube-apiserver and etcd,
 * run as the construct's own ServiceAccount with the ClusterRole `setOwnerReferences: true`
 * synthesizes (the real RBAC authorizer decides every request):
 *
 * 1. every object the examples' records list (`inference.cdk8s.io/rendered-objects`) gets an
 *    ownerReference to its record — Deployments, Services, PVCs, the endpoint picker's Role and
 *    RoleBinding (a patch of GC fields only, which RBAC allows without `escalate`), ConfigMap,
 *    InferencePool, HTTPRoute, DynamoGraphDeployment, RayService, Workspace — and nothing else
 *    is changed; the controller logs no error (no request was refused);
 * 2. each record's phase change is a core v1 Event about it;
 * 3. what the references are for: with kube-controller-manager's garbage collector running,
 *    deleting one record deletes every object it lists, and only those.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { ControlPlane, serviceAccountUser } from './control-plane';
import { createAll, ensureNamespaces, installControllerCrds, recordsOf, upstreamOf } from './controller-status-fixtures';
import { ControllerProcess } from './controller-status-process';
import { synthesizeExample } from './examples';
import { KubeClient, KubeObject, waitFor } from './kube-client';
import { fieldDifferences, formatDifferences } from './object-diff';
import { ModelDeploymentController } from '../../src';

const SETUP_TIMEOUT_MS = 45 * 60_000; // the first run on a machine may compile the binaries
const EXAMPLES = ['two-models-one-gateway.ts', 'model-cache-pvc.ts', 'dynamo-disaggregated.ts', 'kuberay-multi-gpu.ts', 'cpu-llamacpp.ts'];
const RBAC_KINDS = ['Namespace', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'];

const app = Testing.app();
const controller = new ModelDeploymentController(new Chart(app, 'controller'), 'Controller', { setOwnerReferences: true });
const constructObjects: KubeObject[] = Testing.synth(app.charts[0]);
const SA = serviceAccountUser(controller.namespace, controller.serviceAccountName);

let cp: ControlPlane;
let admin: KubeClient;
let ctl: ControllerProcess | undefined;
const report: string[] = [];

beforeAll(async () => {
  cp = await ControlPlane.start({ users: [SA] });
  admin = cp.client();
  await installControllerCrds(admin, cp.dir);
  await createAll(admin, constructObjects.filter((o) => RBAC_KINDS.includes(o.kind)));
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await ctl?.stop();
  await cp?.stop();
  process.stdout.write(`\nownerReferences and events on the API server:\n  ${report.join('\n  ')}\n`);
}, 60_000);

/** `apiVersion kind namespace/name` of a listed object. */
interface Listed {
  readonly ref: { apiVersion: string; kind: string; namespace: string; name: string };
  readonly owner: { apiVersion: string; kind: string; name: string; uid: string };
}

test('as the construct\'s ServiceAccount, the controller gives every listed object an ownerReference to its record, records phase Events, and changes nothing else', async () => {
  const objects = (await Promise.all(EXAMPLES.map(synthesizeExample))).flatMap((e) => e.objects);
  await ensureNamespaces(admin, objects.map((o) => o.metadata?.namespace).filter((n): n is string => !!n));
  const records = await createAll(admin, recordsOf(objects));
  const created = await createAll(admin, upstreamOf(objects));
  const listed: Listed[] = records.flatMap((r) => JSON.parse(r.metadata!.annotations!['inference.cdk8s.io/rendered-objects']).map((ref: any) => ({
    ref: { apiVersion: ref.apiVersion, kind: ref.kind, namespace: ref.namespace ?? r.metadata!.namespace, name: ref.name },
    owner: { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', name: r.metadata!.name, uid: r.metadata!.uid },
  })));
  const kinds = new Set(listed.map((l) => l.ref.kind));
  for (const kind of ['Deployment', 'Service', 'PersistentVolumeClaim', 'Role', 'RoleBinding', 'ServiceAccount', 'ConfigMap', 'InferencePool', 'HTTPRoute', 'DynamoGraphDeployment', 'RayService', 'Workspace']) {
    expect({ kind, listed: kinds.has(kind) }).toEqual({ kind, listed: true });
  }

  const t0 = Date.now();
  ctl = await ControllerProcess.start({ kubeconfig: cp.writeKubeconfig(SA.name), name: 'owner-references', args: ['--set-owner-references'] });
  await ctl.waitReady();
  const missing = async () => {
    const out: string[] = [];
    for (const l of listed) {
      const refs = (await admin.get(l.ref)).metadata?.ownerReferences ?? [];
      if (!refs.some((r: any) => r.uid === l.owner.uid)) out.push(`${l.ref.kind} ${l.ref.namespace}/${l.ref.name}`);
    }
    return out;
  };
  await ctl.waitUntil(async () => (await missing()).length === 0, 60_000, 'every listed object to name its record as owner', 500);
  report.push(`${listed.length} objects of ${records.length} records (${[...kinds].sort().join(', ')}) owned ${Date.now() - t0} ms after the controller started`);

  // Exactly one reference each, the record's; nothing else of any object changed.
  for (const l of listed) {
    const now = await admin.get(l.ref);
    const object = `${l.ref.kind} ${l.ref.name}`;
    expect({ object, ownerReferences: now.metadata!.ownerReferences }).toEqual({ object, ownerReferences: [l.owner] });
    const sameObject = (c: KubeObject) =>
      c.kind === l.ref.kind && c.apiVersion === l.ref.apiVersion && c.metadata!.name === l.ref.name && c.metadata!.namespace === l.ref.namespace;
    const before = created.find(sameObject)!;
    const { ownerReferences: _, resourceVersion: _rv, managedFields: _mf, generation: _g, ...metaNow } = now.metadata!;
    const { resourceVersion: _rv0, managedFields: _mf0, generation: _g0, ...metaBefore } = before.metadata!;
    const changed = formatDifferences(fieldDifferences(
      { ...before, metadata: metaBefore, status: undefined },
      { ...now, metadata: metaNow, status: undefined },
    ));
    expect({ object, changed }).toEqual({ object, changed: [] });
  }
  expect(ctl.lines.filter((line) => line.level === 'error')).toEqual([]);

  // Each record's phase, as an Event about it.
  for (const r of records) {
    const ns = r.metadata!.namespace!;
    const record = await admin.get({ apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', namespace: ns, name: r.metadata!.name! });
    const events = (await admin.list<any>({ apiVersion: 'v1', kind: 'Event', namespace: ns })).items.filter((e) => e.involvedObject.uid === r.metadata!.uid);
    expect({ record: r.metadata!.name, events: events.map((e) => [e.type, e.reason, e.source.component]) })
      .toEqual({ record: r.metadata!.name, events: [[record.status.phase === 'Failed' ? 'Warning' : 'Normal', record.status.phase, 'cdk8s-inference-controller']] });
  }
  report.push(`${records.length} records, one phase Event each`);

  // Deleting a record garbage-collects its objects, and no other record's.
  await cp.startGarbageCollector();
  const victim = records.find((r) => r.metadata!.name === 'qwen' && r.metadata!.namespace === 'team-a')!;
  const [gone, kept] = [listed.filter((l) => l.owner.uid === victim.metadata!.uid), listed.filter((l) => l.owner.uid !== victim.metadata!.uid)];
  expect(gone.length).toBeGreaterThanOrEqual(8); // model server, pool, route, endpoint picker and its RBAC
  const t1 = Date.now();
  await admin.delete({ apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', namespace: 'team-a', name: 'qwen' });
  const exists = async (l: Listed) => {
    try {
      await admin.get(l.ref);
      return true;
    } catch (e) {
      if ((e as any).status === 404) return false;
      throw e;
    }
  };
  await waitFor(async () => {
    const left = [];
    for (const l of gone) if (await exists(l)) left.push(`${l.ref.kind} ${l.ref.name}`);
    if (left.length > 0) throw new Error(`still there: ${left.join(', ')}\n${cp.logTail('kube-controller-manager', 10)}`);
    return true;
  }, 60_000, 'the garbage collector to delete the record\'s objects', 500);
  report.push(`record team-a/qwen deleted: its ${gone.length} objects garbage-collected in ${Date.now() - t1} ms`);
  for (const l of kept) {
    const object = `${l.ref.kind} ${l.ref.namespace}/${l.ref.name}`;
    expect({ object, exists: await exists(l) }).toEqual({ object, exists: true });
  }
}, 240_000);

test('a kubeconfig whose user is an exec plugin: the controller authenticates through @kubernetes/client-node', async () => {
  const file = path.join(cp.dir, 'kubeconfig-exec.yaml');
  const config = YAML.parse(fs.readFileSync(cp.writeKubeconfig(SA.name), 'utf8'));
  const credential = JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: cp.tokenFor(SA.name) } });
  config.users[0].user = { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: ['-e', `process.stdout.write(${JSON.stringify(credential)})`], interactiveMode: 'Never' } };
  fs.writeFileSync(file, YAML.stringify(config));
  const exec = await ControllerProcess.start({ kubeconfig: file, name: 'exec-plugin', args: [] });
  try {
    await exec.waitReady();
    expect(exec.lines.find((l) => l.msg === 'starting controller')?.credentials).toBe(`client-node ${file}`);
    expect(exec.lines.filter((l) => l.level === 'error')).toEqual([]);
  } finally {
    await exec.stop();
  }
}, 120_000);
