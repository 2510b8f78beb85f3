/**
 * A simulated GPU cluster on 127.0.0.1, from real upstream components only: the envtest control
 * plane (test/envtest/control-plane.ts: etcd, kube-apiserver) with the admission chain of a
 * cluster, kube-controller-manager with the controllers pods need, kube-scheduler, KWOK as the
 * kubelet of fake nodes made from a pool catalogue (gpu-pools.ts), the KubeRay operator, and the
 * upstream CRDs the examples need.
 *
 *   const cluster = await SimCluster.start({ pools: ALL_POOLS, taintGpuNodes: true, crdFiles });
 *   cluster.client.apply(obj, { fieldManager: 'test', force: true, query: { fieldValidation: 'Strict' } });
 *   ...
 *   await cluster.stop();
 *
 * What runs, and why:
 * - kube-apiserver with every default admission plugin (ServiceAccount and
 *   StorageObjectInUseProtection too: their controllers run here) plus `ExtendedResourceToleration`
 *   (GKE enables it: a pod requesting an extended resource such as `nvidia.com/gpu` gets a
 *   toleration of the taint of that name) and `DefaultTolerationSeconds` (a default one, named
 *   anyway). DynamicResourceAllocation is GA in 1.34 and on by default, resource.k8s.io/v1 served
 *   by default; nothing to enable.
 * - kube-controller-manager: serviceaccount (each namespace's `default` ServiceAccount, which the
 *   ServiceAccount admission plugin needs), deployment, replicaset, statefulset, job, the garbage
 *   collector, resourceclaim (ResourceClaims from a pod's ResourceClaimTemplates), the PV binder and
 *   the PVC/PV protection controllers, and node-lifecycle (it lifts the
 *   `node.kubernetes.io/not-ready:NoSchedule` taint the TaintNodesByCondition admission plugin puts
 *   on every new node, once KWOK reports it Ready; KWOK's lease heartbeats keep it Ready). No
 *   taint-eviction controller: nothing here simulates a node going away.
 * - kube-scheduler with its default profile (`default-scheduler`), no leader election.
 * - KWOK (`kwok`, the controller; not kwokctl) managing the nodes annotated
 *   `kwok.x-k8s.io/node=fake`, which the harness creates from the pools, and the pods bound to
 *   them, with KWOK's default stages (node-initialize, node-heartbeat-with-lease, pod-ready,
 *   pod-complete, pod-delete — kwokctl's defaults, copied from the kwok module by
 *   scripts/simcluster/build-binaries.sh): a node becomes Ready at once, a bound pod Running and
 *   Ready, a deleted pod goes away.
 * - The KEDA operator when asked (`keda: true`), so a ScaledObject becomes the HPA KEDA makes of
 *   it, with KEDA's own status conditions; its CRDs from its module.
 * - The KubeRay operator (ray-operator), so a RayService becomes a RayCluster and its head and
 *   worker pods as in a cluster. Its RayJob CRD comes from the operator's module (the operator
 *   exits when a kind it watches is not served); RayCluster and RayService from ../shared/upstream,
 *   the schemas the library is validated against.
 * - A storage provisioner stand-in (the one thing here that is not an upstream binary): for a PVC
 *   of a StorageClass whose provisioner is `pd.csi.storage.gke.io`, once the PV controller marked it
 *   for that provisioner and (WaitForFirstConsumer) the scheduler picked a node, it creates the
 *   bound PV as the CSI external-provisioner would. The default StorageClass is GKE's
 *   `standard-rwo` (pd-balanced, WaitForFirstConsumer). Access modes are not checked (a real PD
 *   cannot be ReadWriteMany).
 * - ResourceSlices of NVIDIA's DRA driver and its `gpu.nvidia.com` DeviceClass (gpu-pools.ts), the
 *   objects the driver's kubelet plugin and chart would publish (`dra: false` leaves them out).
 *
 * Timings (`timings`) and the kube-apiserver's peak RSS (`peakRssKiB()`, VmHWM) are measured.
 */
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import * as path from 'path';
import * as YAML from 'yaml';
import { SimClusterBinaries, simClusterBinaries } from './binaries';
import { ALL_POOLS, gpuDeviceClass, GKE_GPU_TAINT, KWOK_NODE_ANNOTATION, NodePool, nodesOf, resourceSlicesOf } from './gpu-pools';
import { upstreamDir } from '../../src/schema-validation/upstream-schemas';
import { EnvtestBinaries, envtestBinaries } from '../envtest/binaries';
import { ControlPlane, freePorts } from '../envtest/control-plane';
import { installCrds, InstalledCrd } from '../envtest/crds';
import { KubeApiError, KubeClient, KubeObject, waitFor } from '../envtest/kube-client';
import { quantityValue } from '../envtest/object-diff';

