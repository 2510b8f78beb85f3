import { JsonPatch, Testing } from 'cdk8s';
import { FixtureOptions, kaitoLlamaCppDeployment, kaitoVllmDeployment, LLAMACPP_IMAGE } from './fixtures';
import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { FieldErrorKind } from '../../../src/core/field-error';
import { TOLERATE_GPU_TAINT_ANNOTATION } from '../../../src/core/gpu-taint-toleration';
import { KaitoProvider, KaitoProviderProps } from '../../../src/providers/kaito';
import { KAITO_GPU_TYPE_NOT_SUPPORTED, validateKaito } from '../../../src/providers/kaito/validation';
import { commonLabels } from '../../support/expected-manifests';
import { blockedOverrideKeyCases } from '../../support/provider-cases';
import { expectValidManifests, validateManifest } from '../../support/schema-validator';
import { Synthesized, synthesize, translatorHarness, translatorOf } from '../../support/translator-harness';

const harness = translatorHarness(new KaitoProvider(), kaitoVllmDeployment);
const { errorsOf, translator: kaitoTranslator } = harness;

/** Test settings: the provider's node provisioning props. */
interface KaitoTranslatorOptions {
  readonly nodeProvisioning?: KaitoProviderProps;
}

/**
 * Translates into a fresh chart and synthesizes. Every output is checked against the
 * kaito.sh/v1beta1 Workspace schema (unknown fields rejected); the llama.cpp pod template, which
 * the CRD keeps as free JSON, is checked against the core v1 PodTemplate schema as well.
 */
function synth(md: ResolvedModelDeployment, options: KaitoTranslatorOptions & { validateSchema?: boolean } = {}): Synthesized {
  const translator = options.nodeProvisioning ? translatorOf(new KaitoProvider(options.nodeProvisioning)) : kaitoTranslator;
  const synthesized = synthesize(translator, md, { validateSchema: options.validateSchema });
  if (options.validateSchema ?? true) {
    for (const m of synthesized.manifests) {
      if (m.inference?.template) {
        expectValidManifests({ apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: m.metadata.name }, template: m.inference.template });
      }
    }
  }
  return synthesized;
}

function workspaceOf(md: ResolvedModelDeployment, options: KaitoTranslatorOptions = {}): any {
  const { manifests } = synth(md, options);
  expect(manifests).toHaveLength(1);
  return manifests[0];
}

function vllm(options: FixtureOptions = {}): any {
  return workspaceOf(kaitoVllmDeployment(options));
}

function llama(options: FixtureOptions = {}): any {
  return workspaceOf(kaitoLlamaCppDeployment(options));
}

function llamaContainer(options: FixtureOptions = {}): any {
  return llama(options).inference.template.spec.containers[0];
}

