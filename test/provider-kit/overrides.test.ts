import { Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-34';
import {
  deepMergeJson,
  mergeIntoFinalJson,
  OverrideNullHandling,
  validateDeploymentOverrides,
  validateOverrideKeys,
} from '../../src/provider-kit/overrides';

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

  describe('Deployment overrides', () => {
    const rules = { displayName: 'P' };
    const paths = (overrides: unknown, r = rules) => validateDeploymentOverrides(overrides, r).map((e) => e.path);

    test('accept absent overrides and fields that keep the Deployment valid', () => {
      expect(paths(undefined)).toEqual([]);
      expect(paths({ spec: { replicas: 2, template: { metadata: { labels: { team: 'ml' } }, spec: { containers: [{ name: 'c' }] } } } })).toEqual([]);
    });

    test('refuse the blocked keys, the selector, non-object parts, null containers and the selector/ownership pod labels', () => {
      expect(paths({ kind: 'x', spec: { selector: null, template: { metadata: { labels: { 'app': 'a', 'airunway.ai/deployment': 'd' } }, spec: { containers: null } } } })).toEqual([
        'spec.provider.overrides.kind',
        'spec.provider.overrides.spec.selector',
        'spec.provider.overrides.spec.template.spec.containers',
        'spec.provider.overrides.spec.template.metadata.labels.airunway.ai/deployment',
        'spec.provider.overrides.spec.template.metadata.labels.app',
      ]);
      expect(paths({ spec: 'x' })).toEqual(['spec.provider.overrides.spec']);
      expect(paths({ spec: { template: 1 } })).toEqual(['spec.provider.overrides.spec.template']);
    });

    test('refuse the provider\'s extra pod labels with its reason', () => {
      const errors = validateDeploymentOverrides({ spec: { template: { metadata: { labels: { role: 'r' } } } } }, { ...rules, protectedPodLabels: { role: 'routed by it' } });
      expect(errors.map((e) => e.message)).toEqual(['overriding pod label "role" is not allowed: routed by it']);
    });

    test('leave the pod spec to a provider that refuses it, and say so for non-object parts', () => {
      const blocked = { ...rules, podSpecBlockedMessage: 'no pod spec' };
      expect(paths({ spec: { template: { spec: null } } }, blocked)).toEqual([]);
      expect(validateDeploymentOverrides({ spec: null }, blocked).map((e) => e.message)).toEqual(['no pod spec (a non-object "spec" would replace it)']);
    });
  });
});
