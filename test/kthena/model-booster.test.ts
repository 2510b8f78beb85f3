import { k8s } from 'cdk8s-plus-34';
import { chart, errorsOf, manifestOf, upstreamViolations } from './support';
import {
  KthenaBackendType,
  KthenaBoosterBackend,
  KthenaBoosterWorker,
  KthenaModelBooster,
  KthenaModelBoosterProps,
  KthenaStringMatch,
  KthenaWorkerType,
} from '../../src/kthena';

const GPU: k8s.ResourceRequirements = { limits: { 'nvidia.com/gpu': k8s.Quantity.fromNumber(1) } };

function backend(overrides: Partial<KthenaBoosterBackend> = {}): KthenaBoosterBackend {
  return {
    name: 'vllm',
    backendType: KthenaBackendType.VLLM,
    modelUri: 'hf://Qwen/Qwen3-8B',
    cacheUri: 'pvc://models',
    workers: [{ resources: GPU }],
    ...overrides,
  };
}

function pd(prefill: Partial<KthenaBoosterWorker> = {}, decode: Partial<KthenaBoosterWorker> = {}): Partial<KthenaBoosterBackend> {
  return {
    backendType: KthenaBackendType.VLLM_DISAGGREGATED,
    workers: [{ workerType: KthenaWorkerType.PREFILL, ...prefill }, { workerType: KthenaWorkerType.DECODE, ...decode }],
  };
}

function boosterErrors(b: Partial<KthenaBoosterBackend>, props: Partial<KthenaModelBoosterProps> = {}, name = 'qwen'): string[] {
  const c = chart();
  new KthenaModelBooster(c, 'mb', { metadata: { name }, backend: backend(b), ...props });
  return errorsOf(c);
}

function rawBoosterViolations(b: Partial<KthenaBoosterBackend>, props: Partial<KthenaModelBoosterProps> = {}): string {
  const c = chart();
  new KthenaModelBooster(c, 'mb', { metadata: { name: 'qwen' }, backend: backend(b), ...props });
  return upstreamViolations(c).join('\n');
}

const KV = (connector: string, role: string) => JSON.stringify({ kv_connector: connector, kv_role: role });

