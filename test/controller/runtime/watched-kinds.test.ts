import { kindKey } from '../../../src/controller/runtime/object-key';
import { dependencyKinds, emittedKind, RECORD_KIND, statusSourceKinds } from '../../../src/controller/runtime/watched-kinds';
import { defaultProviderCatalog } from '../../../src/pipeline/shipped-providers';

describe('watched kinds', () => {
  test('status sources: every emitted kind some provider reads status from, in every version it emits', () => {
    expect(statusSourceKinds(defaultProviderCatalog()).map(kindKey)).toEqual([
      'ai.flexinfer/v1alpha2 Model',
      'apps/v1 Deployment',
      'kaito.sh/v1beta1 Workspace',
      'modelplane.ai/v1alpha1 ModelDeployment',
      'nvidia.com/v1alpha1 DynamoGraphDeployment',
      'nvidia.com/v1beta1 DynamoGraphDeployment',
      'ray.io/v1 RayService',
      'workload.serving.volcano.sh/v1alpha1 ModelServing',
    ]);
  });

  test('our workload objects are selected by airunway.ai/managed-by; routing objects (a user route, a provider pool, Gateways) are all read', () => {
    const kinds = dependencyKinds(defaultProviderCatalog()).filter((k) => k.kind !== 'CustomResourceDefinition');
    expect(kinds.map((k) => `${kindKey(k)} ${k.resource} ${k.labelSelector ?? '-'}`)).toEqual([
      'ai.flexinfer/v1alpha2 Model models airunway.ai/managed-by=airunway',
      'apps/v1 Deployment deployments airunway.ai/managed-by=airunway',
      'kaito.sh/v1beta1 Workspace workspaces airunway.ai/managed-by=airunway',
      'modelplane.ai/v1alpha1 ModelDeployment modeldeployments airunway.ai/managed-by=airunway',
      'nvidia.com/v1alpha1 DynamoGraphDeployment dynamographdeployments airunway.ai/managed-by=airunway',
      'nvidia.com/v1beta1 DynamoGraphDeployment dynamographdeployments airunway.ai/managed-by=airunway',
      'ray.io/v1 RayService rayservices airunway.ai/managed-by=airunway',
      'workload.serving.volcano.sh/v1alpha1 ModelServing modelservings airunway.ai/managed-by=airunway',
      'gateway.networking.k8s.io/v1 HTTPRoute httproutes -',
      'gateway.networking.k8s.io/v1 Gateway gateways -',
      'inference.networking.k8s.io/v1 InferencePool inferencepools -',
      'inference.networking.x-k8s.io/v1alpha2 InferencePool inferencepools -',
    ]);
    expect(kinds.map((k) => k.kind)).not.toContain('Service');
  });

  test('the CRDs of every custom-resource kind a record can hold: one cache each, by name, cluster-scoped, compacted', () => {
    const crds = dependencyKinds(defaultProviderCatalog()).filter((k) => k.kind === 'CustomResourceDefinition');
    expect(crds.map((k) => k.objectName)).toEqual([
      'autoscalingpolicies.workload.serving.volcano.sh',
      'dynamographdeployments.nvidia.com',
      'httproutes.gateway.networking.k8s.io',
      'inferencepools.inference.networking.k8s.io',
      'inferencepools.inference.networking.x-k8s.io',
      'leaderworkersets.leaderworkerset.x-k8s.io',
      'modelcaches.modelplane.ai',
      'modeldeployments.modelplane.ai',
      'modelroutes.networking.serving.volcano.sh',
      'models.ai.flexinfer',
      'modelservers.networking.serving.volcano.sh',
      'modelservings.workload.serving.volcano.sh',
      'podmonitors.monitoring.coreos.com',
      'rayservices.ray.io',
      'referencegrants.gateway.networking.k8s.io',
      'scaledobjects.keda.sh',
      'workspaces.kaito.sh',
    ]);
    for (const k of crds) {
      expect(k).toMatchObject({ apiVersion: 'apiextensions.k8s.io/v1', resource: 'customresourcedefinitions', clusterScoped: true });
      expect(k.transform).toBeDefined();
      expect(k.cachedFields).toEqual(expect.arrayContaining(['metadata.name', 'spec.versions.*.schema']));
    }
  });

  test('records are ModelDeployments labelled rendered-by cdk8s-inference', () => {
    expect(RECORD_KIND).toEqual({
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      resource: 'modeldeployments',
      labelSelector: 'inference.cdk8s.io/rendered-by=cdk8s-inference',
    });
  });

  test('an emitted kind can be resolved later (a status names it); others cannot', () => {
    expect(emittedKind(defaultProviderCatalog(), 'v1', 'Service')).toEqual(expect.objectContaining({ resource: 'services' }));
    expect(emittedKind(defaultProviderCatalog(), 'example.com/v1', 'Widget')).toBeUndefined();
  });
});
