/**
 * Every ResourceClaimTemplate (and ResourceClaim) the examples emit — and the ones modelplane
 * would compose from a ModelDeployment's `nodeSelector.devices` (operators.ts) — allocated by the
 * real kube-scheduler's DRA allocator against ResourceSlices as NVIDIA's DRA driver publishes them,
 * with NVML's memory totals (gpu-pools.ts).
 *
 * Each claim is probed on one node of every GPU pool: a pod pinned to the node (and tolerating
 * every taint, so only the claim decides) claims a copy of the template, and the scheduler either
 * binds it — the allocator found devices — or says it cannot allocate the claim. To tell why a
 * claim is never allocated, the same is done for variants of it: each CEL selector of each request
 * alone, and each request with no selector at all (count and DeviceClass only).
 *
 * Asserted: the pools each claim (as written) is allocated on are the ones recorded in
 * KNOWN_ALLOCATION. The matrix of every variant is printed and written to
 * test-reports/simcluster/dra-allocation.{md,json}.
 *
 * Needs the binaries of scripts/envtest/build-binaries.sh and scripts/simcluster/build-binaries.sh;
 * without them the setup fails saying so — never a skip.
 */
import { GPU_POOLS, nodeNames } from './gpu-pools';
import { emulate } from './operators';
import { writeReport } from './reports';
import { ensureNamespaces, FIELD_MANAGER } from './scenario';
import { SimCluster } from './sim-cluster';
import { exampleEntries, synthesizeExample } from '../envtest/examples';
import { KubeObject, waitFor } from '../envtest/kube-client';

const SETUP_TIMEOUT_MS = 60 * 60_000;
const PROBE_NAMESPACE = 'dra-probe';

/**
 * Claims that are not the examples', probing the simulated devices themselves: an "80 GB" GPU's
 * NVML total is not 80Gi everywhere — H100 80GB HBM3 reports 81559 MiB, A100 80GB 81920 MiB (= 80Gi)
 * — so `memory >= 80Gi` excludes every H100, and `>= 79Gi` is what admits all 80 GB parts.
 */
const REFERENCE_CLAIMS: Claim[] = [80, 79].map((gi) => ({
  id: `reference: 1 GPU with memory >= ${gi}Gi`,
  spec: {
    devices: {
      requests: [{
        name: 'gpu',
        exactly: { deviceClassName: 'gpu.nvidia.com', count: 1, selectors: [{ cel: { expression: `device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("${gi}Gi")) >= 0` } }] },
      }],
    },
  },
}));

/** Claim (`<example>: <kind> <name>`) → the pools it is allocated on, as written (recorded at e22bc0b). */
const KNOWN_ALLOCATION: Record<string, string[]> = {
  'reference: 1 GPU with memory >= 80Gi': ['a3-h200', 'a2-a100-80gb'],
  'reference: 1 GPU with memory >= 79Gi': ['a3-h100', 'p5-h100', 'a3-h200', 'a2-a100-80gb'],
  'dra-direct-vllm.ts: ResourceClaimTemplate ml/qwen-devices':
    ['a3-h100', 'p5-h100', 'a3-h200'],
  'dra-direct-vllm.ts: ResourceClaimTemplate ml/llama-devices':
    ['a3-h100', 'p5-h100'],
  'modelplane-dra.ts: ResourceClaimTemplate ml/llama-70b-0-serving (modelplane composition of ModelDeployment llama-70b)':
    ['a3-h100', 'p5-h100', 'a3-h200'],
  'one-model-eight-targets: ResourceClaimTemplate models-modelplane/phi-mini-0-serving (modelplane composition of ModelDeployment phi-mini)':
    ['a3-h100', 'p5-h100', 'a3-h200', 'a2-a100-80gb', 'a2-a100-40gb', 'g2-l4', 'g6e-l40s', 'g5-a10g', 'g5-a10g-8x'],
  'current-engines.yaml: ResourceClaimTemplate models/qwen-sglang-fleet-0-serving (modelplane composition of ModelDeployment qwen-sglang-fleet)':
    ['a3-h100', 'p5-h100', 'a3-h200', 'a2-a100-80gb', 'a2-a100-40gb', 'g2-l4', 'g6e-l40s', 'g5-a10g', 'g5-a10g-8x'],
  'gpu-inventory.yaml: ResourceClaimTemplate ml/llama-70b-devices':
    ['a3-h100', 'p5-h100', 'a3-h200', 'a2-a100-80gb'],
};

