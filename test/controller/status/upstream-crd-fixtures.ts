/**
 * Upstream CustomResourceDefinitions as the API server returns them (from ../shared/upstream), and
 * older-looking variants of them: a field taken out of a version's schema, or a version not served,
 * as on a cluster whose operator predates what the library renders.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { upstreamDir } from '../../../src/schema-validation/upstream-schemas';

/** The CRD of an upstream file (relative to ../shared/upstream), with the metadata the API server adds. */
export function upstreamCrd(file: string): any {
  const docs = YAML.parseAllDocuments(fs.readFileSync(path.join(upstreamDir(), file), 'utf8')).map((d) => d.toJS());
  const crd = docs.find((d) => d?.kind === 'CustomResourceDefinition');
  if (!crd) throw new Error(`${file}: no CustomResourceDefinition`);
  return { ...crd, metadata: { ...crd.metadata, uid: `uid-${crd.metadata.name}`, resourceVersion: '7', generation: 1 } };
}

/**
 * `crd` with the field at `fieldPath` (dotted from the object's root, `[]` for list elements)
 * removed from version `version`'s schema; throws when the schema has no such field, so a test
 * cannot strip nothing.
 */
export function withoutField(crd: any, version: string, fieldPath: string): any {
  const copy = structuredClone(crd);
  const v = copy.spec.versions.find((x: any) => x.name === version);
  if (!v) throw new Error(`${crd.metadata.name} has no version ${version}`);
  let node = v.schema.openAPIV3Schema;
  const segments = fieldPath.split('.');
  for (const [i, segment] of segments.entries()) {
    const list = segment.endsWith('[]');
    const name = list ? segment.slice(0, -2) : segment;
    if (!node.properties?.[name]) throw new Error(`${crd.metadata.name} ${version} has no field ${segments.slice(0, i + 1).join('.')}`);
    if (i === segments.length - 1) {
      delete node.properties[name];
      return copy;
    }
    node = list ? node.properties[name].items : node.properties[name];
  }
  return copy;
}

/** `crd` with version `version` no longer served (an operator that has not introduced it yet, or has dropped it). */
export function withVersionNotServed(crd: any, version: string): any {
  const copy = structuredClone(crd);
  const v = copy.spec.versions.find((x: any) => x.name === version);
  if (!v) throw new Error(`${crd.metadata.name} has no version ${version}`);
  v.served = false;
  if (v.storage) {
    // The API server requires a storage version among the served ones only when it serves any; keep the CRD valid.
    const other = copy.spec.versions.find((x: any) => x.name !== version);
    if (other) {
      v.storage = false;
      other.storage = true;
      other.served = true;
    }
  }
  return copy;
}

export const HTTP_ROUTE_CRD = 'gateway-api/gateway.networking.k8s.io_httproutes.yaml';
export const INFERENCE_POOL_CRD = 'gateway-api-inference-extension/inference.networking.k8s.io_inferencepools.yaml';
