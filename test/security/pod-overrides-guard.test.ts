import { Chart, Testing } from 'cdk8s';
import { DynamoApiVersion, DynamoProvider, ModelDeployment, ProviderRegistry } from '../../src';
import { run, tempFolderPerTest } from '../support/cli-run';

/** A chart under a registry with the given allow setting. */
function chart(allowPrivilegedPodOverrides?: boolean): Chart {
  const app = Testing.app();
  new ProviderRegistry(app, 'Providers', { ...(allowPrivilegedPodOverrides !== undefined && { allowPrivilegedPodOverrides }) });
  return new Chart(app, 'test', { namespace: 'ml' });
}

function validationErrors(scope: Chart): string[] {
  return scope.node.root.node.findAll().flatMap((c) => c.node.validate());
}

function vllm(scope: Chart, overrides: Record<string, unknown>): ModelDeployment {
  return new ModelDeployment(scope, 'qwen', {
    model: { id: 'Qwen/Qwen3-0.6B' },
    resources: { gpu: { count: 1 } },
    provider: { name: 'vllm', overrides },
  } as any);
}

const podOverride = (podSpec: Record<string, unknown>) => ({ spec: { template: { spec: podSpec } } });
const GPU_CONTAINER = { name: 'vllm', image: 'vllm/vllm-openai:v0.11.0' };