export interface SimClusterOptions {
  /** Node pools (default `ALL_POOLS`: every GPU pool and the CPU pool). */
  readonly pools?: NodePool[];
  /** GKE's `nvidia.com/gpu=present:NoSchedule` on every GPU node (default false). */
  readonly taintGpuNodes?: boolean;
  /** Publish the DRA driver's ResourceSlices and DeviceClass (default true). */
  readonly dra?: boolean;
  /** Run the KubeRay operator (default true). */
  readonly kuberay?: boolean;
  /**
   * Run the KEDA operator (default false: it would act on the examples' ScaledObjects, scaling
   * Deployments that other scenarios count pods of).
   */
  readonly keda?: boolean;
  /** CRD (or Crossplane XRD) files to install besides KubeRay's. */
  readonly crdFiles?: string[];
  /** Bound on each component becoming ready, ms (default 180 s: 2 shared cores). */
  readonly startTimeoutMs?: number;
  readonly binaries?: SimClusterBinaries;
  readonly envtestBinaries?: EnvtestBinaries;
}

/** How long each part of `start()` took, in ms. */
export interface SimClusterTimings {
  binariesMs: number;
  controlPlaneMs: number;
  controllerManagerMs: number;
  crdsMs: number;
  schedulerMs: number;
  kwokMs: number;
  /** From creating the Node objects until KWOK reported every one Ready. */
  nodesReadyMs: number;
  kuberayMs: number;
  kedaMs: number;
  totalMs: number;
}

const CONTROLLERS = [
  'serviceaccount-controller',
  'deployment-controller',
  'replicaset-controller',
  'statefulset-controller',
  'job-controller',
  'garbage-collector-controller',
  'resourceclaim-controller',
  'persistentvolume-binder-controller',
  'persistentvolumeclaim-protection-controller',
  'persistentvolume-protection-controller',
  'node-lifecycle-controller',
];

const CONTROLLER_MANAGER_FLAGS = [
  '--concurrent-gc-syncs=5',
  '--concurrent-statefulset-syncs=5',
  // Above the default 20/s (burst 30): creating 1,000 Deployments' ReplicaSets and pods then takes
  // seconds, not minutes, so a test measures the scheduler, KWOK and our controller.
  '--kube-api-qps=100',
  '--kube-api-burst=200',
];

/** GKE's default StorageClass (pd-balanced through the PD CSI driver). */
export const DEFAULT_STORAGE_CLASS: KubeObject = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'standard-rwo', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
  provisioner: 'pd.csi.storage.gke.io',
  parameters: { type: 'pd-balanced' },
  reclaimPolicy: 'Delete',
  volumeBindingMode: 'WaitForFirstConsumer',
  allowVolumeExpansion: true,
};

/** Where the KEDA operator keeps its cluster objects (KEDA_CLUSTER_OBJECT_NAMESPACE). */
export const KEDA_NAMESPACE = 'keda';

const PROVISIONERS = new Set(['pd.csi.storage.gke.io']);
const FIELD_MANAGER = 'simcluster';

