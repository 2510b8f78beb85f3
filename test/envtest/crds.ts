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
 * version's schema: not what the real webhook does. `useStorageVersion()` re-creates such a CRD
 * with another version as the storage version, so each version can be checked against its own
 * schema.
 *
 * Upstream CRDs live in ../shared/upstream (`upstreamDir()`); `upstreamCrdIndex()` maps each
 * group/kind there to its file from a cheap scan of the file headers.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { KubeApiError, KubeClient, KubeObject, waitFor } from './kube-client';

const CRD_API_VERSION = 'apiextensions.k8s.io/v1';
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

/** Reads the CRDs of YAML files, with upstream conversion webhooks replaced by `strategy: None` (see the header). */
export function readCrds(files: string[]): Array<{ file: string; manifest: KubeObject; conversionReplaced: boolean }> {
  const out: Array<{ file: string; manifest: KubeObject; conversionReplaced: boolean }> = [];
  for (const file of files) {
    const docs = YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'));
    for (const doc of docs) {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0].message}`);
      const manifest = doc.toJS({ maxAliasCount: -1 }) as KubeObject | null;
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
 * Makes `version` the storage version of a CRD installed with its conversion webhook replaced:
 * deletes the CRD (it holds no objects: the tests dry-run), waits until it is gone, and creates it
 * again with `storage: true` on `version` alone. A no-op when `version` already is.
 */
export async function useStorageVersion(client: KubeClient, crd: InstalledCrd, version: string, options: InstallOptions = {}): Promise<void> {
  if (crd.storageVersion === version) return;
  if (!crd.versions.includes(version)) throw new Error(`${crd.name} does not serve ${version} (serves ${crd.versions.join(', ')})`);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const manifest = structuredClone(crd.manifest);
  for (const v of manifest.spec.versions) v.storage = v.name === version;
  await client.request('DELETE', `${CRD_PATH}/${crd.name}`);
  await waitFor(async () => {
    try {
      await client.request('GET', `${CRD_PATH}/${crd.name}`);
      return false;
    } catch (e) {
      if (e instanceof KubeApiError && e.status === 404) return true;
      throw e;
    }
  }, timeoutMs, `CRD ${crd.name} to be deleted`);
  await createOrReplace(client, manifest);
  await waitUntilServed(client, crd, timeoutMs);
  crd.storageVersion = version;
}

/** group/kind → the upstream file that defines it, from the first lines of every YAML file under `dir`. */
export function upstreamCrdIndex(dir: string): Map<string, string> {
  const index = new Map<string, string>();
  const walk = (d: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (/\.ya?ml$/.test(entry.name)) {
        const head = readHead(full, 8192);
        if (!/^kind: CustomResourceDefinition$/m.test(head)) continue;
        const group = /^ {2}group: (\S+)$/m.exec(head)?.[1];
        const kind = /^ {2}names:\n(?: {4}.*\n)*? {4}kind: (\S+)$/m.exec(head)?.[1];
        if (group && kind) index.set(`${group}/${kind}`, full);
      }
    }
  };
  walk(dir);
  return index;
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