describe('provider overrides may not weaken a pod below baseline', () => {
  test('fails on a hostPath volume, naming the overrides path, the value and the way to allow it', () => {
    const c = chart();
    vllm(c, podOverride({ volumes: [{ name: 'root', hostPath: { path: '/' } }] }));
    const errors = validationErrors(c);
    expect(errors).toEqual([
      'spec.provider.overrides.spec.template.spec.volumes[0].hostPath: Invalid value: "{\\"path\\":\\"/\\"}": hostPath volumes are not allowed: ' +
        'provider overrides may not weaken a pod below the Pod Security Standard "baseline" (in the synthesized Deployment "qwen" at ' +
        'spec.template.spec.volumes[0].hostPath); a ProviderRegistry with allowPrivilegedPodOverrides: true allows it',
    ]);
  });

  test('fails on a host port and on added init and ephemeral containers', () => {
    const c = chart();
    vllm(c, podOverride({
      containers: [{ ...GPU_CONTAINER, ports: [{ containerPort: 8000, hostPort: 8000 }] }],
      initContainers: [{ name: 'fetch', image: 'busybox:1.36' }],
      ephemeralContainers: [{ name: 'debug', image: 'busybox:1.36' }],
    }));
    const errors = validationErrors(c).map((e) => e.split(': ').slice(0, 3).join(': '));
    expect(errors.sort()).toEqual([
      'spec.provider.overrides.spec.template.spec.containers[0].ports[0].hostPort: Invalid value: 8000',
      'spec.provider.overrides.spec.template.spec.ephemeralContainers[0]: Invalid value: "debug"',
      'spec.provider.overrides.spec.template.spec.initContainers[0]: Invalid value: "fetch"',
    ]);
  });

  test('fails on a probe that names another host', () => {
    const c = chart();
    vllm(c, podOverride({ containers: [{ ...GPU_CONTAINER, livenessProbe: { httpGet: { host: '169.254.169.254', port: 80 } } }] }));
    expect(validationErrors(c)).toEqual([
      expect.stringMatching(/^spec\.provider\.overrides\.spec\.template\.spec\.containers\[0\]\.livenessProbe\.httpGet\.host: Invalid value: "169\.254\.169\.254": probes may not name a host/),
    ]);
  });

  test('allows what baseline allows: a PVC volume, a container port, a sidecar container', () => {
    const c = chart();
    vllm(c, podOverride({
      containers: [GPU_CONTAINER, { name: 'proxy', image: 'envoyproxy/envoy:v1.31.0', ports: [{ containerPort: 9000 }] }],
      volumes: [{ name: 'extra', persistentVolumeClaim: { claimName: 'weights' } }],
    }));
    expect(validationErrors(c).filter((e) => e.includes('baseline'))).toEqual([]);
  });

  test('a registry with allowPrivilegedPodOverrides lets them through', () => {
    const c = chart(true);
    vllm(c, podOverride({ volumes: [{ name: 'root', hostPath: { path: '/' } }], initContainers: [{ name: 'fetch', image: 'busybox:1.36' }] }));
    expect(validationErrors(c)).toEqual([]);
    const pod = Testing.synth(c).find((m) => m.kind === 'Deployment').spec.template.spec;
    expect(pod.volumes).toEqual([{ name: 'root', hostPath: { path: '/' } }]);
  });

  test('the registry prop defaults to false', () => {
    const app = Testing.app();
    expect(new ProviderRegistry(app, 'Providers').allowPrivilegedPodOverrides).toBe(false);
  });

  test('finds a template the provider moved: multi-node vLLM copies spec.template into leader and worker (one error)', () => {
    const c = chart();
    new ModelDeployment(c, 'big', {
      metadata: { annotations: { 'inference.cdk8s.io/multi-node': 'gpusPerNode: 8' } },
      model: { id: 'meta-llama/Llama-3.1-70B-Instruct' },
      resources: { gpu: { count: 16 } },
      provider: { name: 'vllm', overrides: podOverride({ volumes: [{ name: 'dev', hostPath: { path: '/dev' } }] }) },
    } as any);
    const errors = validationErrors(c).filter((e) => e.includes('baseline'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^spec\.provider\.overrides\.spec\.template\.spec\.volumes\[0\]\.hostPath: .*in the synthesized LeaderWorkerSet "big" at spec\.leaderWorkerTemplate\.(leader|worker)Template\.spec\.volumes\[0\]\.hostPath/);
  });

  test('reaches a Dynamo main container through extraPodSpec', () => {
    const app = Testing.app();
    // v1alpha1 (on request since Dynamo 1.6.1's v1beta1 default), the shape the overrides use.
    new ProviderRegistry(app, 'Providers', { providers: [new DynamoProvider({ apiVersion: DynamoApiVersion.V1ALPHA1 })] });
    const c = new Chart(app, 'test', { namespace: 'ml' });
    new ModelDeployment(c, 'dyn', {
      model: { id: 'Qwen/Qwen3-0.6B' },
      resources: { gpu: { count: 1 } },
      engine: { type: 'vllm' },
      provider: {
        name: 'dynamo',
        overrides: { spec: { services: { VllmWorker: { extraPodSpec: { mainContainer: { ports: [{ containerPort: 9090, hostPort: 9090 }] }, volumes: [{ name: 'h', hostPath: { path: '/var' } }] } } } } },
      },
    } as any);
    const errors = validationErrors(c).filter((e) => e.includes('baseline')).map((e) => e.split(':')[0]).sort();
    expect(errors).toEqual([
      'spec.provider.overrides.spec.services.VllmWorker.extraPodSpec.mainContainer.ports[0].hostPort',
      'spec.provider.overrides.spec.services.VllmWorker.extraPodSpec.volumes[0].hostPath',
    ]);
  });
});

describe('the CLI refuses a hostPath override', () => {
  const temp = tempFolderPerTest('cdk8s-inference-overrides-guard-');

  test('synth exits 1 with the overrides path', async () => {
    const input = temp.file('qwen.yaml', `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: {name: qwen, namespace: ml}
spec:
  model: {id: Qwen/Qwen3-0.6B}
  provider:
    name: vllm
    overrides:
      spec: {template: {spec: {volumes: [{name: root, hostPath: {path: /}}]}}}
  engine: {type: vllm}
  resources: {gpu: {count: 1}}
`);
    const r = await run('synth', '-f', input);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.join('\n')).toMatch(/spec\.provider\.overrides\.spec\.template\.spec\.volumes\[0\]\.hostPath: Invalid value: .*hostPath volumes are not allowed/);
  });
});