export class SimCluster {
  static async start(options: SimClusterOptions = {}): Promise<SimCluster> {
    const t0 = Date.now();
    const [binaries, envBinaries] = await Promise.all([
      options.binaries ?? simClusterBinaries(),
      options.envtestBinaries ?? envtestBinaries(),
    ]);
    const t1 = Date.now();
    const startTimeoutMs = options.startTimeoutMs ?? 180_000;
    const cp = await ControlPlane.start({
      binaries: envBinaries,
      startTimeoutMs,
      disabledAdmissionPlugins: [],
      enabledAdmissionPlugins: ['ExtendedResourceToleration', 'DefaultTolerationSeconds'],
      // 65,534 Service IPs instead of envtest's 254 (the last flag wins; same first IP, 10.0.0.1):
      // the scale scenario has a Service per deployment.
      apiServerFlags: ['--service-cluster-ip-range=10.0.0.0/16'],
    });
    const cluster = new SimCluster(cp, binaries, options);
    try {
      await cluster.boot(t0, t1);
      return cluster;
    } catch (e) {
      await cluster.stop();
      throw e;
    }
  }

  readonly cp: ControlPlane;
  /** An admin client. */
  readonly client: KubeClient;
  readonly pools: NodePool[];
  /** The Node objects created (as sent). */
  readonly nodes: KubeObject[];
  readonly timings: SimClusterTimings = {
    binariesMs: 0,
    controlPlaneMs: 0,
    controllerManagerMs: 0,
    crdsMs: 0,
    schedulerMs: 0,
    kwokMs: 0,
    nodesReadyMs: 0,
    kuberayMs: 0,
    kedaMs: 0,
    totalMs: 0,
  };
  crds: InstalledCrd[] = [];
  /** PVs the provisioner stand-in created, by PVC `<namespace>/<name>`. */
  readonly provisioned = new Map<string, string>();

  private readonly binaries: SimClusterBinaries;
  private readonly options: SimClusterOptions;
  private provisionerLoop?: Promise<void>;
  private stopping = false;

  private constructor(cp: ControlPlane, binaries: SimClusterBinaries, options: SimClusterOptions) {
    this.cp = cp;
    this.binaries = binaries;
    this.options = options;
    this.client = cp.client();
    this.pools = options.pools ?? ALL_POOLS;
    this.nodes = nodesOf(this.pools, { taintGpuNodes: options.taintGpuNodes });
  }

  private get startTimeoutMs(): number {
    return this.options.startTimeoutMs ?? 180_000;
  }

  private async boot(t0: number, t1: number): Promise<void> {
    const t = this.timings;
    t.binariesMs = t1 - t0;
    t.controlPlaneMs = this.cp.startTimings.totalMs - this.cp.startTimings.binariesMs;

    let s = Date.now();
    await this.cp.startControllerManager({ controllers: CONTROLLERS, flags: CONTROLLER_MANAGER_FLAGS });
    t.controllerManagerMs = Date.now() - s;

    s = Date.now();
    const upstream = upstreamDir();
    const kuberay = this.options.kuberay !== false;
    const crdFiles = new Set(this.options.crdFiles ?? []);
    if (kuberay) {
      crdFiles.add(path.join(upstream, 'kuberay', 'ray.io_rayclusters.yaml'));
      crdFiles.add(path.join(upstream, 'kuberay', 'ray.io_rayservices.yaml'));
      const rayJobs = this.binaries.kuberayCrds.find((f) => f.endsWith('ray.io_rayjobs.yaml'));
      if (rayJobs) crdFiles.add(rayJobs);
    }
    // The operator's own CRDs: it watches all six kinds, and ../shared/upstream has two (of v2.20.2).
    if (this.options.keda) for (const f of this.binaries.kedaCrds) crdFiles.add(f);
    this.crds = await installCrds(this.client, [...crdFiles], { timeoutMs: this.startTimeoutMs });
    await this.applyAll([DEFAULT_STORAGE_CLASS, ...(this.options.dra === false ? [] : [gpuDeviceClass()])]);
    t.crdsMs = Date.now() - s;

    s = Date.now();
    await this.startScheduler();
    t.schedulerMs = Date.now() - s;

    s = Date.now();
    await this.startKwok();
    t.kwokMs = Date.now() - s;

    s = Date.now();
    await this.createNodes();
    t.nodesReadyMs = Date.now() - s;

    if (kuberay) {
      s = Date.now();
      await this.startKuberay();
      t.kuberayMs = Date.now() - s;
    }
    if (this.options.keda) {
      s = Date.now();
      await this.startKeda();
      t.kedaMs = Date.now() - s;
    }
    this.provisionerLoop = this.runProvisioner();
    t.totalMs = Date.now() - t0;
  }

