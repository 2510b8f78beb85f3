import { disaggregatedLlmdDeployment, llmdDeployment } from './fixtures';
import { Warnings } from '../../../src/api/warnings';
import { TOLERATE_GPU_TAINT_ANNOTATION } from '../../../src/core/gpu-taint-toleration';
import { LlmdProvider } from '../../../src/providers/llmd';
import { LLMD_VLLM_PORT } from '../../../src/providers/llmd/args';
import { LLMD_DEFAULT_IMAGE } from '../../../src/providers/llmd/images';
import { LLMD_ROLE_LABEL, validateLlmd, validateLlmdOverrides } from '../../../src/providers/llmd/validation';
import {
  deploymentObjectCases,
  deploymentOverrideGuardCases,
  deploymentProvider,
  describeModelServerImage,
  describeGpuTypes,
  describeSchedulingAndPodMetadata,
  modelServerContainerCases,
  vllmEngineValidationCases,
} from '../../support/deployment-provider-cases';
import { commonLabels } from '../../support/expected-manifests';
import { blockedOverrideKeyCases, modelServerEnvCases } from '../../support/provider-cases';
import { everyEngineFlag } from '../../support/resolved-deployment';
import { findManifest as find } from '../../support/translator-harness';

const subject = deploymentProvider(new LlmdProvider(), llmdDeployment, 'llama');
const { harness, container, argsOf } = subject;
const { synth, synthOf, errorsOf, withOverrides } = harness;

const MODEL = 'meta-llama/Llama-3.1-8B-Instruct';
const BASE_ARGS = [MODEL, '--enable-prefix-caching'];
/** Both roles: NIXL, a V1 connector (AI Runway's PyNcclConnector consumer/producer is V0, which vLLM's V1 engine refuses). */
const KV_NIXL = '{"kv_connector":"NixlConnector","kv_role":"kv_both"}';
const COMMON_LABELS = commonLabels('llama');

