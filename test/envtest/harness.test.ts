/**
 * The envtest harness itself, against the real control plane: the client's verbs and errors,
 * discovery-based paths, RBAC for an extra (ServiceAccount) user through the real authorizer, a
 * kubeconfig used by @kubernetes/client-node in a child process (as the controller will use it),
 * the CRD installer (why a replaced conversion webhook needs a per-version storage version),
 * restarting the kube-apiserver with etcd's data kept, and the failure messages of `start()` and
 * of the binary lookup.
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'yaml';
import { ADMIN_USER, ControlPlane, serviceAccountUser } from './control-plane';
import { installCrds, readCrds, upstreamCrdIndex, useStorageVersion } from './crds';
import { EXAMPLES_DIR } from './examples';
import { KubeApiError, KubeClient, KubeObject, waitFor } from './kube-client';
import { fieldDifferences, formatDifferences } from './object-diff';
import { upstreamDir } from '../../src/schema-validation/upstream-schemas';

const SETUP_TIMEOUT_MS = 45 * 60_000; // the first run on a machine may compile the binaries
const NS = 'harness';
const SA = serviceAccountUser(NS, 'controller');

let cp: ControlPlane;
let admin: KubeClient;

beforeAll(async () => {
  cp = await ControlPlane.start({ users: [SA, { name: 'alice', groups: ['team-a'] }] });
  admin = cp.client();
  await installCrds(admin, [path.join(upstreamDir(), 'airunway', 'airunway.ai_modeldeployments.yaml')]);
  await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await cp?.stop();
}, 60_000);

/** What a promise rejects with (fails if it resolves). */
async function rejection(p: Promise<unknown>): Promise<KubeApiError> {
  try {
    await p;
  } catch (e) {
    return e as KubeApiError;
  }
  throw new Error('expected a rejection');
}

function configMap(name: string, data: Record<string, string>, labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS, labels }, data };
}

