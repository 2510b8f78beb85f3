/**
 * One example on the simulated cluster, end to end: apply every object it synthesizes (server-side
 * apply, `fieldValidation=Strict`), let the real controllers (and the KubeRay operator) make pods of
 * its workloads and the operator stand-ins (operators.ts) those of the custom resources whose
 * operators do not run here, wait until the scheduler has decided on every pod, record where each
 * went or why it did not, check every placement against the node, and delete it all again so the
 * next example meets an empty cluster.
 *
 * Examples run one at a time: each gets the whole pool set, so a pod that stays Pending does so
 * because no node of the pool set fits it, not because another example took the GPUs.
 */
import * as path from 'path';
import { emulate, EMULATED_KINDS, kindKey, SOURCE_LABEL, TEMPLATE_LABEL } from './operators';
import { SimCluster } from './sim-cluster';
import { upstreamDir } from '../../src/schema-validation/upstream-schemas';
import { upstreamCrdIndex, useStorageVersion } from '../envtest/crds';
import { SynthesizedExample } from '../envtest/examples';
import { KubeApiError, KubeClient, KubeObject, refOf, splitApiVersion, waitFor } from '../envtest/kube-client';
import { quantityValue } from '../envtest/object-diff';

/** The field manager the examples' objects are applied with. */
export const FIELD_MANAGER = 'cdk8s-inference-examples';

/**
 * The CRDs to install for a set of objects: AI Runway's (the examples' input kind), and the
 * upstream file of every custom kind the objects use (found by group/kind in ../shared/upstream).
 */
export function crdFilesFor(objects: KubeObject[]): string[] {
  const upstream = upstreamDir();
  const index = upstreamCrdIndex(upstream);
  const files = new Set([
    path.join(upstream, 'airunway', 'airunway.ai_modeldeployments.yaml'),
    path.join(upstream, 'airunway', 'airunway.ai_inferenceproviderconfigs.yaml'),
  ]);
  for (const o of objects) {
    const file = index.get(`${splitApiVersion(o.apiVersion).group}/${o.kind}`);
    if (file) files.add(file);
  }
  return [...files].sort();
}

/** Creates the namespaces (when missing) and waits until each has its `default` ServiceAccount. */
export async function ensureNamespaces(client: KubeClient, names: Iterable<string>, timeoutMs = 120_000): Promise<void> {
  for (const name of names) {
    try {
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    } catch (e) {
      if (!(e instanceof KubeApiError && e.status === 409)) throw e;
    }
  }
  for (const name of names) {
    await waitFor(() => client.get({ apiVersion: 'v1', kind: 'ServiceAccount', namespace: name, name: 'default' }), timeoutMs,
      `ServiceAccount ${name}/default (the serviceaccount controller)`);
  }
}

/** One pod, where it went or why not. */
export interface PodResult {
  /** The object of the example whose pod template this pod comes from: `Kind namespace/name`. */
  readonly source: string;
  /** The pod template within it (`spec.template`, `services.VllmWorker`, ...). */
  readonly template: string;
  readonly pod: string;
  readonly node?: string;
  /** bound; unschedulable (the scheduler said why); other-scheduler (spec.schedulerName not ours); undecided. */
  readonly outcome: 'bound' | 'unschedulable' | 'other-scheduler' | 'undecided';
  /** The scheduler's message (the PodScheduled condition, as in its FailedScheduling event), or why undecided. */
  readonly reason?: string;
  /** GPUs requested through `nvidia.com/gpu`. */
  readonly gpus: number;
  /** ResourceClaims of the pod: name, allocated or not, devices. */
  readonly claims: ClaimResult[];
}

export interface ClaimResult {
  readonly claim: string;
  /** `ResourceClaimTemplate ns/name` or `ResourceClaim ns/name`. */
  readonly from: string;
  readonly allocated: boolean;
  /** `pool/device` of each allocated device. */
  readonly devices: string[];
}

export interface ExampleRun {
  readonly example: string;
  /** Objects applied (server-side apply, strict field validation). */
  readonly applied: number;
  /** Objects the API server refused, with its message. */
  readonly rejected: string[];
  /** What the operator stand-ins did, and what not. */
  readonly notes: string[];
  readonly expectedPods: number;
  readonly pods: PodResult[];
  /**
   * Warning events in the example's namespaces other than FailedScheduling: controllers that could
   * not create pods (FailedCreate), PVCs that cannot be provisioned (ProvisioningFailed), ...
   */
  readonly warnings: string[];
  /** Placements that contradict the pod spec (GPU count, node selector or affinity, taints): bugs of the harness or scheduler. */
  readonly violations: string[];
  readonly ms: number;
}

