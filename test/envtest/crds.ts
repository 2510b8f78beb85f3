/**
 * Installing upstream CustomResourceDefinitions into a test control plane.
 *
 * `installCrds(client, files)` reads each YAML file (every `CustomResourceDefinition` document in
 * it), creates the CRDs (or replaces ones already there) and waits until each is `Established`,
 * its names accepted, and every served version listed by discovery, so the first request for a
 * custom resource does not race the API server's handler.
 *
 * Conversion webhooks: a CRD whose `spec.conversion.strategy` is `Webhook` (NVIDIA Dynamo's
 * declare one, served by `dynamo-operator-webhook-service` in `dynamo-system`) is installed with
 * `strategy: None` instead. Nothing serves that webhook in a test, and the API server calls it for
 * every request whose version is not the storage version — including, on create, the conversion to
 * the storage version — so such requests would fail with "conversion webhook ... service not found".
 * `None` only relabels `apiVersion`, which means a served version that is *not* the storage version
 * would be stored (and, with dryRun, round-tripped) as the storage version and pruned against that
 * version's schema: not what the real webhook does. `useStorageVersion()` updates such a CRD to
 * make another version the storage version, so each version can be checked against its own
 * schema.
 *
 * Crossplane composite resources: modelplane's upstream schemas are Crossplane
 * CompositeResourceDefinitions (XRDs), which Crossplane turns into CRDs when they are applied.
 * No Crossplane runs in a test, so `readCrds()` reads an XRD as the CRD Crossplane would derive
 * from it (`xrdAsCrd`, after Crossplane's internal/xcrd `ForCompositeResource`) and installs that.
 *
 * Upstream CRDs live in ../shared/upstream (`upstreamDir()`); `upstreamCrdIndex()` maps each
 * group/kind there to its file — a CRD's or an XRD's — from a cheap scan of the file headers.
 */
import * as fs from 'fs';
import * as path from 'path';
import { KubeApiError, KubeClient, KubeObject, waitFor } from './kube-client';
import { parseDefinitionDocuments } from '../../src/schema-validation/schema-bundle';

const CRD_API_VERSION = 'apiextensions.k8s.io/v1';
const XRD_KIND = 'CompositeResourceDefinition';
const XRD_API_VERSIONS = ['apiextensions.crossplane.io/v1', 'apiextensions.crossplane.io/v2'];
const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** One CRD as installed. */
export interface InstalledCrd {
  /** `<plural>.<group>`. */
  readonly name: string;
  readonly group: string;
  readonly kind: string;
  readonly plural: string;
  readonly scope: 'Namespaced' | 'Cluster';
  /** Served versions. */
  readonly versions: string[];
  /** The storage version as installed now (see `useStorageVersion`). */
  storageVersion: string;
  /** The upstream storage version. */
  readonly upstreamStorageVersion: string;
  /** True when upstream declares a conversion webhook, installed here as `strategy: None`. */
  readonly conversionReplaced: boolean;
  /** The file it came from. */
  readonly file: string;
  /** The CRD object sent (after the conversion replacement). */
  readonly manifest: KubeObject;
}

export interface InstallOptions {
  /** Bound on each CRD becoming established and discoverable, in ms (default 120 s). */
  readonly timeoutMs?: number;
}

/**
 * Reads the CRDs of YAML files — a Crossplane XRD as the CRD Crossplane derives from it
 * (`xrdAsCrd`) — with upstream conversion webhooks replaced by `strategy: None` (see the header).
 */
export function readCrds(files: string[]): Array<{ file: string; manifest: KubeObject; conversionReplaced: boolean }> {
  const out: Array<{ file: string; manifest: KubeObject; conversionReplaced: boolean }> = [];
  for (const file of files) {
    for (const doc of parseDefinitionDocuments(fs.readFileSync(file, 'utf8'), file)) {
      let manifest = doc as KubeObject | null;
      if (manifest?.kind === XRD_KIND) {
        if (!XRD_API_VERSIONS.includes(manifest.apiVersion)) throw new Error(`${file}: ${manifest.apiVersion} XRDs are not supported`);
        manifest = xrdAsCrd(manifest, file);
      }
      if (!manifest || manifest.kind !== 'CustomResourceDefinition') continue;
      if (manifest.apiVersion !== CRD_API_VERSION) throw new Error(`${file}: ${manifest.apiVersion} CRDs are not supported`);
      const conversionReplaced = manifest.spec?.conversion?.strategy === 'Webhook';
      if (conversionReplaced) {
        // No conversion webhook runs in tests: see this file's header.
        manifest.spec.conversion = { strategy: 'None' };
      }
      out.push({ file, manifest, conversionReplaced });
    }
  }
  return out;
}

