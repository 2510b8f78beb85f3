import { Chart, Duration } from 'cdk8s';
import { chart, errorsOf, manifestOf, upstreamViolations, vllmTemplate } from './support';
import {
  KthenaInferenceEngine,
  KthenaKvConnectorType,
  KthenaModelServer,
  KthenaModelServerProps,
  KthenaModelServing,
  KthenaWorkloadProtocol,
} from '../../src/kthena';

function pdServing(c: Chart): KthenaModelServing {
  return new KthenaModelServing(c, 'ms', {
    metadata: { name: 'qwen' },
    roles: [{ name: 'prefill', entryTemplate: vllmTemplate() }, { name: 'decode', entryTemplate: vllmTemplate() }],
  });
}

function serverErrors(props: Partial<KthenaModelServerProps>, withServing = true): string[] {
  const c = chart();
  const serving = withServing ? pdServing(c) : undefined;
  new KthenaModelServer(c, 'srv', { metadata: { name: 'qwen' }, engine: KthenaInferenceEngine.VLLM, serving, ...props });
  return errorsOf(c).filter((e) => !e.startsWith('spec.template'));
}

describe('KthenaModelServer', () => {
  test('selects a ModelServing\'s entry pods by the labels the ModelServing writes', () => {
    const c = chart();
    const serving = new KthenaModelServing(c, 'ms', { metadata: { name: 'qwen' }, roles: [{ name: 'server', entryTemplate: vllmTemplate() }] });
    const server = new KthenaModelServer(c, 'srv', { metadata: { name: 'qwen' }, engine: KthenaInferenceEngine.VLLM, model: 'Qwen/Qwen3-8B' });
    server.selectServing(serving);
    expect(manifestOf(c, 'ModelServer')).toEqual({
      apiVersion: 'networking.serving.volcano.sh/v1alpha1',
      kind: 'ModelServer',
      metadata: { name: 'qwen' },
      spec: {
        model: 'Qwen/Qwen3-8B',
        inferenceEngine: 'vLLM',
        workloadSelector: { matchLabels: { 'inference.cdk8s.io/kthena-model-serving': 'qwen', 'inference.cdk8s.io/kthena-entry': 'true' } },
        workloadPort: { port: 8000 },
      },
    });
    expect(server.port).toBe(8000);
    expect(server.engine).toBe(KthenaInferenceEngine.VLLM);
  });

  test('pairs prefill and decode pods of one ServingGroup, by Kthena\'s group label and our role label', () => {
    const c = chart();
    const serving = pdServing(c);
    const server = new KthenaModelServer(c, 'srv', { metadata: { name: 'qwen' }, engine: KthenaInferenceEngine.VLLM, kvConnector: KthenaKvConnectorType.NIXL });
    server.selectServing(serving, { prefillRole: 'prefill', decodeRole: 'decode' });
    const spec = manifestOf(c, 'ModelServer').spec;
    expect(spec.workloadSelector.pdGroup).toEqual({
      groupKey: 'modelserving.volcano.sh/group-name',
      prefillLabels: { 'inference.cdk8s.io/kthena-role': 'prefill' },
      decodeLabels: { 'inference.cdk8s.io/kthena-role': 'decode' },
    });
    expect(spec.kvConnector).toEqual({ type: 'nixl' });
  });

  test('renders SGLang on its own default port, with protocol, timeout and retries', () => {
    const c = chart();
    new KthenaModelServer(c, 'srv', {
      metadata: { name: 'llama' },
      engine: KthenaInferenceEngine.SGLANG,
      matchLabels: { app: 'llama' },
      protocol: KthenaWorkloadProtocol.HTTPS,
      timeout: Duration.minutes(2),
      retry: { attempts: 3, interval: Duration.millis(500) },
    });
    expect(manifestOf(c, 'ModelServer').spec).toEqual({
      inferenceEngine: 'SGLang',
      workloadSelector: { matchLabels: { app: 'llama' } },
      workloadPort: { port: 30000, protocol: 'https' },
      trafficPolicy: { timeout: '2m', retry: { attempts: 3, retryInterval: '500ms' } },
    });
  });

  test('takes an explicit pdGroup for pods labelled elsewhere', () => {
    const c = chart();
    new KthenaModelServer(c, 'srv', {
      metadata: { name: 'ext' },
      engine: KthenaInferenceEngine.VLLM,
      port: 8080,
      matchLabels: { app: 'ext' },
      pdGroup: { groupKey: 'example.com/group', prefillLabels: { phase: 'prefill' }, decodeLabels: { phase: 'decode' } },
    });
    const spec = manifestOf(c, 'ModelServer').spec;
    expect(spec.workloadPort).toEqual({ port: 8080 });
    expect(spec.workloadSelector.pdGroup).toEqual({ groupKey: 'example.com/group', prefillLabels: { phase: 'prefill' }, decodeLabels: { phase: 'decode' } });
  });

  test('imports a ModelServer by name', () => {
    expect(KthenaModelServer.fromModelServerName(chart(), 'x', 'remote').name).toBe('remote');
  });

  describe('validation', () => {
    test('fails when nothing selects the pods', () => {
      expect(serverErrors({}, false)).toEqual([
        'spec.workloadSelector: Required value: a ModelServer must select its pods: call selectServing(), or give serving or matchLabels',
      ]);
    });

    test('fails when a prefill/decode role is missing, unknown or the same as the other', () => {
      expect(serverErrors({ prefillRole: 'prefill' })).toEqual([
        'spec.workloadSelector.pdGroup: Required value: prefill/decode pairing needs both roles; decodeRole is missing',
      ]);
      expect(serverErrors({ prefillRole: 'prefill', decodeRole: 'decoder' })).toEqual([
        'spec.workloadSelector.pdGroup.decodeLabels: Invalid value: "decoder": names no role of ModelServing qwen (roles: "prefill", "decode")',
      ]);
      expect(serverErrors({ prefillRole: 'decode', decodeRole: 'decode' })).toEqual([
        'spec.workloadSelector.pdGroup.prefillLabels: Invalid value: "decode": the prefill and decode roles must differ',
      ]);
    });

    test('fails when roles are named without a ModelServing, or together with explicit pdGroup labels', () => {
      expect(serverErrors({ prefillRole: 'prefill', decodeRole: 'decode', matchLabels: { app: 'x' } }, false)).toEqual([
        'spec.workloadSelector.pdGroup: Required value: prefillRole and decodeRole name roles of a KthenaModelServing; give serving or call selectServing()',
      ]);
      expect(serverErrors({ prefillRole: 'prefill', decodeRole: 'decode', pdGroup: { groupKey: 'g', prefillLabels: { a: 'p' }, decodeLabels: { a: 'd' } } })).toEqual([
        'spec.workloadSelector.pdGroup: Invalid value: "pdGroup and prefillRole/decodeRole": give either the pdGroup labels or the roles of a KthenaModelServing, not both',
      ]);
    });

    test('fails when explicit pdGroup labels are empty or not label syntax', () => {
      expect(serverErrors({ matchLabels: { app: 'x' }, pdGroup: { groupKey: 'bad key', prefillLabels: {}, decodeLabels: { phase: 'de code' } } }, false)).toEqual([
        expect.stringContaining('spec.workloadSelector.pdGroup.groupKey: Invalid value: "bad key": must be a label key'),
        'spec.workloadSelector.pdGroup.prefillLabels: Required value: needs at least one label, or every pod would match',
        expect.stringContaining('spec.workloadSelector.pdGroup.decodeLabels.phase: Invalid value: "de code": a valid label must be an empty string or consist of'),
      ]);
    });

    test('fails when the port, model name, retries or match labels are out of range (port and model also refused by the CRD)', () => {
      const props = { port: 70000, model: 'm'.repeat(257), retry: { attempts: -1 }, matchLabels: { 'a/b/c': 'x' } };
      expect(serverErrors(props)).toEqual([
        expect.stringContaining('spec.workloadSelector.matchLabels: Invalid value: "a/b/c": label key a qualified name must consist of'),
        `spec.model: Invalid value: "${'m'.repeat(257)}": is 257 characters long; Kthena's ModelServer names the served model in spec.model, at most 256 characters`,
        'spec.workloadPort.port: Invalid value: 70000: must be a whole number from 1 to 65535: a TCP port',
        'spec.trafficPolicy.retry.attempts: Invalid value: -1: must be a whole number of at least 0: retries of a failed request',
      ]);
      const c = chart();
      new KthenaModelServer(c, 'srv', { metadata: { name: 'x' }, engine: KthenaInferenceEngine.VLLM, matchLabels: { a: 'b' }, port: 70000, model: 'm'.repeat(257) });
      const upstream = upstreamViolations(c).join('\n');
      expect(upstream).toContain('spec.workloadPort.port');
      expect(upstream).toContain('spec.model');
    });
  });
});