interface Claim {
  /** `<example>: ResourceClaimTemplate <ns>/<name>` (or `... (modelplane composition)`). */
  readonly id: string;
  /** The ResourceClaimSpec. */
  readonly spec: any;
}

interface Variant {
  readonly claim: string;
  /** `as written`, `request gpu: selector 2 only: <cel>`, `request gpu: no selectors`. */
  readonly what: string;
  readonly spec: any;
}

interface ProbeResult {
  readonly pool: string;
  readonly node: string;
  readonly allocated: boolean;
  readonly devices: string[];
  readonly message?: string;
}

const claims: Claim[] = [];
const deviceClasses: KubeObject[] = [];
const results = new Map<Variant, ProbeResult[]>();
let cluster: SimCluster | undefined;

beforeAll(async () => {
  const { ts, yaml } = exampleEntries();
  for (const name of [...ts, ...yaml]) {
    const s = await synthesizeExample(name);
    for (const o of s.objects) {
      if (o.kind === 'ResourceClaimTemplate') claims.push({ id: `${name}: ResourceClaimTemplate ${o.metadata!.namespace}/${o.metadata!.name}`, spec: o.spec.spec });
      if (o.kind === 'ResourceClaim') claims.push({ id: `${name}: ResourceClaim ${o.metadata!.namespace}/${o.metadata!.name}`, spec: o.spec });
      if (o.kind === 'DeviceClass' && !deviceClasses.some((d) => d.metadata!.name === o.metadata!.name)) deviceClasses.push(o);
      if (o.apiVersion.startsWith('modelplane.ai/') && o.kind === 'ModelDeployment') {
        const em = emulate({ ...o, metadata: { ...o.metadata, uid: '00000000-0000-0000-0000-000000000000' } })!;
        for (const t of em.objects.filter((x) => x.kind === 'ResourceClaimTemplate')) {
          claims.push({ id: `${name}: ResourceClaimTemplate ${t.metadata!.namespace}/${t.metadata!.name} (modelplane composition of ModelDeployment ${o.metadata!.name})`, spec: t.spec.spec });
        }
      }
    }
  }
  claims.push(...REFERENCE_CLAIMS);
  cluster = await SimCluster.start({ kuberay: false });
  for (const dc of deviceClasses) await cluster.client.apply(dc, { fieldManager: FIELD_MANAGER, force: true, query: { fieldValidation: 'Strict' } });
  await ensureNamespaces(cluster.client, [PROBE_NAMESPACE]);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  const report = renderReport();
  process.stdout.write(`\n${report}\n`);
  writeReport('dra-allocation', report, [...results].map(([v, r]) => ({ ...v, results: r })));
  await cluster?.stop();
}, 120_000);

/** The claim as written, each selector of each request alone, and each request without selectors. */
function variantsOf(claim: Claim): Variant[] {
  const out: Variant[] = [{ claim: claim.id, what: 'as written', spec: claim.spec }];
  const requests: any[] = claim.spec?.devices?.requests ?? [];
  for (const r of requests) {
    if (!r.exactly) continue;
    const selectors: any[] = r.exactly.selectors ?? [];
    const alone = (sels: any[]): any => ({
      devices: { requests: [{ name: r.name, exactly: { ...r.exactly, selectors: sels.length ? sels : undefined } }] },
    });
    if (selectors.length > 1 || requests.length > 1) {
      selectors.forEach((s, i) => out.push({ claim: claim.id, what: `request ${r.name}: selector ${i + 1} only: ${s.cel?.expression}`, spec: alone([s]) }));
    }
    if (selectors.length > 0) out.push({ claim: claim.id, what: `request ${r.name}: no selectors (count ${r.exactly.count ?? 1}, DeviceClass ${r.exactly.deviceClassName})`, spec: alone([]) });
  }
  return out;
}

const probeNodes = GPU_POOLS.map((p) => ({ pool: p.name, node: nodeNames(p)[0] }));

test('the examples have claims to allocate', () => {
  expect(claims.length).toBeGreaterThan(0);
});

