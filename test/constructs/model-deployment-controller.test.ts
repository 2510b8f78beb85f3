import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import * as YAML from 'yaml';
import {
  EngineType,
  InferenceProvider,
  InferenceProviderConfig,
  ModelDeploymentController,
  ModelDeploymentControllerProps,
  ProviderRegistry,
  UpstreamKind,
} from '../../src';
import { upstreamCrdNames } from '../../src/controller-contract/upstream-crds';
import { defaultProviderCatalog } from '../../src/pipeline/shipped-providers';
import { upstreamDir } from '../../src/schema-validation/upstream-schemas';
import { expectValidManifests } from '../support/schema-validator';

function synth(props: ModelDeploymentControllerProps = {}, registry?: (app: Construct) => void): any[] {
  const app = Testing.app();
  registry?.(app);
  const chart = new Chart(app, 'controller');
  new ModelDeploymentController(chart, 'Controller', props);
  return Testing.synth(chart);
}

function find(manifests: any[], kind: string, name?: string): any {
  const found = manifests.find((m) => m.kind === kind && (name === undefined || m.metadata.name === name));
  if (!found) throw new Error(`no ${kind}${name ? `/${name}` : ''}`);
  return found;
}

/** What our ModelDeployment CRD adds to AI Runway's imported schema (src/controller-contract/crds.ts, `AIRUNWAY_NEWER_STATUS_FIELDS`). */
const NEWER_STATUS_FIELDS = ['status.gateway.gatewayName', 'status.provider.requestRef', 'status.provider.workloadRef', 'status.provider.inferencePoolRef'];

/** The upstream CRD's schema with every `description` removed (ours carries none). */
function upstreamSchemaWithoutDescriptions(file: string): any {
  const crd = YAML.parse(fs.readFileSync(path.join(upstreamDir(), 'airunway', file), 'utf8'));
  const strip = (node: any): any => {
    if (Array.isArray(node)) return node.map(strip);
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).filter(([k]) => k !== 'description').map(([k, v]) => [k, strip(v)]));
    }
    return node;
  };
  return strip(crd.spec.versions[0].schema.openAPIV3Schema);
}