describe('KthenaModelBooster', () => {
  test('renders a vLLM booster one to one, writing the counts Kthena would read as 0', () => {
    const c = chart();
    const booster = new KthenaModelBooster(c, 'mb', {
      metadata: { name: 'qwen' },
      servedModelName: 'qwen3-8b',
      owner: 'ml-team',
      modelMatch: { headers: { 'x-team': KthenaStringMatch.regex('ml-.*') } },
      backend: backend({
        env: [{ name: 'HF_ENDPOINT', value: 'https://hf-mirror.example' }],
        envFrom: [{ secretRef: { name: 'hf-token' } }],
        schedulerName: 'volcano',
        runtimeClassName: 'nvidia',
        workers: [{
          image: 'vllm/vllm-openai:v0.11.0',
          pods: 2,
          resources: GPU,
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists' }],
          config: { 'max-model-len': 32768, 'served-model-name': 'qwen3-8b' },
        }],
      }),
    });
    expect(manifestOf(c, 'ModelBooster').spec).toEqual({
      name: 'qwen3-8b',
      owner: 'ml-team',
      modelMatch: { headers: { 'x-team': { regex: 'ml-.*' } } },
      backend: {
        name: 'vllm',
        type: 'vLLM',
        modelURI: 'hf://Qwen/Qwen3-8B',
        cacheURI: 'pvc://models',
        replicas: 1,
        env: [{ name: 'HF_ENDPOINT', value: 'https://hf-mirror.example' }],
        envFrom: [{ secretRef: { name: 'hf-token' } }],
        schedulerName: 'volcano',
        runtimeClassName: 'nvidia',
        workers: [{
          type: 'server',
          image: 'vllm/vllm-openai:v0.11.0',
          replicas: 1,
          pods: 2,
          resources: { limits: { 'nvidia.com/gpu': 1 } },
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists' }],
          config: { 'max-model-len': 32768, 'served-model-name': 'qwen3-8b' },
        }],
      },
    });
    expect(booster.modelServingName).toBe('qwen-vllm');
  });

  test('renders a prefill/decode booster whose workers agree on KV transfer', () => {
    const c = chart();
    new KthenaModelBooster(c, 'mb', {
      metadata: { name: 'qwen' },
      backend: backend({
        replicas: 2,
        cacheUri: 'hostpath:///mnt/models',
        ...pd(
          { replicas: 2, resources: GPU, config: { 'kv-transfer-config': KV('NixlConnector', 'kv_producer') } },
          { replicas: 1, resources: GPU, config: { kv_transfer_config: KV('NixlConnector', 'kv_both') } },
        ),
      }),
    });
    const b = manifestOf(c, 'ModelBooster').spec.backend;
    expect(b.type).toBe('vLLMDisaggregated');
    expect(b.workers.map((w: any) => [w.type, w.replicas])).toEqual([['prefill', 2], ['decode', 1]]);
  });

  test('accepts a model on the cache claim (pvc:// to pvc://)', () => {
    expect(boosterErrors({ modelUri: 'pvc:///models/qwen/Qwen3-8B', cacheUri: 'pvc://models' })).toEqual([]);
  });

  describe('validation', () => {
    test('fails when the served model name or backend name is not a lowercase name (also refused by the CRD)', () => {
      expect(boosterErrors({ name: 'vLLM_main' }, { servedModelName: 'Qwen3-8B' })).toEqual([
        'spec.name: Invalid value: "Qwen3-8B": must be at most 64 lowercase letters, digits and \'-\', starting and ending with a letter or digit',
        'spec.backend.name: Invalid value: "vLLM_main": must be lowercase letters, digits and \'-\', starting and ending with a letter or digit',
        expect.stringContaining('metadata.name: Invalid value: "qwen": Kthena\'s ModelServing qwen-vLLM_main would derive the pod name'),
      ]);
      const upstream = rawBoosterViolations({ name: 'vLLM_main' }, { servedModelName: 'Qwen3-8B' });
      expect(upstream).toContain('spec.name');
      expect(upstream).toContain('spec.backend.name');
    });

    test('fails when the model or cache URI has an unknown scheme (also refused by the CRD)', () => {
      expect(boosterErrors({ modelUri: 'https://huggingface.co/Qwen/Qwen3-8B', cacheUri: 'emptydir://' })).toEqual([
        'spec.backend.modelURI: Invalid value: "https://huggingface.co/Qwen/Qwen3-8B": must start with hf://, ms://, s3://, obs:// or pvc:// and name something after it',
        'spec.backend.cacheURI: Invalid value: "emptydir://": must be pvc://<claim> or hostpath://<path>',
      ]);
      const upstream = rawBoosterViolations({ modelUri: 'hf://', cacheUri: 'pvc://' });
      expect(upstream).toContain('spec.backend.modelURI');
      expect(upstream).toContain('spec.backend.cacheURI');
    });

    test('fails when a pvc:// cache names more than a claim', () => {
      expect(boosterErrors({ cacheUri: 'pvc://models/qwen' })).toEqual([
        'spec.backend.cacheURI: Invalid value: "pvc://models/qwen": must name one PersistentVolumeClaim (pvc://<claim>): has a path; give only the claim',
      ]);
    });

    test('fails when a pvc:// model is not on the pvc:// cache claim, or climbs out of it', () => {
      expect(boosterErrors({ modelUri: 'pvc:///models/qwen', cacheUri: 'hostpath:///mnt' })).toEqual([
        'spec.backend.cacheURI: Invalid value: "hostpath:///mnt": a pvc:// modelURI needs a pvc:// cacheURI naming the same claim: the downloader reads the model through the cache mount',
      ]);
      expect(boosterErrors({ modelUri: 'pvc:///weights/qwen', cacheUri: 'pvc://models' })).toEqual([
        'spec.backend.modelURI: Invalid value: "pvc:///weights/qwen": must be a path under the cache mount /models (pvc:///models/<path>), on the claim of cacheURI',
      ]);
      expect(boosterErrors({ modelUri: 'pvc:///models/../etc', cacheUri: 'pvc://models' })).toEqual([
        'spec.backend.modelURI: Invalid value: "pvc:///models/../etc": must not contain ".."',
      ]);
    });

    test('fails when counts are out of range or there is no worker (ranges also refused by the CRD)', () => {
      expect(boosterErrors({ replicas: -1, workers: [{ replicas: 1_000_001, pods: -1 }] })).toEqual([
        'spec.backend.replicas: Invalid value: -1: must be a whole number from 0 to 1000000: ServingGroups',
        'spec.backend.workers[0].replicas: Invalid value: 1000001: must be a whole number from 0 to 1000000: instances of the worker',
        'spec.backend.workers[0].pods: Invalid value: -1: must be a whole number from 0 to 1000000: pods per instance',
      ]);
      expect(rawBoosterViolations({ replicas: -1 })).toContain('spec.backend.replicas');
      expect(boosterErrors({ workers: [] })).toEqual([
        'spec.backend.workers: Required value: a backend needs at least one worker',
        'spec.backend.workers: Invalid value: "0 workers": a vLLM backend has exactly one worker, of type server',
      ]);
    });

    test('fails when a vLLM backend has other than exactly one server worker', () => {
      expect(boosterErrors({ workers: [{}, {}] })).toEqual([
        'spec.backend.workers: Invalid value: "2 workers": a vLLM backend has exactly one worker, of type server',
      ]);
      expect(boosterErrors({ workers: [{ workerType: KthenaWorkerType.DECODE }] })).toEqual([
        'spec.backend.workers[0].type: Invalid value: "decode": a vLLM backend\'s worker must be of type server',
      ]);
    });

    test('fails when a vLLMDisaggregated backend has other workers than one prefill and one decode', () => {
      expect(boosterErrors({
        backendType: KthenaBackendType.VLLM_DISAGGREGATED,
        workers: [{ workerType: KthenaWorkerType.PREFILL }, { workerType: KthenaWorkerType.PREFILL }, { workerType: KthenaWorkerType.CONTROLLER }],
      })).toEqual([
        'spec.backend.workers[2].type: Invalid value: "controller": a vLLMDisaggregated backend has only prefill and decode workers',
        'spec.backend.workers: Invalid value: "2 prefill workers": a vLLMDisaggregated backend has exactly one prefill worker',
        'spec.backend.workers: Invalid value: "0 decode workers": a vLLMDisaggregated backend has exactly one decode worker',
      ]);
    });

    test('fails when a worker image is blank or contains whitespace', () => {
      expect(boosterErrors({ workers: [{ image: 'vllm/vllm-openai: v0.11.0' }] })).toEqual([
        'spec.backend.workers[0].image: Invalid value: "vllm/vllm-openai: v0.11.0": Kthena refuses a container image that contains whitespace',
      ]);
    });

    test('fails when serving workers disagree on the engine port, or a port is out of range', () => {
      expect(boosterErrors(pd({ config: { port: 8100 } }))).toEqual([
        'spec.backend.workers[1].config.port: Invalid value: "8100, 8000": all serving workers must use one engine port (config.port, 8000 when unset): ' +
          'the ModelServer Kthena creates has a single port',
      ]);
      expect(boosterErrors({ workers: [{ config: { port: 'http' } }] })).toEqual([
        'spec.backend.workers[0].config.port: Invalid value: "http": must be a port from 1 to 65535',
      ]);
      expect(boosterErrors({ workers: [{ config: { port: '9000' } }] })).toEqual([]);
    });

    test('fails when only one side of prefill/decode configures KV transfer, or they disagree', () => {
      expect(boosterErrors(pd({ config: { 'kv-transfer-config': KV('NixlConnector', 'kv_producer') } }))).toEqual([
        'spec.backend.workers[1].config.kv-transfer-config: Required value: the other side sets kv-transfer-config; prefill and decode workers must both configure KV transfer',
      ]);
      expect(boosterErrors(pd(
        { config: { 'kv-transfer-config': KV('NixlConnector', 'kv_producer') } },
        { config: { 'kv-transfer-config': KV('MooncakeConnector', 'kv_consumer') } },
      ))).toEqual([
        'spec.backend.workers[1].config.kv-transfer-config.kv_connector: Invalid value: "NixlConnector, MooncakeConnector": prefill and decode workers must use the same kv_connector',
      ]);
    });

    test('fails when the KV connector is unknown or a side has the wrong role', () => {
      expect(boosterErrors(pd(
        { config: { 'kv-transfer-config': KV('P2pNcclConnector', 'kv_consumer') } },
        { config: { 'kv-transfer-config': KV('P2pNcclConnector', 'kv_producer') } },
      ))).toEqual([
        'spec.backend.workers[0].config.kv-transfer-config.kv_connector: Invalid value: "P2pNcclConnector": must be one of MooncakeConnector, MooncakeConnectorV1, NixlConnector, LMCacheConnectorV1',
        'spec.backend.workers[0].config.kv-transfer-config.kv_role: Invalid value: "kv_consumer": a prefill worker\'s kv_role must be kv_producer or kv_both',
        'spec.backend.workers[1].config.kv-transfer-config.kv_connector: Invalid value: "P2pNcclConnector": must be one of MooncakeConnector, MooncakeConnectorV1, NixlConnector, LMCacheConnectorV1',
        'spec.backend.workers[1].config.kv-transfer-config.kv_role: Invalid value: "kv_producer": a decode worker\'s kv_role must be kv_consumer or kv_both',
      ]);
    });

    test('fails when kv-transfer-config is an object or not JSON (Kthena renders objects in Go syntax)', () => {
      expect(boosterErrors(pd(
        { config: { 'kv-transfer-config': { kv_connector: 'NixlConnector', kv_role: 'kv_producer' } } },
        { config: { 'kv-transfer-config': '{kv_connector: NixlConnector}' } },
      ))).toEqual([
        'spec.backend.workers[0].config.kv-transfer-config: Invalid value: {"kv_connector":"NixlConnector","kv_role":"kv_producer"}: ' +
          'must be a JSON string: Kthena renders an object in Go\'s map syntax, which vLLM cannot parse',
        'spec.backend.workers[1].config.kv-transfer-config: Invalid value: "{kv_connector: NixlConnector}": is not valid JSON',
      ]);
    });

    test('fails when the pod names Kthena derives for its ModelServing would be too long', () => {
      expect(boosterErrors({}, {}, 'a'.repeat(46))).toEqual([
        `metadata.name: Invalid value: "${'a'.repeat(46)}": Kthena's ModelServing ${'a'.repeat(46)}-vllm would derive the pod name "${'a'.repeat(46)}-vllm-1-leader-1-0" ` +
          'for role leader, which is not a DNS-1035 label (at most 63 characters, starting with a letter), so Kthena would refuse it; use a shorter booster or backend name',
      ]);
    });
  });
});
