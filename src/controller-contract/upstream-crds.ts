/**
 * The CustomResourceDefinitions the controller reads to judge records against the cluster
 * (crd-compatibility.ts): one per custom-resource kind the catalog's providers and the shared
 * pipeline can emit, named `<plural>.<group>`. The list is known when the controller is built, so
 * its ClusterRole grants read access to exactly these CRDs (`resourceNames`), and it watches each
 * by name (a `metadata.name` field selector, which `resourceNames` authorizes for list and watch).
 */
import { crdName } from './crd-compatibility';
import { isCustomResource } from './upstream-fields';
import type { UpstreamKind } from '../api/provider/provider-status';
import { PIPELINE_EMITTED_KINDS } from '../pipeline/pipeline-kinds';
import type { ProviderCatalog } from '../selection/provider-catalog';

/** Per catalog (a controller has one for its lifetime): every reconcile asks. */
const kindsByCatalog = new WeakMap<ProviderCatalog, readonly UpstreamKind[]>();

function emittedKinds(catalog: ProviderCatalog): readonly UpstreamKind[] {
  let kinds = kindsByCatalog.get(catalog);
  if (!kinds) {
    const all: UpstreamKind[] = [];
    for (const entry of catalog.entries) all.push(...(catalog.provider(entry.name)?.emittedKinds() ?? []));
    kinds = [...all, ...PIPELINE_EMITTED_KINDS];
    kindsByCatalog.set(catalog, kinds);
  }
  return kinds;
}

/** Names of the CRDs of every custom-resource kind the catalog and the pipeline emit, sorted. */
export function upstreamCrdNames(catalog: ProviderCatalog): string[] {
  const names = new Set<string>();
  for (const k of emittedKinds(catalog)) if (isCustomResource(k.apiVersion)) names.add(crdName(k.apiVersion, k.resource));
  return [...names].sort();
}

/** The CRD of `apiVersion kind` when the catalog or the pipeline emits it; undefined for a kind the controller was not built with. */
export function upstreamCrdNameOf(catalog: ProviderCatalog, apiVersion: string, kind: string): string | undefined {
  if (!isCustomResource(apiVersion)) return undefined;
  const found = emittedKinds(catalog).find((k) => k.apiVersion === apiVersion && k.kind === kind);
  return found && crdName(apiVersion, found.resource);
}
