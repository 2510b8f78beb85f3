import { ApiObject } from 'cdk8s';
import { recordOf, rendered } from './support';
import { InferenceProvider, InferenceProviderConfig } from '../../../src';
import { readRecord } from '../../../src/controller/status/record-deployment';
import { ANNOTATION_ENGINE_REASON, ANNOTATION_PROVIDER_REASON } from '../../../src/core/labels';
import { defaultProviderCatalog, shippedProviders } from '../../../src/pipeline/shipped-providers';
import { providerCatalog } from '../../../src/selection/provider-catalog';
import { dynamoDeployment, mockerDeployment } from '../../providers/dynamo/fixtures';
import { kaitoLlamaCppDeployment, kaitoVllmDeployment } from '../../providers/kaito/fixtures';
import { disaggregatedDeployment as kuberayDisaggregated, kuberayDeployment } from '../../providers/kuberay/fixtures';
import { disaggregatedLlmdDeployment, llmdDeployment } from '../../providers/llmd/fixtures';
import { vllmDeployment } from '../../providers/vllm/fixtures';

const catalog = defaultProviderCatalog();

/** The record of the Direct vLLM fixture with `change` applied to a copy. */
function edited(change: (r: any) => void): any {
  const r = recordOf(vllmDeployment());
  change(r);
  return r;
}