describe('control plane', () => {
  test('serves on 127.0.0.1 with the CA of its cert dir, an admin token, and its start timings', async () => {
    expect(cp.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(cp.caPem).toMatch(/BEGIN CERTIFICATE/);
    expect(fs.existsSync(path.join(cp.dir, 'certs', 'apiserver.crt'))).toBe(true);
    expect(cp.adminToken).toBe(cp.tokenFor(ADMIN_USER));
    const version = await admin.request('GET', '/version');
    // A stamped version (build-binaries.sh sets it), not the unstamped v0.0.0-master+$Format:%H$.
    expect(version).toMatchObject({ major: '1', gitVersion: expect.stringMatching(/^v1\.\d+\.\d+/) });
    expect(cp.startTimings.totalMs).toBeGreaterThan(0);
  });

  test('a request without a token is anonymous and refused; a wrong token is unauthorized', async () => {
    const anonymous = new KubeClient({ baseUrl: cp.baseUrl, caPem: cp.caPem, token: '' });
    const wrong = new KubeClient({ baseUrl: cp.baseUrl, caPem: cp.caPem, token: 'not-a-token' });
    try {
      const e = await rejection(anonymous.request('GET', '/api/v1/namespaces'));
      expect(e).toMatchObject({ status: 403, reason: 'Forbidden' });
      expect(e.serverMessage).toContain('User "system:anonymous" cannot list resource "namespaces"');
      expect((await rejection(wrong.list({ apiVersion: 'v1', kind: 'Namespace' }))).status).toBe(401);
    } finally {
      anonymous.close();
      wrong.close();
    }
  });

  test('an unknown user is rejected by tokenFor with the known users', () => {
    expect(() => cp.tokenFor('bob')).toThrow(/no user bob.*alice/);
  });
});

describe('kube-client', () => {
  test('paths come from discovery: core and named groups, namespaced and cluster-scoped, plurals as served', async () => {
    expect(await admin.pathFor({ apiVersion: 'v1', kind: 'Endpoints', namespace: 'a', name: 'b' })).toBe('/api/v1/namespaces/a/endpoints/b');
    expect(await admin.pathFor({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', namespace: 'a' })).toBe('/apis/networking.k8s.io/v1/namespaces/a/networkpolicies');
    expect(await admin.pathFor({ apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', name: 'x' })).toBe('/apis/networking.k8s.io/v1/ingressclasses/x');
    expect(await admin.pathFor({ apiVersion: 'apps/v1', kind: 'Deployment' })).toBe('/apis/apps/v1/deployments');
    expect(await admin.pathFor({ apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', namespace: 'ml', name: 'm' }, 'status'))
      .toBe('/apis/airunway.ai/v1alpha1/namespaces/ml/modeldeployments/m/status');
    const r = await admin.resourceFor('airunway.ai/v1alpha1', 'ModelDeployment');
    expect(r).toMatchObject({ name: 'modeldeployments', namespaced: true, subresources: ['status'] });
    await expect(admin.resourceFor('v1', 'NoSuchKind')).rejects.toThrow(/v1 has no kind NoSuchKind \(served: .*ConfigMap/);
    await expect(admin.resourceFor('example.com/v1', 'Thing')).rejects.toThrow(/example.com\/v1 is not served/);
  });

  test('create, get, list, merge / JSON / strategic / apply patches, delete', async () => {
    const created = await admin.create(configMap('cm', { a: '1' }, { app: 'x' }));
    expect(created.metadata?.uid).toBeDefined();
    expect((await admin.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: NS, name: 'cm' })).data).toEqual({ a: '1' });
    const list = await admin.list({ apiVersion: 'v1', kind: 'ConfigMap', namespace: NS }, { labelSelector: 'app=x' });
    expect(list.items.map((i: any) => i.metadata.name)).toEqual(['cm']);

    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: NS, name: 'cm' };
    expect((await admin.patch(ref, { data: { b: '2' } }, 'merge')).data).toEqual({ a: '1', b: '2' });
    expect((await admin.patch(ref, [{ op: 'remove', path: '/data/a' }], 'json')).data).toEqual({ b: '2' });
    expect((await admin.patch(ref, { data: { c: '3' } }, 'strategic')).data).toEqual({ b: '2', c: '3' });
    const applied = await admin.apply(configMap('cm', { d: '4' }), { fieldManager: 'harness-test', force: true });
    expect(applied.data).toEqual({ b: '2', c: '3', d: '4' });
    expect(applied.metadata?.managedFields.map((m: any) => m.manager)).toContain('harness-test');

    await admin.delete(ref);
    const gone = await rejection(admin.get(ref));
    expect(gone).toBeInstanceOf(KubeApiError);
    expect(gone).toMatchObject({ status: 404, reason: 'NotFound', serverMessage: 'configmaps "cm" not found' });
  });

  test('dryRun=All persists nothing; fieldValidation=Strict rejects unknown fields with the server message', async () => {
    await admin.create(configMap('dry', { a: '1' }), { dryRun: 'All' });
    expect((await rejection(admin.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: NS, name: 'dry' }))).status).toBe(404);
    const bad = { ...configMap('strict', {}), bogus: true };
    const e = await rejection(admin.create(bad, { fieldValidation: 'Strict', dryRun: 'All' }));
    expect(e.status).toBe(400);
    expect(e.serverMessage).toMatch(/unknown field "bogus"/);
    expect(e.message).toMatch(/^POST \/api\/v1\/namespaces\/harness\/configmaps\?fieldValidation=Strict&dryRun=All: HTTP 400 BadRequest: /);
  });

  test('the /status subresource of a custom resource: the main resource ignores status, patchStatus sets it', async () => {
    const md = parse(fs.readFileSync(path.join(EXAMPLES_DIR, 'airunway-modeldeployment.yaml'), 'utf8'));
    md.metadata.namespace = NS;
    const created = await admin.create({ ...md, status: { phase: 'Running' } }, { fieldValidation: 'Strict' });
    expect(created.status).toBeUndefined();
    const ref = { apiVersion: md.apiVersion, kind: md.kind, namespace: NS, name: md.metadata.name };
    const patched = await admin.patchStatus(ref, { status: { phase: 'Deploying' } }, 'merge');
    expect(patched.status).toEqual({ phase: 'Deploying' });
    const invalid = await rejection(admin.patchStatus(ref, { status: { phase: 'Sleeping' } }, 'merge'));
    expect(invalid).toMatchObject({ status: 422, reason: 'Invalid' });
    expect(invalid.serverMessage).toMatch(/status.phase: Unsupported value: "Sleeping"/);
  });

  test('waitFor resolves with the first truthy value, and times out naming what it waited for and the last error', async () => {
    let n = 0;
    expect(await waitFor(() => (++n >= 3 ? 'ready' : undefined), 5_000, 'n', 10)).toBe('ready');
    await expect(waitFor(() => {
      throw new Error('still broken');
    }, 200, 'the thing', 20)).rejects.toThrow(/timed out after 200 ms waiting for the thing \(last attempt threw: still broken\)/);
  });
});

describe('CRDs', () => {
  const dgdFile = (): string => path.join(upstreamDir(), 'dynamo', 'nvidia.com_dynamographdeployments.yaml');

  test('the upstream index finds CRD files by group/kind', () => {
    const index = upstreamCrdIndex(upstreamDir());
    expect(index.get('nvidia.com/DynamoGraphDeployment')).toBe(dgdFile());
    expect(index.get('inference.networking.k8s.io/InferencePool')).toMatch(/inference\.networking\.k8s\.io_inferencepools\.yaml$/);
    expect(index.get('inference.networking.x-k8s.io/InferencePool')).toMatch(/inference\.networking\.x-k8s\.io_inferencepools\.yaml$/);
  });

  test('a conversion webhook is replaced by strategy None; other CRDs are sent as upstream wrote them', () => {
    const [dgd] = readCrds([dgdFile()]);
    expect(dgd.conversionReplaced).toBe(true);
    expect(dgd.manifest.spec.conversion).toEqual({ strategy: 'None' });
    const [md] = readCrds([path.join(upstreamDir(), 'airunway', 'airunway.ai_modeldeployments.yaml')]);
    expect(md.conversionReplaced).toBe(false);
  });

  test('with strategy None a non-storage version is pruned by the storage version\'s schema; useStorageVersion() checks it against its own', async () => {
    const [dgd] = await installCrds(admin, [dgdFile()]);
    expect(dgd).toMatchObject({ name: 'dynamographdeployments.nvidia.com', storageVersion: 'v1beta1', versions: ['v1alpha1', 'v1beta1'] });
    const v1alpha1: KubeObject = {
      apiVersion: 'nvidia.com/v1alpha1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'g', namespace: NS },
      spec: { services: { Frontend: { componentType: 'frontend', replicas: 1 } } },
    };
    const query = { dryRun: 'All', fieldValidation: 'Strict' };
    // Stored as v1beta1, which has no spec.services: the dry-run's storage round trip drops it.
    const underV1beta1 = await admin.create(v1alpha1, query);
    expect(formatDifferences(fieldDifferences(v1alpha1, underV1beta1))).toEqual([
      'pruned spec.services (sent {"Frontend":{"componentType":"frontend","replicas":1}})',
    ]);
    await useStorageVersion(admin, dgd, 'v1alpha1');
    expect(dgd.storageVersion).toBe('v1alpha1');
    expect(fieldDifferences(v1alpha1, await admin.create(v1alpha1, query))).toEqual([]);
  }, 5 * 60_000);
});

describe('RBAC with an extra user', () => {
  test('a ServiceAccount identity can do nothing until a RoleBinding grants it, then exactly what the Role allows', async () => {
    const sa = cp.client(SA.name);
    const listCms = (): Promise<unknown> => sa.list({ apiVersion: 'v1', kind: 'ConfigMap', namespace: NS });
    const denied = await rejection(listCms());
    expect(denied).toMatchObject({ status: 403, reason: 'Forbidden' });
    expect(denied.serverMessage).toContain(`User "${SA.name}" cannot list resource "configmaps" in API group "" in the namespace "${NS}"`);

    await admin.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'cm-reader', namespace: NS },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
    });
    await admin.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'cm-reader', namespace: NS },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'controller', namespace: NS }],
    });
    // The authorizer reads RBAC objects from an informer: allow it a moment.
    await waitFor(() => listCms().then(() => true), 10_000, 'the RoleBinding to take effect');
    expect((await rejection(sa.create(configMap('nope', {})))).status).toBe(403);
    expect((await rejection(sa.list({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default' }))).status).toBe(403);
    // Another user is not covered by the binding.
    expect((await rejection(cp.client('alice').list({ apiVersion: 'v1', kind: 'ConfigMap', namespace: NS }))).status).toBe(403);
  });

  test('a kubeconfig for that user works for @kubernetes/client-node in a child process', async () => {
    const kubeconfig = cp.writeKubeconfig(SA.name);
    expect(fs.statSync(kubeconfig).mode.toString(8)).toMatch(/600$/); // a token inside: owner only
    await admin.create(configMap('seen-by-child', { a: '1' }));
    // client-node is ESM-only: run it where Node loads ESM natively, as the controller does.
    const script = `import * as k8s from '@kubernetes/client-node';
      const kc = new k8s.KubeConfig(); kc.loadFromDefault();
      const api = kc.makeApiClient(k8s.CoreV1Api);
      const list = await api.listNamespacedConfigMap({ namespace: '${NS}' });
      console.log(JSON.stringify({ user: kc.getCurrentUser().name, names: list.items.map((i) => i.metadata.name) }));`;
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--input-type=module', '-e', script], {
        cwd: path.resolve(__dirname, '..', '..'),
        env: { ...process.env, KUBECONFIG: kubeconfig },
        timeout: 60_000,
      }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)));
    });
    const result = JSON.parse(out.trim().split('\n').pop()!);
    expect(result.user).toBe(SA.name);
    expect(result.names).toContain('seen-by-child');
  }, 90_000);
});

