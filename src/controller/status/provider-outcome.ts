/**
 * What the provider says about a valid record: its status source looked up and mapped, or why
 * there is nothing to map yet.
 */
import { CONDITION_READY, DesiredCondition, isValidReason } from './conditions';
import { describeRef, LiveObjectRef, liveRef, ObjectRef, RecordingLookup } from './object-ref';
import { errorText, ValidRecord } from './record-deployment';
import { apiGroupOf } from '../../controller-contract/upstream-fields';
import { isJsonObject } from '../../core/json-object';

/** Phases a provider's mapping may report. */
const PROVIDER_PHASES = ['Pending', 'Deploying', 'Running', 'Failed'] as const;
type ProviderPhase = (typeof PROVIDER_PHASES)[number];

const CONDITION_STATUSES = ['True', 'False', 'Unknown'] as const;
const MAX_INT32 = 2147483647;

/**
 * What `status.provider.requestRef` and `workloadRef` name. requestRef is the upstream object the
 * provider asks for: its status source (`statusSource`: a DynamoGraphDeployment, RayService,
 * Workspace, ModelServing, flexinfer Model or modelplane ModelDeployment; the Deployment or
 * LeaderWorkerSet of the providers that run the engine themselves, the decode Deployment of a
 * disaggregated llm-d deployment). workloadRef is the object that runs the model server pods:
 * the same object when its kind creates pods itself (these kinds); otherwise the pods belong to
 * objects the operator creates under names of its choosing (Dynamo's component deployments,
 * KubeRay's RayCluster, KAITO's workload, a modelplane target cluster), which the controller
 * neither reads nor is granted, and workloadRef is left out.
 */
export const POD_OWNING_KINDS: ReadonlySet<string> = new Set([
  'apps/Deployment',
  'apps/StatefulSet',
  'leaderworkerset.x-k8s.io/LeaderWorkerSet',
  'workload.serving.volcano.sh/ModelServing',
]);

/** `Ready` reasons of the cases where the provider's mapping does not run. */
export const REASON_RESOURCE_NOT_FOUND = 'ResourceNotFound';
export const REASON_NO_STATUS_MAPPING = 'NoStatusMapping';
export const REASON_STATUS_SOURCE_FAILED = 'StatusSourceFailed';
export const REASON_STATUS_MAPPING_FAILED = 'StatusMappingFailed';

/** Replica counts (`status.replicas`). */
export interface Replicas {
  readonly desired: number;
  readonly ready: number;
  readonly available: number;
}

/** The provider-owned part of the status. */
export interface ProviderOutcome {
  readonly phase: ProviderPhase;
  readonly message: string;
  readonly replicas: Replicas;
  /** `status.endpoint`, only the parts known (non-empty service, positive port). */
  readonly endpoint?: { readonly service?: string; readonly port?: number };
  /** `status.provider.resourceName` / `resourceKind`: the status source, when there is one. */
  readonly resource?: { readonly name: string; readonly kind: string };
  /** `status.provider.requestRef`: the status source, when it exists. */
  readonly request?: LiveObjectRef;
  /** `status.provider.workloadRef`: the status source when it runs the pods itself (`POD_OWNING_KINDS`), when it exists. */
  readonly workload?: LiveObjectRef;
  /** The `Ready` condition. */
  readonly ready: DesiredCondition;
}

/**
 * Asks the record's provider for its status source, looks it up in the record's namespace and
 * maps it:
 *
 * - no status source → `Pending`, `Ready=Unknown/NoStatusMapping`;
 * - the source not found → `Pending` (`waiting for <Kind> <ns>/<name> (<apiVersion>) to be
 *   created`), `Ready=False/ResourceNotFound`, replicas desired from the spec;
 * - found → the provider's report (`mapStatuses` of it and of the `additionalStatusSources`,
 *   each waited for as the source is; `mapStatus` unless the provider maps several objects);
 * - `statusSource` or `mapStatus` throwing, or a report the status schema cannot hold →
 *   `Failed` with the error text, `Ready=False/StatusSourceFailed|StatusMappingFailed`.
 */
