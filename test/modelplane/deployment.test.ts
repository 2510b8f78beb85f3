import { Chart, Size, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-34';
import { DeviceRequest, DeviceSelector } from '../../src/api/devices/devices';
import {
  ModelplaneCacheSource,
  ModelplaneDeployment,
  ModelplaneDeploymentProps,
  ModelplaneEngineOptions,
  ModelplaneEnginePhase,
  ModelplaneModelCache,
  ModelplaneServingMode,
  ModelplaneTaintEffect,
  ModelplaneTolerationOperator,
} from '../../src/modelplane';
import { ModelplaneProvider } from '../../src/providers/modelplane';
import { admittedDeployment } from '../support/resolved-deployment';
import { expectValidManifests } from '../support/schema-validator';
import { synthesize, translatorOf } from '../support/translator-harness';

const H100: DeviceRequest[] = [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 8, selectors: [DeviceSelector.productName('NVIDIA H100 80GB HBM3')] }];
const H100_DEVICES = [{ name: 'gpu', count: 8, selectors: [{ cel: 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"' }] }];
const VLLM = { image: 'vllm/vllm-openai:v0.11.0', args: ['--model=Qwen/Qwen3-8B'] };

function chart(): Chart {
  return Testing.chart();
}

/** Validation messages of the chart (what `App.synth()` would report), without construct paths. */
function errorsOf(c: Chart): string[] {
  return c.node.findAll().flatMap((n) => n.node.validate());
}

function deploymentOf(props: ModelplaneDeploymentProps): { errors: string[]; manifests: any[] } {
  const c = chart();
  new ModelplaneDeployment(c, 'md', props);
  const errors = errorsOf(c);
  return { errors, manifests: errors.length === 0 ? Testing.synth(c) : [] };
}

function standalone(overrides: Partial<ModelplaneEngineOptions> = {}): ModelplaneEngineOptions {
  return { name: 'qwen', container: VLLM, devices: H100, ...overrides };
}

describe('ModelplaneDeployment', () => {
  test('renders a Standalone engine whose typed device requests become its node selector', () => {
    const c = chart();
    const md = new ModelplaneDeployment(c, 'md', { metadata: { name: 'qwen3-8b', namespace: 'ml-team' }, replicas: 2, engines: [standalone()] });
    expect(errorsOf(c)).toEqual([]);
    const manifests = Testing.synth(c);
    expectValidManifests(manifests);
    expect(md.name).toBe('qwen3-8b');
    expect(manifests).toEqual([{
      apiVersion: 'modelplane.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: { name: 'qwen3-8b', namespace: 'ml-team' },
      spec: {
        replicas: 2,
        template: {
          spec: {
            engines: [{
              name: 'qwen',
              members: [{
                role: 'Standalone',
                nodeSelector: { devices: H100_DEVICES },
                template: { spec: { containers: [{ name: 'engine', image: 'vllm/vllm-openai:v0.11.0', args: ['--model=Qwen/Qwen3-8B'] }] } },
              }],
            }],
          },
        },
      },
    }]);
  });

  test('renders the same node-selector devices as the provider for the same DeviceRequest', () => {
    const { manifests } = deploymentOf({ engines: [standalone()] });
    const provider = translatorOf(new ModelplaneProvider());
    const { manifests: fromProvider } = synthesize(provider, admittedDeployment('modelplane', {
      annotations: { 'inference.cdk8s.io/devices': JSON.stringify({ resources: H100.map((r) => ({ ...r, selectors: r.selectors!.map((s) => s.toJson()) })) }) },
      spec: { resources: { gpu: { count: 8, type: 'nvidia.com/gpu' } } },
    }));
    const devices = (m: any[]) => m[0].spec.template.spec.engines[0].members[0].nodeSelector;
    expect(devices(manifests)).toEqual(devices(fromProvider));
  });

  test('renders a Leader/Worker gang; Workers default to the Leader\'s container and devices', () => {
    const { errors, manifests } = deploymentOf({
      modelCache: ModelplaneModelCache.fromName('qwen-weights'),
      engines: [standalone({
        name: 'big',
        copies: 2,
        container: { image: 'vllm/vllm-openai:v0.11.0', command: ['sh', '-c', 'vllm serve --nnodes=3 --master-addr=$(MODELPLANE_LEADER_ADDRESS)'] },
        workers: { nodes: 2 },
      })],
    });
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    const spec = manifests[0].spec.template.spec;
    expect(spec.modelCacheRef).toEqual({ name: 'qwen-weights' });
    const container = { name: 'engine', image: 'vllm/vllm-openai:v0.11.0', command: ['sh', '-c', 'vllm serve --nnodes=3 --master-addr=$(MODELPLANE_LEADER_ADDRESS)'] };
    expect(spec.engines[0]).toEqual({
      name: 'big',
      copies: 2,
      members: [
        { role: 'Leader', nodeSelector: { devices: H100_DEVICES }, template: { spec: { containers: [container] } } },
        { role: 'Worker', nodeSelector: { devices: H100_DEVICES }, worker: { nodes: 2 }, template: { spec: { containers: [container] } } },
      ],
    });
  });

  test('renders a coordinator-only Leader whose Workers carry the devices', () => {
    const { errors, manifests } = deploymentOf({
      modelCache: ModelplaneModelCache.fromName('weights'),
      engines: [{ name: 'gang', container: VLLM, workers: { nodes: 4, devices: H100, container: { image: 'example.com/worker:1' }, podLabels: { role: 'worker' } } }],
    });
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    const members = manifests[0].spec.template.spec.engines[0].members;
    expect(members[0]).toEqual({ role: 'Leader', template: { spec: { containers: [{ name: 'engine', ...VLLM }] } } });
    expect(members[1]).toEqual({
      role: 'Worker',
      nodeSelector: { devices: H100_DEVICES },
      worker: { nodes: 4 },
      template: { metadata: { labels: { role: 'worker' } }, spec: { containers: [{ name: 'engine', image: 'example.com/worker:1' }] } },
    });
  });

  test('renders PrefillDecode with engines added after construction', () => {
    const c = chart();
    const md = new ModelplaneDeployment(c, 'md', { servingMode: ModelplaneServingMode.PREFILL_DECODE });
    md.addEngine(standalone({ name: 'prefill', phase: ModelplaneEnginePhase.PREFILL }));
    md.addEngine(standalone({ name: 'decode', phase: ModelplaneEnginePhase.DECODE, container: { ...VLLM, args: ['--model=Qwen/Qwen3-8B', '--port=8001'] } }));
    expect(errorsOf(c)).toEqual([]);
    const manifests = Testing.synth(c);
    expectValidManifests(manifests);
    const spec = manifests[0].spec.template.spec;
    expect(spec.serving).toEqual({ mode: 'PrefillDecode' });
    expect(spec.engines.map((e: any) => [e.name, e.phase])).toEqual([['prefill', 'Prefill'], ['decode', 'Decode']]);
  });

  test('renders cluster selection, tolerations, replica labels, pod metadata, pull Secrets and env', () => {
    const { errors, manifests } = deploymentOf({
      clusterSelector: { region: 'eu' },
      tolerations: [{ key: 'reserved', value: 'ml', effect: ModelplaneTaintEffect.NO_SCHEDULE }, { operator: ModelplaneTolerationOperator.EXISTS }],
      replicaLabels: { tier: 'prod' },
      imagePullSecrets: ['ngc'],
      engines: [standalone({
        podLabels: { app: 'qwen' },
        podAnnotations: { 'sidecar.istio.io/inject': 'false' },
        container: {
          ...VLLM,
          env: [
            { name: 'A', value: '1' },
            { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf', key: 'token' } } },
            { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'mode', optional: true } } },
            { name: 'VLLM_HOST_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
          ],
        },
      })],
    });
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    const template = manifests[0].spec.template;
    expect(template.metadata).toEqual({ labels: { tier: 'prod' } });
    expect(template.spec.clusterSelector).toEqual({ matchLabels: { region: 'eu' } });
    expect(template.spec.tolerations).toEqual([{ key: 'reserved', operator: 'Equal', value: 'ml', effect: 'NoSchedule' }, { operator: 'Exists' }]);
    const member = template.spec.engines[0].members[0];
    expect(member.template.metadata).toEqual({ labels: { app: 'qwen' }, annotations: { 'sidecar.istio.io/inject': 'false' } });
    expect(member.template.spec.imagePullSecrets).toEqual([{ name: 'ngc' }]);
    expect(member.template.spec.containers[0].env).toEqual([
      { name: 'A', value: '1' },
      { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf', key: 'token' } } },
      { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'mode', optional: true } } },
      { name: 'VLLM_HOST_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
    ]);
  });

  test('references a ModelplaneModelCache of the same app', () => {
    const c = chart();
    const cache = new ModelplaneModelCache(c, 'cache', { metadata: { name: 'qwen-weights' }, source: ModelplaneCacheSource.huggingFace('Qwen/Qwen3-8B'), size: Size.gibibytes(20) });
    new ModelplaneDeployment(c, 'md', { modelCache: cache, engines: [standalone()] });
    expect(errorsOf(c)).toEqual([]);
    const manifests = Testing.synth(c);
    expectValidManifests(manifests);
    expect(manifests[1].spec.template.spec.modelCacheRef).toEqual({ name: 'qwen-weights' });
  });

  describe('validation', () => {
    const errorsFor = (props: ModelplaneDeploymentProps) => deploymentOf(props).errors;

    test.each([[0], [11], [2.5]])('fails when replicas is %d', (replicas) => {
      expect(errorsFor({ replicas, engines: [standalone()] })).toEqual([
        `replicas: Invalid value: ${replicas}: must be a whole number from 1 to 10: ModelReplicas, each a whole serving instance`,
      ]);
    });

    test('fails when there is no engine, or more than 8', () => {
      expect(errorsFor({})).toEqual(['engines: Required value: a ModelDeployment needs at least one engine (props.engines or addEngine)']);
      const nine = Array.from({ length: 9 }, (_, i) => standalone({ name: `e${i}` }));
      expect(errorsFor({ engines: nine })).toEqual(['engines: Invalid value: "9 engines": modelplane accepts at most 8 engines']);
    });

    test('fails for a duplicate or invalid engine name, and copies outside 1 to 64', () => {
      expect(errorsFor({ engines: [standalone({ copies: 0 }), standalone({ name: 'Qwen_3', copies: 65 }), standalone()] })).toEqual([
        'engines[0].copies: Invalid value: 0: must be a whole number from 1 to 64',
        expect.stringMatching(/^engines\[1\]\.name: Invalid value: "Qwen_3": must consist of lower case alphanumeric characters/),
        'engines[1].copies: Invalid value: 65: must be a whole number from 1 to 64',
        'engines[2].name: Invalid value: "qwen": duplicates engines[0].name: engine names are unique',
      ]);
    });

    test('fails when the container has no image', () => {
      expect(errorsFor({ engines: [standalone({ container: { image: '' } })] })).toEqual(['engines[0].container.image: Required value: the engine container needs an image']);
    });

    test('fails when no pod of an engine requests devices', () => {
      expect(errorsFor({ engines: [standalone({ devices: undefined })] })).toEqual([
        'engines[0].devices: Required value: modelplane places an engine by its device requests, and at least one of its pods must request devices; give devices (each with a selector)',
      ]);
      expect(errorsFor({ modelCache: ModelplaneModelCache.fromName('w'), engines: [standalone({ devices: undefined, workers: { nodes: 1 } })] })).toHaveLength(1);
    });

    test('fails for device requests the shared DRA reader refuses, at the prop', () => {
      expect(errorsFor({ engines: [standalone({ devices: [] })] })).toEqual(['engines[0].devices: Invalid value: []: must list at least one device request, or be left out']);
      const bad = [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', selectors: [DeviceSelector.cel('device.atributes["x"].y == 1')] }];
      expect(errorsFor({ engines: [standalone({ devices: bad })] })).toEqual([expect.stringMatching(/^engines\[0\]\.devices\[0\]\.selectors\[0\]\.cel: Invalid value: .*invalid CEL device selector/s)]);
    });

    test('fails for device requests beyond modelplane\'s limits', () => {
      const noSelector = [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com' }];
      expect(errorsFor({ engines: [standalone({ devices: noSelector })] })).toEqual([
        expect.stringMatching(/^engines\[0\]\.devices\[0\]\.selectors: Required value: modelplane needs at least one selector per device request/),
      ]);
      const many = Array.from({ length: 17 }, (_, i) => ({ name: `d${i}`, deviceClassName: 'c', selectors: [DeviceSelector.driver('gpu.nvidia.com')] }));
      expect(errorsFor({ engines: [standalone({ devices: many })] })).toEqual(['engines[0].devices: Invalid value: "17 requests": modelplane accepts at most 16 device requests per pod (member)']);
      const nine = [{ name: 'gpu', deviceClassName: 'c', selectors: Array.from({ length: 9 }, () => DeviceSelector.driver('gpu.nvidia.com')) }];
      expect(errorsFor({ modelCache: ModelplaneModelCache.fromName('w'), engines: [standalone({ workers: { nodes: 1, devices: nine } })] })).toEqual([
        'engines[0].workers.devices[0].selectors: Invalid value: "9 selectors": modelplane accepts at most 8 selectors per device request; combine conditions with && in one cel selector',
      ]);
    });

    test('fails for an engine with workers and no ModelCache', () => {
      expect(errorsFor({ engines: [standalone(), standalone({ name: 'gang', workers: { nodes: 1 } })] })).toEqual([
        'modelCache: Required value: modelplane requires a ModelCache for an engine that spans nodes (engines[1].workers): ' +
          'every pod of its Leader/Worker gang mounts it and loads the same weights from it; reference one with modelCache',
      ]);
    });

    const cached = { modelCache: ModelplaneModelCache.fromName('weights') };

    test.each([[0], [64]])('fails when workers.nodes is %d', (nodes) => {
      expect(errorsFor({ ...cached, engines: [standalone({ workers: { nodes } })] })).toEqual([
        `engines[0].workers.nodes: Invalid value: ${nodes}: must be a whole number from 1 to 63: the Worker pods, one per node`,
      ]);
    });

    test('fails when the Worker container has no image', () => {
      expect(errorsFor({ ...cached, engines: [standalone({ workers: { nodes: 1, container: { image: '' } } })] })).toEqual([
        'engines[0].workers.container.image: Required value: the engine container needs an image',
      ]);
    });

    test('fails for PrefillDecode without exactly one Prefill and one Decode engine, and for a phase in Unified serving', () => {
      const prefillOnly = [standalone({ phase: ModelplaneEnginePhase.PREFILL })];
      expect(errorsFor({ servingMode: ModelplaneServingMode.PREFILL_DECODE, engines: prefillOnly })).toEqual([
        'engines: Invalid value: "1 engines": PrefillDecode serving runs exactly two engines, one with phase PREFILL and one with phase DECODE',
        'engines: Invalid value: "0 Decode engines": PrefillDecode serving needs exactly one engine with phase Decode',
      ]);
      expect(errorsFor({
        servingMode: ModelplaneServingMode.PREFILL_DECODE,
        engines: [standalone({ name: 'a', phase: ModelplaneEnginePhase.DECODE }), standalone({ name: 'b', phase: ModelplaneEnginePhase.DECODE })],
      })).toEqual([
        'engines: Invalid value: "0 Prefill engines": PrefillDecode serving needs exactly one engine with phase Prefill',
        'engines: Invalid value: "2 Decode engines": PrefillDecode serving needs exactly one engine with phase Decode',
      ]);
      expect(errorsFor({ engines: [standalone({ phase: ModelplaneEnginePhase.PREFILL })] })).toEqual([
        'engines[0].phase: Invalid value: "Prefill": an engine phase is only allowed with servingMode PREFILL_DECODE',
      ]);
    });

    test('fails for reserved or invalid labels and annotations', () => {
      expect(errorsFor({
        replicaLabels: { 'modelplane.ai/deployment': 'x' },
        engines: [standalone({ podLabels: { ok: 'bad value!' }, podAnnotations: { 'x/y/z': 'v' } })],
      })).toEqual([
        expect.stringMatching(/^engines\[0\]\.podLabels\.ok: Invalid value: "bad value!": must be a valid label value/),
        expect.stringMatching(/^engines\[0\]\.podAnnotations\.x\/y\/z: Invalid value: "x\/y\/z": must be a valid annotation key/),
        'replicaLabels.modelplane.ai/deployment: Invalid value: "modelplane.ai/deployment": label keys under "modelplane.ai/" are reserved by modelplane, which sets them for its own selectors',
      ]);
    });

    test('fails for toleration rules, an invalid name and an unnamed cache', () => {
      expect(errorsFor({
        metadata: { name: 'Bad_Name' },
        modelCache: ModelplaneModelCache.fromName(''),
        tolerations: [{ effect: ModelplaneTaintEffect.NO_EXECUTE }, { key: 'k', operator: ModelplaneTolerationOperator.EXISTS, value: 'v' }],
        engines: [standalone()],
      })).toEqual([
        expect.stringMatching(/^metadata\.name: Invalid value: "Bad_Name": /),
        'tolerations[0].key: Required value: an Equal toleration must name the taint key; use ModelplaneTolerationOperator.EXISTS to tolerate every key',
        'tolerations[1].value: Invalid value: "v": an Exists toleration matches any value and must not set one',
        'modelCache.name: Required value: the referenced ModelCache needs a name',
      ]);
    });

    test('fails for env sources modelplane does not take and references without a name', () => {
      const env: k8s.EnvVar[] = [
        { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory' } } },
        { name: 'S', valueFrom: { secretKeyRef: { key: 'k' } } },
      ];
      expect(errorsFor({ engines: [standalone({ container: { ...VLLM, env } })] })).toEqual([
        'engines[0].container.env[0].valueFrom.resourceFieldRef: Invalid value: {"resource":"limits.memory"}: modelplane\'s engine container takes values from secretKeyRef, configMapKeyRef, fieldRef only',
        'engines[0].container.env[1].valueFrom.secretKeyRef.name: Invalid value: <nil>: modelplane requires secretKeyRef.name',
      ]);
    });
  });
});
