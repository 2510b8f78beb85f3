import { Testing } from 'cdk8s';
import { MODEL_DEPLOYMENT_SPEC_SCHEMA } from '../../src/core/generated/airunway-schemas';
import { addManagedClaims, managedClaimId, StorageOwner } from '../../src/storage/managed-claim';
import { expectValidManifests } from '../support/schema-validator';

/** The CRD's pattern for `spec.model.storage.volumes[].name`. */
const VOLUME_NAME_PATTERN = new RegExp(
  (MODEL_DEPLOYMENT_SPEC_SCHEMA as any).properties.model.properties.storage.properties.volumes.items.properties.name.pattern,
);

/** Every string of length 1..maxLength over `alphabet`. */
function strings(alphabet: string, maxLength: number): string[] {
  let layer = [''];
  const out: string[] = [];
  for (let n = 1; n <= maxLength; n++) {
    layer = layer.flatMap((s) => [...alphabet].map((c) => s + c));
    out.push(...layer);
  }
  return out;
}

/** Reads the volume name back from a claim id (the inverse the doc comment of managedClaimId promises). */
function volumeNameOf(id: string): string {
  const encoded = id.slice('Claim'.length);
  return encoded.charAt(0).toLowerCase() + encoded.slice(1).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function owner(names: string[]): StorageOwner {
  return {
    name: 'qwen',
    namespace: 'ml',
    spec: { model: { id: 'Qwen/Qwen3-0.6B', storage: { volumes: names.map((name) => ({ name, size: '1Gi' })) } } },
  };
}

describe('managed claim construct ids', () => {
  test('volumes a-b and a--b both synthesize, as distinct children with their own PVCs', () => {
    const chart = Testing.chart();
    const claims = addManagedClaims(chart, owner(['a-b', 'a--b']));
    expect(claims.map((c) => c.node.id)).toEqual(['ClaimAB', 'ClaimA-B']);
    const manifests = Testing.synth(chart);
    expectValidManifests(manifests);
    expect(manifests.map((m) => m.metadata.name)).toEqual(['qwen-a-b', 'qwen-a--b']);
  });

  test('names that PascalCase would merge (x2 / x-2, a-b-c / a-bc / ab-c) get distinct ids', () => {
    const names = ['x2', 'x-2', 'a-b-c', 'a-bc', 'ab-c', 'abc', '0-a', '0a', 'a-0', 'a0'];
    const chart = Testing.chart();
    const claims = addManagedClaims(chart, owner(names));
    expect(claims.map((c) => c.node.id)).toEqual([
      'ClaimX2', 'ClaimX-2', 'ClaimABC', 'ClaimABc', 'ClaimAbC', 'ClaimAbc', 'Claim0A', 'Claim0a', 'ClaimA-0', 'ClaimA0',
    ]);
    expect(Testing.synth(chart).map((m) => m.metadata.name)).toEqual(names.map((n) => `qwen-${n}`));
  });

  test('are one-to-one on every CRD-valid volume name up to 6 characters over a, b, 0 and -', () => {
    const names = strings('ab0-', 6).filter((n) => VOLUME_NAME_PATTERN.test(n));
    expect(names.length).toBeGreaterThan(1000);
    const byId = new Map<string, string>();
    const collisions: string[] = [];
    for (const name of names) {
      const id = managedClaimId(name);
      if (byId.has(id)) collisions.push(`${byId.get(id)} and ${name} are both ${id}`);
      byId.set(id, name);
    }
    expect(collisions).toEqual([]);
    expect(names.filter((name) => volumeNameOf(managedClaimId(name)) !== name)).toEqual([]);
  });

  test('keep the existing PascalCase ids; only a dash that PascalCase would lose (doubled, before a digit) stays', () => {
    expect(['model-cache', 'compile', 'x2', 'a-b-c', 'scratch-2gb'].map(managedClaimId)).toEqual([
      'ClaimModelCache', 'ClaimCompile', 'ClaimX2', 'ClaimABC', 'ClaimScratch-2gb',
    ]);
  });
});
