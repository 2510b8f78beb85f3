/**
 * The controller's caches keep of each upstream object only the fields `STATUS_READ_FIELDS`
 * declares. These tests hold that list to what the status logic really reads: every shipped
 * provider's mapping and the gateway status run over objects as the translators synthesize them,
 * with statuses at each lifecycle stage, and
 *
 * - every field they read (recorded through a Proxy, list positions as `*`) must be declared, so
 *   a mapping that starts reading a field the cache drops fails here, not in a cluster;
 * - the status computed from what the cache keeps must equal the status computed from the whole
 *   objects.
 */
import { catalogWith, CustomProvider, customDeployment } from './custom-provider';
import { ACCEPTED, gatewayObject, poolStatus, RESOLVED, routeStatus } from './gateway-fixtures';
import { LIFECYCLES } from './lifecycles';
import { recordOf, rendered, translated } from './support';
import { HTTP_ROUTE_CRD, INFERENCE_POOL_CRD, upstreamCrd, withoutField } from './upstream-crd-fixtures';
import { InferencePoolApiVersion, ModelDeploymentProps } from '../../../src';
import { MULTI_NODE_ANNOTATION } from '../../../src/api/multi-node/multi-node-annotation';
import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { parseFieldPaths, pruneToFields } from '../../../src/controller/runtime/cache-transform';
import { dependencyKinds, emittedKind, withCachedFields } from '../../../src/controller/runtime/watched-kinds';
import { ObjectRef, reconcileRecord } from '../../../src/controller/status';
import { STATUS_READ_FIELDS } from '../../../src/controller/status/status-read-fields';
import { defaultProviderCatalog } from '../../../src/pipeline/shipped-providers';
import type { ProviderCatalog } from '../../../src/selection/provider-catalog';
import { flexInferDeployment } from '../../providers/flexinfer/fixtures';
import { kthenaDeployment } from '../../providers/kthena/fixtures';
import { modelplaneDeployment } from '../../providers/modelplane/fixtures';
import { vllmDeployment } from '../../providers/vllm/fixtures';
import { flexInferModelStatuses, modelplaneStatuses, modelServingStatuses, UpstreamStatuses } from '../../support/operator-statuses';
import { crdCondition } from '../../support/status-conditions';

const NOW = new Date('2026-03-01T10:00:00Z');
const catalog = defaultProviderCatalog();

/** One record and the upstream objects as the API server returns them. */
interface Scenario {
  readonly title: string;
  readonly record: any;
  readonly objects: readonly any[];
  readonly catalog?: ProviderCatalog;
}

function groupKind(apiVersion: string, kind: string): string {
  const slash = apiVersion.lastIndexOf('/');
  return `${slash < 0 ? '' : apiVersion.slice(0, slash)}/${kind}`;
}

function find(objects: readonly any[], ref: ObjectRef): any {
  return objects.find((o) => o.apiVersion === ref.apiVersion && o.kind === ref.kind
    && o.metadata.name === ref.name && (o.metadata.namespace ?? ref.namespace) === ref.namespace);
}

/** `obj`, recording into `reads` the dotted path of every property read (list positions as `*`). */
function recording(obj: any, reads: Set<string>, path: readonly string[] = []): any {
  return new Proxy(obj, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop === 'symbol') return value;
      // `length` or a method of a list reads the list itself; its elements are read by position.
      if (Array.isArray(target) && !/^\d+$/.test(prop)) {
        reads.add(path.join('.'));
        return value;
      }
      const at = [...path, Array.isArray(target) ? '*' : prop];
      reads.add(at.join('.'));
      return typeof value === 'object' && value !== null ? recording(value, reads, at) : value;
    },
    has(target, prop) {
      if (typeof prop !== 'symbol') reads.add([...path, prop].join('.'));
      return Reflect.has(target, prop);
    },
  });
}

/** Whether the cache keeps `read`: inside a declared field, or an object on the way to one. */
function covered(read: string, fields: readonly string[]): boolean {
  if (read === '') return true;
  const r = read.split('.');
  return ['apiVersion', 'kind', ...fields].some((field) => {
    const f = field.split('.');
    for (let i = 0; i < Math.min(f.length, r.length); i++) if (f[i] !== '*' && f[i] !== r[i]) return false;
    return true;
  });
}

/** The fields the cache keeps of `obj`'s kind; undefined when the kind is cached whole. */
function cachedFieldsOf(obj: any): readonly string[] | undefined {
  return withCachedFields({ apiVersion: obj.apiVersion, kind: obj.kind, resource: 'unused' }).cachedFields;
}

/** `obj` as the controller's cache holds it. */
function cached(obj: any): any {
  const fields = cachedFieldsOf(obj);
  return fields ? pruneToFields(structuredClone(obj), parseFieldPaths(fields)) : obj;
}