describe('readRecord', () => {
  test.each([
    ['vllm', 'aggregated', vllmDeployment()],
    ['llmd', 'aggregated', llmdDeployment()],
    ['llmd', 'disaggregated', disaggregatedLlmdDeployment()],
    ['dynamo', 'aggregated', dynamoDeployment()],
    ['dynamo', 'aggregated (mocker)', mockerDeployment()],
    ['kuberay', 'aggregated', kuberayDeployment()],
    ['kuberay', 'disaggregated', kuberayDisaggregated()],
    ['kaito', 'aggregated (vLLM preset)', kaitoVllmDeployment()],
    ['kaito', 'aggregated (llama.cpp)', kaitoLlamaCppDeployment()],
  ])('a %s record becomes the deployment it was rendered from, %s', (provider, label, md) => {
    const mode = label.split(' ')[0];
    const read = readRecord(recordOf(md), catalog);
    expect(read.errors).toBeUndefined();
    expect(read.provider?.name).toBe(provider);
    expect(read.deployment).toMatchObject({
      name: md.name,
      namespace: 'ml',
      spec: md.spec,
      engineType: md.engine,
      servingMode: mode,
      providerName: provider,
      engineSelectedReason: 'explicit engine selection',
      providerSelectedReason: 'explicit provider selection',
    });
  });

  test('re-validation is kept per record until its name, labels, annotations or spec change', () => {
    const record = recordOf(vllmDeployment());
    const first = readRecord(record, catalog);
    expect(readRecord(structuredClone(record), catalog)).toBe(first);
    const relabelled = structuredClone(record);
    relabelled.metadata.labels.team = 'ml';
    expect(readRecord(relabelled, catalog)).not.toBe(first);
    const broken = structuredClone(record);
    broken.spec.engine.type = 'sglang';
    expect(readRecord(broken, catalog).errors).toEqual([expect.stringContaining('spec.engine.type')]);
    // A record without a uid (not from an API server) is validated every time.
    const { uid: _uid, ...withoutUid } = record.metadata;
    const anonymous = { ...record, metadata: withoutUid };
    expect(readRecord(anonymous, catalog)).not.toBe(readRecord(anonymous, catalog));
  });

  test('a record the construct rendered reads back with the reasons of its annotations', () => {
    const { record } = rendered({ model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } });
    const read = readRecord(record, catalog);
    expect(read.errors).toBeUndefined();
    expect(read.deployment).toMatchObject({
      providerName: 'dynamo',
      engineType: 'vllm',
      engineSelectedReason: 'auto-selected from provider dynamo capabilities',
      providerSelectedReason: 'matched capabilities: engine=vllm, gpu=true, mode=aggregated',
      labels: { 'inference.cdk8s.io/rendered-by': 'cdk8s-inference' },
    });
    expect(read.deployment?.spec.gateway).toEqual({ enabled: true });
  });

  test('without the reason annotations, the reasons are those of the re-validation', () => {
    const r = edited((x) => {
      delete x.metadata.annotations[ANNOTATION_ENGINE_REASON];
      x.metadata.annotations[ANNOTATION_PROVIDER_REASON] = '';
    });
    expect(readRecord(r, catalog).deployment).toMatchObject({
      engineSelectedReason: 'explicit engine selection',
      providerSelectedReason: 'explicit provider selection',
    });
  });

  test('the serving mode is aggregated when the record has no spec.serving', () => {
    const r = edited((x) => delete x.spec.serving);
    expect(readRecord(r, catalog).deployment?.servingMode).toBe('aggregated');
  });

  test('the deployment carries a copy of the recorded spec, as recorded (gateway decision kept)', () => {
    const r = edited((x) => (x.spec.gateway = { enabled: false }));
    const read = readRecord(r, catalog);
    expect(read.deployment?.spec.gateway).toEqual({ enabled: false });
    read.deployment!.spec.model.id = 'changed';
    expect(r.spec.model.id).toBe('Qwen/Qwen3-0.6B');
  });

  describe('fails when', () => {
    test.each([
      ['the record is not an object', null, ['<root>: Invalid value: null: must be a ModelDeployment object', 'spec: Required value: spec is required']],
      ['the record is a string', 'qwen', ['<root>: Invalid value: "qwen": must be a ModelDeployment object', 'spec: Required value: spec is required']],
      ['apiVersion and kind are wrong', edited((x) => {
        x.apiVersion = 'v1';
        x.kind = 'ConfigMap';
      }), ['apiVersion: Unsupported value: "v1": supported values: "airunway.ai/v1alpha1"', 'kind: Unsupported value: "ConfigMap": supported values: "ModelDeployment"']],
      ['the spec is missing', edited((x) => delete x.spec), ['spec: Required value: spec is required']],
      ['the spec is not an object', edited((x) => (x.spec = 'x')), ['spec: Invalid value: "x": must be of type object']],
      ['the spec has a field the CRD lacks', edited((x) => (x.spec.bogus = 1)), ['spec.bogus: Forbidden: unknown field (not in the schema)']],
      ['a field has the wrong type', edited((x) => (x.spec.scaling.replicas = 'two')), ['spec.scaling.replicas: Invalid value: "two": must be of type integer']],
      ['admission rejects the spec', edited((x) => (x.spec.scaling.replicas = 40)), ['spec.scaling.replicas: Invalid value: 40: exceeds maximum allowed (32)']],
      ['the provider is unknown', edited((x) => (x.spec.provider.name = 'sglang-operator')), ['spec.provider.name: Invalid value: "sglang-operator": InferenceProviderConfig "sglang-operator" not found; known providers: dynamo, flexinfer, kaito, kthena, kuberay, llmd, modelplane, vllm']],
      ['the namespace is missing', edited((x) => delete x.metadata.namespace), ['metadata.namespace: Required value: a ModelDeployment record is namespaced: the objects it describes live in its namespace']],
      ['a label is not a string', edited((x) => (x.metadata.labels.team = 7)), ['metadata.labels.team: Invalid value: 7: must be a string']],
      ['the name is not a label', edited((x) => (x.metadata.name = 'Qwen.3')), undefined],
    ])('%s', (_what, record, expected) => {
      const read = readRecord(record, catalog);
      expect(read.deployment).toBeUndefined();
      expect(read.errors!.length).toBeGreaterThan(0);
      if (expected) expect(read.errors).toEqual(expected);
    });

    test('the record names no provider: selection would pick one now, which the record does not say', () => {
      expect(readRecord(edited((x) => delete x.spec.provider), catalog).errors).toEqual([
        'spec.provider.name: Required value: a rendered record names its provider (the synth writes the selected one; selection now picks "dynamo": matched capabilities: engine=vllm, gpu=true, mode=aggregated)',
      ]);
    });

    test('the record names no engine', () => {
      expect(readRecord(edited((x) => delete x.spec.engine.type), catalog).errors).toEqual([
        'spec.engine.type: Required value: a rendered record names its engine (the synth writes the selected one; selection now picks "vllm": auto-selected from provider dynamo capabilities)',
      ]);
    });

    test('the engine no longer fits the provider', () => {
      const errors = readRecord(edited((x) => (x.spec.engine.type = 'llamacpp')), catalog).errors!;
      expect(errors.join('\n')).toMatch(/^spec\.(engine\.type|provider\.name): /);
    });

    test('the provider is only an InferenceProviderConfig here (no provider object behind the name)', () => {
      const configsOnly = providerCatalog(shippedProviders().map((p) => ({ config: p.config._toEntry(), ...(p.name !== 'vllm' && { provider: p }) })));
      const errors = readRecord(recordOf(vllmDeployment()), configsOnly).errors!;
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^spec\.provider\.name: Invalid value: "vllm": provider "vllm" \(explicit provider selection\) is only an InferenceProviderConfig/);
    });

    test('a provider throws while validating: the error becomes an internal error of the record, never a throw', () => {
      class Throwing extends InferenceProvider {
        public constructor() {
          super({ config: new InferenceProviderConfig({ name: 'vllm', engines: [{ engineType: 'vllm' as any, gpuSupport: true }] }) });
        }
        public validate(): never {
          throw new Error('boom');
        }
        public translate(): ApiObject[] {
          return [];
        }
      }
      const p = new Throwing();
      const c = providerCatalog([{ config: p.config._toEntry(), provider: p }]);
      expect(readRecord(recordOf(vllmDeployment()), c).errors).toEqual(['<root>: Internal error: the record could not be validated: boom']);
    });

    test('strings are huge: every error is still reported, never a throw', () => {
      const huge = 'x'.repeat(1_000_000);
      const read = readRecord(edited((x) => {
        x.metadata.name = huge;
        x.spec.engine.image = huge;
        x.spec.bogus = huge;
      }), catalog);
      expect(read.errors!.length).toBeGreaterThan(0);
    });

    test.each([
      ['metadata is a string', edited((x) => (x.metadata = 'qwen'))],
      ['annotations are a list', edited((x) => (x.metadata.annotations = ['a']))],
      ['the model is a number', edited((x) => (x.spec.model = 3))],
      ['scaling is null', edited((x) => (x.spec.scaling = null))],
      ['the engine is a list', edited((x) => (x.spec.engine = []))],
      ['overrides are a string', edited((x) => (x.spec.provider.overrides = 'x'))],
      ['volumes are an object', edited((x) => (x.spec.model.storage = { volumes: { a: 1 } }))],
    ])('%s (a hostile record)', (_what, record) => {
      const read = readRecord(record, catalog);
      expect(read.deployment).toBeUndefined();
      expect(read.errors!.length).toBeGreaterThan(0);
    });
  });
});
