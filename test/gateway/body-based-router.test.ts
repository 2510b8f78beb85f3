import { Chart, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-34';
import { BodyBasedRouter, BodyBasedRouterProps, Warnings } from '../../src';
import { expectValidManifests } from '../support/schema-validator';

function synth(props: BodyBasedRouterProps = {}, chartNamespace: string | null = 'gateway-system'): { manifests: any[]; router: BodyBasedRouter } {
  const app = Testing.app();
  const chart = new Chart(app, 'gateway', chartNamespace === null ? {} : { namespace: chartNamespace });
  const router = new BodyBasedRouter(chart, 'BodyBasedRouter', props);
  return { manifests: Testing.synth(chart), router };
}

function find(manifests: any[], kind: string): any {
  const found = manifests.find((m) => m.kind === kind);
  if (!found) throw new Error(`no ${kind}`);
  return found;
}

function container(manifests: any[]): any {
  return find(manifests, 'Deployment').spec.template.spec.containers[0];
}

describe('BodyBasedRouter', () => {
  test('synthesizes ServiceAccount, Role, RoleBinding, Deployment and Service named body-based-router, all schema-valid', () => {
    const { manifests, router } = synth();
    expect(manifests.map((m) => `${m.kind}/${m.metadata.namespace}/${m.metadata.name}`)).toEqual([
      'ServiceAccount/gateway-system/body-based-router',
      'Role/gateway-system/body-based-router',
      'RoleBinding/gateway-system/body-based-router',
      'Deployment/gateway-system/body-based-router',
      'Service/gateway-system/body-based-router',
    ]);
    expectValidManifests(manifests);
    expect(router.routerName).toBe('body-based-router');
    expect(router.routerNamespace).toBe('gateway-system');
    expect(BodyBasedRouter.isBodyBasedRouter(router)).toBe(true);
  });

  test('runs the pinned BBR image of the endpoint picker release, streaming, with gRPC health probes', () => {
    const c = container(synth().manifests);
    expect(c.image).toBe('registry.k8s.io/gateway-api-inference-extension/bbr:v1.5.0');
    expect(c.args).toEqual(['--grpc-port=9004', '--grpc-health-port=9005', '--metrics-port=9090', '--streaming']);
    expect(c.readinessProbe.grpc).toEqual({ port: 9005 });
    expect(c.livenessProbe.grpc).toEqual({ port: 9005 });
    expect(c.env).toEqual([{ name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }]);
  });

  test('the Service points port 9004 at the pods; the Role lets the router read ConfigMaps, bound to its ServiceAccount', () => {
    const { manifests } = synth();
    const service = find(manifests, 'Service');
    const deployment = find(manifests, 'Deployment');
    expect(service.spec.ports).toEqual([{ name: 'grpc-ext-proc', protocol: 'TCP', port: 9004, targetPort: 9004 }]);
    expect(deployment.spec.template.metadata.labels).toMatchObject(service.spec.selector);
    expect(deployment.spec.selector.matchLabels).toEqual(service.spec.selector);
    expect(find(manifests, 'Role').rules).toEqual([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }]);
    expect(find(manifests, 'RoleBinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'body-based-router', namespace: 'gateway-system' }]);
    expect(deployment.spec.template.spec.serviceAccountName).toBe('body-based-router');
  });

  test('is restricted by default: non-root, no privilege escalation, no capabilities, read-only root', () => {
    const { manifests } = synth();
    const pod = find(manifests, 'Deployment').spec.template.spec;
    expect(pod.securityContext).toEqual({ runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.containers[0].securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    expect(pod.containers[0].resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '512Mi' } });
  });

  test('props: name, namespace, image, replicas, resources, securityContext and extra flags', () => {
    const { manifests, router } = synth({
      name: 'bbr',
      namespace: 'edge',
      image: 'registry.k8s.io/gateway-api-inference-extension/bbr:v1.6.0',
      replicas: 3,
      resources: { requests: { cpu: k8s.Quantity.fromString('1') } },
      securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false },
      extraArgs: ['--v=3'],
    });
    expectValidManifests(manifests);
    expect(manifests.every((m) => m.metadata.name === 'bbr' && m.metadata.namespace === 'edge')).toBe(true);
    const deployment = find(manifests, 'Deployment');
    expect(deployment.spec.replicas).toBe(3);
    const c = container(manifests);
    expect(c.image).toBe('registry.k8s.io/gateway-api-inference-extension/bbr:v1.6.0');
    expect(c.resources).toEqual({ requests: { cpu: '1' } });
    expect(c.securityContext).toEqual({ runAsNonRoot: true, allowPrivilegeEscalation: false });
    expect(c.args[c.args.length - 1]).toBe('--v=3');
    expect(find(manifests, 'RoleBinding').roleRef.name).toBe('bbr');
    expect(Warnings.collect(router)).toEqual([]);
  });

  test('cleartext: --secure-serving=false and an h2c Service port; buffered: no --streaming', () => {
    const { manifests } = synth({ secureServing: false, streaming: false });
    expectValidManifests(manifests);
    expect(container(manifests).args).toEqual(['--grpc-port=9004', '--grpc-health-port=9005', '--metrics-port=9090', '--secure-serving=false']);
    expect(find(manifests, 'Service').spec.ports[0].appProtocol).toBe('kubernetes.io/h2c');
  });

  test('a moving image tag is a warning naming the prop, the image and the pinned default', () => {
    const { router } = synth({ image: 'registry.k8s.io/gateway-api-inference-extension/bbr:main' });
    const warnings = Warnings.collect(router).map((w) => w.message);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('image "registry.k8s.io/gateway-api-inference-extension/bbr:main" is a moving image');
    expect(warnings[0]).toContain('e.g. registry.k8s.io/gateway-api-inference-extension/bbr:v1.5.0');
  });

  test('fails when there is no namespace, naming the prop', () => {
    expect(() => synth({}, null)).toThrow(/BodyBasedRouter needs a namespace: set 'namespace'/);
  });

  test('fails when the name is not a DNS label, or replicas is not a positive integer, quoting the value', () => {
    expect(() => synth({ name: 'Body_Router' })).toThrow(/'name' \("Body_Router"\) must be a lowercase RFC 1123 label/);
    expect(() => synth({ replicas: 0 })).toThrow(/'replicas' \(0\) must be an integer of at least 1/);
    expect(() => synth({ replicas: 1.5 })).toThrow(/'replicas' \(1.5\)/);
    expect(() => synth({ image: ' ' })).toThrow(/'image' must name an image/);
  });

  test('fromExisting declares a router installed elsewhere and synthesizes nothing', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'gateway', { namespace: 'gateway-system' });
    const existing = BodyBasedRouter.fromExisting(chart, 'Installed', { namespace: 'istio-system' });
    expect(Testing.synth(chart)).toEqual([]);
    expect(BodyBasedRouter.isBodyBasedRouter(existing)).toBe(true);
    expect(existing.routerName).toBe('body-based-router');
    expect(existing.routerNamespace).toBe('istio-system');
    expect(BodyBasedRouter.isBodyBasedRouter(chart)).toBe(false);
  });
});
