/**
 * Kthena through the public construct: a ProviderRegistry holding the KthenaProvider and a
 * ModelDeployment that names it, as a user writes it.
 */
import { Chart, Size, Testing } from 'cdk8s';
import {
  DeviceRequest,
  DeviceSelector,
  EngineType,
  GatewayRef,
  ModelDeployment,
  ModelDeploymentProps,
  ProviderRegistry,
  ServingMode,
  VolumePurpose,
  Warnings,
} from '../../../src';
import { KthenaProvider } from '../../../src/providers/kthena';
import { expectValidManifests } from '../../support/schema-validator';

const MODEL = { id: 'Qwen/Qwen3-0.6B' };
const KTHENA = { name: 'kthena' };
const GPU_DEVICES: DeviceRequest[] = [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', selectors: [DeviceSelector.productName('NVIDIA L4')] }];

function synth(props: ModelDeploymentProps, registry: { gateway?: GatewayRef } = {}, provider = new KthenaProvider()) {
  const app = Testing.app();
  new ProviderRegistry(app, 'Providers', { providers: [provider], ...registry });
  const chart = new Chart(app, 'llm', { namespace: 'ml' });
  const md = new ModelDeployment(chart, 'qwen', props);
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  const warnings = Warnings.collect(chart).map((w) => w.message);
  return { md, errors, warnings, manifests: errors.length === 0 ? Testing.synth(chart) : [] };
}

const kindsOf = (manifests: any[]) => manifests.map((m) => `${m.kind}/${m.metadata.name}`);
const rolesOf = (manifests: any[]) => manifests.find((m) => m.kind === 'ModelServing').spec.template.roles;

describe('ModelDeployment on Kthena', () => {
  test('synthesizes the Kthena objects and the record, all schema-valid', () => {
    const { md, errors, manifests } = synth({
      model: MODEL,
      provider: KTHENA,
      resources: { gpu: { count: 1 } },
      storage: [{ name: 'model-cache', purpose: VolumePurpose.MODEL_CACHE, size: Size.gibibytes(50) }],
    });
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    expect(kindsOf(manifests)).toEqual([
      'ModelServing/qwen', 'ModelServer/qwen', 'ModelRoute/qwen', 'Service/qwen', 'PersistentVolumeClaim/qwen-model-cache', 'ModelDeployment/qwen',
    ]);
    expect(md.providerName).toBe('kthena');
    expect(md.engineType).toBe(EngineType.VLLM);
    expect(manifests.find((m) => m.kind === 'ModelDeployment').spec.provider).toEqual({ name: 'kthena' });
  });

  test('synthesizes SGLang prefill/decode', () => {
    const { errors, manifests } = synth({
      model: MODEL,
      provider: KTHENA,
      engine: { engineType: EngineType.SGLANG },
      servingMode: ServingMode.DISAGGREGATED,
      scaling: { prefill: { replicas: 2, gpu: { count: 1 } }, decode: { replicas: 1, gpu: { count: 2 } } },
    });
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    expect(rolesOf(manifests).map((r: any) => [r.name, r.replicas, r.entryTemplate.spec.containers[0].name])).toEqual([
      ['prefill', 2, 'sglang'], ['decode', 1, 'sglang'],
    ]);
  });

  test('is never auto-selected: a deployment that does not name it goes elsewhere', () => {
    const { md, errors } = synth({ model: MODEL, resources: { gpu: { count: 1 } } });
    expect(errors).toEqual([]);
    expect(md.providerName).not.toBe('kthena');
  });

  test('fails for an engine Kthena lacks, naming the targets that have it', () => {
    expect(synth({ model: MODEL, provider: KTHENA, engine: { engineType: EngineType.TRTLLM }, resources: { gpu: { count: 1 } } }).errors).toEqual([
      'spec.engine.type: Invalid value: "trtllm": provider kthena does not support engine trtllm; targets that support it: dynamo',
    ]);
    expect(synth({ model: MODEL, provider: KTHENA, engine: { engineType: EngineType.LLAMACPP }, resources: { gpu: { count: 1 } } }).errors).toEqual([
      'spec.engine.type: Invalid value: "llamacpp": provider kthena does not support engine llamacpp; targets that support it: flexinfer, kaito',
    ]);
  });

  test('fails for Gateway API Inference Extension routing of prefill/decode, and pools aggregated pods', () => {
    const gateway = GatewayRef.fromName('inference-gateway', 'gateway-system');
    const disaggregated = synth({
      model: MODEL,
      provider: KTHENA,
      servingMode: ServingMode.DISAGGREGATED,
      scaling: { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 1 } } },
    }, { gateway });
    expect(disaggregated.errors).toEqual([expect.stringMatching(/^spec\.gateway\.enabled: Forbidden: .* not available on target kthena: .*: dynamo, llmd$/)]);

    const aggregated = synth({ model: MODEL, provider: KTHENA, resources: { gpu: { count: 1 } } }, { gateway });
    expect(aggregated.errors).toEqual([]);
    expectValidManifests(aggregated.manifests);
    const pool = aggregated.manifests.find((m) => m.kind === 'InferencePool');
    expect(pool.spec.selector.matchLabels).toEqual({ 'airunway.ai/model-deployment': 'qwen' });
    expect(pool.spec.targetPorts).toEqual([{ number: 8000 }]);
  });

  describe('DRA device claims', () => {
    test('the server pods claim their devices instead of requesting GPUs', () => {
      const { errors, manifests } = synth({ model: MODEL, provider: KTHENA, resources: { gpu: { count: 1, devices: GPU_DEVICES } } });
      expect(errors).toEqual([]);
      expectValidManifests(manifests);
      expect(manifests.filter((m) => m.kind === 'ResourceClaimTemplate').map((m) => m.metadata.name)).toEqual(['qwen-devices']);
      const pod = rolesOf(manifests)[0].entryTemplate.spec;
      expect(pod.resourceClaims).toEqual([{ name: 'devices', resourceClaimTemplateName: 'qwen-devices' }]);
      expect(pod.containers[0].resources).toEqual({ claims: [{ name: 'devices' }] });
    });

    test('warns that the claims are left to Volcano unless the pods use kube-scheduler', () => {
      const props = { model: MODEL, provider: KTHENA, resources: { gpu: { count: 1, devices: GPU_DEVICES } } };
      expect(synth(props).warnings).toEqual([
        'Kthena pods claim DRA devices and are placed by the scheduler "volcano" (ModelServing spec.schedulerName), not kube-scheduler: ' +
          'that scheduler must have DRA support enabled to allocate the claims, or the pods stay Pending',
      ]);
      expect(synth(props, {}, new KthenaProvider({ schedulerName: 'default-scheduler' })).warnings).toEqual([]);
      expect(synth({ model: MODEL, provider: KTHENA, resources: { gpu: { count: 1 } } }).warnings).toEqual([]);
    });

    test('each prefill/decode role claims its component\'s devices', () => {
      const { errors, manifests } = synth({
        model: MODEL,
        provider: KTHENA,
        servingMode: ServingMode.DISAGGREGATED,
        scaling: {
          prefill: { gpu: { count: 1, devices: GPU_DEVICES } },
          decode: { memory: Size.gibibytes(64), gpu: { count: 1, devices: GPU_DEVICES } },
        },
      });
      expect(errors).toEqual([]);
      expectValidManifests(manifests);
      const [prefill, decode] = rolesOf(manifests).map((r: any) => r.entryTemplate.spec);
      expect(prefill.resourceClaims).toEqual([{ name: 'devices', resourceClaimTemplateName: 'qwen-prefill-devices' }]);
      expect(decode.resourceClaims).toEqual([{ name: 'devices', resourceClaimTemplateName: 'qwen-decode-devices' }]);
      expect(decode.containers[0].resources).toEqual({ claims: [{ name: 'devices' }], limits: { memory: '64Gi' }, requests: { memory: '64Gi' } });
    });
  });
});