/** Creates (or replaces) every CRD of `files` and waits until each is established and discoverable. */
export async function installCrds(client: KubeClient, files: string[], options: InstallOptions = {}): Promise<InstalledCrd[]> {
  const crds = readCrds(files).map(({ file, manifest, conversionReplaced }) => describeCrd(file, manifest, conversionReplaced));
  // One at a time: the API server compiles each CRD's schema (and CEL rules) on create, and the
  // machine is small; in parallel it is no faster and the waits get noisy.
  for (const crd of crds) {
    await createOrReplace(client, crd.manifest);
    await waitUntilServed(client, crd, options.timeoutMs ?? 120_000);
  }
  return crds;
}

/**
 * Makes `version` the storage version of a CRD installed with its conversion webhook replaced, by
 * updating the CRD in place. A no-op when `version` already is.
 *
 * In place rather than deleted and created again: the API server then rebuilds the CRD's handler
 * once (about 1 s of CPU for Dynamo's 1.6 MB CRD) instead of tearing it down and building it anew
 * (about 6 s), and the tests switch versions about ten times per run.
 *
 * The update's response comes before the API server's handler for the resource has picked the
 * change up, and a request in that window would still be stored as the old version. So the
 * update also gives `version` a printer column named after this switch, and the switch is done
 * when a Table of the resource — which that handler renders from its current copy of the CRD —
 * shows the column. Printer columns change nothing a test checks: not validation, defaults or
 * pruning.
 */
export async function useStorageVersion(client: KubeClient, crd: InstalledCrd, version: string, options: InstallOptions = {}): Promise<void> {
  if (crd.storageVersion === version) return;
  if (!crd.versions.includes(version)) throw new Error(`${crd.name} does not serve ${version} (serves ${crd.versions.join(', ')})`);
  const marker = `storage-switch-${++storageSwitches}`;
  const live = await client.request<KubeObject>('GET', `${CRD_PATH}/${crd.name}`);
  for (const v of live.spec.versions) {
    const upstreamColumns = crd.manifest.spec.versions.find((u: any) => u.name === v.name)?.additionalPrinterColumns;
    v.storage = v.name === version;
    v.additionalPrinterColumns = v.name === version
      ? [...upstreamColumns ?? [], { name: marker, type: 'string', jsonPath: '.metadata.name', priority: 1 }]
      : upstreamColumns;
  }
  await client.request('PUT', `${CRD_PATH}/${crd.name}`, { body: live });
  await waitFor(async () => {
    const table = await client.request<any>('GET', `/apis/${crd.group}/${version}/${crd.plural}`, { query: { limit: 1 }, accept: TABLE });
    return (table.columnDefinitions ?? []).some((c: any) => c.name === marker);
  }, options.timeoutMs ?? 120_000, `${crd.name} to be served with storage version ${version}`, 50);
  crd.storageVersion = version;
}

/** Storage version switches so far in this process: names each switch's marker column. */
let storageSwitches = 0;
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

/**
 * group/kind → the upstream file that defines it (a CRD, or a Crossplane XRD: `readCrds` installs
 * it as the CRD Crossplane derives), from the first lines of every YAML file under `dir`.
 */
export function upstreamCrdIndex(dir: string): Map<string, string> {
  const index = new Map<string, string>();
  const walk = (d: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (/\.ya?ml$/.test(entry.name)) {
        const head = readHead(full, 8192);
        if (!/^kind: (?:CustomResourceDefinition|CompositeResourceDefinition)$/m.test(head)) continue;
        const group = /^ {2}group: (\S+)$/m.exec(head)?.[1];
        const kind = /^ {2}names:\n(?: {4}.*\n)*? {4}kind: (\S+)$/m.exec(head)?.[1];
        if (group && kind) index.set(`${group}/${kind}`, full);
      }
    }
  };
  walk(dir);
  return index;
}

// ---------------------------------------------------------------------------------------------
// Crossplane CompositeResourceDefinitions as the CRDs Crossplane derives from them
// ---------------------------------------------------------------------------------------------