/** Every field the status logic read of each kind, while reconciling the scenario's record. */
function readsOf(s: Scenario): Map<string, Set<string>> {
  const reads = new Map<string, Set<string>>();
  reconcileRecord(s.record, s.catalog ?? catalog, (ref) => {
    const obj = find(s.objects, ref);
    if (obj === undefined) return undefined;
    const key = groupKind(ref.apiVersion, ref.kind);
    if (!reads.has(key)) reads.set(key, new Set());
    return recording(structuredClone(obj), reads.get(key)!);
  }, NOW);
  return reads;
}

/** `group/Kind field` for each field read that the cache does not keep. */
function readsOutsideTheCache(s: Scenario): string[] {
  const out: string[] = [];
  for (const [kind, reads] of readsOf(s)) {
    const sample = s.objects.find((o) => groupKind(o.apiVersion, o.kind) === kind);
    const fields = cachedFieldsOf(sample);
    if (!fields) continue;
    for (const read of reads) if (!covered(read, fields)) out.push(`${kind} ${read}`);
  }
  return out.sort();
}

function statusFrom(s: Scenario, objects: readonly any[]): any {
  return reconcileRecord(s.record, s.catalog ?? catalog, (ref) => find(objects, ref), NOW).status;
}

/** The provider's objects for `md`, its status source (found by kind) at `status`. */
function providerScenario(title: string, md: ResolvedModelDeployment, sourceKind: string, status: unknown): Scenario {
  const objects = translated(catalog.provider(md.provider)!, md);
  const source = objects.find((o) => o.kind === sourceKind);
  if (!source) throw new Error(`${title}: no ${sourceKind} among ${objects.map((o) => o.kind).join(', ')}`);
  if (status !== undefined) source.status = status;
  return { title, record: recordOf(md), objects };
}

function stages(title: string, md: ResolvedModelDeployment, sourceKind: string, statuses: UpstreamStatuses): Scenario[] {
  return [
    providerScenario(`${title}, no status yet`, md, sourceKind, undefined),
    providerScenario(`${title}, deploying`, md, sourceKind, statuses.deploying),
    providerScenario(`${title}, running`, md, sourceKind, statuses.running),
    providerScenario(`${title}, failed`, md, sourceKind, statuses.failed),
  ];
}

/**
 * A LeaderWorkerSet's status by stage (one group). LWS has no failure condition: the "failed"
 * stage is a group that stopped being ready, Progressing again. The controller keeps every
 * condition it set and flips the exclusive one to False (status only), and leaves zero counts out
 * (`omitempty`).
 *
 * Hand-written: the LWS controller cannot run here; values from kubernetes-sigs/lws
 * api/leaderworkerset/v1/leaderworkerset_types.go (024af084: `LeaderWorkerSetAvailable` =
 * "Available", `LeaderWorkerSetProgressing` = "Progressing", the `LeaderWorkerSetStatus` json
 * tags) and pkg/controllers/leaderworkerset_controller.go (9f47d6c5: `makeCondition` reasons
 * "AllGroupsReady" / `GroupsProgressing` = "GroupsProgressing", messages "All replicas are ready" /
 * "Replicas are progressing", `setCondition`).
 */
const LEADER_WORKER_SET_STATUSES: UpstreamStatuses = {
  deploying: { replicas: 1, updatedReplicas: 1, conditions: [crdCondition('Progressing', 'True', 'GroupsProgressing', 'Replicas are progressing')] },
  running: {
    replicas: 1,
    readyReplicas: 1,
    updatedReplicas: 1,
    conditions: [
      crdCondition('Progressing', 'False', 'GroupsProgressing', 'Replicas are progressing'),
      crdCondition('Available', 'True', 'AllGroupsReady', 'All replicas are ready'),
    ],
  },
  failed: {
    replicas: 1,
    updatedReplicas: 1,
    conditions: [
      crdCondition('Progressing', 'True', 'GroupsProgressing', 'Replicas are progressing'),
      crdCondition('Available', 'False', 'AllGroupsReady', 'All replicas are ready'),
    ],
  },
};

const VLLM_ROUTED: ModelDeploymentProps = { model: { id: 'Qwen/Qwen3-0.6B', servedName: 'qwen3' }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } };

/** A routed vLLM deployment: its route, pool and Deployment, and the Gateway, reported on or not. */
function routedScenarios(): Scenario[] {
  const r = rendered(VLLM_ROUTED);
  const reportedOn = (objects: any[], poolStatusOf: (conditions: Record<string, unknown>[]) => unknown) => objects.map((o) => {
    if (o.kind === 'HTTPRoute') return { ...o, status: routeStatus([ACCEPTED, RESOLVED]) };
    if (o.kind === 'InferencePool') return { ...o, status: poolStatusOf([ACCEPTED, RESOLVED]) };
    return o;
  });
  const reported = reportedOn(r.objects, poolStatus);
  // v1alpha2 pools report under `status.parent`.
  const alpha = rendered({ ...VLLM_ROUTED, gateway: { inferencePoolApiVersion: InferencePoolApiVersion.V1ALPHA2 } });
  const alphaReported = reportedOn(alpha.objects, (conditions) => ({ parent: (poolStatus(conditions) as any).parents }));
  return [
    { title: 'routed vLLM, nothing reported yet', record: r.record, objects: [...r.objects, gatewayObject()] },
    { title: 'routed vLLM, route and pool accepted', record: r.record, objects: [...reported, gatewayObject()] },
    { title: 'routed vLLM, no Gateway address', record: r.record, objects: [...reported, gatewayObject([])] },
    { title: 'routed vLLM, v1alpha2 pool accepted', record: alpha.record, objects: [...alphaReported, gatewayObject()] },
    // IncompatibleUpstream reads the CRDs of the route and the pool: one as upstream ships it, one older.
    {
      title: 'routed vLLM, an older HTTPRoute CRD installed',
      record: r.record,
      objects: [...reported, gatewayObject(), withoutField(upstreamCrd(HTTP_ROUTE_CRD), 'v1', 'spec.rules[].timeouts'), upstreamCrd(INFERENCE_POOL_CRD)],
    },
  ];
}