describe('KaitoProvider', () => {
  test('identifies the kaito provider', () => {
    expect(kaitoTranslator.providerName).toBe('kaito');
    expect(kaitoTranslator.displayName).toBe('KAITO');
  });

  test('creates exactly one Workspace as child "Workspace", named and namespaced like the deployment', () => {
    const { returned, manifests } = synth(kaitoVllmDeployment());
    expect(returned.map((o) => [o.node.id, o.apiVersion, o.kind, o.name])).toEqual([['Workspace', 'kaito.sh/v1beta1', 'Workspace', 'qwen']]);
    expect(manifests).toHaveLength(1);
    expect(manifests[0].metadata.namespace).toBe('ml');
    // No ownerReferences: the ModelDeployment uid is unknown at build time.
    expect(manifests[0].metadata.ownerReferences).toBeUndefined();
    // resource and inference sit at the root; a Workspace has no spec.
    expect(Object.keys(manifests[0]).sort()).toEqual(['apiVersion', 'inference', 'kind', 'metadata', 'resource']);
  });

  test('omits the namespace when the deployment has none', () => {
    expect(vllm({}).metadata.namespace).toBe('ml');
    expect(workspaceOf(kaitoVllmDeployment({ namespace: null })).metadata).not.toHaveProperty('namespace');
  });

  describe('vLLM preset on GPU', () => {
    test('matches the snapshot', () => {
      expect(synth(kaitoVllmDeployment()).manifests).toMatchSnapshot();
    });

    test('renders the preset named by the model id and a GPU node selector', () => {
      expect(vllm()).toEqual({
        apiVersion: 'kaito.sh/v1beta1',
        kind: 'Workspace',
        metadata: {
          name: 'qwen',
          namespace: 'ml',
          labels: { ...commonLabels('qwen'), 'airunway.ai/model-deployment': 'qwen' },
        },
        resource: {
          count: 1,
          labelSelector: { matchLabels: { 'kubernetes.io/os': 'linux', 'nvidia.com/gpu.present': 'true' } },
        },
        inference: { preset: { name: 'Qwen/Qwen3-0.6B' } },
      });
    });

    test('passes no engine tuning to the preset, and warns about what it ignores', () => {
      const md = kaitoVllmDeployment({
        spec: {
          model: { servedName: 'qwen3' },
          engine: { contextLength: 32768, trustRemoteCode: true, args: { 'max-num-seqs': '8' }, extraArgs: ['--disable-log-requests'], image: 'vllm/vllm-openai:v0.11.0' },
          env: [{ name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' }],
          secrets: { huggingFaceToken: 'hf-token' },
          resources: { gpu: { count: 2, type: 'nvidia.com/gpu' }, memory: '64Gi', cpu: '8' },
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
        },
      });
      const { manifests, warnings } = synth(md);
      expect(manifests[0].inference).toEqual({ preset: { name: 'Qwen/Qwen3-0.6B' } });
      expect(JSON.stringify(manifests[0])).not.toMatch(/32768|max-num-seqs|VLLM_LOGGING_LEVEL|hf-token|64Gi|NoSchedule|vllm-openai/);
      expect(warnings).toEqual([
        'KAITO ignores spec.model.servedName, spec.engine.contextLength, spec.engine.trustRemoteCode, spec.engine.args, '
        + 'spec.engine.extraArgs, spec.engine.image, spec.env, spec.secrets.huggingFaceToken, spec.resources.memory, '
        + 'spec.resources.cpu, spec.tolerations (not passed to the vLLM preset, whose image, flags and sizing KAITO chooses)',
      ]);
    });

    test('records no warning for a plain deployment', () => {
      expect(synth(kaitoVllmDeployment()).warnings).toEqual([]);
      expect(synth(kaitoLlamaCppDeployment()).warnings).toEqual([]);
    });
  });

  describe('metadata', () => {
    test('merges pod-template labels over the AI Runway labels without replacing them, and copies pod-template annotations', () => {
      const ws = vllm({
        spec: {
          podTemplate: {
            metadata: {
              labels: { 'team': 'ml', 'airunway.ai/deployment': 'other', 'airunway.ai/model-deployment': 'other' },
              annotations: { 'prometheus.io/scrape': 'true' },
            },
          },
        },
      });
      expect(ws.metadata.labels).toEqual({ ...commonLabels('qwen'), 'airunway.ai/model-deployment': 'qwen', 'team': 'ml' });
      expect(ws.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true' });
    });

    test('writes no annotations when the pod template has none (no kaito-last-applied bookkeeping)', () => {
      expect(vllm().metadata).not.toHaveProperty('annotations');
    });

    test('labels the model source and engine of the deployment', () => {
      const labels = llama({ spec: { model: { source: 'custom', id: '' } } }).metadata.labels;
      expect(labels['airunway.ai/model-source']).toBe('custom');
      expect(labels['airunway.ai/engine-type']).toBe('llamacpp');
    });
  });

  describe('resource', () => {
    test.each([
      [undefined, 1],
      [0, 1],
      [1, 1],
      [3, 3],
    ])('count is %p replicas → %p', (replicas, count) => {
      const scaling = replicas === undefined ? undefined : { replicas };
      expect(vllm({ spec: { scaling } }).resource.count).toBe(count);
    });

    test('label selector: linux, then spec.nodeSelector, then the forced GPU label', () => {
      const ws = vllm({
        spec: { nodeSelector: { 'nvidia.com/gpu.product': 'NVIDIA-A100-SXM4-80GB', 'nvidia.com/gpu.present': 'false', 'kubernetes.io/os': 'linux' } },
      });
      expect(ws.resource.labelSelector).toEqual({
        matchLabels: {
          'kubernetes.io/os': 'linux',
          'nvidia.com/gpu.product': 'NVIDIA-A100-SXM4-80GB',
          'nvidia.com/gpu.present': 'true',
        },
      });
    });

    test('label selector has no GPU label without GPUs (count 0 or no gpu block)', () => {
      expect(llama({ spec: { nodeSelector: { pool: 'cpu' } } }).resource.labelSelector).toEqual({
        matchLabels: { 'kubernetes.io/os': 'linux', 'pool': 'cpu' },
      });
      expect(vllm({ spec: { resources: { gpu: { count: 0, type: 'nvidia.com/gpu' } } } }).resource.labelSelector).toEqual({
        matchLabels: { 'kubernetes.io/os': 'linux' },
      });
    });

    test('GPU count only toggles the GPU label: no GPU count is emitted anywhere', () => {
      const ws = vllm({ spec: { resources: { gpu: { count: 4, type: 'nvidia.com/gpu' } } } });
      expect(ws.resource).toEqual({
        count: 1,
        labelSelector: { matchLabels: { 'kubernetes.io/os': 'linux', 'nvidia.com/gpu.present': 'true' } },
      });
    });

    test('tolerations are ignored (a Workspace has no place for them)', () => {
      const { manifests, warnings } = synth(kaitoLlamaCppDeployment({ spec: { tolerations: [{ key: 'dedicated', operator: 'Exists' }] } }));
      expect(JSON.stringify(manifests[0])).not.toContain('dedicated');
      expect(warnings).toEqual(['KAITO ignores spec.tolerations (not passed to the llama.cpp Workspace)']);
    });

    describe('instance types (node auto-provisioning)', () => {
      const nodeProvisioning = { gpuInstanceType: 'Standard_NC24ads_A100_v4', cpuInstanceType: 'Standard_D8s_v5' };

      test('the shipped translator emits no instanceType (bring-your-own nodes)', () => {
        expect(vllm().resource).not.toHaveProperty('instanceType');
        expect(llama().resource).not.toHaveProperty('instanceType');
      });

      test('uses the GPU instance type when GPUs are requested, keeping the label selector', () => {
        const ws = workspaceOf(kaitoVllmDeployment(), { nodeProvisioning });
        expect(ws.resource).toEqual({
          count: 1,
          instanceType: 'Standard_NC24ads_A100_v4',
          labelSelector: { matchLabels: { 'kubernetes.io/os': 'linux', 'nvidia.com/gpu.present': 'true' } },
        });
      });

      test('uses the CPU instance type without GPUs', () => {
        expect(workspaceOf(kaitoLlamaCppDeployment(), { nodeProvisioning }).resource.instanceType).toBe('Standard_D8s_v5');
      });

      test('emits no instanceType when the matching type is not set', () => {
        expect(workspaceOf(kaitoLlamaCppDeployment(), { nodeProvisioning: { gpuInstanceType: 'Standard_NC24ads_A100_v4' } }).resource)
          .not.toHaveProperty('instanceType');
        expect(workspaceOf(kaitoVllmDeployment(), { nodeProvisioning: { cpuInstanceType: 'Standard_D8s_v5', gpuInstanceType: '  ' } }).resource)
          .not.toHaveProperty('instanceType');
      });
    });
  });

  describe('llama.cpp template', () => {
    test('on CPU matches the snapshot', () => {
      expect(synth(kaitoLlamaCppDeployment()).manifests).toMatchSnapshot();
    });

    test('on GPU with resources, env and a GGUF file matches the snapshot', () => {
      const md = kaitoLlamaCppDeployment({
        spec: {
          engine: { args: { ggufUrl: 'https://huggingface.co/TheBloke/TinyLlama-1.1B-Chat-v1.0-GGUF/resolve/main/tinyllama-1.1b-chat-v1.0.Q4_K_M.gguf' } },
          resources: { gpu: { count: 1, type: 'nvidia.com/gpu' }, memory: '8Gi', cpu: '2' },
          scaling: { replicas: 2 },
          env: [{ name: 'LLAMA_ARG_CTX_SIZE', value: '4096' }],
          secrets: { huggingFaceToken: 'hf-token' },
          nodeSelector: { 'node.kubernetes.io/instance-type': 'Standard_NC6s_v3' },
          podTemplate: { metadata: { labels: { team: 'ml' } } },
        },
      });
      expect(synth(md).manifests).toMatchSnapshot();
    });

    test('renders one container "model" serving huggingface://<model id> on port 5000', () => {
      const ws = llama();
      expect(ws.inference).toEqual({
        template: {
          metadata: { labels: { 'airunway.ai/model-deployment': 'tinyllama' } },
          spec: {
            containers: [{
              name: 'model',
              image: LLAMACPP_IMAGE,
              args: ['huggingface://TheBloke/TinyLlama-1.1B-Chat-v1.0-GGUF', '--address=:5000'],
              ports: [{ containerPort: 5000 }],
            }],
          },
        },
      });
      expect(ws.resource).toEqual({ count: 1, labelSelector: { matchLabels: { 'kubernetes.io/os': 'linux' } } });
    });

    test('on GPU: selects GPU nodes but requests no GPU in the container', () => {
      const ws = llama({ spec: { resources: { gpu: { count: 2, type: 'nvidia.com/gpu' } } } });
      expect(ws.resource.labelSelector.matchLabels['nvidia.com/gpu.present']).toBe('true');
      expect(ws.inference.template.spec.containers[0]).not.toHaveProperty('resources');
      expect(JSON.stringify(ws)).not.toContain('nvidia.com/gpu"');
    });

    test('requests memory and CPU from spec.resources, never limits', () => {
      expect(llamaContainer({ spec: { resources: { memory: '8Gi', cpu: '2' } } }).resources).toEqual({ requests: { memory: '8Gi', cpu: '2' } });
      expect(llamaContainer({ spec: { resources: { memory: '8Gi' } } }).resources).toEqual({ requests: { memory: '8Gi' } });
      expect(llamaContainer({ spec: { resources: { cpu: '500m', gpu: { count: 1, type: 'nvidia.com/gpu' } } } }).resources).toEqual({ requests: { cpu: '500m' } });
    });

    test('prefers engine.args.ggufUrl over huggingface://<model id>, and ignores other engine args', () => {
      const url = 'https://huggingface.co/TheBloke/TinyLlama-1.1B-Chat-v1.0-GGUF/resolve/main/tinyllama-1.1b-chat-v1.0.Q4_K_M.gguf';
      const { manifests, warnings } = synth(kaitoLlamaCppDeployment({ spec: { engine: { args: { 'ggufUrl': url, 'n-gpu-layers': '99' } } } }));
      expect(manifests[0].inference.template.spec.containers[0].args).toEqual([url, '--address=:5000']);
      expect(warnings).toEqual(['KAITO ignores spec.engine.args (not passed to the llama.cpp Workspace)']);
    });

    test('an empty ggufUrl falls back to huggingface://<model id>', () => {
      expect(llamaContainer({ spec: { engine: { args: { ggufUrl: '' } } } }).args).toEqual(['huggingface://TheBloke/TinyLlama-1.1B-Chat-v1.0-GGUF', '--address=:5000']);
    });

    test('a pre-made image (custom source) gets no model argument, even with a ggufUrl', () => {
      const image = 'registry.example.com/models/tinyllama-aikit:1.0';
      expect(llamaContainer({ spec: { model: { source: 'custom', id: '' }, engine: { image } } })).toEqual({
        name: 'model',
        image,
        args: ['--address=:5000'],
        ports: [{ containerPort: 5000 }],
      });
      expect(llamaContainer({ spec: { model: { source: 'custom', id: 'tinyllama' }, engine: { image, args: { ggufUrl: 'https://example.com/m.gguf' } } } }).args)
        .toEqual(['--address=:5000']);
    });

    test('a Hugging Face model with an empty id gets no model argument', () => {
      expect(llamaContainer({ spec: { model: { id: '' } } }).args).toEqual(['--address=:5000']);
    });

    test('warns that prefix caching cannot be switched off', () => {
      expect(synth(kaitoLlamaCppDeployment({ spec: { engine: { enablePrefixCaching: false } } })).warnings)
        .toEqual(['KAITO ignores spec.engine.enablePrefixCaching (not passed to the llama.cpp Workspace)']);
    });

    test('never passes the served name', () => {
      const { manifests, warnings } = synth(kaitoLlamaCppDeployment({ spec: { model: { servedName: 'tinyllama-chat' } } }));
      expect(JSON.stringify(manifests[0])).not.toContain('tinyllama-chat');
      expect(warnings).toEqual(['KAITO ignores spec.model.servedName (not passed to the llama.cpp Workspace)']);
    });

    describe('image', () => {
      test('takes the legacy spec.image when engine.image is unset', () => {
        expect(llamaContainer({ spec: { engine: { image: undefined }, image: 'example.com/llama:legacy' } }).image).toBe('example.com/llama:legacy');
      });

      test('prefers spec.engine.image over spec.image', () => {
        expect(llamaContainer({ spec: { engine: { image: 'example.com/llama:engine' }, image: 'example.com/llama:legacy' } }).image).toBe('example.com/llama:engine');
      });

    });

    describe('env', () => {
      test('is omitted without spec.env and token Secret', () => {
        expect(llamaContainer()).not.toHaveProperty('env');
      });

      test('copies spec.env in order, then HF_TOKEN from the token Secret', () => {
        const env = llamaContainer({
          spec: {
            env: [
              { name: 'LLAMA_ARG_CTX_SIZE', value: '4096' },
              { name: 'API_KEY', valueFrom: { secretKeyRef: { name: 'llama-api', key: 'key' } } },
              { name: 'EMPTY' },
            ],
            secrets: { huggingFaceToken: 'hf-token' },
          },
        }).env;
        expect(env).toEqual([
          { name: 'LLAMA_ARG_CTX_SIZE', value: '4096' },
          { name: 'API_KEY', valueFrom: { secretKeyRef: { name: 'llama-api', key: 'key' } } },
          { name: 'EMPTY' },
          { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf-token', key: 'HF_TOKEN' } } },
        ]);
      });

      test('keeps every valueFrom source, and valueFrom wins over value', () => {
        const env = llamaContainer({
          spec: {
            env: [
              { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'llama-config', key: 'mode' } } },
              { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
              { name: 'BOTH', value: 'ignored', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
            ],
          },
        }).env;
        expect(env).toEqual([
          { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'llama-config', key: 'mode' } } },
          { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
          { name: 'BOTH', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
        ]);
      });

      test('a user HF_TOKEN gives way to the token Secret', () => {
        const env = llamaContainer({ spec: { env: [{ name: 'HF_TOKEN', value: 'hf_plain' }], secrets: { huggingFaceToken: 'hf-token' } } }).env;
        expect(env).toEqual([{ name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf-token', key: 'HF_TOKEN' } } }]);
        expect(llamaContainer({ spec: { env: [{ name: 'HF_TOKEN', value: 'hf_plain' }] } }).env).toEqual([{ name: 'HF_TOKEN', value: 'hf_plain' }]);
      });
    });
  });

  describe('overrides', () => {
    test('deep-merge into the Workspace root: maps merge, other values replace', () => {
      const ws = vllm({
        spec: {
          provider: {
            name: 'kaito',
            overrides: {
              resource: { preferredNodes: ['gpu-node-1'], labelSelector: { matchLabels: { pool: 'a100' } } },
              inference: { preset: { presetOptions: { modelAccessSecret: 'hf-token' } } },
            },
          },
        },
      });
      expect(ws.resource).toEqual({
        count: 1,
        preferredNodes: ['gpu-node-1'],
        labelSelector: { matchLabels: { 'kubernetes.io/os': 'linux', 'nvidia.com/gpu.present': 'true', 'pool': 'a100' } },
      });
      expect(ws.inference).toEqual({ preset: { name: 'Qwen/Qwen3-0.6B', presetOptions: { modelAccessSecret: 'hf-token' } } });
    });

    test('a null value deletes the key', () => {
      const ws = workspaceOf(
        kaitoVllmDeployment({
          spec: {
            provider: {
              name: 'kaito',
              overrides: { resource: { instanceType: null, labelSelector: { matchLabels: { 'nvidia.com/gpu.present': null, 'accelerator': 'nvidia' } } } },
            },
          },
        }),
        { nodeProvisioning: { gpuInstanceType: 'Standard_NC24ads_A100_v4' } },
      );
      expect(ws.resource).toEqual({ count: 1, labelSelector: { matchLabels: { 'kubernetes.io/os': 'linux', 'accelerator': 'nvidia' } } });
    });

    test('lists replace: a template container list is swapped whole', () => {
      const containers = [{ name: 'model', image: 'example.com/llama:override', args: ['--address=:5000'] }];
      const ws = llama({ spec: { provider: { name: 'kaito', overrides: { inference: { template: { spec: { containers } } } } } } });
      expect(ws.inference.template.spec.containers).toEqual(containers);
      expect(ws.inference.template.metadata).toEqual({ labels: { 'airunway.ai/model-deployment': 'tinyllama' } });
    });

    test('are applied after JSON patches', () => {
      const chart = Testing.chart();
      const [ws] = kaitoTranslator.translate(chart, kaitoVllmDeployment({ spec: { provider: { name: 'kaito', overrides: { resource: { preferredNodes: ['a'] } } } } }));
      ws.addJsonPatch(JsonPatch.add('/resource/preferredNodes', ['b']));
      expect(Testing.synth(chart)[0].resource.preferredNodes).toEqual(['a']);
    });

  });

  describe('validate', () => {
    test('accepts the vLLM preset and llama.cpp on CPU and GPU', () => {
      expect(validateKaito(kaitoVllmDeployment())).toEqual([]);
      expect(validateKaito(kaitoLlamaCppDeployment())).toEqual([]);
      expect(validateKaito(kaitoLlamaCppDeployment({ spec: { resources: { gpu: { count: 1, type: 'nvidia.com/gpu' } } } }))).toEqual([]);
      expect(validateKaito(kaitoVllmDeployment({ spec: { provider: { name: 'kaito', overrides: { resource: { preferredNodes: ['n1'] }, inference: {} } } } }))).toEqual([]);
    });

    test('fails when the engine is sglang', () => {
      expect(validateKaito(kaitoVllmDeployment({ spec: { engine: { type: 'sglang' } } }))).toEqual([
        { path: 'spec.engine.type', kind: FieldErrorKind.INVALID, value: 'sglang', message: 'KAITO does not support sglang engine' },
      ]);
    });

    test('fails when the engine is trtllm', () => {
      expect(errorsOf(kaitoVllmDeployment({ spec: { engine: { type: 'trtllm' } } }))).toEqual([
        'spec.engine.type: Invalid value: "trtllm": KAITO does not support trtllm engine',
      ]);
    });

    test('fails when the serving mode is disaggregated', () => {
      const md = kaitoVllmDeployment({
        spec: {
          serving: { mode: 'disaggregated' },
          resources: undefined,
          scaling: {
            prefill: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/gpu' } },
            decode: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/gpu' } },
          },
        },
      });
      expect(errorsOf(md)).toEqual(['spec.serving.mode: Invalid value: "disaggregated": KAITO does not support disaggregated serving mode']);
    });

    test('fails when llama.cpp has neither spec.engine.image nor spec.image', () => {
      expect(validateKaito(kaitoLlamaCppDeployment({ spec: { engine: { image: undefined } } }))).toEqual([
        { path: 'spec.image', kind: FieldErrorKind.REQUIRED, message: 'llamacpp engine requires spec.image to be set' },
      ]);
      expect(errorsOf(kaitoLlamaCppDeployment({ spec: { engine: { image: '' }, image: '' } }))).toEqual([
        'spec.image: Required value: llamacpp engine requires spec.image to be set',
      ]);
    });

    test('accepts llama.cpp with only spec.engine.image (unlike AI Runway, which demands spec.image) or only spec.image', () => {
      expect(validateKaito(kaitoLlamaCppDeployment({ spec: { engine: { image: 'example.com/llama:1' } } }))).toEqual([]);
      expect(validateKaito(kaitoLlamaCppDeployment({ spec: { engine: { image: undefined }, image: 'example.com/llama:1' } }))).toEqual([]);
    });

    test('fails when the vLLM preset has no model id', () => {
      expect(errorsOf(kaitoVllmDeployment({ spec: { model: { source: 'custom', id: '' } } }))).toEqual([
        "spec.model.id: Required value: KAITO's vLLM preset is named by the model id; set spec.model.id",
      ]);
    });

    blockedOverrideKeyCases(harness);

    describe('overrides: only the roots resource and inference, without resource.count', () => {
      const withOverrides = (overrides: unknown) => kaitoVllmDeployment({ spec: { provider: { name: 'kaito', overrides: overrides as any } } });
      const onlyRoots = 'KAITO overrides accept only the root keys "resource" and "inference" (they merge into the Workspace root)';

      test('fails when an override names spec, which a Workspace does not have', () => {
        expect(errorsOf(withOverrides({ spec: { resource: { preferredNodes: ['n1'] } } }))).toEqual([
          `spec.provider.overrides.spec: Forbidden: ${onlyRoots}, not "spec": a Workspace has no spec: resource and inference sit at its root`,
        ]);
      });

      test('fails when an override names tuning, a root a Workspace has but a serving one must not use', () => {
        expect(errorsOf(withOverrides({ tuning: { method: 'lora' } }))).toEqual([
          `spec.provider.overrides.tuning: Forbidden: ${onlyRoots}, not "tuning": ` +
            'a Workspace either serves a model (inference) or fine-tunes one (tuning), and the Workspace of a ModelDeployment serves',
        ]);
      });

      test('fails once per unknown root, naming each, and not for the blocked keys (reported as such)', () => {
        expect(errorsOf(withOverrides({ resourse: {}, constructor: 1, kind: 'x', inference: {} }))).toEqual([
          'spec.provider.overrides.kind: Forbidden: overriding "kind" is not allowed',
          `spec.provider.overrides.resourse: Forbidden: ${onlyRoots}, not "resourse": a Workspace has no root field "resourse"; the API server would drop it`,
          `spec.provider.overrides.constructor: Forbidden: ${onlyRoots}, not "constructor": a Workspace has no root field "constructor"; the API server would drop it`,
        ]);
      });

      test('fails when an override sets resource.count, which comes from spec.scaling.replicas', () => {
        expect(validateKaito(withOverrides({ resource: { count: 3, preferredNodes: ['n1'] } }))).toEqual([{
          path: 'spec.provider.overrides.resource.count',
          kind: FieldErrorKind.FORBIDDEN,
          message: 'overriding "resource.count" is not allowed: the Workspace\'s node count comes from spec.scaling.replicas, where admission enforces its limits',
        }]);
        // Only at resource.count: a count elsewhere (a container's, say) is not the node count.
        expect(validateKaito(withOverrides({ inference: { count: 3 }, resource: { labelSelector: { matchLabels: { count: '3' } } } }))).toEqual([]);
      });

      test.each([[null], ['x'], [[]], [5]])('fails when resource or inference is not an object (%j): it would replace the rendered block', (value) => {
        expect(errorsOf(withOverrides({ resource: value, inference: value }))).toEqual(['resource', 'inference'].map((root) =>
          `spec.provider.overrides.${root}: Forbidden: overriding "${root}" with a non-object is not allowed: ` +
            `it would replace (a null would delete) the Workspace's whole ${root} block; override its fields instead`));
      });

      test('accepts fields under resource and inference, null ones included (KAITO deletes those keys)', () => {
        expect(validateKaito(withOverrides({ resource: { instanceType: null, preferredNodes: ['n1'] }, inference: { preset: { presetOptions: {} } } }))).toEqual([]);
      });
    });

    test('fails with every rejection at once', () => {
      const md = kaitoLlamaCppDeployment({
        spec: {
          engine: { image: undefined },
          serving: { mode: 'disaggregated' },
          provider: { name: 'kaito', overrides: { metadata: { name: 'x' } } },
        },
      });
      expect(validateKaito(md).map((e) => e.path)).toEqual(['spec.serving.mode', 'spec.image', 'spec.provider.overrides.metadata']);
    });

    test.each(['amd.com/gpu', 'nvidia.com/mig-1g.10gb', 'gpu.intel.com/i915'])('fails when GPUs of type %s are requested (vLLM preset and llama.cpp)', (type) => {
      const message = `spec.resources.gpu.type: Invalid value: ${JSON.stringify(type)}: ${KAITO_GPU_TYPE_NOT_SUPPORTED}`;
      expect(errorsOf(kaitoVllmDeployment({ spec: { resources: { gpu: { count: 1, type } } } }))).toEqual([message]);
      expect(errorsOf(kaitoLlamaCppDeployment({ spec: { resources: { gpu: { count: 2, type } } } }))).toEqual([message]);
    });

    test('the GPU type message says what to do instead', () => {
      expect(KAITO_GPU_TYPE_NOT_SUPPORTED).toBe(
        'KAITO cannot request this GPU type: a Workspace sizes GPUs by its instanceType and KAITO always requests nvidia.com/gpu; ' +
          'remove spec.resources.gpu.type (or set it to nvidia.com/gpu) and choose the GPU model through the instanceType ' +
          '(KaitoProvider gpuInstanceType) or spec.nodeSelector, or use the vllm, llmd, kuberay or dynamo provider, which request any GPU type',
      );
    });

    test('accepts any GPU type when no GPU is requested (llama.cpp on CPU)', () => {
      expect(errorsOf(kaitoLlamaCppDeployment({ spec: { resources: { gpu: { count: 0, type: 'amd.com/gpu' } } } }))).toEqual([]);
    });

    test('accepts the GPU taint annotation and leaves the Workspace as it is (KAITO tolerates nvidia.com/gpu itself)', () => {
      const md = kaitoVllmDeployment({ annotations: { [TOLERATE_GPU_TAINT_ANNOTATION]: 'true' } });
      expect(errorsOf(md)).toEqual([]);
      expect(workspaceOf(md)).toEqual(workspaceOf(kaitoVllmDeployment()));
    });

    test('fails when the engine is one KAITO has no translation for', () => {
      const md = { ...kaitoVllmDeployment(), engine: 'mocker' } as unknown as ResolvedModelDeployment;
      expect(errorsOf(md)).toEqual(['spec.engine.type: Invalid value: "mocker": failed to build inference spec: unsupported engine type for KAITO: mocker']);
    });

  });

  test('schema check: the Workspace validates and would catch an unknown field', () => {
    const { manifests } = synth(kaitoLlamaCppDeployment());
    expect(validateManifest(manifests[0])).toEqual([]);
    expect(validateManifest({ ...manifests[0], spec: {} }).map((v) => v.path)).toEqual(['spec']);
  });
});
