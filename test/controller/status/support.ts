/**
 * Builders for the status tests: records as the API server returns them, the upstream objects
 * the real translators synthesize, an object cache to look them up in, and an RFC 7386 merge
 * patch applier that plays the API server's part when a status patch is written.
 */
import { App, Chart, Testing } from 'cdk8s';
import { GatewayRef, InferenceProvider, ModelDeployment, ModelDeploymentProps, ProviderRegistry } from '../../../src';
import { ResolvedModelDeployment, toResolvedDeployment } from '../../../src/api/resolved-model-deployment';
import { ObjectLookup, ObjectRef, reconcileRecord, RecordReconcile } from '../../../src/controller/status';
import { ANNOTATION_ENGINE_REASON, ANNOTATION_PROVIDER_REASON, ANNOTATION_RECONCILE_PAUSED, LABEL_RENDERED_BY, RENDERED_BY_VALUE } from '../../../src/core/labels';
import { defaultProviderCatalog } from '../../../src/pipeline/shipped-providers';
import type { ProviderCatalog } from '../../../src/selection/provider-catalog';

/** Times of successive reconciles. */
export const T = ['2026-03-01T10:00:00.250Z', '2026-03-01T10:01:00.500Z', '2026-03-01T10:02:00Z', '2026-03-01T10:03:00Z', '2026-03-01T10:04:00Z', '2026-03-01T10:05:00Z', '2026-03-01T10:06:00Z']
  .map((t) => new Date(t));
/** `T[i]` as a condition's lastTransitionTime (whole seconds). */
export const TT = T.map((t) => t.toISOString().replace(/\.\d+Z$/, 'Z'));

/** The Gateway of the routed tests. */
export const GATEWAY = { name: 'inference-gateway', namespace: 'gateway-system' };

/** Server-set metadata of an object read from the API server. */
function serverMetadata(metadata: Record<string, unknown>, generation: number): Record<string, unknown> {
  return { ...metadata, generation, uid: `uid-${String(metadata.name)}`, resourceVersion: '1000', creationTimestamp: '2026-03-01T09:59:00Z' };
}

/**
 * The record of a fixture deployment as the synth writes it (rendered-by label, pause annotation,
 * selection reasons) and the API server returns it (generation, uid, ...).
 */
export function recordOf(md: ResolvedModelDeployment, options: { generation?: number; status?: unknown } = {}): any {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: serverMetadata({
      name: md.name,
      namespace: md.namespace,
      labels: { ...md.labels, [LABEL_RENDERED_BY]: RENDERED_BY_VALUE },
      annotations: {
        ...md.annotations,
        [ANNOTATION_RECONCILE_PAUSED]: 'true',
        [ANNOTATION_ENGINE_REASON]: md.engineReason,
        [ANNOTATION_PROVIDER_REASON]: md.providerReason,
      },
    }, options.generation ?? 1),
    spec: structuredClone(md.spec),
    ...(options.status !== undefined && { status: options.status }),
  };
}

/** The objects `provider` translates `md` into, as the API server returns them (no status yet). */
export function translated(provider: InferenceProvider, md: ResolvedModelDeployment): any[] {
  const chart = Testing.chart();
  provider.translate(chart, toResolvedDeployment(md));
  return Testing.synth(chart).map((o) => ({ ...o, metadata: serverMetadata(o.metadata, 1) }));
}

/** Everything one app synthesizes, server metadata added; the record separately. */
export interface Rendered {
  readonly record: any;
  readonly objects: any[];
}

/**
 * One deployment through the real construct, in namespace `ml`, with a registry whose Gateway is
 * `GATEWAY` unless `gateway` is false.
 */
export function rendered(props: ModelDeploymentProps, options: { gateway?: boolean; id?: string } = {}): Rendered {
  const app: App = Testing.app();
  new ProviderRegistry(app, 'Providers', options.gateway === false ? {} : { gateway: GatewayRef.fromName(GATEWAY.name, GATEWAY.namespace) });
  const chart = new Chart(app, 'models', { namespace: 'ml' });
  new ModelDeployment(chart, options.id ?? 'qwen', props);
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  if (errors.length > 0) throw new Error(errors.join('\n'));
  const all = Testing.synth(chart).map((o) => ({ ...o, metadata: serverMetadata(o.metadata, 1) }));
  return { record: all.find((o) => o.kind === 'ModelDeployment'), objects: all.filter((o) => o.kind !== 'ModelDeployment') };
}

function key(ref: { apiVersion: string; kind: string; namespace?: string; name: string }): string {
  return `${ref.apiVersion} ${ref.kind} ${ref.namespace ?? ''}/${ref.name}`;
}

/** An object cache: what the controller's informers hold. */
export class World {
  private readonly objects = new Map<string, any>();
  /** Every reference asked for, in order. */
  public readonly asked: ObjectRef[] = [];

  public constructor(objects: any[] = []) {
    for (const o of objects) this.put(o);
  }

  /** Adds or replaces an object. */
  public put(obj: any): this {
    // A cluster-scoped object (a CRD) is looked up with namespace ''.
    const ref = { apiVersion: obj.apiVersion, kind: obj.kind, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name };
    this.objects.set(key(ref), structuredClone(obj));
    return this;
  }

  /** The stored object of that kind and name (a copy). */
  public get(apiVersion: string, kind: string, name: string, namespace = 'ml'): any {
    const o = this.objects.get(key({ apiVersion, kind, namespace, name }));
    return o === undefined ? undefined : structuredClone(o);
  }

  /** Sets the `status` of a stored object. */
  public setStatus(apiVersion: string, kind: string, name: string, status: unknown, namespace = 'ml'): this {
    const o = this.get(apiVersion, kind, name, namespace);
    if (!o) throw new Error(`no ${kind} ${namespace}/${name}`);
    return this.put({ ...o, status });
  }

  /** Removes an object. */
  public remove(apiVersion: string, kind: string, name: string, namespace = 'ml'): this {
    this.objects.delete(key({ apiVersion, kind, namespace, name }));
    return this;
  }

  /** The lookup the reconciler is given. */
  public readonly lookup: ObjectLookup = (ref) => {
    this.asked.push(ref);
    const o = this.objects.get(key(ref));
    return o === undefined ? undefined : structuredClone(o);
  };
}

/** RFC 7386 JSON merge patch: `patch` applied to `target` (neither is modified). */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = target !== null && typeof target === 'object' && !Array.isArray(target) ? structuredClone(target as Record<string, unknown>) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

/** The record after the API server applied the reconcile's patch to it. */
export function stored(record: any, result: RecordReconcile): any {
  if (result.patch === undefined) return record;
  const next = applyMergePatch(record, result.patch) as any;
  return next;
}

/** A reconciler that keeps the stored record between passes, as the API server would. */
export class Store {
  public constructor(public record: any, private readonly catalog: ProviderCatalog = defaultProviderCatalog()) {}

  /** One reconcile at `now`; the patch (if any) is applied to the stored record. */
  public reconcile(world: World, now: Date): RecordReconcile {
    const result = reconcileRecord(this.record, this.catalog, world.lookup, now);
    this.record = stored(this.record, result);
    return result;
  }

  /** The stored status. */
  public get status(): any {
    return this.record.status;
  }

  /** A stored condition by type. */
  public condition(type: string): any {
    return (this.record.status?.conditions ?? []).find((c: any) => c.type === type);
  }
}
