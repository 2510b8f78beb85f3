import { Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-34';
import {
  deepMergeJson,
  mergeIntoFinalJson,
  OverrideNullHandling,
  validateOverrideKeys,
} from '../../../src/providers/common/overrides';

describe('provider overrides', () => {
  test('merge objects recursively and replace everything else', () => {
    const target = { a: { b: 1, c: [1, 2] }, d: 'x', e: { f: 1 } };
    expect(deepMergeJson(target, { a: { c: [3], g: true }, d: { h: 1 }, e: 5 })).toEqual({
      a: { b: 1, c: [3], g: true },
      d: { h: 1 },
      e: 5,
    });
    expect(target).toEqual({ a: { b: 1, c: [1, 2] }, d: 'x', e: { f: 1 } });
  });

  test('set null or delete the key, depending on the provider', () => {
    expect(deepMergeJson({ a: { b: 1, c: 2 } }, { a: { b: null } })).toEqual({ a: { b: null, c: 2 } });
    expect(deepMergeJson({ a: { b: 1, c: 2 } }, { a: { b: null } }, OverrideNullHandling.DELETE)).toEqual({ a: { c: 2 } });
  });

  test('reach the final JSON of a typed L1, including fields its mapper would drop', () => {
    const chart = Testing.chart();
    const d = new k8s.KubeDeployment(chart, 'D', {
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { spec: { containers: [{ name: 'c' }] } } },
    });
    mergeIntoFinalJson(d, { spec: { strategy: { rollingUpdate: { maxSurge: '50%' } } } });
    expect(Testing.synth(chart)[0].spec.strategy).toEqual({ rollingUpdate: { maxSurge: '50%' } });
  });

  test('accept absent overrides and refuse the blocked top-level keys', () => {
    expect(validateOverrideKeys(undefined)).toEqual([]);
    expect(validateOverrideKeys({ spec: {} })).toEqual([]);
    expect(validateOverrideKeys({ status: {}, kind: 'x' }).map((e) => e.message)).toEqual([
      'overriding "kind" is not allowed',
      'overriding "status" is not allowed',
    ]);
    expect(validateOverrideKeys({ spec: {} }, ['spec']).map((e) => e.path)).toEqual(['spec.provider.overrides.spec']);
  });
});