describe('LlmdProvider', () => {
  test('identifies the llmd provider', () => {
    expect(subject.harness.translator.providerName).toBe('llmd');
    expect(subject.harness.translator.displayName).toBe('llm-d');
  });

  describe('aggregated output', () => {
    test('minimal deployment matches the snapshot', () => {
      expect(synthOf()).toMatchSnapshot();
    });

    test('full deployment matches the snapshot', () => {
      const manifests = synthOf({
        spec: {
          model: { servedName: 'llama-8b' },
          engine: {
            contextLength: 32768,
            trustRemoteCode: true,
            enforceEager: true,
            args: { 'gpu-memory-utilization': '0.9', 'disable-log-stats': '' },
            extraArgs: ['--max-num-seqs', '128'],
          },
          resources: { gpu: { count: 2, type: 'nvidia.com/gpu' }, memory: '64Gi', cpu: '8' },
          scaling: { replicas: 2 },
          env: [{ name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' }],
          secrets: { huggingFaceToken: 'hf-token' },
          nodeSelector: { 'nvidia.com/gpu.product': 'NVIDIA-A100-SXM4-80GB' },
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
          podTemplate: { metadata: { labels: { team: 'ml' }, annotations: { 'prometheus.io/scrape': 'true' } } },
          provider: { name: 'llmd', overrides: { spec: { progressDeadlineSeconds: 1800 } } },
        },
      });
      expect(manifests).toMatchSnapshot();
    });

    deploymentObjectCases(subject);

    test('sets no ownerReferences and puts the common labels on every object', () => {
      for (const m of synthOf()) {
        expect(m.metadata.ownerReferences).toBeUndefined();
        expect(m.metadata.labels).toEqual(COMMON_LABELS);
      }
    });

    test('labels the model source as given', () => {
      const manifests = synthOf({ spec: { model: { source: 'custom' } } });
      for (const m of manifests) expect(m.metadata.labels['airunway.ai/model-source']).toBe('custom');
    });

    test('renders the Service as ClusterIP http 8000 selecting the Deployment pods', () => {
      const manifests = synthOf();
      const svc = find(manifests, 'Service', 'llama');
      expect(svc.spec).toEqual({
        type: 'ClusterIP',
        selector: { 'airunway.ai/deployment': 'llama', 'app': 'llama' },
        ports: [{ name: 'http', port: 8000, targetPort: 8000, protocol: 'TCP' }],
      });
      expect(find(manifests, 'Deployment', 'llama').spec.selector).toEqual({ matchLabels: svc.spec.selector });
    });
  });

  describeModelServerImage(subject, { constant: LLMD_DEFAULT_IMAGE, expected: 'vllm/vllm-openai:v0.33.0' });

  describe('arguments', () => {
    test('render the model positional and prefix caching by default, without --host or --port', () => {
      expect(argsOf()).toEqual(BASE_ARGS);
      expect(LLMD_VLLM_PORT).toBe(8000);
    });

    test('render every structured flag in llm-d order, then sorted args, then extraArgs verbatim', () => {
      expect(argsOf(everyEngineFlag('llama-8b'))).toEqual([
        MODEL,
        '--served-model-name', 'llama-8b',
        '--max-model-len', '8192',
        '--trust-remote-code',
        // llm-d puts prefix caching before --enforce-eager (Direct vLLM puts it after).
        '--enable-prefix-caching',
        '--enforce-eager',
        '--tensor-parallel-size', '4',
        '--disable-log-stats',
        '--dtype', 'bfloat16',
        '--max-num-seqs', '64',
        '--swap-space', '4', '-q', 'awq',
      ]);
    });

    test('render an explicit contextLength of 0', () => {
      expect(argsOf({ spec: { engine: { contextLength: 0 } } })).toEqual([MODEL, '--max-model-len', '0', '--enable-prefix-caching']);
    });

    test('render --no-enable-prefix-caching when prefix caching is disabled (kept: vLLM V1 caches by default)', () => {
      expect(argsOf({ spec: { engine: { enablePrefixCaching: false } } })).toEqual([MODEL, '--no-enable-prefix-caching']);
    });

    test('treat an unset enablePrefixCaching as the CRD default, on', () => {
      expect(argsOf({ spec: { engine: { enablePrefixCaching: undefined } } })).toEqual(BASE_ARGS);
    });

    test('derive --tensor-parallel-size from the GPU count only when it exceeds 1', () => {
      expect(argsOf({ spec: { resources: { gpu: { count: 1 } } } })).not.toContain('--tensor-parallel-size');
      expect(argsOf({ spec: { resources: { gpu: { count: 2 } } } })).toEqual([...BASE_ARGS, '--tensor-parallel-size', '2']);
      expect(argsOf({ spec: { resources: { gpu: { count: 8 } } } })).toEqual([...BASE_ARGS, '--tensor-parallel-size', '8']);
    });

    test('append extraArgs verbatim after everything else, single-dash and value tokens included', () => {
      expect(argsOf({ spec: { engine: { extraArgs: ['-tp', '2', '--foo=bar', 'positional', '---odd'] } } })).toEqual([
        ...BASE_ARGS, '-tp', '2', '--foo=bar', 'positional', '---odd',
      ]);
    });

    test('do not drop derived flags the user also sets (the later explicit flag wins in vLLM), but drop the model positional for their --model', () => {
      const args = argsOf({
        spec: {
          model: { servedName: 'llama-8b' },
          engine: {
            enablePrefixCaching: false,
            args: { 'tensor-parallel-size': '2', 'model': '/models/llama' },
            extraArgs: ['--served-model-name=custom', '--enable-prefix-caching'],
          },
          resources: { gpu: { count: 4 } },
        },
      });
      // `vllm serve` takes the positional over --model, so rendering both would lose the user's.
      expect(args).toEqual([
        '--served-model-name', 'llama-8b',
        '--no-enable-prefix-caching',
        '--tensor-parallel-size', '4',
        '--model', '/models/llama',
        '--tensor-parallel-size', '2',
        '--served-model-name=custom', '--enable-prefix-caching',
      ]);
    });

    test('pass an empty model id through as the positional for a custom source (as AI Runway does)', () => {
      expect(argsOf({ spec: { model: { source: 'custom', id: undefined } } })).toEqual(['', '--enable-prefix-caching']);
    });
  });

  describe('container', () => {
    modelServerContainerCases(subject);

    test('has probes but no volume mounts or /dev/shm, even with several GPUs', () => {
      const deployment = find(synthOf({ spec: { resources: { gpu: { count: 4 } } } }), 'Deployment', 'llama');
      const c = deployment.spec.template.spec.containers[0];
      expect(Object.keys(c).sort()).toEqual(['args', 'command', 'image', 'livenessProbe', 'name', 'ports', 'readinessProbe', 'resources', 'securityContext', 'startupProbe']);
      expect(deployment.spec.template.spec.volumes).toBeUndefined();
    });

    test('requests GPUs as nvidia.com/gpu, memory in limits and requests, cpu in requests', () => {
      const c = container(synthOf({ spec: { resources: { gpu: { count: 2, type: 'nvidia.com/gpu' }, memory: '32Gi', cpu: '4' } } }));
      expect(c.resources).toEqual({
        limits: { 'nvidia.com/gpu': '2', 'memory': '32Gi' },
        requests: { 'nvidia.com/gpu': '2', 'memory': '32Gi', 'cpu': '4' },
      });
    });
  });

  describe('env', () => {
    modelServerEnvCases({ harness, containersOf: (manifests) => [container(manifests)] }, ['everyValueFromSource', 'nothingToSet']);

    test('lists spec.env in order, then HF_TOKEN from the token Secret', () => {
      const c = container(
        synthOf({
          spec: {
            env: [{ name: 'B', value: '2' }, { name: 'A', value: '1' }],
            secrets: { huggingFaceToken: 'hf-token' },
          },
        }),
      );
      expect(c.env).toEqual([
        { name: 'B', value: '2' },
        { name: 'A', value: '1' },
        { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf-token', key: 'HF_TOKEN' } } },
      ]);
    });

    test('drops a user HF_TOKEN when the Secret provides it (llm-d would list it twice, which server-side apply rejects)', () => {
      const { manifests, warnings } = synth(
        llmdDeployment({ spec: { env: [{ name: 'A', value: '1' }, { name: 'HF_TOKEN', value: 'hf_inline' }], secrets: { huggingFaceToken: 'hf-token' } } }),
      );
      expect(container(manifests).env).toEqual([
        { name: 'A', value: '1' },
        { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf-token', key: 'HF_TOKEN' } } },
      ]);
      expect(warnings).toEqual([]);
    });

    test('keeps a user HF_TOKEN without a Secret, with no warning', () => {
      const { manifests, warnings } = synth(llmdDeployment({ spec: { env: [{ name: 'HF_TOKEN', value: 'hf_inline' }] } }));
      expect(container(manifests).env).toEqual([{ name: 'HF_TOKEN', value: 'hf_inline' }]);
      expect(warnings).toEqual([]);
    });

    test('sets no HF_HOME, even with a modelCache volume', () => {
      const volumes = [{ name: 'cache', purpose: 'modelCache' as const, claimName: 'c' }];
      expect(container(synthOf({ spec: { model: { storage: { volumes } } } })).env).toBeUndefined();
    });
  });

  describe('storage', () => {
    test('is ignored: no volumes, mounts or PVCs, and a warning says so', () => {
      const volumes = [
        { name: 'model-cache', purpose: 'modelCache' as const, size: '100Gi' },
        { name: 'extra', purpose: 'custom' as const, claimName: 'extra-pvc', mountPath: '/extra' },
      ];
      const { returned, manifests, warnings } = synth(llmdDeployment({ spec: { model: { storage: { volumes } } } }));
      expect(manifests.map((m) => m.kind)).toEqual(['Deployment', 'Service']);
      const pod = find(manifests, 'Deployment', 'llama').spec.template.spec;
      expect(pod.volumes).toBeUndefined();
      expect(pod.containers[0].volumeMounts).toBeUndefined();
      expect(warnings).toEqual([
        'llm-d ignores spec.model.storage.volumes: its Deployments mount no volumes, so vLLM downloads the model into the container ' +
          'on every start (the vllm and dynamo providers mount a model cache)',
      ]);
      // Recorded on the primary Deployment.
      expect(Warnings.collect(returned[0]).length).toBe(1);
    });

    test('records no warning for a plain deployment', () => {
      expect(synth(llmdDeployment()).warnings).toEqual([]);
      expect(synth(disaggregatedLlmdDeployment()).warnings).toEqual([]);
    });
  });

  describeSchedulingAndPodMetadata(subject);
  describeGpuTypes(subject, LLMD_DEFAULT_IMAGE);

  describe('overrides', () => {
    test('deep-merge into the Deployment and leave the Service alone', () => {
      const manifests = synthOf(
        withOverrides({
          spec: {
            progressDeadlineSeconds: 1800,
            strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '50%', maxUnavailable: 0 } },
            template: { metadata: { labels: { team: 'ml' }, annotations: { 'sidecar.istio.io/inject': 'false' } } },
          },
        }),
      );
      const deployment = find(manifests, 'Deployment', 'llama');
      expect(deployment.spec.progressDeadlineSeconds).toBe(1800);
      expect(deployment.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '50%', maxUnavailable: 0 } });
      // Merged, not replaced: the rendered parts are still there.
      expect(deployment.spec.template.metadata).toEqual({
        labels: { 'airunway.ai/deployment': 'llama', 'app': 'llama', 'airunway.ai/model-deployment': 'llama', 'team': 'ml' },
        annotations: { 'sidecar.istio.io/inject': 'false' },
      });
      expect(deployment.spec.replicas).toBe(1);
      expect(deployment.spec.template.spec.containers[0].name).toBe('vllm');
      expect(find(manifests, 'Service', 'llama').spec.progressDeadlineSeconds).toBeUndefined();
    });

    test('set a key to JSON null when the override value is null', () => {
      const md = llmdDeployment(withOverrides({ spec: { strategy: null } }));
      // A null is not schema-valid; the API server would drop it. Checked without the validator.
      const { manifests } = synth(md, { validateSchema: false });
      expect(find(manifests, 'Deployment', 'llama').spec.strategy).toBeNull();
    });

    test('apply to both Deployments in disaggregated mode', () => {
      const { manifests } = synth(disaggregatedLlmdDeployment(withOverrides({ spec: { minReadySeconds: 30 } })));
      expect(find(manifests, 'Deployment', 'llama-decode').spec.minReadySeconds).toBe(30);
      expect(find(manifests, 'Deployment', 'llama-prefill').spec.minReadySeconds).toBe(30);
      expect(find(manifests, 'Service', 'llama-decode').spec.minReadySeconds).toBeUndefined();
    });

    test.each([
      ['a pod spec field', { spec: { template: { spec: { schedulerName: 'gpu-scheduler' } } } }],
      ['an empty pod spec', { spec: { template: { spec: {} } } }],
      ['a null pod spec', { spec: { template: { spec: null } } }],
    ])('fails when overrides reach spec.template.spec (%s)', (_, overrides) => {
      expect(errorsOf(withOverrides(overrides))).toEqual([
        'spec.provider.overrides.spec.template.spec: Forbidden: overriding "spec.template.spec" is not allowed',
      ]);
    });

    test('fails when overrides replace spec or spec.template with a non-object (which would replace the pod spec)', () => {
      expect(errorsOf(withOverrides({ spec: null }))).toEqual([
        'spec.provider.overrides.spec: Forbidden: overriding "spec.template.spec" is not allowed (a non-object "spec" would replace it)',
      ]);
      expect(errorsOf(withOverrides({ spec: { template: null } }))).toEqual([
        'spec.provider.overrides.spec.template: Forbidden: overriding "spec.template.spec" is not allowed (a non-object "spec.template" would replace it)',
      ]);
      expect(errorsOf(withOverrides({ spec: { template: [] } }))).toHaveLength(1);
    });

    blockedOverrideKeyCases(harness);
    deploymentOverrideGuardCases(subject);

    test('fails when overrides set a top-level key a Deployment does not have', () => {
      expect(errorsOf(withOverrides({ template: { spec: {} }, spec: { paused: true } }))).toEqual([
        'spec.provider.overrides.template: Forbidden: a Deployment has no root field "template"; llm-d overrides merge into each Deployment, so put fields under "spec"',
      ]);
    });

    test('fails when overrides change the selector', () => {
      expect(errorsOf(withOverrides({ spec: { selector: { matchLabels: { app: 'x' } } } }))).toEqual([
        'spec.provider.overrides.spec.selector: Forbidden: overriding "spec.selector" is not allowed: it must match the pod labels llm-d sets, which its Service selects',
      ]);
    });

    test('fails when overrides replace the pod metadata or labels with a non-object', () => {
      expect(errorsOf(withOverrides({ spec: { template: { metadata: null } } }))).toEqual([
        'spec.provider.overrides.spec.template.metadata: Forbidden: overriding "spec.template.metadata" with a non-object is not allowed: ' +
          'the Deployment selector, the Service and the InferencePool select llm-d pods by their labels',
      ]);
      expect(errorsOf(withOverrides({ spec: { template: { metadata: { labels: null } } } }))).toEqual([
        'spec.provider.overrides.spec.template.metadata.labels: Forbidden: overriding "spec.template.metadata.labels" with a non-object is not allowed: ' +
          'the Deployment selector, the Service and the InferencePool select llm-d pods by their labels',
      ]);
    });

    test('accept absent and empty overrides', () => {
      expect(validateLlmdOverrides(undefined)).toEqual([]);
      expect(validateLlmdOverrides(null)).toEqual([]);
      expect(validateLlmdOverrides({})).toEqual([]);
      expect(find(synthOf(withOverrides({})), 'Deployment', 'llama').spec.replicas).toBe(1);
    });
  });

  describe('disaggregated (prefill/decode)', () => {
    test('matches the snapshot', () => {
      expect(synth(disaggregatedLlmdDeployment()).manifests).toMatchSnapshot();
    });

    test('creates decode and prefill Deployments, then their Services, decode first', () => {
      const { returned, manifests } = synth(disaggregatedLlmdDeployment());
      expect(returned.map((o) => [o.node.id, o.kind, o.name])).toEqual([
        ['DecodeDeployment', 'Deployment', 'llama-decode'],
        ['PrefillDeployment', 'Deployment', 'llama-prefill'],
        ['DecodeService', 'Service', 'llama-decode'],
        ['PrefillService', 'Service', 'llama-prefill'],
      ]);
      for (const component of ['decode', 'prefill']) {
        const name = `llama-${component}`;
        const selector = { 'airunway.ai/deployment': 'llama', 'app': name };
        expect(find(manifests, 'Service', name).spec.selector).toEqual(selector);
        const deployment = find(manifests, 'Deployment', name);
        expect(deployment.spec.selector.matchLabels).toEqual(selector);
        expect(deployment.spec.template.metadata.labels).toEqual({
          ...selector,
          'airunway.ai/model-deployment': 'llama',
          'llm-d.ai/role': component,
        });
        expect(deployment.metadata.labels).toEqual(COMMON_LABELS);
      }
    });

    test('label prefill pods llm-d.ai/role=prefill and decode pods decode, outside selectors, unclobberable', () => {
      const manifests = synth(
        disaggregatedLlmdDeployment({ spec: { podTemplate: { metadata: { labels: { 'llm-d.ai/role': 'both', 'team': 'ml' } } } } }),
      ).manifests;
      for (const component of ['decode', 'prefill']) {
        const name = `llama-${component}`;
        const deployment = find(manifests, 'Deployment', name);
        expect(deployment.spec.template.metadata.labels[LLMD_ROLE_LABEL]).toBe(component);
        expect(deployment.spec.template.metadata.labels.team).toBe('ml');
        expect(deployment.spec.selector.matchLabels).not.toHaveProperty(LLMD_ROLE_LABEL);
        expect(find(manifests, 'Service', name).spec.selector).not.toHaveProperty(LLMD_ROLE_LABEL);
      }
    });

    test('fails when overrides set the llm-d.ai/role pod label', () => {
      const overrides = { spec: { template: { metadata: { labels: { 'llm-d.ai/role': 'decode' } } } } };
      const md = disaggregatedLlmdDeployment(withOverrides(overrides));
      expect(errorsOf(md)).toEqual([
        'spec.provider.overrides.spec.template.metadata.labels.llm-d.ai/role: Forbidden: overriding pod label "llm-d.ai/role" is not allowed: ' +
          'llm-d\'s endpoint picker tells prefill from decode pods by it',
      ]);
      // Aggregated pods carry no role label of ours; a user's is left alone.
      expect(errorsOf(withOverrides(overrides))).toEqual([]);
    });

    test('give each component its replicas, resources, tensor parallel size and the NIXL KV transfer', () => {
      const manifests = synth(disaggregatedLlmdDeployment()).manifests;
      const decode = find(manifests, 'Deployment', 'llama-decode');
      const prefill = find(manifests, 'Deployment', 'llama-prefill');
      expect(decode.spec.replicas).toBe(2);
      expect(prefill.spec.replicas).toBe(3);
      expect(decode.spec.template.spec.containers[0].args).toEqual([
        ...BASE_ARGS, '--tensor-parallel-size', '4', '--kv-transfer-config', KV_NIXL,
      ]);
      expect(prefill.spec.template.spec.containers[0].args).toEqual([
        ...BASE_ARGS, '--tensor-parallel-size', '2', '--kv-transfer-config', KV_NIXL,
      ]);
      expect(decode.spec.template.spec.containers[0].resources).toEqual({
        limits: { 'nvidia.com/gpu': '4', 'memory': '64Gi' },
        requests: { 'nvidia.com/gpu': '4', 'memory': '64Gi' },
      });
      expect(prefill.spec.template.spec.containers[0].resources).toEqual({
        limits: { 'nvidia.com/gpu': '2', 'memory': '32Gi' },
        requests: { 'nvidia.com/gpu': '2', 'memory': '32Gi' },
      });
      for (const d of [decode, prefill]) expect(d.spec.template.spec.volumes).toBeUndefined();
    });

    test('omit --tensor-parallel-size for a single-GPU component and put the KV config before user args', () => {
      const md = disaggregatedLlmdDeployment({
        spec: {
          engine: { args: { 'max-num-seqs': '32' }, extraArgs: ['--block-size', '16'] },
          scaling: {
            decode: { replicas: 1, gpu: { count: 1 } },
            prefill: { replicas: 1, gpu: { count: 1 } },
          },
        },
      });
      const manifests = synth(md).manifests;
      expect(container(manifests, 'llama-decode').args).toEqual([
        ...BASE_ARGS, '--kv-transfer-config', KV_NIXL, '--max-num-seqs', '32', '--block-size', '16',
      ]);
      expect(container(manifests, 'llama-prefill').args).toEqual([
        ...BASE_ARGS, '--kv-transfer-config', KV_NIXL, '--max-num-seqs', '32', '--block-size', '16',
      ]);
    });

    test('share image, env, scheduling and pod metadata across components', () => {
      const manifests = synth(
        disaggregatedLlmdDeployment({
          spec: {
            engine: { image: 'registry.example/vllm:pd' },
            secrets: { huggingFaceToken: 'hf' },
            nodeSelector: { pool: 'gpu' },
            podTemplate: { metadata: { annotations: { a: 'b' } } },
          },
        }),
      ).manifests;
      for (const name of ['llama-decode', 'llama-prefill']) {
        const deployment = find(manifests, 'Deployment', name);
        const pod = deployment.spec.template;
        expect(pod.spec.containers[0].image).toBe('registry.example/vllm:pd');
        expect(pod.spec.containers[0].env).toEqual([
          { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf', key: 'HF_TOKEN' } } },
          { name: 'VLLM_NIXL_SIDE_CHANNEL_HOST', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
        ]);
        expect(pod.spec.nodeSelector).toEqual({ pool: 'gpu' });
        expect(pod.metadata.annotations).toEqual({ a: 'b' });
        expect(deployment.metadata.annotations).toEqual({ a: 'b' });
      }
    });

    test('keep an explicit 0 component replicas', () => {
      const md = disaggregatedLlmdDeployment({
        spec: { scaling: { decode: { replicas: 0, gpu: { count: 1 } }, prefill: { replicas: 1, gpu: { count: 1 } } } },
      });
      expect(find(synth(md).manifests, 'Deployment', 'llama-decode').spec.replicas).toBe(0);
    });

    test('request each component\'s GPU type, equal in limits and requests', () => {
      const md = disaggregatedLlmdDeployment({
        spec: {
          scaling: {
            decode: { replicas: 1, gpu: { count: 2, type: 'amd.com/gpu' } },
            prefill: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/mig-1g.10gb' } },
          },
        },
      });
      const manifests = synth(md).manifests;
      expect(container(manifests, 'llama-decode').resources).toEqual({ limits: { 'amd.com/gpu': '2' }, requests: { 'amd.com/gpu': '2' } });
      expect(container(manifests, 'llama-prefill').resources).toEqual({
        limits: { 'nvidia.com/mig-1g.10gb': '1' },
        requests: { 'nvidia.com/mig-1g.10gb': '1' },
      });
    });

    test('warn once about AMD component GPUs on the default CUDA image', () => {
      const md = disaggregatedLlmdDeployment({
        spec: { scaling: { decode: { replicas: 1, gpu: { count: 1, type: 'amd.com/gpu' } }, prefill: { replicas: 1, gpu: { count: 1, type: 'amd.com/gpu' } } } },
      });
      expect(synth(md).recordedWarnings).toEqual([{
        path: 'test/DecodeDeployment',
        message: 'llm-d requests AMD GPUs (spec.scaling.prefill.gpu.type "amd.com/gpu", spec.scaling.decode.gpu.type "amd.com/gpu") ' +
          'but runs its default image vllm/vllm-openai:v0.33.0, a CUDA build of vLLM; set spec.engine.image to a ROCm build of vLLM',
      }]);
    });

    test('tolerate the GPU taint of each component\'s type when asked', () => {
      const md = disaggregatedLlmdDeployment({
        annotations: { [TOLERATE_GPU_TAINT_ANNOTATION]: 'true' },
        spec: {
          scaling: {
            decode: { replicas: 1, gpu: { count: 1, type: 'amd.com/gpu' } },
            prefill: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/mig-1g.10gb' } },
          },
        },
      });
      const manifests = synth(md).manifests;
      expect(find(manifests, 'Deployment', 'llama-decode').spec.template.spec.tolerations).toEqual([{ key: 'amd.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
      expect(find(manifests, 'Deployment', 'llama-prefill').spec.template.spec.tolerations).toEqual([{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
    });
  });

  describe('validate', () => {
    test('accepts valid aggregated and disaggregated deployments', () => {
      expect(validateLlmd(llmdDeployment())).toEqual([]);
      expect(validateLlmd(disaggregatedLlmdDeployment())).toEqual([]);
    });

    vllmEngineValidationCases(subject);

    test('fails when no GPU is requested in aggregated mode', () => {
      expect(errorsOf({ spec: { resources: { gpu: { count: 0 } } } })).toEqual([
        'spec.resources.gpu.count: Invalid value: 0: llm-d provider requires GPU resources (spec.resources.gpu.count > 0)',
      ]);
      expect(errorsOf({ spec: { resources: { memory: '16Gi' } } })).toEqual([
        'spec.resources.gpu.count: Required value: llm-d provider requires GPU resources (spec.resources.gpu.count > 0)',
      ]);
      expect(errorsOf({ spec: { resources: undefined } })).toEqual([
        'spec.resources.gpu.count: Required value: llm-d provider requires GPU resources (spec.resources.gpu.count > 0)',
      ]);
    });

    test('fails when disaggregated mode lacks a component', () => {
      expect(errorsOf(disaggregatedLlmdDeployment({ spec: { scaling: undefined } }))).toEqual([
        'spec.scaling.prefill: Required value: spec.scaling.prefill is required for disaggregated serving mode',
        'spec.scaling.decode: Required value: spec.scaling.decode is required for disaggregated serving mode',
      ]);
      expect(errorsOf(disaggregatedLlmdDeployment({ spec: { scaling: { decode: { replicas: 1, gpu: { count: 1 } } } } }))).toEqual([
        'spec.scaling.prefill: Required value: spec.scaling.prefill is required for disaggregated serving mode',
      ]);
      expect(errorsOf(disaggregatedLlmdDeployment({ spec: { scaling: { prefill: { replicas: 1, gpu: { count: 1 } } } } }))).toEqual([
        'spec.scaling.decode: Required value: spec.scaling.decode is required for disaggregated serving mode',
      ]);
    });

    test('fails when a disaggregated component has no GPUs', () => {
      const md = disaggregatedLlmdDeployment({ spec: { scaling: { prefill: { replicas: 1, gpu: { count: 0 } }, decode: { replicas: 1 } } } });
      expect(errorsOf(md)).toEqual([
        'spec.scaling.prefill.gpu.count: Invalid value: 0: llm-d provider requires GPU resources for prefill (spec.scaling.prefill.gpu.count > 0)',
        'spec.scaling.decode.gpu.count: Required value: llm-d provider requires GPU resources for decode (spec.scaling.decode.gpu.count > 0)',
      ]);
    });

    test('does not require spec.resources GPUs in disaggregated mode', () => {
      expect(errorsOf(disaggregatedLlmdDeployment({ spec: { resources: undefined } }))).toEqual([]);
    });

    test('fails when engine.args sets port', () => {
      expect(errorsOf({ spec: { engine: { args: { port: '9000' } } } })).toEqual([
        'spec.engine.args.port: Invalid value: "9000": engine arg "port" cannot be set for llm-d: the llm-d vLLM server must listen on 8000, ' +
          'where its container port, Service and InferencePool send traffic; remove the flag',
      ]);
    });

    test.each(['--port', '--port=9000'])('fails when extraArgs sets the port flag %s', (token) => {
      expect(errorsOf({ spec: { engine: { extraArgs: ['--dtype', 'half', token, '9000'] } } })).toEqual([
        `spec.engine.extraArgs[2]: Invalid value: ${JSON.stringify(token)}: engine extraArg ${JSON.stringify(token)} cannot be set for llm-d: ` +
          'the llm-d vLLM server must listen on 8000, where its container port, Service and InferencePool send traffic; remove the flag',
      ]);
    });

    test('accepts host and non-flag port-like tokens', () => {
      expect(errorsOf({ spec: { engine: { args: { host: '0.0.0.0' }, extraArgs: ['-port', '--portal', 'port'] } } })).toEqual([]);
    });

    test('reports every problem at once, engine first', () => {
      const md = {
        ...llmdDeployment({
          spec: {
            engine: { type: 'sglang', args: { 'port': '1', 'bad key': '' } },
            resources: { gpu: { count: 0 } },
            provider: { name: 'llmd', overrides: { metadata: {}, spec: { template: { spec: {} } } } },
          },
        }),
        engine: 'sglang' as const,
      };
      expect(subject.harness.translator.validate(md).map((e) => e.path)).toEqual([
        'spec.engine.type',
        'spec.resources.gpu.count',
        'spec.provider.overrides.metadata',
        'spec.provider.overrides.spec.template.spec',
        'spec.engine.args.bad key',
        'spec.engine.args.port',
      ]);
    });
  });
});