const SCENARIOS: Scenario[] = [
  ...LIFECYCLES.flatMap((lc) => stages(lc.title, lc.md, lc.source.kind, lc)),
  ...stages('kthena (ModelServing)', kthenaDeployment(), 'ModelServing', modelServingStatuses(1)),
  ...stages('flexinfer (Model)', flexInferDeployment(), 'Model', flexInferModelStatuses('qwen', 'ml')),
  ...stages('modelplane (ModelDeployment)', modelplaneDeployment(), 'ModelDeployment', modelplaneStatuses(1)),
  ...stages(
    'vllm multi-node (LeaderWorkerSet)',
    vllmDeployment({ annotations: { [MULTI_NODE_ANNOTATION]: 'gpusPerNode: 8' }, spec: { resources: { gpu: { count: 16, type: 'nvidia.com/gpu' } } } }),
    'LeaderWorkerSet',
    LEADER_WORKER_SET_STATUSES,
  ),
  ...routedScenarios(),
];

describe('STATUS_READ_FIELDS: what the caches keep of each upstream kind', () => {
  test.each(SCENARIOS.map((s) => [s.title, s] as const))('%s: every field the status reads is kept, and the status is the same', (_title, s) => {
    const reads = readsOf(s);
    // The scenario exercised a mapping: its status source (and, when routed, the routing objects) was read.
    expect(reads.size).toBeGreaterThan(0);
    for (const r of reads.values()) expect(r.size).toBeGreaterThan(0);
    expect(readsOutsideTheCache(s)).toEqual([]);
    expect(statusFrom(s, s.objects.map(cached))).toEqual(statusFrom(s, s.objects));
  });

  test('the scenarios cover every kind the list declares', () => {
    const read = new Set(SCENARIOS.flatMap((s) => [...readsOf(s).keys()]));
    expect(STATUS_READ_FIELDS.map((e) => `${e.group}/${e.kind}`).filter((k) => !read.has(k))).toEqual([]);
  });

  test('a mapping reading a field the cache drops is caught: named, and its status differs from the cache', () => {
    const provider = new CustomProvider({
      statusSource: (d) => ({ apiVersion: 'apps/v1', kind: 'Deployment', name: d.name }),
      // Reads the image of the pod template, which no shipped mapping reads.
      mapStatus: (upstream) => ({
        phase: 'Running' as any,
        message: `serving ${upstream?.spec?.template?.spec?.containers?.[0]?.image ?? 'nothing'}`,
        replicas: { desired: 1, ready: 1, available: 1 },
        ready: { type: 'Ready', status: 'True' as any, reason: 'DeploymentReady', message: 'ok' },
      }),
    });
    const md = customDeployment();
    const deployment = translated(catalog.provider('vllm')!, vllmDeployment()).find((o) => o.kind === 'Deployment');
    const s: Scenario = { title: 'custom', record: recordOf(md), objects: [{ ...deployment, metadata: { ...deployment.metadata, name: md.name } }], catalog: catalogWith(provider) };
    expect(readsOutsideTheCache(s)).toEqual([
      'apps/Deployment spec.template',
      'apps/Deployment spec.template.spec',
      'apps/Deployment spec.template.spec.containers',
      'apps/Deployment spec.template.spec.containers.*',
      'apps/Deployment spec.template.spec.containers.*.image',
    ]);
    expect(statusFrom(s, s.objects).message).toMatch(/^serving vllm\//);
    expect(statusFrom(s, s.objects.map(cached)).message).toBe('serving nothing');
  });

  test('every kind the controller caches besides the records declares its fields (none is cached whole)', () => {
    const kinds = [...dependencyKinds(catalog), emittedKind(catalog, 'leaderworkerset.x-k8s.io/v1', 'LeaderWorkerSet')!];
    expect(kinds.filter((k) => k.cachedFields === undefined).map((k) => `${k.apiVersion} ${k.kind}`)).toEqual([]);
    for (const k of kinds) expect(k.cachedFields).toEqual(expect.arrayContaining(['metadata.name', 'metadata.namespace', 'metadata.resourceVersion']));
  });
});