export interface RunOptions {
  /** How long to wait for pods to appear and be decided on, ms (default 120 s). */
  readonly settleTimeoutMs?: number;
  /** How long the picture must stay unchanged to count as settled, ms (default 4 s). */
  readonly quietMs?: number;
}

const SKIP_DELETE = new Set(['Namespace', 'CustomResourceDefinition']);

/** Apply order, as Helm installs: namespaces and CRDs, cluster-scoped objects, then config, then workloads. */
function applyRank(o: KubeObject): number {
  switch (o.kind) {
    case 'Namespace':
    case 'CustomResourceDefinition':
      return 0;
    case 'DeviceClass':
    case 'ClusterRole':
    case 'ClusterRoleBinding':
    case 'StorageClass':
    case 'PriorityClass':
      return 1;
    case 'ServiceAccount':
    case 'Secret':
    case 'ConfigMap':
    case 'Role':
    case 'RoleBinding':
    case 'PersistentVolumeClaim':
    case 'ResourceClaimTemplate':
    case 'ResourceClaim':
    case 'Service':
      return 2;
    default:
      return 3;
  }
}

function describe(o: KubeObject): string {
  return `${o.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}`;
}

/** Pods the workloads of the example's own objects end up with (custom resources: see operators.ts). */
function nativePods(o: KubeObject): number {
  switch (kindKey(o)) {
    case 'apps/Deployment':
    case 'apps/StatefulSet':
    case 'apps/ReplicaSet':
      return o.spec?.replicas ?? 1;
    case 'batch/Job':
      return o.spec?.parallelism ?? 1;
    case '/Pod':
      return 1;
    case 'ray.io/RayService':
    case 'ray.io/RayCluster': {
      // KubeRay: one head pod, and per worker group replicas (bounded by min/max) × numOfHosts.
      const rc = o.kind === 'RayService' ? o.spec?.rayClusterConfig : o.spec;
      return 1 + (rc?.workerGroupSpecs ?? []).reduce((n: number, g: any) =>
        n + Math.min(Math.max(g.replicas ?? g.minReplicas ?? 0, g.minReplicas ?? 0), g.maxReplicas ?? Infinity) * (g.numOfHosts ?? 1), 0);
    }
    default:
      return 0;
  }
}

