/**
 * Where the API server is and how to authenticate to it, found as controller-runtime finds it:
 * the `--kubeconfig` file; else, in a pod (KUBERNETES_SERVICE_HOST set), the pod's service
 * account; else $KUBECONFIG or ~/.kube/config.
 *
 * The service account and kubeconfigs with static credentials (bearer token or token file,
 * client certificate, basic auth; the cluster's CA, `insecure-skip-tls-verify`,
 * `tls-server-name`) are read here, on Node's own TLS. Anything else — exec plugins,
 * auth-provider plugins (OIDC, cloud logins), proxies, several files in $KUBECONFIG — is handed to
 * @kubernetes/client-node's `KubeConfig`, which implements them all. The split is for memory:
 * loading client-node loads its whole generated API client (about 80 MiB of a process whose
 * budget is 150 MB), which the in-cluster controller never needs.
 */
import * as fs from 'fs';
import type * as https from 'https';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';

/** The service account's files in a pod. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** A token file is read again after this long (client-go re-reads projected tokens every minute). */
const TOKEN_FILE_TTL_MS = 60_000;

/** Options of one request that credentials fill in. */
export type RequestTls = Pick<https.RequestOptions, 'ca' | 'cert' | 'key' | 'rejectUnauthorized' | 'servername'> & {
  headers: Record<string, string>;
};

/** The API server and how to talk to it. */
export interface ClusterCredentials {
  /** e.g. `https://10.0.0.1:443`. */
  readonly server: string;
  /** Where they came from, for logs: a file, `in-cluster`, or `client-node <file>`. */
  readonly source: string;
  /** Sets the TLS options and the Authorization header of a request. */
  apply(options: RequestTls): Promise<void>;
}

/** The environment the credentials are looked up in (process.env and the file system by default). */
export interface CredentialsEnvironment {
  readonly env?: NodeJS.ProcessEnv;
  /** @default SERVICE_ACCOUNT_DIR */
  readonly serviceAccountDir?: string;
  /** @default Date.now */
  readonly now?: () => number;
}

/**
 * Finds the credentials.
 * @throws Error naming the file and what is wrong with it
 */
export function loadClusterCredentials(kubeconfig?: string, environment: CredentialsEnvironment = {}): ClusterCredentials {
  const env = environment.env ?? process.env;
  if (kubeconfig !== undefined) return fromKubeconfigFile(kubeconfig, environment);
  if (env.KUBERNETES_SERVICE_HOST) return inCluster(environment);
  const files = (env.KUBECONFIG ?? '').split(path.delimiter).filter((f) => f !== '');
  if (files.length > 1) return viaClientNode(undefined, `client-node $KUBECONFIG (${files.length} files)`);
  return fromKubeconfigFile(files[0] ?? path.join(os.homedir(), '.kube', 'config'), environment);
}

/** The pod's service account: the API server's Service from the environment, the CA and token files. */
function inCluster(environment: CredentialsEnvironment): ClusterCredentials {
  const env = environment.env ?? process.env;
  const dir = environment.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  const host = env.KUBERNETES_SERVICE_HOST!;
  const port = env.KUBERNETES_SERVICE_PORT || '443';
  const ca = readFile(path.join(dir, 'ca.crt'), 'the service account CA');
  const token = tokenFile(path.join(dir, 'token'), environment.now ?? Date.now);
  return {
    server: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    source: 'in-cluster',
    apply: async (o) => {
      o.ca = ca;
      o.headers.Authorization = `Bearer ${token()}`;
    },
  };
}

