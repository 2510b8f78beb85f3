import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { loadClusterCredentials, RequestTls } from '../../../src/controller/runtime/cluster-credentials';

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'credentials-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const b64 = (s: string) => Buffer.from(s).toString('base64');

function kubeconfig(user: Record<string, unknown>, cluster: Record<string, unknown> = { 'server': 'https://127.0.0.1:6443', 'certificate-authority-data': b64('CA PEM') }): string {
  const file = path.join(dir, 'config');
  fs.writeFileSync(file, YAML.stringify({
    'apiVersion': 'v1',
    'kind': 'Config',
    'current-context': 'ctx',
    'contexts': [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
    'clusters': [{ name: 'c', cluster }],
    'users': [{ name: 'u', user }],
  }));
  return file;
}

async function applied(credentials: ReturnType<typeof loadClusterCredentials>): Promise<RequestTls> {
  const o: RequestTls = { headers: {} };
  await credentials.apply(o);
  return o;
}

describe('loadClusterCredentials', () => {
  test('a kubeconfig with a token: the server, its CA and a bearer header', async () => {
    const c = loadClusterCredentials(kubeconfig({ token: 'abc' }));
    expect(c.server).toBe('https://127.0.0.1:6443');
    expect(await applied(c)).toEqual({ ca: 'CA PEM', headers: { Authorization: 'Bearer abc' } });
  });

  test('client certificate and key, from data or from files relative to the kubeconfig; TLS server name; insecure', async () => {
    fs.writeFileSync(path.join(dir, 'client.crt'), 'CERT');
    fs.writeFileSync(path.join(dir, 'ca.crt'), 'CA FILE');
    const c = loadClusterCredentials(kubeconfig(
      { 'client-certificate': 'client.crt', 'client-key-data': b64('KEY') },
      { 'server': 'https://api.example.com', 'certificate-authority': 'ca.crt', 'tls-server-name': 'kubernetes', 'insecure-skip-tls-verify': true },
    ));
    expect(await applied(c)).toEqual({ ca: 'CA FILE', cert: 'CERT', key: 'KEY', servername: 'kubernetes', rejectUnauthorized: false, headers: {} });
  });

  test('a token file is read again after a minute (rotation); basic auth', async () => {
    let now = 0;
    fs.writeFileSync(path.join(dir, 'token'), 'first\n');
    const c = loadClusterCredentials(kubeconfig({ tokenFile: 'token' }), { now: () => now });
    fs.writeFileSync(path.join(dir, 'token'), 'second\n');
    expect((await applied(c)).headers.Authorization).toBe('Bearer first');
    now = 60_000;
    expect((await applied(c)).headers.Authorization).toBe('Bearer second');
    const basic = loadClusterCredentials(kubeconfig({ username: 'admin', password: 'pw' }));
    expect((await applied(basic)).headers.Authorization).toBe(`Basic ${b64('admin:pw')}`);
  });

  test('in a pod: the service account, and the API server Service from the environment (IPv6 in brackets)', async () => {
    fs.writeFileSync(path.join(dir, 'ca.crt'), 'SA CA');
    fs.writeFileSync(path.join(dir, 'token'), 'sa-token');
    const env = { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' };
    const c = loadClusterCredentials(undefined, { env, serviceAccountDir: dir });
    expect([c.server, c.source]).toEqual(['https://[fd00::1]:443', 'in-cluster']);
    expect(await applied(c)).toEqual({ ca: 'SA CA', headers: { Authorization: 'Bearer sa-token' } });
    // --kubeconfig wins over the pod's service account.
    expect(loadClusterCredentials(kubeconfig({ token: 't' }), { env, serviceAccountDir: dir }).source).toBe(path.join(dir, 'config'));
  });

  test('outside a pod: $KUBECONFIG, else ~/.kube/config', () => {
    const file = kubeconfig({ token: 't' });
    expect(loadClusterCredentials(undefined, { env: { KUBECONFIG: file } }).source).toBe(file);
  });

  test.each([
    ['no file', () => path.join(dir, 'missing'), /cannot read the kubeconfig .*missing: ENOENT/],
    ['not YAML', () => (fs.writeFileSync(path.join(dir, 'bad'), 'a: [\n'), path.join(dir, 'bad')), /bad: not YAML/],
    ['no current context', () => (fs.writeFileSync(path.join(dir, 'empty'), 'apiVersion: v1\n'), path.join(dir, 'empty')), /empty: no current-context/],
    ['a cluster without a server', () => kubeconfig({ token: 't' }, {}), /cluster "c" has no server/],
    ['a CA file that is not there', () => kubeconfig({ token: 't' }, { 'server': 'https://x', 'certificate-authority': 'nope.crt' }), /cannot read the certificate authority of .*config .*nope\.crt: ENOENT/],
  ])('%s is an error naming the file', (_, file, message) => {
    expect(() => loadClusterCredentials(file())).toThrow(message);
  });

  test('in a pod without the service account files: an error naming them', () => {
    expect(() => loadClusterCredentials(undefined, { env: { KUBERNETES_SERVICE_HOST: '10.0.0.1' }, serviceAccountDir: dir })).toThrow(/cannot read the service account CA .*ca\.crt/);
  });
});