/** Crossplane uses a composite resource's name as a label value: at most 63 characters. */
const MAX_COMPOSITE_NAME_LENGTH = 63;

type SchemaProps = Record<string, any>;

const STRING = { type: 'string' };
const MATCH_LABELS = { type: 'object', required: ['matchLabels'], properties: { matchLabels: { type: 'object', additionalProperties: STRING } } };
const NAME_REF = { type: 'object', required: ['name'], properties: { name: STRING } };

/** Crossplane's `CompositeResourceSpecProps`: its machinery fields of a composite resource's spec. */
function compositeSpecProps(legacy: boolean, namespaced: boolean, defaultUpdatePolicy: string | undefined): SchemaProps {
  const refProps: SchemaProps = { apiVersion: STRING, name: STRING, kind: STRING };
  // Namespaced composite resources cannot reference composed resources of other namespaces.
  if (!namespaced) refProps.namespace = STRING;
  const props: SchemaProps = {
    compositionRef: NAME_REF,
    compositionSelector: MATCH_LABELS,
    compositionRevisionRef: NAME_REF,
    compositionRevisionSelector: MATCH_LABELS,
    compositionUpdatePolicy: { type: 'string', enum: ['Automatic', 'Manual'], ...(defaultUpdatePolicy && { default: defaultUpdatePolicy }) },
    resourceRefs: {
      'type': 'array',
      'items': { type: 'object', properties: refProps, required: ['apiVersion', 'kind'] },
      'x-kubernetes-list-type': 'atomic',
    },
  };
  if (legacy) {
    // Legacy composite resources keep the machinery directly in spec, with claims and connection secrets.
    props.claimRef = {
      type: 'object',
      required: ['apiVersion', 'kind', 'namespace', 'name'],
      properties: { apiVersion: STRING, kind: STRING, namespace: STRING, name: STRING },
    };
    props.writeConnectionSecretToRef = { type: 'object', required: ['name', 'namespace'], properties: { name: STRING, namespace: STRING } };
    return props;
  }
  return { crossplane: { type: 'object', description: 'Configures how Crossplane will reconcile this composite resource', properties: props } };
}