test('every claim is probed on every GPU pool', async () => {
  if (!cluster) throw new Error('the simulated cluster did not start (see the setup error)');
  const client = cluster.client;
  let n = 0;
  for (const claim of claims) {
    for (const variant of variantsOf(claim)) {
      const rct = `probe-${n++}`;
      await client.create({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata: { name: rct, namespace: PROBE_NAMESPACE }, spec: { spec: variant.spec } });
      for (const { node } of probeNodes) {
        await client.create({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: `${rct}-${node}`, namespace: PROBE_NAMESPACE, labels: { probe: rct } },
          spec: {
            nodeSelector: { 'kubernetes.io/hostname': node },
            tolerations: [{ operator: 'Exists' }],
            resourceClaims: [{ name: 'gpus', resourceClaimTemplateName: rct }],
            containers: [{ name: 'probe', image: 'probe', resources: { claims: [{ name: 'gpus' }] } }],
          },
        });
      }
      const pods = await waitFor(async () => {
        const list = await client.list<KubeObject>({ apiVersion: 'v1', kind: 'Pod', namespace: PROBE_NAMESPACE }, { labelSelector: `probe=${rct}` });
        const done = list.items.filter((p) => p.spec?.nodeName || (p.status?.conditions ?? []).some((c: any) => c.type === 'PodScheduled' && c.status === 'False'));
        return done.length === probeNodes.length ? list.items : false;
      }, 60_000, `the probes of ${variant.claim} (${variant.what}) to be decided`, 250);
      const claimList = await client.list<KubeObject>({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', namespace: PROBE_NAMESPACE });
      results.set(variant, probeNodes.map(({ pool, node }) => {
        const pod = pods.find((p) => p.spec?.nodeSelector?.['kubernetes.io/hostname'] === node)!;
        const claimName = (pod.status?.resourceClaimStatuses ?? [])[0]?.resourceClaimName;
        const rc = claimList.items.find((c) => c.metadata!.name === claimName);
        const devices = (rc?.status?.allocation?.devices?.results ?? []).map((r: any) => `${r.pool}/${r.device}`);
        const cond = (pod.status?.conditions ?? []).find((c: any) => c.type === 'PodScheduled' && c.status === 'False');
        return { pool, node, allocated: !!pod.spec?.nodeName, devices, message: cond?.message };
      }));
      await client.request('DELETE', `/api/v1/namespaces/${PROBE_NAMESPACE}/pods`, { query: { labelSelector: `probe=${rct}` } });
      await client.delete({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', namespace: PROBE_NAMESPACE, name: rct });
      await waitFor(async () => {
        const left = [
          ...(await client.list<KubeObject>({ apiVersion: 'v1', kind: 'Pod', namespace: PROBE_NAMESPACE })).items,
          ...(await client.list<KubeObject>({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', namespace: PROBE_NAMESPACE })).items,
        ];
        return left.length === 0;
      }, 120_000, `the probes of ${rct} and their claims to be gone`, 250);
    }
  }
  const actual: Record<string, string[]> = {};
  for (const [v, r] of results) if (v.what === 'as written') actual[v.claim] = r.filter((x) => x.allocated).map((x) => x.pool);
  expect(actual).toEqual(KNOWN_ALLOCATION);
}, 30 * 60_000);

function renderReport(): string {
  const lines = ['# DRA allocation of the examples\' claims', '', `GPU pools probed (one node each): ${probeNodes.map((p) => p.pool).join(', ')}`, ''];
  let current = '';
  for (const [v, r] of results) {
    if (v.claim !== current) {
      current = v.claim;
      lines.push('', `## ${v.claim}`, '', '```json', JSON.stringify(claims.find((c) => c.id === v.claim)?.spec), '```', '');
    }
    const yes = r.filter((x) => x.allocated);
    lines.push(`- ${v.what}: ${yes.length ? `allocated on ${yes.map((x) => `${x.pool} (${x.devices.join(' ')})`).join(', ')}` : 'NEVER allocated'}`);
    if (v.what === 'as written') {
      const messages = new Set(r.filter((x) => !x.allocated).map((x) => x.message));
      for (const m of messages) lines.push(`  - not on ${r.filter((x) => !x.allocated && x.message === m).map((x) => x.pool).join(', ')}: ${m}`);
    }
  }
  lines.push('', '## Never allocated (as written)', '');
  for (const [v, r] of results) if (v.what === 'as written' && !r.some((x) => x.allocated)) lines.push(`- ${v.claim}`);
  return lines.join('\n');
}
