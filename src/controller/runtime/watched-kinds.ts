import { MODEL_DEPLOYMENT_KIND, ResourceKind } from './kube-api';
import { kindKey } from './object-key';
import { EngineType } from '../../api/engine';
import type { InferenceProvider } from '../../api/provider/inference-provider';
import type { ResolvedDeployment } from '../../api/resolved-deployment';
import { ServingMode } from '../../api/serving';
import { compactCrd, CRD_API_VERSION, CRD_KIND, CRD_RESOURCE } from '../../controller-contract/crd-compatibility';
import { upstreamCrdNames } from '../../controller-contract/upstream-crds';
import { LABEL_MANAGED_BY, LABEL_RENDERED_BY, MANAGED_BY_VALUE, RENDERED_BY_VALUE } from '../../core/labels';
import { ROUTING_STATUS_KINDS } from '../../gateway/routing-kinds';
import { PIPELINE_EMITTED_KINDS } from '../../pipeline/pipeline-kinds';
import type { ProviderCatalog } from '../../selection/provider-catalog';
import { statusReadFields } from '../status/status-read-fields';

/** A kind the controller caches, which of its objects, and what of each. */
export interface WatchedKind extends ResourceKind {
  /** @default - every object of the kind */
  readonly labelSelector?: string;
  /**
   * The only fields the cache keeps of each object (`statusReadFields`: what the status logic
   * reads), as dotted paths. @default - the whole object
   */
  readonly cachedFields?: readonly string[];
  /** A cluster-scoped kind: listed and looked up without a namespace, even when the controller watches one. @default false */
  readonly clusterScoped?: boolean;
  /**
   * Only the object of this name (a `metadata.name` field selector, which RBAC `resourceNames`
   * authorizes); each name of a kind is then a cache of its own. @default - every object
   */
  readonly objectName?: string;
  /** What the cache keeps of each object, applied after `cachedFields`. @default - the object */
  readonly transform?: (obj: any) => any;
  /** A read the controller can do without: 403 Forbidden leaves the cache empty instead of unsynced (`forbiddenAsAbsent`). @default false */
  readonly optional?: boolean;
}

/**
 * The CustomResourceDefinitions a record's custom resources are judged against
 * (`IncompatibleUpstream`): one cache per CRD of a kind the catalog or the pipeline emits, each
 * keeping only what decides pruning (`compactCrd`).
 */
export function upstreamCrdKinds(catalog: ProviderCatalog): WatchedKind[] {
  return upstreamCrdNames(catalog).map((objectName) => withCachedFields({
    apiVersion: CRD_API_VERSION,
    kind: CRD_KIND,
    resource: CRD_RESOURCE,
    clusterScoped: true,
    objectName,
    transform: compactCrd,
    // A controller granted only namespaced Roles (with --namespace) cannot read CRDs: it then judges no record's CRDs.
    optional: true,
  }));
}

/** `kind` with the fields the status logic reads of it, when it declares them. */
export function withCachedFields<K extends WatchedKind>(kind: K): K & Pick<WatchedKind, 'cachedFields'> {
  const fields = statusReadFields(kind.apiVersion, kind.kind);
  return fields ? { ...kind, cachedFields: fields } : kind;
}

/** Objects the shipped providers and the gateway code create carry `airunway.ai/managed-by=airunway`. */
export const MANAGED_BY_SELECTOR = `${LABEL_MANAGED_BY}=${MANAGED_BY_VALUE}`;

/** The records the controller owns: ModelDeployments labelled `inference.cdk8s.io/rendered-by=cdk8s-inference`. */
export const RECORD_KIND: WatchedKind = { ...MODEL_DEPLOYMENT_KIND, labelSelector: `${LABEL_RENDERED_BY}=${RENDERED_BY_VALUE}` };

/**
 * The routing objects a record's status reads: its HTTPRoute, the InferencePool the route sends
 * to and the Gateway it attaches to. None is selected by our label: the route may be the user's
 * own (`spec.gateway.httpRouteRef`), the pool the provider's own (Dynamo's `<md>-pool`), and the
 * Gateway is never ours. All are read-only.
 */
export const ROUTING_KINDS: readonly WatchedKind[] = ROUTING_STATUS_KINDS.map((k) =>
  withCachedFields({ apiVersion: k.apiVersion, kind: k.kind, resource: k.resource }));