/** Crossplane's `CompositeResourceStatusProps`: the status fields it writes on every composite resource. */
function compositeStatusProps(legacy: boolean): SchemaProps {
  const connectionDetails = { type: 'object', properties: { lastPublishedTime: { type: 'string', format: 'date-time' } } };
  const props: SchemaProps = {
    conditions: {
      'description': 'Conditions of the resource.',
      'type': 'array',
      'x-kubernetes-list-map-keys': ['type'],
      'x-kubernetes-list-type': 'map',
      'items': {
        type: 'object',
        required: ['lastTransitionTime', 'reason', 'status', 'type'],
        properties: {
          lastTransitionTime: { type: 'string', format: 'date-time' },
          message: STRING,
          reason: STRING,
          status: STRING,
          type: STRING,
          observedGeneration: { type: 'integer', format: 'int64' },
        },
      },
    },
  };
  if (legacy) {
    props.connectionDetails = connectionDetails;
    props.claimConditionTypes = { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': STRING };
  } else {
    props.crossplane = {
      type: 'object',
      description: 'Indicates how Crossplane is reconciling this composite resource',
      properties: { connectionDetails },
    };
  }
  return props;
}

/** Crossplane's `CompositeResourcePrinterColumns`, appended to the XRD's own. */
function compositePrinterColumns(legacy: boolean): SchemaProps[] {
  const at = legacy ? '.spec' : '.spec.crossplane';
  return [
    { name: 'SYNCED', type: 'string', jsonPath: ".status.conditions[?(@.type=='Synced')].status" },
    { name: 'READY', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
    { name: 'COMPOSITION', type: 'string', jsonPath: `${at}.compositionRef.name` },
    { name: 'COMPOSITIONREVISION', type: 'string', jsonPath: `${at}.compositionRevisionRef.name`, priority: 1 },
    { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ];
}

/** `keys` of `from` that are set, as Go's `omitempty` would marshal them. */
function pick(from: SchemaProps | undefined, keys: string[]): SchemaProps {
  const out: SchemaProps = {};
  for (const k of keys) {
    const v = from?.[k];
    if (v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0) && v !== false && v !== '') out[k] = v;
  }
  return out;
}

/** Crossplane's `genCrdVersion` plus the composite fields of `ForCompositeResource`, for one XRD version. */
function compositeCrdVersion(
  version: SchemaProps,
  legacy: boolean,
  namespaced: boolean,
  defaultUpdatePolicy: string | undefined,
  what: string,
): SchemaProps {
  const xrdSchema: SchemaProps | undefined = version.schema?.openAPIV3Schema;
  if (!xrdSchema) throw new Error(`${what}: version ${version.name} has no schema.openAPIV3Schema (Crossplane refuses it too)`);
  const xSpec: SchemaProps = xrdSchema.properties?.spec ?? {};
  const xStatus: SchemaProps = xrdSchema.properties?.status ?? {};
  const xName = xrdSchema.properties?.metadata?.properties?.name?.maxLength;
  const maxNameLength = typeof xName === 'number' && xName < MAX_COMPOSITE_NAME_LENGTH ? xName : MAX_COMPOSITE_NAME_LENGTH;

  const spec: SchemaProps = {
    type: 'object',
    ...pick(xSpec, ['description', 'required', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-validations', 'oneOf']),
    // Crossplane's fields replace any of the same name in the XRD.
    properties: { ...xSpec.properties, ...compositeSpecProps(legacy, namespaced, defaultUpdatePolicy) },
  };
  const status: SchemaProps = {
    type: 'object',
    ...pick(xStatus, ['description', 'required', 'x-kubernetes-validations', 'oneOf']),
    properties: { ...xStatus.properties, ...compositeStatusProps(legacy) },
  };
  return {
    name: version.name,
    served: version.served === true,
    storage: version.referenceable === true,
    ...pick(version, ['deprecated', 'deprecationWarning']),
    additionalPrinterColumns: [...(version.additionalPrinterColumns ?? []), ...compositePrinterColumns(legacy)],
    schema: {
      openAPIV3Schema: {
        type: 'object',
        ...pick(xrdSchema, ['description']),
        required: ['spec'],
        properties: {
          apiVersion: STRING,
          kind: STRING,
          metadata: { type: 'object', properties: { name: { type: 'string', maxLength: maxNameLength } } },
          spec,
          status,
        },
      },
    },
    // Crossplane always serves status as a subresource (it writes status through it).
    subresources: { status: {} },
  };
}

/**
 * The CustomResourceDefinition Crossplane derives from a CompositeResourceDefinition for its
 * composite resources: crossplane/crossplane internal/xcrd `ForCompositeResource`,
 * `genCrdVersion` and the props of schemas.go, followed field by field.
 *
 * - Name, group, names (category `composite` added) and conversion are the XRD's; labels are
 *   its metadata.labels and spec.metadata.labels, annotations its spec.metadata.annotations.
 * - Scope: a v2 XRD's `spec.scope` (default `Namespaced`; `Cluster` as is); a v1 XRD is a
 *   LegacyCluster one, cluster-scoped with Crossplane's fields directly in spec.
 * - Each version: name, served, `storage` for the referenceable version, deprecated and its
 *   warning, the XRD's printer columns then Crossplane's, the status subresource. A version's
 *   `subresources` is not part of the XRD version Crossplane reads (modelplane's ModelDeployment
 *   XRD declares a scale subresource), so it is not carried over; it does not bear on validation.
 * - The openAPIV3Schema: Crossplane's base (apiVersion, kind, metadata whose name is at most 63
 *   characters or the XRD's smaller maxLength, spec, status; `spec` required) with the XRD root's
 *   description; from the XRD's spec its properties, required, x-kubernetes-validations, oneOf,
 *   x-kubernetes-preserve-unknown-fields and description; from its status its properties,
 *   required, x-kubernetes-validations, oneOf and description. Other keywords of those three
 *   levels are dropped, as Crossplane drops them.
 * - The fields Crossplane adds, replacing any of the XRD's of the same name: `spec.crossplane`
 *   (compositionRef, compositionSelector, compositionRevisionRef, compositionRevisionSelector,
 *   compositionUpdatePolicy, resourceRefs; LegacyCluster: these directly in spec, with claimRef and
 *   writeConnectionSecretToRef), `status.conditions` and `status.crossplane` (LegacyCluster:
 *   connectionDetails, claimConditionTypes). Without them the server would prune those fields.
 *
 * The claim CRD of a v1 XRD with claimNames is not derived: nothing the library emits is a claim.
 */
export function xrdAsCrd(xrd: KubeObject, file: string): KubeObject {
  const what = `${file}: XRD ${xrd.metadata?.name}`;
  const spec: SchemaProps = xrd.spec ?? {};
  const legacy = xrd.apiVersion === 'apiextensions.crossplane.io/v1' || spec.scope === 'LegacyCluster';
  const namespaced = !legacy && (spec.scope ?? 'Namespaced') === 'Namespaced';
  // v2 defaults the XRD's defaultCompositionUpdatePolicy to Automatic; v1 has no default.
  const defaultUpdatePolicy: string | undefined = spec.defaultCompositionUpdatePolicy ?? (legacy ? undefined : 'Automatic');
  const versions: SchemaProps[] = spec.versions ?? [];
  if (versions.filter((v) => v.referenceable === true).length !== 1) throw new Error(`${what}: exactly one version must be referenceable`);
  const labels = { ...xrd.metadata?.labels, ...spec.metadata?.labels };
  const metadata: SchemaProps = { name: xrd.metadata?.name };
  if (Object.keys(labels).length > 0) metadata.labels = labels;
  if (spec.metadata?.annotations) metadata.annotations = spec.metadata.annotations;
  return {
    apiVersion: CRD_API_VERSION,
    kind: 'CustomResourceDefinition',
    metadata,
    spec: {
      group: spec.group,
      names: { ...spec.names, categories: [...(spec.names?.categories ?? []), 'composite'] },
      scope: namespaced ? 'Namespaced' : 'Cluster',
      versions: versions.map((v) => compositeCrdVersion(v, legacy, namespaced, defaultUpdatePolicy, what)),
      ...(spec.conversion && { conversion: spec.conversion }),
    },
  };
}

function readHead(file: string, bytes: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const n = fs.readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

function describeCrd(file: string, manifest: KubeObject, conversionReplaced: boolean): InstalledCrd {
  const spec = manifest.spec;
  const versions: any[] = spec.versions ?? [];
  const storage = versions.find((v) => v.storage)?.name;
  if (!storage) throw new Error(`${file}: CRD ${manifest.metadata?.name} has no storage version`);
  return {
    name: manifest.metadata!.name!,
    group: spec.group,
    kind: spec.names.kind,
    plural: spec.names.plural,
    scope: spec.scope,
    versions: versions.filter((v) => v.served).map((v) => v.name),
    storageVersion: storage,
    upstreamStorageVersion: storage,
    conversionReplaced,
    file,
    manifest,
  };
}

async function createOrReplace(client: KubeClient, manifest: KubeObject): Promise<void> {
  const name = manifest.metadata!.name!;
  try {
    await client.request('POST', CRD_PATH, { body: manifest });
  } catch (e) {
    if (!(e instanceof KubeApiError && e.status === 409)) throw new Error(`cannot create CRD ${name}: ${(e as Error).message}`);
    const existing = await client.request<KubeObject>('GET', `${CRD_PATH}/${name}`);
    const updated = { ...manifest, metadata: { ...manifest.metadata, resourceVersion: existing.metadata!.resourceVersion } };
    await client.request('PUT', `${CRD_PATH}/${name}`, { body: updated });
  }
}

async function waitUntilServed(client: KubeClient, crd: InstalledCrd, timeoutMs: number): Promise<void> {
  await waitFor(async () => {
    const live = await client.request<KubeObject>('GET', `${CRD_PATH}/${crd.name}`);
    const conditions: any[] = live.status?.conditions ?? [];
    const isTrue = (type: string): boolean => conditions.some((c) => c.type === type && c.status === 'True');
    if (!isTrue('NamesAccepted') || !isTrue('Established')) {
      const bad = conditions.filter((c) => c.status !== 'True').map((c) => `${c.type}=${c.status}: ${c.message}`);
      throw new Error(`not established yet${bad.length ? ` (${bad.join('; ')})` : ''}`);
    }
    for (const v of crd.versions) {
      const r = await client.resourceFor(`${crd.group}/${v}`, crd.kind);
      if (r.name !== crd.plural) throw new Error(`discovery lists ${crd.kind} as ${r.name}, not ${crd.plural}`);
    }
    return true;
  }, timeoutMs, `CRD ${crd.name} to be established and discoverable`, 200);
}