/** Runs one example on the cluster (see the header); leaves the cluster as it found it. */
export async function runExample(cluster: SimCluster, example: SynthesizedExample, options: RunOptions = {}): Promise<ExampleRun> {
  const t0 = Date.now();
  const client = cluster.client;
  const installed = new Set(cluster.crds.map((c) => c.name));
  const rejected: string[] = [];
  const notes: string[] = [];
  const applied: KubeObject[] = [];
  const created: KubeObject[] = [];
  let expectedPods = 0;
  const namespaces = new Set(example.objects.map((o) => o.metadata?.namespace).filter((n): n is string => !!n));
  await ensureNamespaces(client, namespaces);

  const ordered = [...example.objects].sort((a, b) => applyRank(a) - applyRank(b));
  for (const obj of ordered) {
    // The upstream CRDs are installed by the harness; an example's own copy of one (the controller
    // example ships AI Runway's) is checked with a dry run, so later examples keep the upstream schema.
    const dryRun = obj.kind === 'CustomResourceDefinition' && installed.has(obj.metadata!.name!);
    // A CRD installed without its conversion webhook stores every version as its storage version
    // (crds.ts): make the object's own version the storage version first, or the server would prune
    // it against another version's schema (Dynamo's v1alpha1 `services` under v1beta1).
    const { group, version } = splitApiVersion(obj.apiVersion);
    const crd = cluster.crds.find((c) => c.group === group && c.kind === obj.kind);
    if (crd?.conversionReplaced) await useStorageVersion(client, crd, version);
    try {
      const live = await client.apply<KubeObject>(obj, { fieldManager: FIELD_MANAGER, force: true, query: { fieldValidation: 'Strict', dryRun: dryRun ? 'All' : undefined } });
      // The operator stand-ins read the object as sent, with the server's metadata (uid).
      if (!dryRun) applied.push({ ...obj, metadata: live.metadata });
      expectedPods += nativePods(obj);
    } catch (e) {
      rejected.push(`${describe(obj)}: ${(e as Error).message}`);
    }
  }

  // The operators that cannot run here.
  const followUps: Array<() => Promise<void>> = [];
  for (const cr of applied.filter((o) => EMULATED_KINDS.includes(kindKey(o)))) {
    const em = emulate(cr)!;
    notes.push(...em.notes.map((n) => `${describe(cr)}: ${n}`));
    expectedPods += em.expectedPods;
    for (const o of em.objects) {
      try {
        created.push(await client.create<KubeObject>(o));
      } catch (e) {
        rejected.push(`${describe(o)} (made for ${describe(cr)}): ${(e as Error).message}`);
      }
    }
    if (em.followUp) followUps.push(() => em.followUp!(client, options.settleTimeoutMs ?? 120_000));
  }
  for (const f of followUps) {
    try {
      await f();
    } catch (e) {
      notes.push(`follow-up failed: ${(e as Error).message}`);
    }
  }

  const pods = await settle(client, namespaces, expectedPods, options);
  const results: PodResult[] = [];
  const violations: string[] = [];
  const nodes = new Map((await client.list<KubeObject>({ apiVersion: 'v1', kind: 'Node' })).items.map((n) => [n.metadata!.name!, n]));
  const claims = await listAll(client, 'resource.k8s.io/v1', 'ResourceClaim', namespaces);
  for (const pod of pods) {
    const { source, template } = await sourceOf(client, pod);
    const podClaims = claimsOf(pod, claims);
    const r = outcomeOf(pod);
    results.push({ source, template, pod: pod.metadata!.name!, node: pod.spec?.nodeName, ...r, gpus: gpuRequest(pod), claims: podClaims });
    if (pod.spec?.nodeName) {
      const node = nodes.get(pod.spec.nodeName);
      const problems = node ? placementProblems(pod, node, podClaims) : [`node ${pod.spec.nodeName} does not exist`];
      violations.push(...problems.map((p) => `${pod.metadata!.namespace}/${pod.metadata!.name} on ${pod.spec.nodeName}: ${p}`));
    }
  }
  const warnings = await warningEvents(client, namespaces);

  await cleanUp(client, [...created.reverse(), ...applied.reverse()], namespaces, cluster);
  return { example: example.name, applied: applied.length, rejected, notes, expectedPods, pods: results, warnings, violations, ms: Date.now() - t0 };
}

async function listAll(client: KubeClient, apiVersion: string, kind: string, namespaces: Set<string>): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (const ns of namespaces) out.push(...(await client.list<KubeObject>({ apiVersion, kind, namespace: ns })).items);
  return out;
}

function decided(pod: KubeObject): boolean {
  if (pod.spec?.nodeName) return true;
  if ((pod.spec?.schedulerName ?? 'default-scheduler') !== 'default-scheduler') return true;
  return (pod.status?.conditions ?? []).some((c: any) => c.type === 'PodScheduled' && c.status === 'False');
}

/**
 * Waits until the example's pods exist (at least `expected` of them) and the scheduler decided on
 * each, and nothing changed for `quietMs`; or, when some never appear, until nothing changed for
 * 15 s (their controller gave up for now: see the warning events); at most `settleTimeoutMs`.
 */
