/**
 * A real Kubernetes control plane for tests — the envtest practice of Kubernetes controllers: a
 * real `etcd` and a real `kube-apiserver` (v1.35.4 and v3.6.16 from
 * `scripts/envtest/build-binaries.sh`, or whatever `KUBEBUILDER_ASSETS` names; see binaries.ts),
 * and nothing else unless asked — no scheduler or kubelet; kube-controller-manager only with its
 * garbage collector, when a test calls `startGarbageCollector()`.
 *
 * What is started, where:
 * - Everything lives in one temp dir (`$TMPDIR/cdk8s-inference-envtest-*`): etcd's data dir, the
 *   API server's cert dir, the service-account key pair, the token file, the kubeconfigs written
 *   for spawned processes, and the two logs (`etcd.log`, `kube-apiserver.log`). `stop()` removes
 *   it (`CDK8S_INFERENCE_ENVTEST_KEEP=1` keeps it and prints where it is).
 * - etcd: client and peer URLs on `http://127.0.0.1:<free port>`, single member, `--unsafe-no-fsync`
 *   (a throwaway data dir: durability buys nothing and costs seconds on a shared disk).
 * - kube-apiserver: `https://127.0.0.1:<free port>` (`baseUrl`). It self-signs its serving
 *   certificate into `<dir>/certs` (`--cert-dir`); the file holds the serving cert then the CA that
 *   signed it, which is what clients trust (`caPem`). `--service-cluster-ip-range=10.0.0.0/24`.
 * - Admission: the default plugins, except `ServiceAccount` (it wants each namespace's `default`
 *   ServiceAccount, which only kube-controller-manager creates) and `StorageObjectInUseProtection`
 *   (its PVC finalizer is only ever removed by kube-controller-manager, so a deleted PVC would hang
 *   in Terminating). Without `startGarbageCollector()` owner references do not cascade; there is
 *   never a namespace controller (a deleted namespace stays Terminating): tests must not wait
 *   for it.
 *
 * Auth:
 * - Authentication by static bearer tokens (`--token-auth-file`): an admin (`envtest-admin`, group
 *   `system:masters`, token `adminToken`) plus one random token per extra user given to `start()`
 *   (`tokenFor(name)`). `serviceAccountUser(ns, name)` makes the identity a pod's ServiceAccount
 *   token would carry (`system:serviceaccount:<ns>:<name>`, groups `system:serviceaccounts`,
 *   `system:serviceaccounts:<ns>`, `system:authenticated`), so RoleBindings to that ServiceAccount
 *   apply to it exactly as in a cluster.
 * - Authorization: `--authorization-mode=RBAC` only, with the bootstrap roles: a user other than
 *   the admin can do nothing beyond discovery and self-reviews (what `system:authenticated` gets)
 *   until a test grants it, so RBAC is proven by the real authorizer.
 * - Service-account tokens (TokenRequest) work: an EC P-256 key pair made with node:crypto is
 *   the issuer's signing key (`--service-account-issuer=https://kubernetes.default.svc.cluster.local`).
 *
 * For processes a test spawns (the controller): `writeKubeconfig(user)` writes a kubeconfig with
 * the server, the CA data and that user's token, and returns its path.
 *
 * For harnesses that want more of a cluster (test/simcluster): `disabledAdmissionPlugins` and
 * `enabledAdmissionPlugins` set the admission chain (`[]` disables nothing: ServiceAccount and
 * StorageObjectInUseProtection then need their controllers, which such a harness runs);
 * `startControllerManager({ controllers })` runs kube-controller-manager with any controllers
 * (`startGarbageCollector()` is it with the garbage collector alone); `startProcess(name, binary,
 * args, { ready })` runs another component (kube-scheduler, kwok, an operator) with its log in the
 * temp dir, stopped by `stop()` and killed with the rest if the test process dies; `pidOf(name)`
 * gives a component's pid (for its RSS).
 *
 * Restart: `restart()` stops the kube-apiserver alone (SIGTERM, then SIGKILL after the stop
 * timeout) and starts it again with the same flags, port, certificates and etcd, so the data and
 * the clients' trust survive: for "API server restart mid-run" scenarios. `stopApiServer()` /
 * `startApiServer()` are its two halves, to hold the server down for a while.
 *
 * Every wait is bounded; a component that does not become ready in time (or exits) fails `start()`
 * with the last lines of its log. A control plane a test forgets to `stop()` does not keep the
 * test process alive (the children are unref'd); when that process exits its children are killed
 * (SIGKILL) and the temp dir removed, and if it is killed instead (no exit handler runs), a
 * detached watchdog `sh` that polls its pid every second does the same.
 */