  /** Server-side apply of cluster objects the harness owns. */
  private async applyAll(objects: KubeObject[]): Promise<void> {
    for (const o of objects) await this.client.apply(o, { fieldManager: FIELD_MANAGER, force: true, query: { fieldValidation: 'Strict' } });
  }

  private async startScheduler(): Promise<void> {
    const [port] = await freePorts(1);
    const config = path.join(this.cp.dir, 'kube-scheduler.yaml');
    const kubeconfig = this.cp.writeKubeconfig(undefined, path.join(this.cp.dir, 'kubeconfig-kube-scheduler.yaml'));
    fs.writeFileSync(config, YAML.stringify({
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      clientConnection: { kubeconfig },
      leaderElection: { leaderElect: false },
      profiles: [{ schedulerName: 'default-scheduler' }],
    }));
    await this.cp.startProcess('kube-scheduler', this.binaries.kubeScheduler, [
      `--config=${config}`,
      `--secure-port=${port}`,
      '--bind-address=127.0.0.1',
      `--cert-dir=${path.join(this.cp.dir, 'kube-scheduler-certs')}`,
      `--authentication-kubeconfig=${kubeconfig}`,
      `--authorization-kubeconfig=${kubeconfig}`,
      '-v=2',
    ], {
      ...answersOk(`https://127.0.0.1:${port}/readyz`),
    });
  }

  private async startKwok(): Promise<void> {
    const [port] = await freePorts(1);
    const kubeconfig = this.cp.writeKubeconfig(undefined, path.join(this.cp.dir, 'kubeconfig-kwok.yaml'));
    await this.cp.startProcess('kwok', this.binaries.kwok, [
      `--kubeconfig=${kubeconfig}`,
      ...this.binaries.kwokStages.map((f) => `--config=${f}`),
      '--manage-all-nodes=false',
      `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=fake`,
      // kwokctl's defaults: a 40 s node lease, pod IPs from 10.0.0.1/24 (here a /16: more pods).
      '--node-lease-duration-seconds=40',
      '--cidr=10.244.0.1/16',
      '--node-ip=10.128.0.1',
      `--server-address=127.0.0.1:${port}`,
    ], {
      ...answersOk(`http://127.0.0.1:${port}/healthz`),
    });
  }