async function settle(client: KubeClient, namespaces: Set<string>, expected: number, options: RunOptions): Promise<KubeObject[]> {
  const quiet = options.quietMs ?? 4000;
  const deadline = Date.now() + (options.settleTimeoutMs ?? 120_000);
  let last = '';
  let since = Date.now();
  for (;;) {
    const pods = (await listAll(client, 'v1', 'Pod', namespaces)).filter((p) => !p.metadata?.deletionTimestamp);
    const sig = pods.map((p) => `${p.metadata!.name}:${p.spec?.nodeName ?? ''}:${(p.status?.conditions ?? [])
      .filter((c: any) => c.type === 'PodScheduled').map((c: any) => `${c.status}/${c.message}`).join()}`).sort().join('\n');
    if (sig !== last) {
      last = sig;
      since = Date.now();
    }
    const still = Date.now() - since;
    const allDecided = pods.every(decided);
    if (allDecided && pods.length >= expected && still >= quiet) return pods;
    if (allDecided && pods.length < expected && still >= Math.max(quiet, 15_000)) return pods;
    if (Date.now() > deadline) return pods;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function outcomeOf(pod: KubeObject): Pick<PodResult, 'outcome' | 'reason'> {
  if (pod.spec?.nodeName) return { outcome: 'bound' };
  const scheduler = pod.spec?.schedulerName ?? 'default-scheduler';
  if (scheduler !== 'default-scheduler') {
    return { outcome: 'other-scheduler', reason: `spec.schedulerName is ${scheduler}: no such scheduler runs, so the pod is never scheduled (no event)` };
  }
  const c = (pod.status?.conditions ?? []).find((x: any) => x.type === 'PodScheduled' && x.status === 'False');
  if (c) return { outcome: 'unschedulable', reason: c.message };
  return { outcome: 'undecided', reason: 'not bound and no PodScheduled=False condition within the wait (e.g. waiting in PreBind for a volume)' };
}

/** Which example object, and which pod template in it, a pod comes from. */
async function sourceOf(client: KubeClient, pod: KubeObject): Promise<{ source: string; template: string }> {
  const ns = pod.metadata!.namespace!;
  const labels = pod.metadata?.labels ?? {};
  if (labels[SOURCE_LABEL]) {
    const [kind, ...name] = labels[SOURCE_LABEL].split('.');
    return { source: `${kind} ${ns}/${name.join('.')}`, template: labels[TEMPLATE_LABEL] ?? '' };
  }
  if (labels['ray.io/cluster']) {
    const rc = await client.get<KubeObject>({ apiVersion: 'ray.io/v1', kind: 'RayCluster', namespace: ns, name: labels['ray.io/cluster'] }).catch(() => undefined);
    const owner = rc?.metadata?.ownerReferences?.find((r: any) => r.kind === 'RayService');
    const prefix = owner ? 'rayClusterConfig.' : '';
    const template = labels['ray.io/node-type'] === 'head' ? `${prefix}headGroupSpec` : `${prefix}workerGroupSpecs[${labels['ray.io/group']}]`;
    return { source: owner ? `RayService ${ns}/${owner.name}` : `RayCluster ${ns}/${labels['ray.io/cluster']}`, template };
  }
  const owner = (pod.metadata?.ownerReferences ?? []).find((r: any) => r.controller);
  if (owner?.kind === 'ReplicaSet') {
    const rs = await client.get<KubeObject>({ apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: ns, name: owner.name }).catch(() => undefined);
    const dep = rs?.metadata?.ownerReferences?.find((r: any) => r.kind === 'Deployment');
    if (dep) return { source: `Deployment ${ns}/${dep.name}`, template: 'spec.template' };
    return { source: `ReplicaSet ${ns}/${owner.name}`, template: 'spec.template' };
  }
  if (owner) return { source: `${owner.kind} ${ns}/${owner.name}`, template: 'spec.template' };
  return { source: `Pod ${ns}/${pod.metadata!.name}`, template: '' };
}

function claimsOf(pod: KubeObject, claims: KubeObject[]): ClaimResult[] {
  const out: ClaimResult[] = [];
  const statuses: any[] = pod.status?.resourceClaimStatuses ?? [];
  for (const rc of pod.spec?.resourceClaims ?? []) {
    const name = rc.resourceClaimName ?? statuses.find((s) => s.name === rc.name)?.resourceClaimName;
    const claim = name ? claims.find((c) => c.metadata!.name === name) : undefined;
    const results: any[] = claim?.status?.allocation?.devices?.results ?? [];
    out.push({
      claim: rc.name,
      from: rc.resourceClaimTemplateName ? `ResourceClaimTemplate ${pod.metadata!.namespace}/${rc.resourceClaimTemplateName}` : `ResourceClaim ${pod.metadata!.namespace}/${rc.resourceClaimName}`,
      allocated: !!claim?.status?.allocation,
      devices: results.map((r) => `${r.pool}/${r.device}`),
    });
  }
  return out;
}

/** `nvidia.com/gpu` of the pod: the larger of its containers' sum and its largest init container, as the scheduler counts. */
export function gpuRequest(pod: KubeObject): number {
  const of = (c: any): number => quantityValue(c.resources?.requests?.['nvidia.com/gpu'] ?? c.resources?.limits?.['nvidia.com/gpu'] ?? 0) ?? 0;
  const sum = (pod.spec?.containers ?? []).reduce((n: number, c: any) => n + of(c), 0);
  const init = Math.max(0, ...(pod.spec?.initContainers ?? []).map(of));
  return Math.max(sum, init);
}

/** Why the node does not fit the pod, checked independently of the scheduler (empty when it fits). */
export function placementProblems(pod: KubeObject, node: KubeObject, claims: ClaimResult[]): string[] {
  const out: string[] = [];
  const labels: Record<string, string> = node.metadata?.labels ?? {};
  const gpus = gpuRequest(pod);
  const allocatable = quantityValue(node.status?.allocatable?.['nvidia.com/gpu'] ?? 0) ?? 0;
  if (gpus > allocatable) out.push(`requests ${gpus} nvidia.com/gpu, node has ${allocatable}`);
  for (const [k, v] of Object.entries<string>(pod.spec?.nodeSelector ?? {})) {
    if (labels[k] !== v) out.push(`nodeSelector ${k}=${v}, node has ${labels[k] ?? 'no such label'}`);
  }
  const terms: any[] = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (terms.length > 0 && !terms.some((t) => termMatches(t, node))) out.push(`no required node affinity term matches (${JSON.stringify(terms)})`);
  for (const taint of node.spec?.taints ?? []) {
    if (taint.effect === 'PreferNoSchedule') continue;
    if (!(pod.spec?.tolerations ?? []).some((t: any) => tolerates(t, taint))) out.push(`untolerated taint ${taint.key}=${taint.value ?? ''}:${taint.effect}`);
  }
  for (const c of claims) {
    for (const d of c.devices) {
      if (d.split('/')[0] !== node.metadata!.name) out.push(`claim ${c.claim} has device ${d} of another node's pool`);
    }
  }
  return out;
}

function termMatches(term: any, node: KubeObject): boolean {
  const labels: Record<string, string> = node.metadata?.labels ?? {};
  const exprs: any[] = term.matchExpressions ?? [];
  const fields: any[] = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const ok = (e: any, value: string | undefined): boolean => {
    switch (e.operator) {
      case 'In': return value !== undefined && (e.values ?? []).includes(value);
      case 'NotIn': return value === undefined || !(e.values ?? []).includes(value);
      case 'Exists': return value !== undefined;
      case 'DoesNotExist': return value === undefined;
      case 'Gt': return value !== undefined && Number(value) > Number(e.values?.[0]);
      case 'Lt': return value !== undefined && Number(value) < Number(e.values?.[0]);
      default: return false;
    }
  };
  return exprs.every((e) => ok(e, labels[e.key])) && fields.every((f) => ok(f, f.key === 'metadata.name' ? node.metadata!.name : undefined));
}

function tolerates(t: any, taint: any): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if ((t.operator ?? 'Equal') === 'Exists') return !t.key || t.key === taint.key;
  return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
}

async function warningEvents(client: KubeClient, namespaces: Set<string>): Promise<string[]> {
  const out = new Set<string>();
  for (const e of await listAll(client, 'v1', 'Event', namespaces)) {
    if (e.type !== 'Warning' || e.reason === 'FailedScheduling') continue;
    out.add(`${e.involvedObject?.kind} ${e.involvedObject?.namespace}/${e.involvedObject?.name}: ${e.reason}: ${e.message}`);
  }
  return [...out].sort();
}

/**
 * Deletes what the example made (background propagation: the garbage collector removes the pods,
 * KWOK lets them go) and waits until the namespaces hold no pods, workloads, claims or PVCs, and
 * the provisioner's PVs are gone. Events are deleted too, so the next example's are its own.
 */
async function cleanUp(client: KubeClient, objects: KubeObject[], namespaces: Set<string>, cluster: SimCluster): Promise<void> {
  for (const o of objects) {
    if (SKIP_DELETE.has(o.kind)) continue;
    await client.delete(refOf(o), { propagationPolicy: 'Background' }).catch((e) => {
      if (!(e instanceof KubeApiError && e.status === 404)) throw e;
    });
  }
  const kinds: Array<[string, string]> = [['v1', 'Pod'], ['apps/v1', 'ReplicaSet'], ['apps/v1', 'StatefulSet'], ['resource.k8s.io/v1', 'ResourceClaim'], ['v1', 'PersistentVolumeClaim']];
  await waitFor(async () => {
    for (const [apiVersion, kind] of kinds) {
      const left = await listAll(client, apiVersion, kind, namespaces);
      if (left.length > 0) throw new Error(`${left.length} ${kind}(s) left: ${left.slice(0, 3).map((o) => o.metadata!.name).join(', ')}`);
    }
    return cluster.provisioned.size === 0 || (() => {
      throw new Error(`PVs left: ${[...cluster.provisioned.values()].join(', ')}`);
    })();
  }, 180_000, `the example's objects to be gone from ${[...namespaces].join(', ')}`, 250);
  for (const ns of namespaces) {
    await client.request('DELETE', `/api/v1/namespaces/${ns}/events`).catch(() => undefined);
  }
}
