import { Chart, Testing } from 'cdk8s';
import { EngineType, ModelDeployment, PodSecurityLevel, ProviderRegistry } from '../../src';
import { parseArguments, UsageError } from '../../src/cli/arguments';
import { movingTagReason } from '../../src/core/image-reference';
import { dynamoImages } from '../../src/providers/dynamo/images';
import { KTHENA_DEFAULT_SGLANG_IMAGE, KTHENA_DEFAULT_VLLM_IMAGE } from '../../src/providers/kthena/images';
import { KUBERAY_DEFAULT_IMAGE } from '../../src/providers/kuberay/images';
import { LLMD_DEFAULT_IMAGE } from '../../src/providers/llmd/images';
import { DIRECT_VLLM_DEFAULT_IMAGE } from '../../src/providers/vllm/images';
import { podSecurityViolations } from '../../src/security/pod-security-standard';
import { podTemplatesOf } from '../../src/security/pod-templates';
import { expectValidManifests } from '../support/schema-validator';

/*
 * The model-server pods of the providers whose upstream objects carry a pod spec (Direct vLLM,
 * llm-d, Kthena, KubeRay) at both Pod Security levels: checked with the Pod Security Standards
 * checker and against the upstream schemas.
 */

const POD_SECURITY = 'inference.cdk8s.io/pod-security';

interface Synthesized {
  readonly errors: string[];
  readonly manifests: any[];
  readonly warnings: string[];
}

function synthManifest(manifest: any, registryLevel?: PodSecurityLevel, routed = false): Synthesized {
  const app = Testing.app();
  const chart = new Chart(app, 'models', { namespace: 'team-a' });
  if (registryLevel !== undefined) new ProviderRegistry(chart, 'Providers', { podSecurity: registryLevel });
  const md = ModelDeployment.fromManifest(chart, 'md', manifest, routed ? { gatewayRef: { name: 'inference-gateway', namespace: 'team-a' } } : {});
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  return { errors, manifests: errors.length > 0 ? [] : Testing.synth(chart), warnings: md.warnings };
}

function deployment(spec: any, annotations: Record<string, string> = {}): any {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'qwen', ...(Object.keys(annotations).length > 0 && { annotations }) },
    spec: { model: { id: 'Qwen/Qwen3-0.6B' }, ...spec },
  };
}

const MODEL_CACHE = { storage: { volumes: [{ name: 'cache', purpose: 'modelCache', size: '50Gi' }] } };