describe('ModelDeploymentController', () => {
  test('synthesizes the namespace, CRDs, RBAC, Deployment and metrics Service; every non-CRD object is schema-valid', () => {
    const manifests = synth();
    expect(manifests.map((m) => `${m.kind}/${m.metadata.name}`)).toEqual([
      'Namespace/cdk8s-inference-system',
      'CustomResourceDefinition/modeldeployments.airunway.ai',
      'CustomResourceDefinition/inferenceproviderconfigs.airunway.ai',
      'ServiceAccount/cdk8s-inference-controller',
      'ClusterRole/cdk8s-inference-controller',
      'ClusterRoleBinding/cdk8s-inference-controller',
      'Role/cdk8s-inference-controller-leader-election',
      'RoleBinding/cdk8s-inference-controller-leader-election',
      'Deployment/cdk8s-inference-controller',
      'Service/cdk8s-inference-controller-metrics',
    ]);
    // The CRD kind has no OpenAPI document in ../shared/upstream; the envtest scenarios install them.
    expectValidManifests(manifests.filter((m) => m.kind !== 'CustomResourceDefinition'));
  });

  test.each([
    ['modeldeployments.airunway.ai', 'airunway.ai_modeldeployments.yaml'],
    ['inferenceproviderconfigs.airunway.ai', 'airunway.ai_inferenceproviderconfigs.yaml'],
  ])('the %s CRD has the schema of AI Runway\'s (plus, for ModelDeployment, only AI Runway\'s newer status fields), so it accepts what AI Runway\'s accepts', (name, file) => {
    const crd = find(synth(), 'CustomResourceDefinition', name);
    const upstream = YAML.parse(fs.readFileSync(path.join(upstreamDir(), 'airunway', file), 'utf8'));
    expect(crd.spec.group).toBe(upstream.spec.group);
    expect(crd.spec.names).toEqual(upstream.spec.names);
    expect(crd.spec.scope).toBe(upstream.spec.scope);
    expect(crd.spec.versions.map((v: any) => [v.name, v.served, v.storage, v.subresources])).toEqual([['v1alpha1', true, true, { status: {} }]]);
    const ours = structuredClone(crd.spec.versions[0].schema.openAPIV3Schema);
    const theirs = upstreamSchemaWithoutDescriptions(file);
    // The only difference: AI Runway's newer status fields, which the imported schema predates.
    const added = name === 'modeldeployments.airunway.ai' ? NEWER_STATUS_FIELDS : [];
    for (const fieldPath of added) {
      const [parent, field] = fieldPath.split('.').slice(1);
      expect(theirs.properties.status.properties[parent].properties[field]).toBeUndefined();
      expect(ours.properties.status.properties[parent].properties[field]).toBeDefined();
      delete ours.properties.status.properties[parent].properties[field];
    }
    expect(ours).toEqual(theirs);
  });

  test('AI Runway\'s newer status fields: gatewayName a string, the three refs objects of apiVersion, kind, name, namespace, uid', () => {
    const status = find(synth(), 'CustomResourceDefinition', 'modeldeployments.airunway.ai').spec.versions[0].schema.openAPIV3Schema.properties.status;
    expect(status.properties.gateway.properties.gatewayName).toEqual({ type: 'string' });
    for (const ref of ['requestRef', 'workloadRef', 'inferencePoolRef']) {
      const schema = status.properties.provider.properties[ref];
      expect(schema.type).toBe('object');
      expect(Object.keys(schema.properties).sort()).toEqual(['apiVersion', 'kind', 'name', 'namespace', 'uid']);
    }
  });

  test('ModelDeployment columns: provider, engine, phase, ready replicas, endpoint, age', () => {
    const crd = find(synth(), 'CustomResourceDefinition', 'modeldeployments.airunway.ai');
    expect(crd.spec.versions[0].additionalPrinterColumns.map((c: any) => [c.name, c.jsonPath])).toEqual([
      ['Provider', '.status.provider.name'],
      ['Engine', '.status.engine.type'],
      ['Phase', '.status.phase'],
      ['Ready', '.status.replicas.ready'],
      ['Endpoint', '.status.endpoint.service'],
      ['Age', '.metadata.creationTimestamp'],
    ]);
  });

  test('RBAC: read access to exactly the kinds the shipped providers emit and the gateway kinds, status patch, events; no wildcards', () => {
    const manifests = synth();
    const rules = find(manifests, 'ClusterRole').rules;
    expect(rules).toEqual([
      { apiGroups: ['airunway.ai'], resources: ['modeldeployments'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['airunway.ai'], resources: ['modeldeployments/status'], verbs: ['patch'] },
      { apiGroups: [''], resources: ['persistentvolumeclaims', 'services'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['ai.flexinfer'], resources: ['models'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['batch'], resources: ['jobs'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['gateway.networking.k8s.io'], resources: ['gateways', 'httproutes'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['inference.networking.k8s.io'], resources: ['inferencepools'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['inference.networking.x-k8s.io'], resources: ['inferencepools'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['kaito.sh'], resources: ['workspaces'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['leaderworkerset.x-k8s.io'], resources: ['leaderworkersets'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['modelplane.ai'], resources: ['modelcaches', 'modeldeployments'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['networking.serving.volcano.sh'], resources: ['modelroutes', 'modelservers'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['nvidia.com'], resources: ['dynamographdeployments'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['ray.io'], resources: ['rayservices'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['workload.serving.volcano.sh'], resources: ['autoscalingpolicies', 'modelservings'], verbs: ['get', 'list', 'watch'] },
      // IncompatibleUpstream: the CRDs of exactly the custom-resource kinds a record can hold, by name.
      { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], resourceNames: upstreamCrdNames(defaultProviderCatalog()), verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
    ]);
    expect(upstreamCrdNames(defaultProviderCatalog())).toEqual(expect.arrayContaining(['dynamographdeployments.nvidia.com', 'httproutes.gateway.networking.k8s.io', 'rayservices.ray.io']));
    const everyRule = [...rules, ...find(manifests, 'Role').rules];
    for (const rule of everyRule) {
      for (const field of ['apiGroups', 'resources', 'verbs', 'resourceNames']) expect(rule[field] ?? []).not.toContain('*');
    }
    expect(find(manifests, 'Role').rules).toEqual([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['cdk8s-inference-controller'], verbs: ['get', 'update'] },
    ]);
    expect(find(manifests, 'ClusterRoleBinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'cdk8s-inference-controller', namespace: 'cdk8s-inference-system' }]);
  });

  test('setOwnerReferences: the flag, and get and patch on every kind a deployment can render; off by default', () => {
    const off = find(synth(), 'ClusterRole').rules;
    expect(off.filter((r: any) => r.verbs.includes('patch')).map((r: any) => r.resources)).toEqual([['modeldeployments/status'], ['events']]);
    const manifests = synth({ setOwnerReferences: true });
    expect(find(manifests, 'Deployment').spec.template.spec.containers[0].args).toContain('--set-owner-references');
    const added = find(manifests, 'ClusterRole').rules.filter((r: any) => !off.some((o: any) => JSON.stringify(o) === JSON.stringify(r)));
    expect(added).toEqual([
      { apiGroups: [''], resources: ['configmaps', 'persistentvolumeclaims', 'serviceaccounts', 'services'], verbs: ['get', 'patch'] },
      { apiGroups: ['ai.flexinfer'], resources: ['models'], verbs: ['get', 'patch'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'patch'] },
      { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], verbs: ['get', 'patch'] },
      { apiGroups: ['batch'], resources: ['jobs'], verbs: ['get', 'patch'] },
      { apiGroups: ['gateway.networking.k8s.io'], resources: ['httproutes', 'referencegrants'], verbs: ['get', 'patch'] },
      { apiGroups: ['inference.networking.k8s.io'], resources: ['inferencepools'], verbs: ['get', 'patch'] },
      { apiGroups: ['inference.networking.x-k8s.io'], resources: ['inferencepools'], verbs: ['get', 'patch'] },
      { apiGroups: ['kaito.sh'], resources: ['workspaces'], verbs: ['get', 'patch'] },
      { apiGroups: ['keda.sh'], resources: ['scaledobjects'], verbs: ['get', 'patch'] },
      { apiGroups: ['leaderworkerset.x-k8s.io'], resources: ['leaderworkersets'], verbs: ['get', 'patch'] },
      { apiGroups: ['modelplane.ai'], resources: ['modelcaches', 'modeldeployments'], verbs: ['get', 'patch'] },
      { apiGroups: ['monitoring.coreos.com'], resources: ['podmonitors'], verbs: ['get', 'patch'] },
      { apiGroups: ['networking.serving.volcano.sh'], resources: ['modelroutes', 'modelservers'], verbs: ['get', 'patch'] },
      { apiGroups: ['nvidia.com'], resources: ['dynamographdeployments'], verbs: ['get', 'patch'] },
      { apiGroups: ['ray.io'], resources: ['rayservices'], verbs: ['get', 'patch'] },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings', 'roles'], verbs: ['get', 'patch'] },
      { apiGroups: ['resource.k8s.io'], resources: ['resourceclaimtemplates'], verbs: ['get', 'patch'] },
      { apiGroups: ['workload.serving.volcano.sh'], resources: ['autoscalingpolicies', 'modelservings'], verbs: ['get', 'patch'] },
    ]);
  });

  test("RBAC follows the registry: a user's provider's kinds are granted, a removed provider's are not", () => {
    class TgiProvider extends InferenceProvider {
      public constructor() {
        super({ config: new InferenceProviderConfig({ name: 'tgi', engines: [{ engineType: EngineType.VLLM, gpuSupport: true }] }) });
      }
      public translate(_scope: Construct, _d: any): ApiObject[] {
        return [];
      }
      public emittedKinds(): UpstreamKind[] {
        return [{ apiVersion: 'apps/v1', kind: 'StatefulSet', resource: 'statefulsets' }];
      }
    }
    const manifests = synth({}, (app) => new ProviderRegistry(app, 'Providers', { includeShippedProviders: false, providers: [new TgiProvider()] }));
    const resources = find(manifests, 'ClusterRole').rules.flatMap((r: any) => r.resources);
    expect(resources).toContain('statefulsets');
    expect(resources).not.toContain('rayservices');
    expect(resources).not.toContain('deployments');
  });

  test('the Deployment: two leader-elected replicas, probes, requests and limits, and a restricted security context', () => {
    const deployment = find(synth({ watchNamespace: 'team-a' }), 'Deployment');
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    expect(deployment.spec.replicas).toBe(2);
    expect(container.image).toBe(ModelDeploymentController.DEFAULT_IMAGE);
    expect(container.args).toEqual([
      'controller',
      '--leader-elect',
      '--leader-election-namespace=cdk8s-inference-system',
      '--leader-election-id=cdk8s-inference-controller',
      '--metrics-bind-address=:8080',
      '--health-probe-bind-address=:8081',
      '--namespace=team-a',
    ]);
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(Object.keys(container.resources)).toEqual(['limits', 'requests']);
    // The Pod Security Standard "restricted" (the namespace enforces it; the envtest scenario
    // proves the real admission plugin admits this pod).
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    expect(pod.hostNetwork ?? false).toBe(false);
    expect(pod.volumes).toBeUndefined();
    expect(find(synth(), 'Namespace').metadata.labels['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  test('installCrds and createNamespace can be turned off; image, replicas and namespace are props', () => {
    const manifests = synth({ installCrds: false, createNamespace: false, image: 'registry.example.com/ctl:1.2.3', replicas: 3, namespace: 'platform' });
    expect(manifests.map((m) => m.kind)).not.toContain('CustomResourceDefinition');
    expect(manifests.map((m) => m.kind)).not.toContain('Namespace');
    const deployment = find(manifests, 'Deployment');
    expect([deployment.metadata.namespace, deployment.spec.replicas, deployment.spec.template.spec.containers[0].image]).toEqual(['platform', 3, 'registry.example.com/ctl:1.2.3']);
  });

  test('maxConcurrentReconciles: the flag when set, none by default (the controller\'s default of 4)', () => {
    const args = (props: object) => find(synth(props), 'Deployment').spec.template.spec.containers[0].args;
    expect(args({ maxConcurrentReconciles: 4 })).toContain('--max-concurrent-reconciles=4');
    expect(args({}).some((a: string) => a.startsWith('--max-concurrent-reconciles'))).toBe(false);
    for (const bad of [0, 2.5, 10000]) {
      const app = Testing.app();
      new ModelDeploymentController(new Chart(app, 'c'), 'Controller', { maxConcurrentReconciles: bad });
      expect(() => app.synth()).toThrow(`'maxConcurrentReconciles' (${bad}) must be an integer from 1 to 9999`);
    }
  });

  test('fails when replicas or namespaces are invalid, naming the prop and the value', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    new ModelDeploymentController(chart, 'Controller', { replicas: 0, namespace: 'Platform', watchNamespace: 'a_b' });
    expect(() => app.synth()).toThrow(/'replicas' \(0\) must be an integer of at least 1[\s\S]*'namespace' \("Platform"\) must be a lowercase RFC 1123 label[\s\S]*'watchNamespace' \("a_b"\)/);
  });
});