export function providerOutcome(record: ValidRecord, lookup: RecordingLookup): ProviderOutcome {
  const { deployment, provider } = record;
  const desiredOnly = { desired: desiredReplicasFromSpec(deployment.spec), ready: 0, available: 0 };

  let ref: ObjectRef | undefined;
  try {
    const source = provider.statusSource(deployment);
    if (source === undefined || source === null) {
      const message = `provider ${provider.name} has no status mapping: the controller cannot observe this deployment`;
      return { phase: 'Pending', message, replicas: desiredOnly, ready: ready('Unknown', REASON_NO_STATUS_MAPPING, message) };
    }
    ref = checkedRef(source, deployment.namespace);
  } catch (e) {
    const message = `provider ${provider.name} could not name the object to observe: ${errorText(e)}`;
    return { phase: 'Failed', message, replicas: desiredOnly, ready: ready('False', REASON_STATUS_SOURCE_FAILED, message) };
  }

  const upstream = lookup.get(ref);
  if (upstream === undefined) {
    const message = `waiting for ${describeRef(ref)} (${ref.apiVersion}) to be created`;
    const resource = { name: ref.name, kind: ref.kind };
    return { phase: 'Pending', message, replicas: desiredOnly, resource, ready: ready('False', REASON_RESOURCE_NOT_FOUND, message) };
  }
  const request = liveRef(ref, upstream);
  const workload = request && POD_OWNING_KINDS.has(`${apiGroupOf(request.apiVersion)}/${request.kind}`) ? request : undefined;
  const resource = { name: ref.name, kind: ref.kind };
  const refs = { ...(request && { request }), ...(workload && { workload }) };
  let additional: unknown[];
  try {
    additional = [];
    for (const source of provider.additionalStatusSources(deployment) ?? []) {
      const extra = checkedRef(source, deployment.namespace);
      const found = lookup.get(extra);
      if (found === undefined) {
        const message = `waiting for ${describeRef(extra)} (${extra.apiVersion}) to be created`;
        return { phase: 'Pending', message, replicas: desiredOnly, resource, ...refs, ready: ready('False', REASON_RESOURCE_NOT_FOUND, message) };
      }
      additional.push(found);
    }
  } catch (e) {
    const message = `provider ${provider.name} could not name the objects to observe: ${errorText(e)}`;
    return { phase: 'Failed', message, replicas: desiredOnly, resource, ...refs, ready: ready('False', REASON_STATUS_SOURCE_FAILED, message) };
  }
  try {
    return { ...checkedReport(provider.mapStatuses(upstream, additional)), resource, ...refs };
  } catch (e) {
    const message = `cannot read the status of ${describeRef(ref)}: ${errorText(e)}`;
    return { phase: 'Failed', message, replicas: desiredOnly, resource, ...refs, ready: ready('False', REASON_STATUS_MAPPING_FAILED, message) };
  }
}

/**
 * Replicas the spec asks for, before any upstream object says: `scaling.replicas` in aggregated
 * mode (0 or unset counts as 1, as every provider renders it), prefill plus decode replicas
 * (each 1 when unset) in disaggregated mode.
 */
export function desiredReplicasFromSpec(spec: unknown): number {
  const s = isJsonObject(spec) ? spec : {};
  const scaling = isJsonObject(s.scaling) ? s.scaling : {};
  const mode = isJsonObject(s.serving) ? s.serving.mode : undefined;
  const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= MAX_INT32 ? v : 1);
  if (mode === 'disaggregated') {
    const component = (c: unknown) => count(isJsonObject(c) ? c.replicas : undefined);
    return Math.min(component(scaling.prefill) + component(scaling.decode), MAX_INT32);
  }
  return count(scaling.replicas);
}

function ready(status: DesiredCondition['status'], reason: string, message: string): DesiredCondition {
  return { type: CONDITION_READY, status, reason, message };
}

/** The status source as a full reference in the record's namespace; throws when malformed. */
function checkedRef(source: unknown, namespace: string): ObjectRef {
  if (!isJsonObject(source)) throw new Error('statusSource returned a non-object');
  for (const key of ['apiVersion', 'kind', 'name'] as const) {
    if (typeof source[key] !== 'string' || source[key] === '') throw new Error(`statusSource returned no ${key}`);
  }
  return { apiVersion: source.apiVersion as string, kind: source.kind as string, namespace, name: source.name as string };
}

/** A provider's report in the shape the status schema holds; throws on what it cannot hold. */
function checkedReport(report: unknown): Omit<ProviderOutcome, 'resource' | 'request' | 'workload'> {
  if (!isJsonObject(report)) throw new Error('the provider returned no status report');
  const phase = report.phase;
  if (!PROVIDER_PHASES.includes(phase as ProviderPhase)) throw new Error(`the provider reported an unknown phase ${JSON.stringify(phase)}`);
  const message = report.message === undefined || report.message === null ? '' : report.message;
  if (typeof message !== 'string') throw new Error('the provider reported a non-string message');

  const r = isJsonObject(report.replicas) ? report.replicas : undefined;
  if (!r) throw new Error('the provider reported no replica counts');
  const count = (key: 'desired' | 'ready' | 'available'): number => {
    const v = r[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_INT32) throw new Error(`the provider reported replicas.${key} ${JSON.stringify(v)}, not a count`);
    return v;
  };
  const replicas = { desired: count('desired'), ready: count('ready'), available: count('available') };

  let endpoint: ProviderOutcome['endpoint'];
  if (report.endpoint !== undefined && report.endpoint !== null) {
    if (!isJsonObject(report.endpoint)) throw new Error('the provider reported a non-object endpoint');
    const { service, port } = report.endpoint;
    if (service !== undefined && typeof service !== 'string') throw new Error('the provider reported a non-string endpoint service');
    if (port !== undefined && (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535)) {
      throw new Error(`the provider reported endpoint port ${JSON.stringify(port)}`);
    }
    const known = { ...(service ? { service } : {}), ...(port ? { port } : {}) };
    if (Object.keys(known).length > 0) endpoint = known;
  }

  const c = isJsonObject(report.ready) ? report.ready : undefined;
  if (!c) throw new Error('the provider reported no Ready condition');
  if (!CONDITION_STATUSES.includes(c.status as DesiredCondition['status'])) throw new Error(`the provider reported Ready status ${JSON.stringify(c.status)}`);
  if (!isValidReason(c.reason)) throw new Error(`the provider reported Ready reason ${JSON.stringify(c.reason)}, not a CamelCase reason`);
  const readyMessage = c.message === undefined || c.message === null ? '' : c.message;
  if (typeof readyMessage !== 'string') throw new Error('the provider reported a non-string Ready message');

  return {
    phase: phase as ProviderPhase,
    message,
    replicas,
    ...(endpoint && { endpoint }),
    ready: ready(c.status as DesiredCondition['status'], c.reason, readyMessage),
  };
}