import { ChildProcess, spawn } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { envtestBinaries, EnvtestBinaries } from './binaries';
import { KubeClient } from './kube-client';

/** A user the API server authenticates by token. */
export interface EnvtestUser {
  /** User name, e.g. `alice` or `system:serviceaccount:ml:controller`. */
  readonly name: string;
  /** Groups (`system:authenticated` is added by the server in any case). */
  readonly groups?: string[];
  /** UID; defaults to the name. */
  readonly uid?: string;
}

/** The admin user: group `system:masters`, which RBAC allows everything. */
export const ADMIN_USER = 'envtest-admin';

/** The identity a pod running as ServiceAccount `<namespace>/<name>` authenticates as. */
export function serviceAccountUser(namespace: string, name: string): EnvtestUser {
  return {
    name: `system:serviceaccount:${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
  };
}

export interface ControlPlaneOptions {
  /** Users besides the admin, each with a token of its own. */
  readonly users?: EnvtestUser[];
  /** Bound on each component becoming ready, in ms (default 120 s: 2 shared cores). */
  readonly startTimeoutMs?: number;
  /** Time a component has to exit after SIGTERM before SIGKILL, in ms (default 10 s). */
  readonly stopTimeoutMs?: number;
  /** Extra kube-apiserver flags (`--flag=value`), appended after the harness's own. */
  readonly apiServerFlags?: string[];
  /** Binaries to run; default `envtestBinaries()`. */
  readonly binaries?: EnvtestBinaries;
  /**
   * Admission plugins to turn off (`--disable-admission-plugins`); default `ServiceAccount` and
   * `StorageObjectInUseProtection` (see the header). A harness that runs the controllers those two
   * plugins rely on (serviceaccount, pvc-protection) passes `[]` to get a cluster's admission chain.
   */
  readonly disabledAdmissionPlugins?: string[];
  /**
   * Admission plugins to turn on besides the defaults (`--enable-admission-plugins`), e.g.
   * `ExtendedResourceToleration`; none by default.
   */
  readonly enabledAdmissionPlugins?: string[];
}

/** How `startControllerManager()` runs kube-controller-manager. */
export interface ControllerManagerOptions {
  /**
   * Controllers to run (`--controllers`), by name: `garbage-collector-controller`,
   * `deployment-controller`, ... (`kube-controller-manager --help` lists them).
   */
  readonly controllers: string[];
  /** Extra flags, appended after the harness's own. */
  readonly flags?: string[];
}

/** A process started by `startProcess()`. */
export interface ComponentProcess {
  readonly name: string;
  readonly logFile: string;
  /** Undefined once it exited. */
  readonly pid: number | undefined;
}

/** How `startProcess()` runs a component. */
export interface StartProcessOptions {
  /** Environment added to this process's (and `GOGC=400`). */
  readonly env?: Record<string, string>;
  /** Polled until true (a string says why not yet); the start fails with the log tail if it never is. */
  readonly ready?: () => Promise<true | string>;
  /** What `ready` waits for, for the error message. */
  readonly readyWhat?: string;
}

/** How long each part of `start()` took, in ms. */
export interface StartTimings {
  readonly binariesMs: number;
  readonly etcdMs: number;
  readonly apiServerMs: number;
  readonly totalMs: number;
}

const KEEP_ENV = 'CDK8S_INFERENCE_ENVTEST_KEEP';
const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
const DISABLED_ADMISSION_PLUGINS = ['ServiceAccount', 'StorageObjectInUseProtection'];

export class ControlPlane {
  /** Starts etcd, then the kube-apiserver, and waits until `/readyz` answers ok. */
  static async start(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
    const t0 = Date.now();
    const binaries = options.binaries ?? await envtestBinaries();
    const binariesMs = Date.now() - t0;
    const ports = await freePorts(3);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-inference-envtest-'));
    let cp: ControlPlane;
    try {
      cp = new ControlPlane(dir, binaries, options, ports);
    } catch (e) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw e;
    }
    live.add(cp);
    cp.startWatchdog();
    try {
      const t1 = Date.now();
      await cp.startEtcd();
      const t2 = Date.now();
      await cp.startApiServer();
      const t3 = Date.now();
      cp.startTimings = { binariesMs, etcdMs: t2 - t1, apiServerMs: t3 - t2, totalMs: t3 - t0 };
      return cp;
    } catch (e) {
      await cp.stop();
      throw e;
    }
  }

  /** The temp dir that holds everything (removed by `stop()`). */
  readonly dir: string;
  /** `https://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  /** The kube-apiserver's secure port (kept across `restart()`). */
  readonly port: number;
  /** etcd's client URL. */
  readonly etcdUrl: string;
  /** Token of `ADMIN_USER` (group `system:masters`). */
  readonly adminToken: string;
  /** How long `start()` took. */
  startTimings: StartTimings = { binariesMs: 0, etcdMs: 0, apiServerMs: 0, totalMs: 0 };

  private readonly binaries: EnvtestBinaries;
  private readonly options: ControlPlaneOptions;
  private readonly tokens = new Map<string, string>();
  private readonly etcdPeerUrl: string;
  private readonly clients: KubeClient[] = [];
  private etcd?: ManagedProcess;
  private apiServer?: ManagedProcess;
  private controllerManager?: ManagedProcess;
  /** Processes of `startProcess()`, by name, in start order. */
  private readonly extra = new Map<string, ManagedProcess>();
  private ca?: string;
  private stopped = false;
  private watchdog?: ChildProcess;

  private constructor(dir: string, binaries: EnvtestBinaries, options: ControlPlaneOptions, ports: number[]) {
    this.dir = dir;
    this.binaries = binaries;
    this.options = options;
    const [etcdClient, etcdPeer, secure] = ports;
    this.etcdUrl = `http://127.0.0.1:${etcdClient}`;
    this.etcdPeerUrl = `http://127.0.0.1:${etcdPeer}`;
    this.port = secure;
    this.baseUrl = `https://127.0.0.1:${secure}`;

    // Tokens: the admin plus one per extra user. CSV: token,user,uid,"group1,group2".
    const users: EnvtestUser[] = [{ name: ADMIN_USER, groups: ['system:masters'] }, ...(options.users ?? [])];
    const lines: string[] = [];
    for (const u of users) {
      if (this.tokens.has(u.name)) throw new Error(`user ${u.name} is given twice`);
      if (/[",\n]/.test(u.name) || (u.groups ?? []).some((g) => /[",\n]/.test(g))) {
        throw new Error(`user ${u.name}: names and groups cannot contain commas, quotes or newlines in a token file`);
      }
      const token = crypto.randomBytes(24).toString('hex');
      this.tokens.set(u.name, token);
      lines.push(`${token},${u.name},${u.uid ?? u.name},"${(u.groups ?? []).join(',')}"`);
    }
    this.adminToken = this.tokens.get(ADMIN_USER)!;
    fs.writeFileSync(this.file('tokens.csv'), lines.join('\n') + '\n', { mode: 0o600 });

    // The service-account issuer's key pair.
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', {
      namedCurve: 'prime256v1',
      privateKeyEncoding: { type: 'sec1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    fs.writeFileSync(this.file('sa.key'), privateKey, { mode: 0o600 });
    fs.writeFileSync(this.file('sa.pub'), publicKey);
  }

  /** PEM of the CA that signed the API server's serving certificate (serving cert first, then the CA). */
  get caPem(): string {
    if (!this.ca) throw new Error('the API server has not written its certificate yet');
    return this.ca;
  }

  /** The token of a user given to `start()` (or of `ADMIN_USER`). */
  tokenFor(user: string = ADMIN_USER): string {
    const token = this.tokens.get(user);
    if (!token) throw new Error(`no user ${user}: pass it in ControlPlaneOptions.users (known: ${[...this.tokens.keys()].join(', ')})`);
    return token;
  }

  /** A client authenticated as `user` (default the admin). Closed by `stop()`. */
  client(user: string = ADMIN_USER): KubeClient {
    const c = new KubeClient({ baseUrl: this.baseUrl, caPem: this.caPem, token: this.tokenFor(user) });
    this.clients.push(c);
    return c;
  }

  /** Writes a kubeconfig for `user` (server, CA data, token) into the temp dir, or `file`, and returns its path. */
  writeKubeconfig(user: string = ADMIN_USER, file?: string): string {
    const out = file ?? this.file(`kubeconfig-${user.replace(/[^A-Za-z0-9_.-]/g, '_')}.yaml`);
    const kubeconfig = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'envtest', cluster: { 'server': this.baseUrl, 'certificate-authority-data': Buffer.from(this.caPem).toString('base64') } }],
      users: [{ name: user, user: { token: this.tokenFor(user) } }],
      contexts: [{ name: 'envtest', context: { cluster: 'envtest', user, namespace: 'default' } }],
      ['current-context']: 'envtest',
    };
    fs.writeFileSync(out, YAML.stringify(kubeconfig), { mode: 0o600 });
    return out;
  }

  /** Stops the kube-apiserver alone and starts it again on the same port, certificates and etcd. */
  async restart(): Promise<void> {
    await this.stopApiServer();
    await this.startApiServer();
  }

  /** Stops the kube-apiserver (SIGTERM, then SIGKILL after the stop timeout); etcd keeps running. */
  async stopApiServer(): Promise<void> {
    const p = this.apiServer;
    this.apiServer = undefined;
    await p?.stop(this.stopTimeoutMs);
    if (!this.stopped) this.writePids();
  }

  /** Starts the kube-apiserver (again) and waits until `/readyz` answers ok. */
  async startApiServer(): Promise<void> {
    if (this.stopped) throw new Error('the control plane was stopped');
    if (this.apiServer) throw new Error('the kube-apiserver is already running');
    const certDir = this.file('certs');
    const args = [
      `--etcd-servers=${this.etcdUrl}`,
      `--cert-dir=${certDir}`,
      `--secure-port=${this.port}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      '--service-cluster-ip-range=10.0.0.0/24',
      `--service-account-issuer=${SERVICE_ACCOUNT_ISSUER}`,
      `--service-account-key-file=${this.file('sa.pub')}`,
      `--service-account-signing-key-file=${this.file('sa.key')}`,
      `--token-auth-file=${this.file('tokens.csv')}`,
      '--authorization-mode=RBAC',
      `--disable-admission-plugins=${(this.options.disabledAdmissionPlugins ?? DISABLED_ADMISSION_PLUGINS).join(',')}`,
      ...(this.options.enabledAdmissionPlugins?.length ? [`--enable-admission-plugins=${this.options.enabledAdmissionPlugins.join(',')}`] : []),
      '--allow-privileged=true',
      ...(this.options.apiServerFlags ?? []),
    ];
    const p = ManagedProcess.spawn('kube-apiserver', this.binaries.kubeApiserver, args, this.file('kube-apiserver.log'));
    this.apiServer = p;
    this.writePids();
    const certFile = path.join(certDir, 'apiserver.crt');
    try {
      await p.waitUntil(this.startTimeoutMs, `${this.baseUrl}/readyz to answer ok`, async () => {
        if (!fs.existsSync(certFile)) return 'no serving certificate yet';
        // Read again at each probe until ready: the server may still be writing it.
        const ca = fs.readFileSync(certFile, 'utf8');
        const r = await httpGet(`${this.baseUrl}/readyz`, { ca, token: this.adminToken });
        if (r.status === 200 && r.body.trim() === 'ok') {
          this.ca = ca;
          return true;
        }
        return `HTTP ${r.status}: ${r.body.trim().split('\n').filter((l) => l.includes('failed')).join('; ') || r.body.trim()}`;
      });
    } catch (e) {
      this.apiServer = undefined;
      await p.stop(this.stopTimeoutMs);
      throw e;
    }
  }

  /**
   * Starts kube-controller-manager with its garbage collector alone (as the admin, no leader
   * election, no serving port), so owner references cascade as in a cluster; resolves once the
   * collector synced its monitors of every resource (it then acts within seconds).
   */
  async startGarbageCollector(): Promise<void> {
    await this.startControllerManager({ controllers: ['garbagecollector'], flags: ['--concurrent-gc-syncs=5'] });
  }

  /**
   * Starts kube-controller-manager with the given controllers (as the admin, no leader election,
   * no serving port) and resolves once each has logged that it started — and, when the garbage
   * collector is among them, once it synced its monitors of every resource. A no-op when one runs
   * already (only one kube-controller-manager runs per control plane).
   */
  async startControllerManager(options: ControllerManagerOptions): Promise<void> {
    if (this.stopped) throw new Error('the control plane was stopped');
    if (this.controllerManager) return;
    const binary = this.binaries.kubeControllerManager;
    if (!fs.existsSync(binary)) {
      throw new Error(`no kube-controller-manager in ${this.binaries.dir} (the garbage collector needs it): ` +
        'scripts/envtest/build-binaries.sh builds it beside kube-apiserver and etcd');
    }
    const args = [
      `--kubeconfig=${this.writeKubeconfig(ADMIN_USER, this.file('kubeconfig-controller-manager.yaml'))}`,
      `--controllers=${options.controllers.join(',')}`,
      '--leader-elect=false',
      '--secure-port=0',
      '-v=2',
      ...(options.flags ?? []),
    ];
    const p = ManagedProcess.spawn('kube-controller-manager', binary, args, this.file('kube-controller-manager.log'));
    this.controllerManager = p;
    this.writePids();
    const gc = options.controllers.some((c) => c === 'garbagecollector' || c === 'garbage-collector-controller');
    await p.waitUntil(this.startTimeoutMs, gc ? 'the garbage collector to sync its monitors' : 'its controllers to start', async () => {
      const log = fs.readFileSync(p.logFile, 'utf8');
      if (gc && !/all resource monitors have synced/i.test(log)) return 'monitors not synced yet';
      // kube-controller-manager logs `"Controller starting..." controller="<name>-controller"` as it
      // starts each one (the garbage collector's monitors line above is its own readiness).
      const pending = options.controllers.filter((c) => c !== 'garbagecollector' && !c.startsWith('-') &&
        !log.includes(`"Controller starting..." controller="${c}"`) && !log.includes(`"Controller starting..." controller="${c}-controller"`));
      return pending.length === 0 || `not started yet: ${pending.join(', ')}`;
    });
  }

  /**
   * Starts another component beside the control plane (kube-scheduler, a fake kubelet, an
   * operator...), with its output in `<dir>/<name>.log`, and resolves once `ready` is true. It is
   * stopped by `stop()` (before kube-controller-manager, the API server and etcd) and killed with
   * them if the test process dies; `stopProcess(name)` stops it alone.
   */
  async startProcess(name: string, binary: string, args: string[], options: StartProcessOptions = {}): Promise<ComponentProcess> {
    if (this.stopped) throw new Error('the control plane was stopped');
    if (this.extra.has(name)) throw new Error(`${name} is already running`);
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new Error(`${name}: a component name is a file name`);
    const p = ManagedProcess.spawn(name, binary, args, this.file(`${name}.log`), options.env);
    this.extra.set(name, p);
    this.writePids();
    if (options.ready) {
      try {
        await p.waitUntil(this.startTimeoutMs, options.readyWhat ?? 'it to be ready', options.ready);
      } catch (e) {
        await this.stopProcess(name);
        throw e;
      }
    }
    return p;
  }

  /** Stops a process of `startProcess()` (SIGTERM, then SIGKILL after the stop timeout). */
  async stopProcess(name: string): Promise<void> {
    const p = this.extra.get(name);
    this.extra.delete(name);
    await p?.stop(this.stopTimeoutMs);
    if (!this.stopped) this.writePids();
  }

  /** The pid of a running component (`etcd`, `kube-apiserver`, `kube-controller-manager` or a `startProcess()` name). */
  pidOf(component: string): number | undefined {
    switch (component) {
      case 'etcd': return this.etcd?.pid;
      case 'kube-apiserver': return this.apiServer?.pid;
      case 'kube-controller-manager': return this.controllerManager?.pid;
      default: return this.extra.get(component)?.pid;
    }
  }

  /** Stops the kube-apiserver then etcd, closes the clients made by `client()`, removes the temp dir. Idempotent. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const c of this.clients) c.close();
    for (const name of [...this.extra.keys()].reverse()) await this.stopProcess(name);
    const cm = this.controllerManager;
    this.controllerManager = undefined;
    await cm?.stop(this.stopTimeoutMs);
    await this.stopApiServer();
    const e = this.etcd;
    this.etcd = undefined;
    await e?.stop(this.stopTimeoutMs);
    live.delete(this);
    this.watchdog?.kill();
    if (process.env[KEEP_ENV]) {
      process.stderr.write(`envtest: kept ${this.dir} (${KEEP_ENV} is set)\n`);
    } else {
      fs.rmSync(this.dir, { recursive: true, force: true });
    }
  }

  /** Last lines of a component's log (`etcd`, `kube-apiserver`, `kube-controller-manager` or a `startProcess()` name). */
  logTail(component: string, lines = 40): string {
    return tail(this.file(`${component}.log`), lines);
  }

  private async startEtcd(): Promise<void> {
    const args = [
      '--name=envtest',
      `--data-dir=${this.file('etcd')}`,
      `--listen-client-urls=${this.etcdUrl}`,
      `--advertise-client-urls=${this.etcdUrl}`,
      `--listen-peer-urls=${this.etcdPeerUrl}`,
      `--initial-advertise-peer-urls=${this.etcdPeerUrl}`,
      `--initial-cluster=envtest=${this.etcdPeerUrl}`,
      '--initial-cluster-state=new',
      '--unsafe-no-fsync=true',
      '--log-level=warn',
    ];
    const p = ManagedProcess.spawn('etcd', this.binaries.etcd, args, this.file('etcd.log'));
    this.etcd = p;
    this.writePids();
    await p.waitUntil(this.startTimeoutMs, `${this.etcdUrl}/health to answer healthy`, async () => {
      const r = await httpGet(`${this.etcdUrl}/health`, {});
      return r.status === 200 && /"health":\s*"true"/.test(r.body) ? true : `HTTP ${r.status}: ${r.body.trim()}`;
    });
  }

  private get startTimeoutMs(): number {
    return this.options.startTimeoutMs ?? 120_000;
  }

  private get stopTimeoutMs(): number {
    return this.options.stopTimeoutMs ?? 10_000;
  }

  private file(name: string): string {
    return path.join(this.dir, name);
  }

  /**
   * A detached `sh` that outlives this process if it is killed (a CI timeout, a jest worker
   * SIGKILLed) — when no 'exit' handler runs — and then SIGKILLs the components listed in `pids`
   * and removes the temp dir. `stop()` ends it.
   */
  private startWatchdog(): void {
    const script = 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; ' +
      'for p in $(cat "$2/pids" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done; [ -n "$3" ] || rm -rf "$2"';
    this.watchdog = spawn('sh', ['-c', script, 'envtest-watchdog', String(process.pid), this.dir, process.env[KEEP_ENV] ?? ''], {
      detached: true,
      stdio: 'ignore',
    });
    this.watchdog.on('error', () => undefined); // without sh, the 'exit' handler remains
    this.watchdog.unref();
  }

  /** The running components' pids, for the watchdog. */
  private writePids(): void {
    const pids = [this.etcd?.pid, this.apiServer?.pid, this.controllerManager?.pid, ...[...this.extra.values()].map((p) => p.pid)]
      .filter((p) => p !== undefined);
    fs.writeFileSync(this.file('pids'), pids.join(' ') + '\n');
  }

  /** Synchronous last resort on process exit. */
  killNow(): void {
    this.watchdog?.kill();
    for (const p of this.extra.values()) p.killNow();
    this.controllerManager?.killNow();
    this.apiServer?.killNow();
    this.etcd?.killNow();
    if (!process.env[KEEP_ENV]) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Control planes not stopped yet: killed if the process exits first. */
const live = new Set<ControlPlane>();
process.on('exit', () => {
  for (const cp of live) cp.killNow();
});

/** A child process whose output goes to a log file. */
class ManagedProcess {
  static spawn(name: string, binary: string, args: string[], logFile: string, extraEnv: Record<string, string> = {}): ManagedProcess {
    const fd = fs.openSync(logFile, 'a');
    try {
      fs.writeSync(fd, `--- ${new Date().toISOString()} ${binary} ${args.join(' ')}\n`);
      // GOGC=400: the components collect garbage a quarter as often. Installing the upstream CRDs
      // is most of a test run's CPU, and a fifth of the API server's went to its collector
      // (measured: 23.8 against 17.5 s of kube-apiserver CPU to install all of them); a test
      // machine has the memory. A GOGC of the caller's wins.
      const env = { GOGC: '400', ...process.env, ...extraEnv };
      const child = spawn(binary, args, { stdio: ['ignore', fd, fd], env });
      // A control plane a test forgot to stop must not keep the test process alive: the 'exit'
      // handler (and the watchdog) then kill it.
      child.unref();
      return new ManagedProcess(name, child, logFile);
    } finally {
      fs.closeSync(fd);
    }
  }

  private exit?: string;
  private readonly exited: Promise<void>;

  private constructor(readonly name: string, private readonly child: ChildProcess, readonly logFile: string) {
    this.exited = new Promise((resolve) => {
      child.on('error', (e) => {
        this.exit ??= `could not be started: ${e.message}`;
        resolve();
      });
      child.on('exit', (code, signal) => {
        this.exit ??= signal ? `was killed by ${signal}` : `exited with code ${code}`;
        resolve();
      });
    });
  }

  /**
   * Polls `probe` (true = ready; a string = why not yet) until it is true, the process exits, or
   * `timeoutMs` passes; the two failures throw with the last lines of the log.
   */
  async waitUntil(timeoutMs: number, what: string, probe: () => Promise<true | string>): Promise<void> {
    const start = Date.now();
    let last = 'not probed yet';
    for (;;) {
      if (this.exit) {
        throw new Error(`${this.name} ${this.exit} before ${what}; last lines of ${this.logFile}:\n${tail(this.logFile, 40)}`);
      }
      try {
        const r = await probe();
        if (r === true) return;
        last = r;
      } catch (e) {
        last = (e as Error).message;
      }
      if (Date.now() - start > timeoutMs) {
        throw new Error(`${this.name} did not become ready within ${timeoutMs} ms (waiting for ${what}; last probe: ${last});` +
          ` last lines of ${this.logFile}:\n${tail(this.logFile, 40)}`);
      }
      await Promise.race([sleep(100), this.exited]);
    }
  }

  /** SIGTERM, then SIGKILL if it has not exited after `timeoutMs`. */
  async stop(timeoutMs: number): Promise<void> {
    if (this.exit) return;
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      this.exited.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }

  get pid(): number | undefined {
    return this.exit ? undefined : this.child.pid;
  }

  killNow(): void {
    if (!this.exit) this.child.kill('SIGKILL');
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Last `lines` lines of a file (reads at most its last 64 KiB). */
function tail(file: string, lines: number): string {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const len = Math.min(size, 64 * 1024);
      const buf = Buffer.alloc(len);
      fs.readSync(fd, buf, 0, len, size - len);
      return buf.toString('utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    return `(cannot read ${file}: ${(e as Error).message})`;
  }
}

/**
 * `n` distinct free TCP ports on 127.0.0.1: all listened on at once with port 0, then released. A
 * port could be taken again before the component binds it, which on a test machine is rare enough
 * (and fails `start()` with the component's "address already in use" in the log tail).
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers = Array.from({ length: n }, () => net.createServer());
  try {
    return await Promise.all(servers.map((s) => new Promise<number>((resolve, reject) => {
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => resolve((s.address() as net.AddressInfo).port));
    })));
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))));
  }
}

interface HttpResult {
  readonly status: number;
  readonly body: string;
}

/** One GET with a short timeout, for readiness probes. */
function httpGet(url: string, opts: { ca?: string; token?: string }): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const headers: Record<string, string> = opts.token ? { Authorization: `Bearer ${opts.token}` } : {};
    const req = (u.protocol === 'https:' ? https : http).request(u, { method: 'GET', headers, ca: opts.ca, timeout: 5000, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out after 5000 ms')));
    req.on('error', reject);
    req.end();
  });
}