  private async createNodes(): Promise<void> {
    for (const node of this.nodes) {
      const created = await this.client.create<KubeObject>(node);
      // The API server keeps a Node's status on create today; patch it in case it did not.
      if (!created.status?.allocatable?.['nvidia.com/gpu'] && node.status.allocatable['nvidia.com/gpu']) {
        await this.client.patchStatus({ apiVersion: 'v1', kind: 'Node', name: node.metadata!.name }, { status: { capacity: node.status.capacity, allocatable: node.status.allocatable } }, 'merge');
      }
    }
    if (this.options.dra !== false) await this.applyAll(resourceSlicesOf(this.pools));
    const names = new Set(this.nodes.map((n) => n.metadata!.name!));
    await waitFor(async () => {
      const list = await this.client.list<KubeObject>({ apiVersion: 'v1', kind: 'Node' });
      const ready = list.items.filter((n) => names.has(n.metadata!.name!) &&
        (n.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True') &&
        !(n.spec?.taints ?? []).some((t: any) => t.key === 'node.kubernetes.io/not-ready'));
      return ready.length === names.size || false;
    }, this.startTimeoutMs, `all ${names.size} nodes to be Ready (KWOK's node-initialize stage) and untainted not-ready (node-lifecycle controller)`, 200);
    // KWOK keeps what the harness set; check the scheduler-relevant parts survived.
    for (const node of this.nodes) {
      const live = await this.client.get<KubeObject>({ apiVersion: 'v1', kind: 'Node', name: node.metadata!.name });
      for (const [k, v] of Object.entries<string>(node.status.allocatable)) {
        if (quantityValue(live.status?.allocatable?.[k]) !== quantityValue(v)) {
          throw new Error(`node ${node.metadata!.name}: allocatable ${k} is ${live.status?.allocatable?.[k]}, not ${v}, after KWOK initialized it`);
        }
      }
    }
  }

  private async startKuberay(): Promise<void> {
    const [probe] = await freePorts(1);
    const kubeconfig = this.cp.writeKubeconfig(undefined, path.join(this.cp.dir, 'kubeconfig-kuberay.yaml'));
    await this.cp.startProcess('ray-operator', this.binaries.kuberayOperator, [
      '--metrics-addr=0',
      `--health-probe-bind-address=127.0.0.1:${probe}`,
      '--enable-leader-election=false',
      '--log-stdout-encoder=console',
    ], {
      env: { KUBECONFIG: kubeconfig },
      ...answersOk(`http://127.0.0.1:${probe}/readyz`),
    });
  }

  /**
   * The KEDA operator (`keda-operator`, not its metrics API server or admission webhooks: nothing
   * here reads external metrics or needs KEDA's own validation), watching every namespace, with
   * its cluster objects in `keda`. Its gRPC metrics service needs a certificate (build-binaries.sh
   * makes one).
   */
  private async startKeda(): Promise<void> {
    await this.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: KEDA_NAMESPACE } }).catch((e) => {
      if (!(e instanceof KubeApiError && e.status === 409)) throw e;
    });
    const [probe, grpc] = await freePorts(2);
    const kubeconfig = this.cp.writeKubeconfig(undefined, path.join(this.cp.dir, 'kubeconfig-keda.yaml'));
    await this.cp.startProcess('keda-operator', this.binaries.kedaOperator, [
      '--metrics-bind-address=0',
      `--health-probe-bind-address=127.0.0.1:${probe}`,
      `--metrics-service-bind-address=127.0.0.1:${grpc}`,
      '--leader-elect=false',
      `--cert-dir=${this.binaries.kedaCertDir}`,
      `--ca-dir=${this.binaries.kedaCertDir}`,
    ], {
      env: { KUBECONFIG: kubeconfig, KEDA_CLUSTER_OBJECT_NAMESPACE: KEDA_NAMESPACE, POD_NAMESPACE: KEDA_NAMESPACE, WATCH_NAMESPACE: '' },
      ...answersOk(`http://127.0.0.1:${probe}/readyz`),
    });
  }

  /**
   * Adds (or removes) GKE's GPU taint on every GPU node: the GKE-tainted pool set from the same
   * nodes. Pods already bound stay (the taint is NoSchedule).
   */
  async setGpuNodeTaint(on: boolean): Promise<void> {
    for (const node of this.nodes) {
      if (!node.metadata!.labels!['nvidia.com/gpu.present']) continue;
      const live = await this.client.get<KubeObject>({ apiVersion: 'v1', kind: 'Node', name: node.metadata!.name });
      const others = (live.spec?.taints ?? []).filter((t: any) => t.key !== GKE_GPU_TAINT.key);
      const taints = on ? [...others, { ...GKE_GPU_TAINT }] : others;
      await this.client.patch({ apiVersion: 'v1', kind: 'Node', name: node.metadata!.name }, { spec: { taints } }, 'merge');
    }
  }

  /** A component's peak resident set size (VmHWM) in KiB so far, from /proc (Linux). */
  peakRssKiB(component = 'kube-apiserver'): number | undefined {
    const pid = this.cp.pidOf(component);
    if (pid === undefined) return undefined;
    try {
      const m = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Number(m[1]) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Last lines of a component's log. */
  logTail(component: string, lines = 40): string {
    return this.cp.logTail(component, lines);
  }

  /** Stops everything (idempotent). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.provisionerLoop?.catch(() => undefined);
    await this.cp.stop();
  }

  /**
   * The CSI external-provisioner's part, for the provisioners in PROVISIONERS: a PVC the PV
   * controller annotated `volume.kubernetes.io/storage-provisioner: <ours>` (and, for
   * WaitForFirstConsumer, the scheduler `volume.kubernetes.io/selected-node`) gets a PV of its size
   * and class, pre-bound to it (claimRef); the PV controller then binds the two and the scheduler's
   * VolumeBinding plugin lets the pod bind. A PV whose claim is gone is deleted (reclaim Delete).
   */
  private async runProvisioner(): Promise<void> {
    const classes = new Map<string, KubeObject>();
    while (!this.stopping) {
      try {
        const pvcs = await this.client.list<KubeObject>({ apiVersion: 'v1', kind: 'PersistentVolumeClaim' });
        for (const pvc of pvcs.items) {
          const a = pvc.metadata?.annotations ?? {};
          const provisioner = a['volume.kubernetes.io/storage-provisioner'];
          if (!provisioner || !PROVISIONERS.has(provisioner) || pvc.spec?.volumeName || pvc.metadata?.deletionTimestamp) continue;
          const key = `${pvc.metadata!.namespace}/${pvc.metadata!.name}`;
          if (this.provisioned.has(key)) continue;
          const scName: string = pvc.spec.storageClassName;
          let sc = classes.get(scName);
          if (!sc) {
            sc = await this.client.get<KubeObject>({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', name: scName });
            classes.set(scName, sc);
          }
          if (sc.volumeBindingMode === 'WaitForFirstConsumer' && !a['volume.kubernetes.io/selected-node']) continue;
          const name = `pvc-${pvc.metadata!.uid}`;
          await this.client.create({
            apiVersion: 'v1',
            kind: 'PersistentVolume',
            metadata: { name, annotations: { 'pv.kubernetes.io/provisioned-by': provisioner } },
            spec: {
              capacity: { storage: pvc.spec.resources.requests.storage },
              accessModes: pvc.spec.accessModes,
              persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
              storageClassName: scName,
              volumeMode: pvc.spec.volumeMode ?? 'Filesystem',
              claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: pvc.metadata!.namespace, name: pvc.metadata!.name, uid: pvc.metadata!.uid },
              csi: { driver: provisioner, volumeHandle: `projects/sim/zones/${sc.parameters?.zone ?? 'us-central1-a'}/disks/${name}` },
            },
          }).catch((e) => {
            if (!(e instanceof KubeApiError && e.status === 409)) throw e;
          });
          this.provisioned.set(key, name);
        }
        // Released PVs of ours (their claim was deleted): the provisioner deletes the volume.
        const pvs = await this.client.list<KubeObject>({ apiVersion: 'v1', kind: 'PersistentVolume' });
        for (const pv of pvs.items) {
          if (pv.status?.phase === 'Released' && PROVISIONERS.has(pv.metadata?.annotations?.['pv.kubernetes.io/provisioned-by']) &&
            pv.spec?.persistentVolumeReclaimPolicy === 'Delete') {
            await this.client.delete({ apiVersion: 'v1', kind: 'PersistentVolume', name: pv.metadata!.name }).catch(() => undefined);
            for (const [k, v] of this.provisioned) if (v === pv.metadata!.name) this.provisioned.delete(k);
          }
        }
      } catch (e) {
        if (this.stopping) return;
        process.stderr.write(`simcluster provisioner: ${(e as Error).message}\n`);
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
}

/** `startProcess` options that wait until `url` answers 200 (a component's health or readiness endpoint). */
function answersOk(url: string): { readyWhat: string; ready: () => Promise<true | string> } {
  return {
    readyWhat: `${url} to answer ok`,
    ready: async () => {
      const r = await get(url);
      return r.status === 200 || `HTTP ${r.status}: ${r.body.trim()}`;
    },
  };
}

/** One GET with a short timeout; TLS unverified (the components' self-signed serving certificates). */
function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const mod = u.protocol === 'https:' ? https : http;
    const req = mod.request(u, { method: 'GET', timeout: 5000, agent: false, rejectUnauthorized: false }, (res) => {
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
