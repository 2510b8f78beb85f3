import { Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-34';
import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import { addManagedClaims, managedClaimId, managedClaimProps, StorageOwner } from '../../src/storage/managed-claim';
import { expectValidManifests } from '../support/schema-validator';

type Volume = NonNullable<NonNullable<ModelDeploymentSpec['model']['storage']>['volumes']>[number];

function owner(volumes: Volume[], namespace: string | null = 'ml'): StorageOwner {
  return { name: 'qwen', namespace: namespace ?? undefined, spec: { model: { id: 'Qwen/Qwen3-0.6B', storage: { volumes } } } };
}

function synthClaims(o: StorageOwner, extraLabels?: Record<string, string>): any[] {
  const chart = Testing.chart();
  addManagedClaims(chart, o, extraLabels);
  const manifests = Testing.synth(chart);
  if (manifests.length > 0) expectValidManifests(manifests);
  return manifests;
}

describe('managed claims', () => {
  test('render the AI Runway PVC shape without ownerReferences', () => {
    expect(synthClaims(owner([{ name: 'model-cache', purpose: 'modelCache', size: '100Gi' }]))).toEqual([
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: {
          name: 'qwen-model-cache',
          namespace: 'ml',
          labels: { 'airunway.ai/managed-by': 'airunway', 'airunway.ai/model-deployment': 'qwen' },
        },
        spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '100Gi' } } },
      },
    ]);
  });

  test('match the snapshot for a mix of volumes', () => {
    expect(
      synthClaims(
        owner([
          { name: 'model-cache', purpose: 'modelCache', size: '100Gi', accessMode: 'ReadWriteOnce', storageClassName: 'premium' },
          { name: 'compile', purpose: 'compilationCache', size: 10, storageClassName: '' },
          { name: 'existing', claimName: 'pre-made' },
        ]),
        { 'airunway.ai/deployment': 'qwen' },
      ),
    ).toMatchSnapshot();
  });

  test('use the volume access mode, defaulting to ReadWriteMany', () => {
    const props = managedClaimProps({ name: 'qwen' }, { name: 'c', size: '1Gi', accessMode: 'ReadWriteOncePod' });
    expect(props.spec?.accessModes).toEqual(['ReadWriteOncePod']);
  });

  test('keep the storageClassName distinction: absent, empty and named', () => {
    const [absent, empty, named] = synthClaims(
      owner([
        { name: 'a', size: '1Gi' },
        { name: 'b', size: '1Gi', storageClassName: '' },
        { name: 'c', size: '1Gi', storageClassName: 'fast' },
      ]),
    );
    expect('storageClassName' in absent.spec).toBe(false);
    expect(empty.spec.storageClassName).toBe('');
    expect(named.spec.storageClassName).toBe('fast');
  });

  test('render an integer size as a quantity string', () => {
    expect(synthClaims(owner([{ name: 'a', size: 1073741824 }]))[0].spec.resources.requests.storage).toBe('1073741824');
  });

  test('use an explicit claimName', () => {
    expect(synthClaims(owner([{ name: 'a', size: '1Gi', claimName: 'custom-claim' }]))[0].metadata.name).toBe('custom-claim');
  });

  test('skip pre-existing volumes (no size)', () => {
    expect(synthClaims(owner([{ name: 'a', claimName: 'mine' }]))).toEqual([]);
  });

  test('omit the namespace when the owner has none', () => {
    expect(synthClaims(owner([{ name: 'a', size: '1Gi' }], null))[0].metadata.namespace).toBeUndefined();
  });

  test('keep managed-by and model-deployment over extra labels', () => {
    const [claim] = synthClaims(owner([{ name: 'a', size: '1Gi' }]), { 'airunway.ai/managed-by': 'x', 'team': 'ml' });
    expect(claim.metadata.labels).toEqual({ 'airunway.ai/managed-by': 'airunway', 'airunway.ai/model-deployment': 'qwen', 'team': 'ml' });
  });

  test('are typed L1 children with Claim<Volume> ids', () => {
    const chart = Testing.chart();
    const claims = addManagedClaims(chart, owner([{ name: 'model-cache', size: '1Gi' }, { name: 'x2', size: '1Gi' }]));
    expect(claims.every((c) => c instanceof k8s.KubePersistentVolumeClaim)).toBe(true);
    expect(claims.map((c) => c.node.id)).toEqual(['ClaimModelCache', 'ClaimX2']);
    expect(managedClaimId('a-b-c')).toBe('ClaimABC');
  });

  test('fails when asked for a claim of a volume without size', () => {
    expect(() => managedClaimProps({ name: 'qwen' }, { name: 'a', claimName: 'b' })).toThrow(
      'volume "a" has no size, so it refers to an existing claim and gets no managed PVC',
    );
  });
});
