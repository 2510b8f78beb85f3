import { disaggregatedDeployment, vllmDeployment } from './fixtures';
import { DirectVllmProvider } from '../../../src/providers/vllm';
import { DIRECT_VLLM_DEFAULT_IMAGE } from '../../../src/providers/vllm/images';
import { validateDirectVllm } from '../../../src/providers/vllm/validation';
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
import { commonLabels, managedClaim } from '../../support/expected-manifests';
import { blockedOverrideKeyCases, modelServerEnvCases } from '../../support/provider-cases';
import { everyEngineFlag } from '../../support/resolved-deployment';
import { findManifest as find } from '../../support/translator-harness';

const subject = deploymentProvider(new DirectVllmProvider(), vllmDeployment, 'qwen');
const { harness, container, argsOf } = subject;
const { synth, synthOf, errorsOf, withOverrides, translator } = harness;

const BASE_ARGS = ['Qwen/Qwen3-0.6B', '--host', '0.0.0.0', '--port', '8000', '--enable-prefix-caching'];

describe('DirectVllmProvider', () => {
  test('identifies the vllm provider', () => {
    expect(translator.providerName).toBe('vllm');
    expect(translator.displayName).toBe('vLLM');
  });

  describe('aggregated output', () => {
    test('minimal deployment matches the snapshot', () => {
      expect(synthOf()).toMatchSnapshot();
    });

    test('full deployment matches the snapshot', () => {
      const manifests = synthOf({
        spec: {
          model: {
            servedName: 'qwen3',
            storage: {
              volumes: [
                { name: 'model-cache', purpose: 'modelCache', size: '100Gi', accessMode: 'ReadWriteMany', claimName: 'qwen-model-cache' },
                { name: 'compile', purpose: 'compilationCache', claimName: 'shared-compile' },
              ],
            },
          },
          engine: { contextLength: 32768, trustRemoteCode: true, args: { 'gpu-memory-utilization': '0.9' }, extraArgs: ['--disable-log-requests'] },
          resources: { gpu: { count: 2, type: 'nvidia.com/gpu' }, memory: '64Gi', cpu: '8' },
          scaling: { replicas: 2 },
          env: [{ name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' }],
          secrets: { huggingFaceToken: 'hf-token' },
          nodeSelector: { 'nvidia.com/gpu.product': 'NVIDIA-A100-SXM4-80GB' },
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
          podTemplate: { metadata: { labels: { team: 'ml' }, annotations: { 'prometheus.io/scrape': 'true' } } },
        },
      });
      expect(manifests).toMatchSnapshot();
    });

    deploymentObjectCases(subject);

    test('sets no ownerReferences and puts the common labels on every object', () => {
      const manifests = synthOf({ spec: { model: { storage: { volumes: [{ name: 'cache', purpose: 'modelCache', size: '10Gi' }] } } } });
      expect(manifests.map((m) => m.kind)).toEqual(['Deployment', 'Service', 'PersistentVolumeClaim']);
      for (const m of manifests) {
        expect(m.metadata.ownerReferences).toBeUndefined();
        expect(m.metadata.labels).toMatchObject(commonLabels('qwen'));
      }
    });

    test('renders the Service as ClusterIP http 8000 selecting the Deployment pods', () => {
      const svc = find(synthOf(), 'Service', 'qwen');
      expect(svc.spec).toEqual({
        type: 'ClusterIP',
        selector: { 'airunway.ai/deployment': 'qwen', 'app': 'qwen' },
        ports: [{ name: 'http', port: 8000, targetPort: 8000, protocol: 'TCP' }],
      });
    });

    test('translates the engine label from the resolved engine', () => {
      // The translator only runs for vllm, so the label mirrors md.engine even if spec.engine.type is unset.
      const md = vllmDeployment({ spec: { engine: { type: undefined } } });
      expect(find(synth(md).manifests, 'Service', 'qwen').metadata.labels['airunway.ai/engine-type']).toBe('vllm');
    });
  });

  describeModelServerImage(subject, { constant: DIRECT_VLLM_DEFAULT_IMAGE, expected: 'vllm/vllm-openai:v0.33.0' });

  describe('arguments', () => {
    test('render the model positional first, then host, port and prefix caching by default', () => {
      expect(argsOf()).toEqual(BASE_ARGS);
    });

    test('render every structured flag in order, then sorted args, then extraArgs verbatim', () => {
      expect(argsOf(everyEngineFlag('qwen3'))).toEqual([
        'Qwen/Qwen3-0.6B',
        '--host', '0.0.0.0', '--port', '8000',
        '--served-model-name', 'qwen3',
        '--max-model-len', '8192',
        '--trust-remote-code',
        '--enforce-eager',
        '--enable-prefix-caching',
        '--tensor-parallel-size', '4',
        '--disable-log-stats',
        '--dtype', 'bfloat16',
        '--max-num-seqs', '64',
        '--swap-space', '4', '-q', 'awq',
      ]);
    });

    test('render an explicit contextLength of 0', () => {
      expect(argsOf({ spec: { engine: { contextLength: 0 } } })).toContain('--max-model-len');
      expect(argsOf({ spec: { engine: { contextLength: 0 } } })).toEqual([...BASE_ARGS.slice(0, 5), '--max-model-len', '0', '--enable-prefix-caching']);
    });

    test('render --no-enable-prefix-caching when prefix caching is disabled', () => {
      const args = argsOf({ spec: { engine: { enablePrefixCaching: false } } });
      expect(args).not.toContain('--enable-prefix-caching');
      // vLLM's V1 engine caches by default: "off" needs its flag (AI Runway renders nothing).
      expect(args.slice(-1)).toEqual(['--no-enable-prefix-caching']);
    });

    test('derive --tensor-parallel-size only for more than one GPU', () => {
      expect(argsOf({ spec: { resources: { gpu: { count: 1 } } } })).not.toContain('--tensor-parallel-size');
      expect(argsOf({ spec: { resources: { gpu: { count: 8 } } } })).toEqual([...BASE_ARGS, '--tensor-parallel-size', '8']);
    });

    test('skip a derived flag whose key is set explicitly in engine.args', () => {
      const args = argsOf({
        spec: {
          model: { servedName: 'qwen3' },
          engine: {
            contextLength: 8192,
            trustRemoteCode: true,
            enforceEager: true,
            args: {
              'model': '/models/qwen',
              'served-model-name': 'custom',
              'max-model-len': '4096',
              'trust-remote-code': '',
              'enforce-eager': '',
              'enable-prefix-caching': '',
              'tensor-parallel-size': '2',
            },
          },
          resources: { gpu: { count: 4 } },
        },
      });
      expect(args).toEqual([
        '--host', '0.0.0.0', '--port', '8000',
        '--enable-prefix-caching',
        '--enforce-eager',
        '--max-model-len', '4096',
        '--model', '/models/qwen',
        '--served-model-name', 'custom',
        '--tensor-parallel-size', '2',
        '--trust-remote-code',
      ]);
    });

    test('skip a derived flag whose key is set by a --key or --key=value extraArgs token', () => {
      const args = argsOf({
        spec: {
          engine: { contextLength: 8192, extraArgs: ['--tensor-parallel-size=2', '--max-model-len', '4096', '--model=/models/qwen'] },
          resources: { gpu: { count: 4 } },
        },
      });
      expect(args).toEqual([
        '--host', '0.0.0.0', '--port', '8000',
        '--enable-prefix-caching',
        '--tensor-parallel-size=2', '--max-model-len', '4096', '--model=/models/qwen',
      ]);
    });

    test('do not treat single-dash or triple-dash tokens as explicit keys', () => {
      const args = argsOf({ spec: { engine: { extraArgs: ['-tp', '2', '---model'] }, resources: { gpu: { count: 4 } } } });
      expect(args).toEqual([...BASE_ARGS, '--tensor-parallel-size', '4', '-tp', '2', '---model']);
    });
  });

  describe('container', () => {
    modelServerContainerCases(subject);

    test('has the three /health probes on port 8000', () => {
      const c = container(synthOf());
      const probe = (initialDelaySeconds: number, periodSeconds: number, failureThreshold: number) => ({
        httpGet: { path: '/health', port: 8000 },
        initialDelaySeconds,
        periodSeconds,
        failureThreshold,
      });
      expect(c.startupProbe).toEqual(probe(15, 10, 60));
      expect(c.livenessProbe).toEqual(probe(15, 10, 3));
      expect(c.readinessProbe).toEqual(probe(15, 5, 3));
    });

    test('requests GPUs under gpu.type, memory in limits and requests, cpu in requests', () => {
      const { manifests, warnings } = synth(vllmDeployment({ spec: { resources: { gpu: { count: 2, type: 'nvidia.com/gpu' }, memory: '32Gi', cpu: '4' } } }));
      expect(container(manifests).resources).toEqual({
        limits: { 'nvidia.com/gpu': '2', 'memory': '32Gi' },
        requests: { 'nvidia.com/gpu': '2', 'memory': '32Gi', 'cpu': '4' },
      });
      expect(warnings).toEqual([]);
    });

    test('adds a 20Gi memory-backed /dev/shm first when more than one GPU is used', () => {
      const manifests = synthOf({
        spec: {
          resources: { gpu: { count: 2 } },
          model: { storage: { volumes: [{ name: 'weights', purpose: 'modelCache', claimName: 'weights-pvc' }] } },
        },
      });
      const pod = find(manifests, 'Deployment', 'qwen').spec.template.spec;
      expect(pod.volumes).toEqual([
        { name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '20Gi' } },
        { name: 'weights', persistentVolumeClaim: { claimName: 'weights-pvc' } },
      ]);
      expect(pod.containers[0].volumeMounts).toEqual([
        { name: 'shm', mountPath: '/dev/shm' },
        { name: 'weights', mountPath: '/model-cache' },
      ]);
    });

    test('has no volumes or mounts for one GPU without storage', () => {
      const pod = find(synthOf(), 'Deployment', 'qwen').spec.template.spec;
      expect(pod.volumes).toBeUndefined();
      expect(pod.containers[0].volumeMounts).toBeUndefined();
    });
  });

  describe('env', () => {
    modelServerEnvCases({ harness, containersOf: (manifests) => [container(manifests)] }, [
      'secretReplacesUserToken',
      'userTokenWithoutSecret',
      'nothingToSet',
    ]);

    test('prefers the full valueFrom over value and drops empty values', () => {
      const c = container(
        synthOf({
          spec: {
            env: [
              { name: 'BOTH', value: 'ignored', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
              { name: 'CM', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k', optional: true } } },
              { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
              { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
              { name: 'FILE', valueFrom: { fileKeyRef: { volumeName: 'env', path: 'vars.env', key: 'K' } } },
              { name: 'EMPTY', value: '' },
              { name: 'EMPTY_SOURCE', value: 'v', valueFrom: {} },
            ],
          },
        }),
      );
      expect(c.env).toEqual([
        { name: 'BOTH', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
        { name: 'CM', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k', optional: true } } },
        { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
        { name: 'FILE', valueFrom: { fileKeyRef: { volumeName: 'env', path: 'vars.env', key: 'K' } } },
        { name: 'EMPTY' },
        { name: 'EMPTY_SOURCE', value: 'v' },
      ]);
    });

    test('points HF_HOME at the modelCache mount (our addition), after HF_TOKEN', () => {
      const c = container(
        synthOf({
          spec: {
            secrets: { huggingFaceToken: 'hf' },
            model: { storage: { volumes: [{ name: 'cache', purpose: 'modelCache', mountPath: '/data/hf', claimName: 'c' }] } },
          },
        }),
      );
      expect(c.env).toEqual([
        { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf', key: 'HF_TOKEN' } } },
        { name: 'HF_HOME', value: '/data/hf' },
      ]);
    });

    test('uses the default /model-cache path for HF_HOME and leaves a user HF_HOME alone', () => {
      const volumes = [{ name: 'cache', purpose: 'modelCache' as const, claimName: 'c' }];
      expect(container(synthOf({ spec: { model: { storage: { volumes } } } })).env).toEqual([{ name: 'HF_HOME', value: '/model-cache' }]);
      expect(container(synthOf({ spec: { model: { storage: { volumes } }, env: [{ name: 'HF_HOME', value: '/mine' }] } })).env).toEqual([
        { name: 'HF_HOME', value: '/mine' },
      ]);
    });

    test('does not set HF_HOME without a modelCache volume', () => {
      const volumes = [{ name: 'compile', purpose: 'compilationCache' as const, claimName: 'c' }];
      expect(container(synthOf({ spec: { model: { storage: { volumes } } } })).env).toBeUndefined();
    });
  });

  describeSchedulingAndPodMetadata(subject);
  describeGpuTypes(subject, DIRECT_VLLM_DEFAULT_IMAGE);

  describe('storage', () => {
    const volumes = [
      { name: 'model-cache', purpose: 'modelCache' as const, size: '100Gi', storageClassName: 'fast' },
      { name: 'compile', purpose: 'compilationCache' as const, claimName: 'shared-compile', readOnly: true },
      { name: 'extra', purpose: 'custom' as const, claimName: 'extra-pvc', mountPath: '/extra' },
      { name: 'unmounted', purpose: 'custom' as const, claimName: 'other-pvc' },
    ];

    test('mounts every volume with a path and gives every volume a pod volume on its resolved claim', () => {
      const pod = find(synthOf({ spec: { model: { storage: { volumes } } } }), 'Deployment', 'qwen').spec.template.spec;
      expect(pod.volumes).toEqual([
        { name: 'model-cache', persistentVolumeClaim: { claimName: 'qwen-model-cache' } },
        { name: 'compile', persistentVolumeClaim: { claimName: 'shared-compile' } },
        { name: 'extra', persistentVolumeClaim: { claimName: 'extra-pvc' } },
        { name: 'unmounted', persistentVolumeClaim: { claimName: 'other-pvc' } },
      ]);
      expect(pod.containers[0].volumeMounts).toEqual([
        { name: 'model-cache', mountPath: '/model-cache' },
        { name: 'compile', mountPath: '/compilation-cache', readOnly: true },
        { name: 'extra', mountPath: '/extra' },
      ]);
    });

    test('synthesizes a PVC for each managed volume only (our fix), after the Deployment and Service', () => {
      const { returned, manifests } = synth(vllmDeployment({ spec: { model: { storage: { volumes } } } }));
      expect(returned.map((o) => o.node.id)).toEqual(['Deployment', 'Service', 'ClaimModelCache']);
      expect(find(manifests, 'PersistentVolumeClaim', 'qwen-model-cache')).toEqual(
        managedClaim({ deployment: 'qwen', volume: 'model-cache', size: '100Gi', storageClassName: 'fast' }),
      );
    });

    test('never emits the model download Job', () => {
      const manifests = synthOf({ spec: { model: { storage: { volumes } } } });
      expect(manifests.filter((m) => m.kind === 'Job')).toEqual([]);
    });
  });

  describe('overrides', () => {
    test('deep-merge into the Deployment and leave the Service alone', () => {
      const manifests = synthOf(
        withOverrides({
          spec: {
            progressDeadlineSeconds: 1800,
            strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '50%', maxUnavailable: 0 } },
            template: { spec: { schedulerName: 'gpu-scheduler', terminationGracePeriodSeconds: 120 } },
          },
        }),
      );
      const deployment = find(manifests, 'Deployment', 'qwen');
      expect(deployment.spec.progressDeadlineSeconds).toBe(1800);
      expect(deployment.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '50%', maxUnavailable: 0 } });
      expect(deployment.spec.template.spec.schedulerName).toBe('gpu-scheduler');
      expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBe(120);
      // Merged, not replaced: the rendered parts are still there.
      expect(deployment.spec.replicas).toBe(1);
      expect(deployment.spec.template.spec.containers[0].name).toBe('vllm');
      expect(deployment.spec.template.metadata.labels.app).toBe('qwen');
      const service = find(manifests, 'Service', 'qwen');
      expect(service.spec.progressDeadlineSeconds).toBeUndefined();
    });

    test('replace lists instead of merging them', () => {
      const manifests = synthOf({
        spec: {
          tolerations: [{ key: 'a', operator: 'Exists' }],
          provider: { name: 'vllm', overrides: { spec: { template: { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } } } } },
        },
      });
      expect(find(manifests, 'Deployment', 'qwen').spec.template.spec.tolerations).toEqual([{ key: 'b', operator: 'Exists' }]);
    });

    test('set a key to JSON null when the override value is null', () => {
      const md = vllmDeployment({
        spec: { nodeSelector: { pool: 'gpu' }, provider: { name: 'vllm', overrides: { spec: { template: { spec: { nodeSelector: null } } } } } },
      });
      // A null is not schema-valid; the API server would drop it. Checked without the validator.
      const { manifests } = synth(md, { validateSchema: false });
      expect(find(manifests, 'Deployment', 'qwen').spec.template.spec.nodeSelector).toBeNull();
    });

    test('may set pod labels other than the selector and ownership ones, and replace the containers', () => {
      const manifests = synthOf(
        withOverrides({
          spec: {
            template: {
              metadata: { labels: { team: 'ml' } },
              spec: { containers: [{ name: 'custom', image: 'example.com/vllm:1' }] },
            },
          },
        }),
      );
      const deployment = find(manifests, 'Deployment', 'qwen');
      expect(deployment.spec.template.metadata.labels).toEqual({
        'airunway.ai/deployment': 'qwen', 'app': 'qwen', 'airunway.ai/model-deployment': 'qwen', 'team': 'ml',
      });
      expect(deployment.spec.template.spec.containers).toEqual([{ name: 'custom', image: 'example.com/vllm:1' }]);
    });

  });

  describe('validate', () => {
    test('accepts a valid aggregated deployment', () => {
      expect(validateDirectVllm(vllmDeployment())).toEqual([]);
    });

    vllmEngineValidationCases(subject);
    blockedOverrideKeyCases(harness);
    deploymentOverrideGuardCases(subject);

    test('fails when serving mode is disaggregated', () => {
      expect(errorsOf(disaggregatedDeployment())).toEqual([
        'spec.serving.mode: Invalid value: "disaggregated": vLLM provider does not support disaggregated serving mode; use spec.serving.mode: aggregated',
      ]);
    });

    test('fails when no GPU is requested', () => {
      expect(errorsOf({ spec: { resources: { gpu: { count: 0 } } } })).toEqual([
        'spec.resources.gpu.count: Invalid value: 0: vLLM provider requires GPU resources (spec.resources.gpu.count > 0)',
      ]);
      expect(errorsOf({ spec: { resources: undefined } })).toEqual([
        'spec.resources.gpu.count: Required value: vLLM provider requires GPU resources (spec.resources.gpu.count > 0)',
      ]);
    });

    const POD_LABELS_REASON = 'the Deployment selector, the Service and the InferencePool select vLLM pods by their labels';

    test('fails when overrides change the selector and the pod labels it selects', () => {
      // The reviewed case: the API server would reject the selector/pod-label mismatch.
      const md = vllmDeployment(withOverrides({ spec: { selector: { matchLabels: { x: 'y' } }, template: { metadata: { labels: { app: 'other' } } } } }));
      expect(errorsOf(md)).toEqual([
        'spec.provider.overrides.spec.selector: Forbidden: overriding "spec.selector" is not allowed: it must match the pod labels vLLM sets, which its Service selects',
        `spec.provider.overrides.spec.template.metadata.labels.app: Forbidden: overriding pod label "app" is not allowed: ${POD_LABELS_REASON}`,
      ]);
    });

    test.each([
      ['a selector', { matchLabels: { x: 'y' } }],
      ['null', null],
    ])('fails when overrides set spec.selector (%s)', (_, selector) => {
      expect(errorsOf(withOverrides({ spec: { selector } }))).toEqual([
        'spec.provider.overrides.spec.selector: Forbidden: overriding "spec.selector" is not allowed: it must match the pod labels vLLM sets, which its Service selects',
      ]);
    });

    test('fails when overrides replace spec, spec.template or spec.template.spec with a non-object', () => {
      expect(errorsOf(withOverrides({ spec: null }))).toEqual([
        'spec.provider.overrides.spec: Forbidden: overriding "spec" with a non-object is not allowed: it would replace the whole Deployment spec',
      ]);
      expect(errorsOf(withOverrides({ spec: { template: null } }))).toEqual([
        'spec.provider.overrides.spec.template: Forbidden: overriding "spec.template" with a non-object is not allowed: it would replace the whole pod template',
      ]);
      expect(errorsOf(withOverrides({ spec: { template: { spec: null } } }))).toEqual([
        'spec.provider.overrides.spec.template.spec: Forbidden: overriding "spec.template.spec" with a non-object is not allowed: it would replace the whole pod spec',
      ]);
      expect(errorsOf(withOverrides({ spec: { template: [] } }))).toHaveLength(1);
    });

    test('fails when overrides replace the pod metadata or labels with a non-object', () => {
      expect(errorsOf(withOverrides({ spec: { template: { metadata: null } } }))).toEqual([
        `spec.provider.overrides.spec.template.metadata: Forbidden: overriding "spec.template.metadata" with a non-object is not allowed: ${POD_LABELS_REASON}`,
      ]);
      expect(errorsOf(withOverrides({ spec: { template: { metadata: { labels: 'x' } } } }))).toEqual([
        `spec.provider.overrides.spec.template.metadata.labels: Forbidden: overriding "spec.template.metadata.labels" with a non-object is not allowed: ${POD_LABELS_REASON}`,
      ]);
    });

    test.each([
      ['null', null],
      ['an empty list', []],
      ['a non-list', { name: 'vllm' }],
    ])('fails when overrides set spec.template.spec.containers to %s', (_, containers) => {
      const md = vllmDeployment(withOverrides({ spec: { template: { spec: { containers } } } }));
      const message = 'overriding "spec.template.spec.containers" with anything but a non-empty list is not allowed: a pod needs at least one container';
      expect(errorsOf(md)).toEqual([`spec.provider.overrides.spec.template.spec.containers: Forbidden: ${message}`]);
    });

    test('accepts overrides of other spec, pod template and pod spec fields', () => {
      expect(errorsOf(withOverrides({
        spec: {
          minReadySeconds: 30,
          strategy: null,
          template: { metadata: { labels: { team: 'ml' }, annotations: {} }, spec: { schedulerName: 's', nodeSelector: null, containers: [{ name: 'c' }] } },
        },
      }))).toEqual([]);
    });

    test.each(['host', 'port', '--port', 'port=9000'])('fails when engine.args sets the networking key %s', (key) => {
      expect(errorsOf({ spec: { engine: { args: { [key]: '1' } } } })).toEqual([
        `spec.engine.args.${key}: Invalid value: "1": engine arg ${JSON.stringify(key)} conflicts with Direct vLLM generated networking; ` +
          'Direct vLLM currently requires host 0.0.0.0 and port 8000 to keep the container, Service, and probes aligned',
      ]);
    });

    test.each(['--port', '--port=9000', '--host=::'])('fails when extraArgs sets the networking flag %s', (token) => {
      expect(errorsOf({ spec: { engine: { extraArgs: ['--dtype', 'half', token] } } })).toEqual([
        `spec.engine.extraArgs[2]: Invalid value: ${JSON.stringify(token)}: engine extraArg ${JSON.stringify(token)} conflicts with Direct vLLM generated networking; ` +
          'Direct vLLM currently requires host 0.0.0.0 and port 8000 to keep the container, Service, and probes aligned',
      ]);
    });

    test('does not treat single-dash networking tokens as a conflict', () => {
      expect(errorsOf({ spec: { engine: { extraArgs: ['-port', '9000'] } } })).toEqual([]);
    });

    test('fails when a flag is set in both engine.args and engine.extraArgs', () => {
      // Two GPUs, so that the winning size (the extraArgs one) is also a layout vLLM can start.
      const engine = { args: { 'tensor-parallel-size': '4' }, extraArgs: ['-q', 'awq', '--tensor-parallel-size=2'] };
      expect(errorsOf({ spec: { engine, resources: { gpu: { count: 2 } } } })).toEqual([
        'spec.engine.extraArgs[2]: Invalid value: "--tensor-parallel-size=2": launch flag "tensor-parallel-size" is set in both spec.engine.args and ' +
          'spec.engine.extraArgs ("--tensor-parallel-size=2"); set it in exactly one place so the engine does not receive conflicting values',
      ]);
    });

    test('reports every problem at once', () => {
      const md = {
        ...vllmDeployment({
          spec: {
            engine: { type: 'sglang', args: { 'port': '1', 'bad key': '' } },
            resources: { gpu: { count: 0 } },
            provider: { name: 'vllm', overrides: { metadata: {} } },
          },
        }),
        engine: 'sglang' as const,
      };
      expect(translator.validate(md).map((e) => e.path)).toEqual([
        'spec.engine.type',
        'spec.resources.gpu.count',
        'spec.provider.overrides.metadata',
        'spec.engine.args.port',
        'spec.engine.args.bad key',
      ]);
    });
  });
});
