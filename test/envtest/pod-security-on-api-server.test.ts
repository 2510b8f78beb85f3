/**
 * The Pod Security Standard "restricted" on a real kube-apiserver (control-plane.ts): a namespace
 * labelled `pod-security.kubernetes.io/enforce=restricted` (version `latest`) admits Pods made
 * from the pod templates this library owns (endpoint picker, model download Job, controller),
 * created with `dryRun=All`, which runs the PodSecurity admission plugin. Weakened variants are
 * refused, proving the check runs, and for each of them the server's verdict is the one our
 * checker (src/security/pod-security-standard.ts) gives.
 *
 * The binaries come from KUBEBUILDER_ASSETS or scripts/envtest/build-binaries.sh (binaries.ts);
 * without them the setup fails with the reason: this test is never skipped.
 */
import { Testing } from 'cdk8s';
import { ControlPlane } from './control-plane';
import { KubeApiError, KubeClient } from './kube-client';
import { ModelDeploymentController } from '../../src';
import { addEndpointPicker, DEFAULT_ENDPOINT_PICKER_IMAGE, DEFAULT_ENDPOINT_PICKER_PORT } from '../../src/gateway/endpoint-picker';
import { INFERENCE_POOL_V1 } from '../../src/gateway/inference-pool';
import { podSecurityViolations } from '../../src/security/pod-security-standard';
import { addDownloadJobDeployment } from '../support/download-job-deployment';

const SETUP_TIMEOUT_MS = 45 * 60_000;
const NAMESPACE = 'restricted-pods';

let cp: ControlPlane | undefined;
let client: KubeClient;

beforeAll(async () => {
  cp = await ControlPlane.start();
  client = cp.client();
  await client.create({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: NAMESPACE,
      labels: { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'latest' },
    },
  });
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await cp?.stop();
}, 60_000);

function podTemplate(manifests: any[], kind: string, match: (m: any) => boolean): any {
  const found = manifests.find((m) => m.kind === kind && match(m));
  if (!found) throw new Error(`no ${kind} found`);
  return found.spec.template.spec;
}

function ownedPodSpecs(): Record<string, any> {
  const pickerChart = Testing.chart();
  addEndpointPicker(pickerChart, {
    deploymentName: 'qwen',
    labels: {},
    poolName: 'qwen',
    poolApiVersion: INFERENCE_POOL_V1,
    image: DEFAULT_ENDPOINT_PICKER_IMAGE,
    configData: '',
    port: DEFAULT_ENDPOINT_PICKER_PORT,
  });

  const app = Testing.app();
  const jobChart = addDownloadJobDeployment(app);

  const controllerChart = Testing.chart();
  new ModelDeploymentController(controllerChart, 'Controller');

  return {
    'endpoint picker': podTemplate(Testing.synth(pickerChart), 'Deployment', (m) => m.metadata.name === 'qwen-epp'),
    'model download Job': podTemplate(Testing.synth(jobChart), 'Job', () => true),
    'controller': podTemplate(Testing.synth(controllerChart), 'Deployment', (m) => m.metadata.name === 'cdk8s-inference-controller'),
  };
}

async function admits(name: string, spec: any): Promise<{ admitted: boolean; message?: string }> {
  try {
    await client.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NAMESPACE }, spec }, { dryRun: 'All', fieldValidation: 'Strict' });
    return { admitted: true };
  } catch (e) {
    if (e instanceof KubeApiError) return { admitted: false, message: e.message };
    throw e;
  }
}

describe('a namespace enforcing "restricted"', () => {
  const specs = ownedPodSpecs();

  test.each(Object.keys(specs))('admits a Pod from the %s pod template', async (owner) => {
    expect(podSecurityViolations(specs[owner], 'restricted')).toEqual([]);
    expect(await admits(owner.replace(/ /g, '-').toLowerCase(), specs[owner])).toEqual({ admitted: true });
  });

  const weakenings: Array<[string, (spec: any) => void]> = [
    ['a hostPath volume', (s) => { s.volumes = [...(s.volumes ?? []), { name: 'host', hostPath: { path: '/var' } }]; }],
    // Privileged implies privilege escalation: the API server refuses the pair privileged + no escalation.
    ['a privileged container', (s) => { Object.assign(s.containers[0].securityContext, { privileged: true, allowPrivilegeEscalation: true }); }],
    ['privilege escalation', (s) => { s.containers[0].securityContext.allowPrivilegeEscalation = true; }],
    ['no dropped capabilities', (s) => { delete s.containers[0].securityContext.capabilities; }],
    ['an added NET_RAW capability', (s) => { s.containers[0].securityContext.capabilities.add = ['NET_RAW']; }],
    ['no seccomp profile', (s) => { delete s.securityContext.seccompProfile; }],
    ['root', (s) => { s.securityContext.runAsUser = 0; }],
    ['runAsNonRoot false', (s) => { s.containers[0].securityContext.runAsNonRoot = false; }],
    ['a host port', (s) => { s.containers[0].ports = [{ containerPort: 8080, hostPort: 8080 }]; }],
    ['the host network', (s) => { s.hostNetwork = true; }],
    ['an NFS volume', (s) => { s.volumes = [...(s.volumes ?? []), { name: 'nfs', nfs: { server: 'nfs.example', path: '/' } }]; }],
    ['an unsafe sysctl', (s) => { s.securityContext.sysctls = [{ name: 'kernel.msgmax', value: '65536' }]; }],
  ];

  test('admits what restricted still allows, as our checker does: NET_BIND_SERVICE, a Localhost seccomp profile, a CSI volume', async () => {
    const spec = structuredClone(specs.controller);
    spec.containers[0].securityContext.capabilities.add = ['NET_BIND_SERVICE'];
    spec.securityContext.seccompProfile = { type: 'Localhost', localhostProfile: 'profiles/node.json' };
    spec.volumes = [{ name: 'secrets', csi: { driver: 'secrets-store.csi.k8s.io' } }];
    expect(podSecurityViolations(spec, 'restricted')).toEqual([]);
    expect(await admits('still-restricted', spec)).toEqual({ admitted: true });
  });

  test.each(weakenings)('refuses the controller pod with %s, as our checker does', async (what, weaken) => {
    const spec = structuredClone(specs.controller);
    weaken(spec);
    const ours = podSecurityViolations(spec, 'restricted');
    expect(ours.length).toBeGreaterThan(0);
    const verdict = await admits(`weakened-${what.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`, spec);
    expect(verdict.admitted).toBe(false);
    expect(verdict.message).toMatch(/violates PodSecurity "restricted:latest"/);
  });
});
