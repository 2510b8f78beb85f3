import { ownedObjectsOf, ownerReferencePatch } from '../../../src/controller/ownership/owner-references';

function record(annotation?: string, uid: string | null = 'uid-1') {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: {
      name: 'qwen',
      namespace: 'ml',
      ...(uid !== null && { uid }),
      ...(annotation !== undefined && { annotations: { 'inference.cdk8s.io/rendered-objects': annotation } }),
    },
  };
}

const OWNER = { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'qwen', uid: 'uid-1' };

describe('ownedObjectsOf', () => {
  test("the listed objects, in the record's namespace, and the reference they get", () => {
    const owned = ownedObjectsOf(record(JSON.stringify([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'qwen' },
      { apiVersion: 'v1', kind: 'Service', name: 'qwen', namespace: 'ml' },
      { apiVersion: 'gateway.networking.k8s.io/v1beta1', kind: 'ReferenceGrant', name: 'qwen-referencegrant', namespace: 'gateway-system' },
    ])));
    expect(owned).toEqual({
      owner: OWNER,
      objects: [
        { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ml', name: 'qwen' },
        { apiVersion: 'v1', kind: 'Service', namespace: 'ml', name: 'qwen' },
      ],
      otherNamespace: ['ReferenceGrant gateway-system/qwen-referencegrant'],
    });
  });

  test('a record not stored yet has no owner reference to give', () => {
    expect(ownedObjectsOf(record('[]', null)).owner).toBeUndefined();
  });

  test('an unreadable list owns nothing and says why', () => {
    expect(ownedObjectsOf(record('nope'))).toEqual({ owner: OWNER, objects: [], otherNamespace: [], error: expect.stringMatching(/not JSON/) });
  });

  test('hostile shapes do not throw', () => {
    for (const r of [undefined, null, 5, 'x', {}, { metadata: 7 }, { metadata: { annotations: [] } }]) {
      expect(ownedObjectsOf(r).objects).toEqual([]);
    }
  });
});

describe('ownerReferencePatch', () => {
  test("adds the reference, keeps the others, and carries the object's resourceVersion", () => {
    const other = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: 'u-x', controller: true };
    expect(ownerReferencePatch({ metadata: { name: 'qwen', resourceVersion: '42', ownerReferences: [other] } }, OWNER)).toEqual({
      metadata: { resourceVersion: '42', ownerReferences: [other, OWNER] },
    });
  });

  test('nothing to do when the object already names this record', () => {
    expect(ownerReferencePatch({ metadata: { ownerReferences: [{ ...OWNER }] } }, OWNER)).toBeUndefined();
  });

  test('replaces a reference to an earlier record of the same name (recreated: another uid)', () => {
    const stale = { apiVersion: 'airunway.ai/v1alpha2', kind: 'ModelDeployment', name: 'qwen', uid: 'uid-0' };
    const otherName = { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'llama', uid: 'uid-9' };
    expect(ownerReferencePatch({ metadata: { ownerReferences: [stale, otherName] } }, OWNER)).toEqual({
      metadata: { ownerReferences: [otherName, OWNER] },
    });
  });

  test('an object without metadata gets a list of one', () => {
    expect(ownerReferencePatch({}, OWNER)).toEqual({ metadata: { ownerReferences: [OWNER] } });
  });
});