/**
 * The kinds whose objects a status can be read from: of the kinds the catalog's providers emit
 * (`emittedKinds()`), those whose group and kind some provider's `statusSource` names. Providers
 * are asked with a sample deployment for every engine and serving mode; every emitted version of
 * a named kind counts (the Dynamo provider emits DynamoGraphDeployment in v1alpha1 and v1beta1 and
 * names either, by annotation). Services, PVCs and Jobs, which no status reads, are left out.
 */
export function statusSourceKinds(catalog: ProviderCatalog): WatchedKind[] {
  const named = new Set<string>();
  const emitted: ResourceKind[] = [];
  for (const entry of catalog.entries) {
    const provider = catalog.provider(entry.name);
    if (!provider) continue;
    emitted.push(...provider.emittedKinds());
    for (const ref of probeStatusSources(provider)) named.add(groupKind(ref.apiVersion, ref.kind));
  }
  const out = new Map<string, WatchedKind>();
  for (const k of emitted) {
    if (named.has(groupKind(k.apiVersion, k.kind)) && !out.has(kindKey(k))) {
      out.set(kindKey(k), withCachedFields({ apiVersion: k.apiVersion, kind: k.kind, resource: k.resource, labelSelector: MANAGED_BY_SELECTOR }));
    }
  }
  return [...out.values()].sort((a, b) => (kindKey(a) < kindKey(b) ? -1 : 1));
}

/** Every kind the controller caches besides the records: status sources, then routing, then the upstream CRDs. */
export function dependencyKinds(catalog: ProviderCatalog): WatchedKind[] {
  const out = new Map<string, WatchedKind>();
  for (const k of [...statusSourceKinds(catalog), ...ROUTING_KINDS]) if (!out.has(kindKey(k))) out.set(kindKey(k), k);
  return [...out.values(), ...upstreamCrdKinds(catalog)];
}

/**
 * The resource (plural) of a kind some provider emits, for a kind a reconcile names that is not
 * cached yet.
 */
export function emittedKind(catalog: ProviderCatalog, apiVersion: string, kind: string): WatchedKind | undefined {
  for (const entry of catalog.entries) {
    const found = catalog.provider(entry.name)?.emittedKinds().find((k) => k.apiVersion === apiVersion && k.kind === kind);
    if (found) return withCachedFields({ apiVersion, kind, resource: found.resource, labelSelector: MANAGED_BY_SELECTOR });
  }
  return undefined;
}

function probeStatusSources(provider: InferenceProvider): Array<{ apiVersion: string; kind: string }> {
  const refs: Array<{ apiVersion: string; kind: string }> = [];
  for (const engineType of Object.values(EngineType)) {
    for (const servingMode of Object.values(ServingMode)) {
      const sample: ResolvedDeployment = {
        name: 'sample',
        namespace: 'default',
        labels: {},
        annotations: {},
        spec: { model: { id: 'sample/model' }, engine: { type: engineType }, provider: { name: provider.name }, serving: { mode: servingMode } },
        engineType,
        servingMode,
        providerName: provider.name,
        engineSelectedReason: '',
        providerSelectedReason: '',
      };
      try {
        const ref = provider.statusSource(sample);
        if (ref) refs.push(ref, ...(provider.additionalStatusSources(sample) ?? []));
      } catch {
        // A provider that cannot describe a sample names nothing for it.
      }
    }
  }
  return refs;
}

function groupKind(apiVersion: string, kind: string): string {
  const slash = apiVersion.lastIndexOf('/');
  return `${slash < 0 ? '' : apiVersion.slice(0, slash)}/${kind}`;
}

/**
 * How to address an object the record lists as rendered (`inference.cdk8s.io/rendered-objects`):
 * a kind some provider or the shared pipeline (routing, DRA claim templates) emits. Undefined for any other kind (a provider the
 * controller was not built with).
 */
export function renderedKind(catalog: ProviderCatalog, apiVersion: string, kind: string): ResourceKind | undefined {
  const matches = (k: ResourceKind) => k.apiVersion === apiVersion && k.kind === kind;
  const shared = PIPELINE_EMITTED_KINDS.find(matches);
  if (shared) return { apiVersion, kind, resource: shared.resource };
  const emitted = emittedKind(catalog, apiVersion, kind);
  return emitted && { apiVersion, kind, resource: emitted.resource };
}