describe('ServiceAccount tokens', () => {
  test('a TokenRequest token is signed by the harness key and authenticates as the ServiceAccount', async () => {
    await admin.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'token-user', namespace: NS } });
    const tr = await admin.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts/token-user/token`, {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 600 } },
    });
    const client = new KubeClient({ baseUrl: cp.baseUrl, caPem: cp.caPem, token: tr.status.token });
    try {
      const review = await client.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      });
      expect(review.status.userInfo.username).toBe(`system:serviceaccount:${NS}:token-user`);
      expect(review.status.userInfo.groups).toEqual(expect.arrayContaining(['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated']));
    } finally {
      client.close();
    }
  });
});

describe('restart', () => {
  test('restart() keeps the port, the CA, the tokens and etcd\'s data; requests fail only while it is down', async () => {
    await admin.create(configMap('survivor', { a: '1' }));
    const ca = cp.caPem;
    const url = cp.baseUrl;
    await cp.stopApiServer();
    const down = await rejection(admin.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: NS, name: 'survivor' }));
    expect(down.status).toBe(0); // no answer: connection refused
    await cp.startApiServer();
    expect(cp.baseUrl).toBe(url);
    expect(cp.caPem).toBe(ca);
    const t0 = Date.now();
    await cp.restart();
    const restartMs = Date.now() - t0;
    expect((await admin.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: NS, name: 'survivor' })).data).toEqual({ a: '1' });
    // The extra users' tokens still work.
    expect((await cp.client(SA.name).get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: NS, name: 'survivor' })).data).toEqual({ a: '1' });
    expect(restartMs).toBeLessThan(120_000);
  }, 5 * 60_000);
});

describe('failures are reported, never skipped', () => {
  test('a kube-apiserver that exits at start fails start() with its exit and the end of its log', async () => {
    await expect(ControlPlane.start({ apiServerFlags: ['--no-such-flag=1'] }))
      .rejects.toThrow(/kube-apiserver exited with code 1 before https:\/\/127\.0\.0\.1:\d+\/readyz to answer ok; last lines of .*kube-apiserver\.log:\n[\s\S]*unknown flag: --no-such-flag/);
  }, 5 * 60_000);

  test('KUBEBUILDER_ASSETS naming a directory without the binaries is an error, not a fallback', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envtest-empty-'));
    const saved = process.env.KUBEBUILDER_ASSETS;
    process.env.KUBEBUILDER_ASSETS = dir;
    try {
      let binaries!: typeof import('./binaries');
      jest.isolateModules(() => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        binaries = require('./binaries');
      });
      await expect(binaries.envtestBinaries()).rejects.toThrow(`KUBEBUILDER_ASSETS=${dir} does not hold executable envtest binaries: missing ${dir}/kube-apiserver, ${dir}/etcd`);
    } finally {
      if (saved === undefined) delete process.env.KUBEBUILDER_ASSETS;
      else process.env.KUBEBUILDER_ASSETS = saved;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