/** One deployment per provider and shape whose pods we build. */
const CASES: Array<[string, any, Record<string, string>?]> = [
  ['Direct vLLM, one GPU', { provider: { name: 'vllm' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }],
  ['Direct vLLM, two GPUs (shm) and a model cache', {
    provider: { name: 'vllm' }, engine: { type: 'vllm' }, resources: { gpu: { count: 2 } }, model: { id: 'Qwen/Qwen3-0.6B', ...MODEL_CACHE },
  }],
  ['llm-d aggregated', { provider: { name: 'llmd' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }],
  ['llm-d prefill/decode', {
    provider: { name: 'llmd' },
    engine: { type: 'vllm' },
    serving: { mode: 'disaggregated' },
    scaling: { prefill: { replicas: 1, gpu: { count: 1 } }, decode: { replicas: 1, gpu: { count: 1 } } },
  }],
  ['Direct vLLM, two nodes per replica (LeaderWorkerSet) with a LoRA adapter', {
    provider: { name: 'vllm' }, engine: { type: 'vllm' }, resources: { gpu: { count: 16 } },
  }, { 'inference.cdk8s.io/multi-node': 'gpusPerNode: 8\n', 'inference.cdk8s.io/lora': 'adapters:\n- {name: sql, source: "hf://acme/sql-lora"}\n' }],
  ['llm-d with a LoRA adapter', { provider: { name: 'llmd' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }, {
    'inference.cdk8s.io/lora': 'adapters:\n- {name: sql, source: "hf://acme/sql-lora"}\n',
  }],
  ['Kthena vLLM, two nodes per replica', { provider: { name: 'kthena' }, engine: { type: 'vllm' }, resources: { gpu: { count: 16 } } }, {
    'inference.cdk8s.io/multi-node': 'gpusPerNode: 8\n',
  }],
  ['Kthena vLLM', { provider: { name: 'kthena' }, engine: { type: 'vllm' }, resources: { gpu: { count: 2 } } }],
  ['Kthena SGLang', { provider: { name: 'kthena' }, engine: { type: 'sglang' }, resources: { gpu: { count: 1 } } }],
  ['KubeRay', { provider: { name: 'kuberay' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } }, model: { id: 'Qwen/Qwen3-0.6B', ...MODEL_CACHE } }],
  ['KubeRay autoscaled', { provider: { name: 'kuberay' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }, {
    'inference.cdk8s.io/autoscaling': 'minReplicas: 1\nmaxReplicas: 4\nmetrics: [{type: inFlightRequests, target: 8}]',
  }],
  ['Dynamo v1alpha1', { provider: { name: 'dynamo' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }],
  ['Dynamo v1alpha1 prefill/decode, gateway off, with a model cache', {
    provider: { name: 'dynamo' },
    engine: { type: 'vllm' },
    serving: { mode: 'disaggregated' },
    gateway: { enabled: false },
    scaling: { prefill: { replicas: 1, gpu: { count: 1 } }, decode: { replicas: 1, gpu: { count: 1 } } },
    model: { id: 'Qwen/Qwen3-0.6B', ...MODEL_CACHE },
  }],
  ['Dynamo v1beta1 SGLang', { provider: { name: 'dynamo' }, engine: { type: 'sglang' }, resources: { gpu: { count: 1 } } }, {
    'inference.cdk8s.io/dynamo-api-version': 'nvidia.com/v1beta1',
  }],
];

/** Every pod spec of the model servers (not the download Job, which is another helper's). */
function modelServerPods(manifests: any[]): Array<{ where: string; podSpec: any }> {
  return manifests
    .filter((m) => m.kind !== 'Job')
    .flatMap((m) => podTemplatesOf(m).map((t) => ({ where: `${m.kind}/${m.metadata.name} ${t.path}`, podSpec: t.podSpec })));
}

describe.each(CASES)('%s', (_name, spec, annotations = {}) => {
  test('baseline by default: the pods pass "baseline" and validate against the schemas', () => {
    const { errors, manifests } = synthManifest(deployment(spec, annotations));
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    const pods = modelServerPods(manifests);
    expect(pods.length).toBeGreaterThan(0);
    for (const { where, podSpec } of pods) {
      expect({ where, violations: podSecurityViolations(podSpec, 'baseline') }).toEqual({ where, violations: [] });
      expect(podSpec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
      // Still the image's own user: baseline must not break root images.
      expect(podSpec.securityContext.runAsNonRoot).toBeUndefined();
      for (const c of podSpec.containers) {
        expect(c.securityContext).toMatchObject({ privileged: false, allowPrivilegeEscalation: false });
        expect(c.securityContext.capabilities.drop).toContain('NET_RAW');
      }
      // The LoRA download container keeps its own, stricter settings (non-root, every capability dropped).
      for (const c of podSpec.initContainers ?? []) {
        expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] } });
      }
    }
  });

  test('restricted on request: the pods pass "restricted" and validate, with a writable home and /tmp', () => {
    const { errors, manifests } = synthManifest(deployment(spec, { ...annotations, [POD_SECURITY]: 'restricted' }));
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    const pods = modelServerPods(manifests);
    expect(pods.length).toBeGreaterThan(0);
    for (const { where, podSpec } of pods) {
      expect({ where, violations: podSecurityViolations(podSpec, 'restricted') }).toEqual({ where, violations: [] });
      expect(podSpec.securityContext).toMatchObject({ runAsNonRoot: true, fsGroupChangePolicy: 'OnRootMismatch' });
      expect(Number.isInteger(podSpec.securityContext.runAsUser) && podSpec.securityContext.runAsUser > 0).toBe(true);
      for (const c of podSpec.containers) {
        expect(c.securityContext.capabilities).toEqual({ drop: ['ALL'] });
        expect(c.volumeMounts).toEqual(expect.arrayContaining([{ name: 'model-server-tmp', mountPath: '/tmp' }]));
        expect(c.env).toEqual(expect.arrayContaining([{ name: 'USER', value: 'model-server' }]));
      }
      const volumeNames = podSpec.volumes.map((v: any) => v.name);
      expect(new Set(volumeNames).size).toBe(volumeNames.length);
    }
  });
});

describe('Dynamo', () => {
  test('the operator-managed pods keep their token: Dynamo\'s components discover each other through the API', () => {
    const { manifests } = synthManifest(deployment({ provider: { name: 'dynamo' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }));
    const pods = modelServerPods(manifests);
    expect(pods.length).toBeGreaterThan(0);
    for (const { podSpec } of pods) expect(podSpec.automountServiceAccountToken).toBeUndefined();
  });

  test('with the gateway on, v1beta1 frontend sidecars are secured like the main container, and the graph passes "restricted"', () => {
    const { manifests } = synthManifest(deployment({ provider: { name: 'dynamo' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }, {
      'inference.cdk8s.io/dynamo-api-version': 'nvidia.com/v1beta1', [POD_SECURITY]: 'restricted',
    }), undefined, true);
    const worker = manifests.find((m) => m.kind === 'DynamoGraphDeployment').spec.components.find((c: any) => c.frontendSidecar);
    const sidecar = worker.podTemplate.spec.containers.find((c: any) => c.name === worker.frontendSidecar);
    expect(sidecar.securityContext).toMatchObject({ runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expectValidManifests(manifests.filter((m) => m.kind === 'DynamoGraphDeployment'));
    for (const { where, podSpec } of modelServerPods(manifests)) {
      expect({ where, violations: podSecurityViolations(podSpec, 'restricted') }).toEqual({ where, violations: [] });
    }
  });

  test('v1alpha1 behind a Gateway cannot meet "restricted" (its frontendSidecar has no securityContext): an error naming the way out', () => {
    const spec = { provider: { name: 'dynamo' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } };
    // v1alpha1 is on request (v1beta1 is the default for Dynamo 1.6.1).
    const alpha = { 'inference.cdk8s.io/dynamo-api-version': 'nvidia.com/v1alpha1' };
    const refused = synthManifest(deployment(spec, { ...alpha, [POD_SECURITY]: 'restricted' }), undefined, true);
    expect(refused.errors).toEqual([expect.stringMatching(
      /^metadata\.annotations\["inference\.cdk8s\.io\/pod-security"\]: Invalid value: "restricted": Dynamo nvidia\.com\/v1alpha1 behind a Gateway cannot meet "restricted": its frontendSidecar has no securityContext field.*Use nvidia\.com\/v1beta1 \(annotation inference\.cdk8s\.io\/dynamo-api-version: nvidia\.com\/v1beta1\) or the "baseline" level$/,
    )]);
    // The same level from the registry is refused the same way; without a Gateway, or at baseline, v1alpha1 is fine.
    expect(synthManifest(deployment(spec, alpha), PodSecurityLevel.RESTRICTED, true).errors).toHaveLength(1);
    expect(synthManifest(deployment(spec, { ...alpha, [POD_SECURITY]: 'restricted' })).errors).toEqual([]);
    expect(synthManifest(deployment(spec, alpha), undefined, true).errors).toEqual([]);
  });
});

describe('where the token stays and where it goes', () => {
  function tokenOf(manifests: any[]): Record<string, unknown> {
    return Object.fromEntries(modelServerPods(manifests).map(({ where, podSpec }) => [where, podSpec.automountServiceAccountToken]));
  }

  test('vLLM, llm-d and Kthena pods never call the API', () => {
    for (const provider of ['vllm', 'llmd', 'kthena']) {
      const { manifests } = synthManifest(deployment({ provider: { name: provider }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }));
      for (const [where, token] of Object.entries(tokenOf(manifests))) expect({ where, token }).toEqual({ where, token: false });
    }
  });

  test('the Ray head keeps its token only when the in-tree autoscaler (a sidecar that calls the API) runs in it', () => {
    const spec = { provider: { name: 'kuberay' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } };
    const plain = synthManifest(deployment(spec)).manifests.find((m) => m.kind === 'RayService').spec.rayClusterConfig;
    expect(plain.headGroupSpec.template.spec.automountServiceAccountToken).toBe(false);
    expect(plain.workerGroupSpecs[0].template.spec.automountServiceAccountToken).toBe(false);
    expect(plain.autoscalerOptions).toBeUndefined();

    const autoscaled = synthManifest(deployment(spec, {
      'inference.cdk8s.io/autoscaling': 'minReplicas: 1\nmaxReplicas: 4\nmetrics: [{type: inFlightRequests, target: 8}]',
      [POD_SECURITY]: 'restricted',
    })).manifests.find((m) => m.kind === 'RayService').spec.rayClusterConfig;
    expect(autoscaled.headGroupSpec.template.spec.automountServiceAccountToken).toBeUndefined();
    expect(autoscaled.workerGroupSpecs[0].template.spec.automountServiceAccountToken).toBe(false);
    // The sidecar KubeRay injects gets the restricted container settings too.
    expect(autoscaled.autoscalerOptions.securityContext).toMatchObject({ runAsNonRoot: true, capabilities: { drop: ['ALL'] } });
  });
});

describe('restricted environment', () => {
  test('HOME and the XDG cache move to an emptyDir for the root images; a user HF_HOME and HOME are kept', () => {
    const { manifests } = synthManifest(deployment({
      provider: { name: 'vllm' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 } },
      env: [{ name: 'HOME', value: '/data' }],
    }, { [POD_SECURITY]: 'restricted' }));
    const container = manifests.find((m) => m.kind === 'Deployment').spec.template.spec.containers[0];
    expect(container.env.filter((e: any) => e.name === 'HOME')).toEqual([{ name: 'HOME', value: '/data' }]);
    expect(container.env).toEqual(expect.arrayContaining([{ name: 'XDG_CACHE_HOME', value: '/home/model-server/.cache' }]));
    expect(container.securityContext.runAsNonRoot).toBe(true);
  });

  test('Ray runs as the image\'s own ray user (uid 1000, group users) and keeps its home', () => {
    const { manifests } = synthManifest(deployment({ provider: { name: 'kuberay' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }, { [POD_SECURITY]: 'restricted' }));
    const head = manifests.find((m) => m.kind === 'RayService').spec.rayClusterConfig.headGroupSpec.template.spec;
    expect(head.securityContext).toMatchObject({ runAsUser: 1000, runAsGroup: 100, fsGroup: 100 });
    expect(head.containers[0].env.map((e: any) => e.name)).not.toContain('HOME');
  });
});

describe('choosing the level', () => {
  const spec = { provider: { name: 'vllm' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } };
  const podOf = (s: Synthesized) => s.manifests.find((m) => m.kind === 'Deployment').spec.template.spec;
  const recordOf = (s: Synthesized) => s.manifests.find((m) => m.kind === 'ModelDeployment');

  test('the registry default applies to deployments that do not choose, and is written on the record', () => {
    const s = synthManifest(deployment(spec), PodSecurityLevel.RESTRICTED);
    expect(podOf(s).securityContext.runAsNonRoot).toBe(true);
    expect(recordOf(s).metadata.annotations[POD_SECURITY]).toBe('restricted');
  });

  test('the deployment\'s annotation wins over the registry default', () => {
    const s = synthManifest(deployment(spec, { [POD_SECURITY]: 'baseline' }), PodSecurityLevel.RESTRICTED);
    expect(podOf(s).securityContext.runAsNonRoot).toBeUndefined();
  });

  test('without any choice, no annotation is written (the output stays as before)', () => {
    const s = synthManifest(deployment(spec));
    expect(recordOf(s).metadata.annotations[POD_SECURITY]).toBeUndefined();
    expect(podSecurityViolations(podOf(s), 'restricted').length).toBeGreaterThan(0);
  });

  test('an unknown level is a field error naming the annotation, the value and the levels', () => {
    const { errors } = synthManifest(deployment(spec, { [POD_SECURITY]: 'privileged' }));
    expect(errors).toEqual([
      'metadata.annotations["inference.cdk8s.io/pod-security"]: Unsupported value: "privileged": supported values: "baseline", "restricted"',
    ]);
  });

  test('the typed prop sets the level; it may not disagree with an annotation', () => {
    const build = (annotations?: Record<string, string>) => {
      const app = Testing.app();
      const chart = new Chart(app, 'models', { namespace: 'team-a' });
      new ModelDeployment(chart, 'qwen', {
        metadata: annotations && { annotations },
        model: { id: 'Qwen/Qwen3-0.6B' },
        provider: { name: 'vllm' },
        engine: { engineType: EngineType.VLLM },
        resources: { gpu: { count: 1 } },
        podSecurity: PodSecurityLevel.RESTRICTED,
      });
      const errors = app.node.findAll().flatMap((c) => c.node.validate());
      return { errors, manifests: errors.length > 0 ? [] : Testing.synth(chart) };
    };
    const ok = build();
    expect(ok.errors).toEqual([]);
    expect(ok.manifests.find((m) => m.kind === 'Deployment').spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(build({ [POD_SECURITY]: 'baseline' }).errors).toEqual([
      'metadata.annotations["inference.cdk8s.io/pod-security"]: Invalid value: "baseline": disagrees with podSecurity (restricted); set only one of them',
    ]);
  });

  test('the CLI flag --pod-security reaches the registry; another value is a usage error', () => {
    expect(parseArguments(['synth', '-f', 'x.yaml', '--pod-security', 'restricted']).routing.podSecurity).toBe('restricted');
    expect(parseArguments(['explain', '-f', 'x.yaml', '--pod-security=baseline']).routing.podSecurity).toBe('baseline');
    expect(parseArguments(['synth', '-f', 'x.yaml']).routing.podSecurity).toBeUndefined();
    expect(() => parseArguments(['synth', '-f', 'x.yaml', '--pod-security', 'privileged'])).toThrow(
      new UsageError('--pod-security "privileged": expected baseline or restricted'),
    );
  });
});

describe('llm-d probes', () => {
  test('startup, liveness and readiness on /health of the vLLM port, on every component; LWS workers have none', () => {
    const { manifests } = synthManifest(deployment({
      provider: { name: 'llmd' },
      engine: { type: 'vllm' },
      serving: { mode: 'disaggregated' },
      scaling: { prefill: { replicas: 1, gpu: { count: 1 } }, decode: { replicas: 2, gpu: { count: 1 } } },
    }));
    const deployments = manifests.filter((m) => m.kind === 'Deployment');
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(['qwen-decode', 'qwen-prefill']);
    for (const d of deployments) {
      const c = d.spec.template.spec.containers[0];
      for (const probe of [c.startupProbe, c.livenessProbe, c.readinessProbe]) expect(probe.httpGet).toEqual({ path: '/health', port: 8000 });
      // A slow model load is not a liveness failure: up to 30 minutes before liveness applies.
      expect(c.startupProbe.periodSeconds * c.startupProbe.failureThreshold).toBeGreaterThanOrEqual(1800);
    }
  });
});

describe('default images are pinned', () => {
  const dynamo = dynamoImages();
  test.each([
    DIRECT_VLLM_DEFAULT_IMAGE, LLMD_DEFAULT_IMAGE, KUBERAY_DEFAULT_IMAGE, KTHENA_DEFAULT_VLLM_IMAGE, KTHENA_DEFAULT_SGLANG_IMAGE,
    dynamo.vllm, dynamo.sglang, dynamo.trtllm, dynamo.epp, dynamo.mocker,
  ])('%s names a version', (image) => {
    expect(movingTagReason(image)).toBeUndefined();
  });

  test('Direct vLLM runs a released vLLM, not a nightly', () => {
    expect(DIRECT_VLLM_DEFAULT_IMAGE).toMatch(/^vllm\/vllm-openai:v\d+\.\d+\.\d+$/);
  });

  test.each(CASES)('%s with default images gives no moving-tag warning, and every pod image is pinned', (_name, spec, annotations = {}) => {
    const { manifests, warnings } = synthManifest(deployment(spec, annotations));
    expect(warnings.filter((w) => w.includes('moving image'))).toEqual([]);
    for (const { podSpec } of modelServerPods(manifests)) {
      for (const c of [...podSpec.containers, ...(podSpec.initContainers ?? [])]) {
        expect({ image: c.image, moving: movingTagReason(c.image) }).toEqual({ image: c.image, moving: undefined });
      }
    }
  });
});