/** A kubeconfig file's current context, read here when its credentials are static. */
function fromKubeconfigFile(file: string, environment: CredentialsEnvironment): ClusterCredentials {
  const text = readFile(file, 'the kubeconfig');
  let config: any;
  try {
    config = YAML.parse(text);
  } catch (e) {
    throw new Error(`${file}: not YAML: ${(e as Error).message}`);
  }
  const named = (list: unknown, name: unknown, what: string): any => {
    const entry = Array.isArray(list) ? list.find((x) => x?.name === name) : undefined;
    if (!entry) throw new Error(`${file}: no ${what} named ${JSON.stringify(name)}`);
    return entry;
  };
  const contextName = config?.['current-context'];
  if (typeof contextName !== 'string' || contextName === '') throw new Error(`${file}: no current-context`);
  const context = named(config.contexts, contextName, 'context').context ?? {};
  const cluster = named(config.clusters, context.cluster, 'cluster').cluster ?? {};
  const user = context.user !== undefined && context.user !== '' ? named(config.users, context.user, 'user').user ?? {} : {};
  if (typeof cluster.server !== 'string' || cluster.server === '') throw new Error(`${file}: cluster ${JSON.stringify(context.cluster)} has no server`);
  // Plugins and proxies: client-node implements them.
  if (user.exec || user['auth-provider'] || cluster['proxy-url']) return viaClientNode(file, `client-node ${file}`);

  const dir = path.dirname(path.resolve(file));
  const pem = (data: unknown, fileField: unknown, what: string): string | undefined => {
    if (typeof data === 'string' && data !== '') return Buffer.from(data, 'base64').toString('utf8');
    if (typeof fileField === 'string' && fileField !== '') return readFile(path.resolve(dir, fileField), `${what} of ${file}`);
    return undefined;
  };
  const ca = pem(cluster['certificate-authority-data'], cluster['certificate-authority'], 'the certificate authority');
  const cert = pem(user['client-certificate-data'], user['client-certificate'], 'the client certificate');
  const key = pem(user['client-key-data'], user['client-key'], 'the client key');
  const insecure = cluster['insecure-skip-tls-verify'] === true;
  const servername = typeof cluster['tls-server-name'] === 'string' && cluster['tls-server-name'] !== '' ? cluster['tls-server-name'] : undefined;
  let authorization: () => string | undefined = () => undefined;
  if (typeof user.token === 'string' && user.token !== '') {
    authorization = () => `Bearer ${user.token}`;
  } else if (typeof user.tokenFile === 'string' && user.tokenFile !== '') {
    const token = tokenFile(path.resolve(dir, user.tokenFile), environment.now ?? Date.now);
    authorization = () => `Bearer ${token()}`;
  } else if (typeof user.username === 'string' && user.username !== '') {
    const basic = Buffer.from(`${user.username}:${user.password ?? ''}`).toString('base64');
    authorization = () => `Basic ${basic}`;
  }
  return {
    server: cluster.server,
    source: file,
    apply: async (o) => {
      if (ca !== undefined) o.ca = ca;
      if (cert !== undefined) o.cert = cert;
      if (key !== undefined) o.key = key;
      if (insecure) o.rejectUnauthorized = false;
      if (servername !== undefined) o.servername = servername;
      const value = authorization();
      if (value !== undefined) o.headers.Authorization = value;
    },
  };
}

/**
 * client-node's `KubeConfig` for what is not read here: `applyToHTTPSOptions` runs exec plugins,
 * refreshes OIDC tokens and sets the CA, client certificate and headers of each request.
 */
function viaClientNode(file: string | undefined, source: string): ClusterCredentials {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lib: typeof import('@kubernetes/client-node', { with: { 'resolution-mode': 'import' } }) = require('@kubernetes/client-node');
  const kc = new lib.KubeConfig();
  if (file !== undefined) kc.loadFromFile(file);
  else kc.loadFromDefault();
  const cluster = kc.getCurrentCluster();
  if (!cluster?.server) throw new Error(`${file ?? '$KUBECONFIG'}: no cluster in the current context ${JSON.stringify(kc.getCurrentContext())}`);
  return {
    server: cluster.server,
    source,
    apply: async (o) => {
      const options: https.RequestOptions = { headers: {} };
      await kc.applyToHTTPSOptions(options);
      for (const field of ['ca', 'cert', 'key', 'rejectUnauthorized', 'servername'] as const) {
        if (options[field] !== undefined) (o as any)[field] = options[field];
      }
      for (const [name, value] of Object.entries(options.headers ?? {})) if (typeof value === 'string') o.headers[name] = value;
    },
  };
}

/** A token read from a file, again once it is older than a minute (rotated tokens). */
function tokenFile(file: string, now: () => number): () => string {
  let token = readFile(file, 'the token file').trim();
  let readAt = now();
  return () => {
    if (now() - readAt >= TOKEN_FILE_TTL_MS) {
      try {
        token = fs.readFileSync(file, 'utf8').trim();
        readAt = now();
      } catch {
        // Keep the last token: a rotation writes the file anew, and the API server says when it expired.
      }
    }
    return token;
  };
}

function readFile(file: string, what: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`cannot read ${what} ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
