import { readInferenceProviderConfigManifest } from '../api/provider/inference-provider-config-manifest';
import type { ProviderConfigEntry } from '../api/provider/provider-config-entry';
import { FieldError, invalid, notSupported, required } from '../core/field-error';
import { NODE_POOL_API_VERSION, NODE_POOL_KIND, NodePoolSpec, readNodePoolDocument } from '../dra/node-inventory';

/**
 * A cluster profile: what the target cluster has installed, read from YAML documents —
 * InferenceProviderConfigs (with `status.ready`), at most one Gateway routes attach to, and
 * NodePools. `kubectl get inferenceproviderconfigs -o yaml` output (a `kind: List` of items) is
 * a profile as it is.
 */
export interface ClusterProfile {
  readonly providers: readonly ProfileProvider[];
  readonly gateways: readonly ProfileGateway[];
  readonly nodePools: readonly ProfileNodePool[];
}

/** Where a profile object is: its document, and `items[N].` when it is an item of a List. */
export interface ProfileLocation {
  /** Zero-based index of the document in its file. */
  readonly index: number;
  /** Prefix of field paths: `items[2].` inside a List document, else empty. */
  readonly prefix: string;
}

/** One InferenceProviderConfig of the profile: the provider is installed. */
export interface ProfileProvider {
  readonly name: string;
  /** `status.ready`; false when absent, as AI Runway reads a config no provider has reported on. */
  readonly ready: boolean;
  /** False when the document has no `status.ready`. */
  readonly readyStated: boolean;
  /** The document's config when it has a `spec`; it replaces the registered spec. */
  readonly entry?: ProviderConfigEntry;
  readonly at: ProfileLocation;
}

/** A Gateway of the cluster: routes attach to it unless told otherwise. */
export interface ProfileGateway {
  readonly name: string;
  readonly namespace: string;
  readonly at: ProfileLocation;
}

export interface ProfileNodePool {
  readonly pool: NodePoolSpec;
  readonly at: ProfileLocation;
}

/** A field error of one profile document, its path from the document root. */
export interface ProfileProblem {
  readonly index: number;
  readonly error: FieldError;
}

/** One document of a profile file. */
export interface ProfileDocument {
  readonly index: number;
  readonly content: unknown;
}

const GATEWAY_API_VERSION = 'gateway.networking.k8s.io/v1';
const PROFILE_KINDS = ['InferenceProviderConfig', 'Gateway', NODE_POOL_KIND, 'List', 'InferenceProviderConfigList'];

/**
 * Reads a cluster profile, collecting every problem with its field path (inside a List,
 * `items[N].` first). A provider listed twice is a problem: the profile is a set.
 */
export function readClusterProfile(documents: readonly ProfileDocument[]): { profile: ClusterProfile; problems: ProfileProblem[] } {
  const providers: ProfileProvider[] = [];
  const gateways: ProfileGateway[] = [];
  const nodePools: ProfileNodePool[] = [];
  const problems: ProfileProblem[] = [];

  const readObject = (content: unknown, at: ProfileLocation, inList: boolean): void => {
    const report = (errors: readonly FieldError[]) => {
      for (const e of errors) problems.push({ index: at.index, error: { ...e, path: prefixed(at.prefix, e.path) } });
    };
    if (content === null || typeof content !== 'object' || Array.isArray(content)) {
      report([invalid('<root>', content, `must be an object of kind ${PROFILE_KINDS.join(', ')}`)]);
      return;
    }
    const doc = content as Record<string, any>;
    const kind = doc.kind;
    if (!inList && (kind === 'List' || kind === 'InferenceProviderConfigList')) {
      if (!Array.isArray(doc.items)) {
        report([required('items', `a ${kind} needs an items list`)]);
        return;
      }
      doc.items.forEach((item: unknown, n: number) => readObject(item, { index: at.index, prefix: `items[${n}].` }, true));
      return;
    }
    if (kind === 'InferenceProviderConfig') {
      const provider = readProvider(doc, at, report);
      if (!provider) return;
      const earlier = providers.find((p) => p.name === provider.name);
      if (earlier) {
        report([invalid('metadata.name', provider.name, `the profile lists this provider twice (also in doc ${earlier.at.index + 1}${earlier.at.prefix ? ` ${earlier.at.prefix.slice(0, -1)}` : ''})`)]);
        return;
      }
      providers.push(provider);
      return;
    }
    if (kind === 'Gateway') {
      const errors: FieldError[] = [];
      if (doc.apiVersion !== GATEWAY_API_VERSION) errors.push(notSupported('apiVersion', doc.apiVersion, [GATEWAY_API_VERSION]));
      const meta = doc.metadata ?? {};
      if (typeof meta.name !== 'string' || meta.name === '') errors.push(required('metadata.name', 'a Gateway needs a name'));
      if (typeof meta.namespace !== 'string' || meta.namespace === '') errors.push(required('metadata.namespace', 'a Gateway needs a namespace'));
      report(errors);
      if (errors.length === 0) gateways.push({ name: meta.name, namespace: meta.namespace, at });
      return;
    }
    if (kind === NODE_POOL_KIND) {
      if (doc.apiVersion !== NODE_POOL_API_VERSION) {
        report([notSupported('apiVersion', doc.apiVersion, [NODE_POOL_API_VERSION])]);
        return;
      }
      const { pool, errors } = readNodePoolDocument(doc);
      report(errors);
      if (pool) nodePools.push({ pool, at });
      return;
    }
    const kinds = inList ? PROFILE_KINDS.filter((k) => !k.endsWith('List')) : PROFILE_KINDS;
    report([kind === undefined ? required('kind', `a cluster profile holds ${kinds.join(', ')}`) : notSupported('kind', kind, kinds)]);
  };

  for (const d of documents) readObject(d.content, { index: d.index, prefix: '' }, false);
  return { profile: { providers, gateways, nodePools }, problems };
}

function readProvider(doc: Record<string, any>, at: ProfileLocation, report: (errors: readonly FieldError[]) => void): ProfileProvider | undefined {
  const hasSpec = doc.spec !== undefined && doc.spec !== null;
  // Without a spec the document only says the provider is installed (and whether it is ready);
  // the registered spec of that name stays. The header and status are checked the same way.
  const { entry, errors } = readInferenceProviderConfigManifest(hasSpec ? doc : { ...doc, spec: {} });
  report(errors);
  if (!entry) return undefined;
  const statusReady = doc.status?.ready;
  const readyStated = typeof statusReady === 'boolean';
  return { name: entry.name, ready: statusReady === true, readyStated, ...(hasSpec && { entry: { ...entry, ready: statusReady === true } }), at };
}

function prefixed(prefix: string, path: string): string {
  if (path === '<root>') return prefix === '' ? path : prefix.slice(0, -1);
  return prefix + path;
}
