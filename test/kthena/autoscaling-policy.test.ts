import { Chart, Duration } from 'cdk8s';
import { chart, errorsOf, manifestOf, upstreamViolations, vllmTemplate } from './support';
import {
  KthenaAutoscalingPolicy,
  KthenaAutoscalingPolicyProps,
  KthenaDisaggregatedTargetOptions,
  KthenaMetricSource,
  KthenaModelServing,
  KthenaRoleScaling,
  KthenaScalingSelectPolicy,
  KthenaScalingTarget,
} from '../../src/kthena';

const WAITING = KthenaMetricSource.pod({ seriesName: 'vllm:num_requests_waiting', port: 8000 });

function pdServing(c: Chart): KthenaModelServing {
  return new KthenaModelServing(c, 'ms', {
    metadata: { name: 'qwen' },
    roles: [{ name: 'prefill', entryTemplate: vllmTemplate() }, { name: 'decode', entryTemplate: vllmTemplate() }],
  });
}

function policyErrors(props: (c: Chart) => KthenaAutoscalingPolicyProps): string[] {
  const c = chart();
  new KthenaAutoscalingPolicy(c, 'asp', { metadata: { name: 'qwen' }, ...props(c) });
  return errorsOf(c).filter((e) => !e.startsWith('spec.template'));
}

function rawPolicyViolations(props: (c: Chart) => KthenaAutoscalingPolicyProps): string {
  const c = chart();
  new KthenaAutoscalingPolicy(c, 'asp', { metadata: { name: 'qwen' }, ...props(c) });
  return upstreamViolations(c).join('\n');
}

function homogeneous(c: Chart, overrides: Partial<Parameters<typeof KthenaScalingTarget.homogeneous>[0]> = {}): KthenaScalingTarget {
  return KthenaScalingTarget.homogeneous({ serving: KthenaModelServing.fromModelServingName(c, 'ms', 'qwen'), minReplicas: 1, maxReplicas: 4, ...overrides });
}

function role(name: string, overrides: Partial<KthenaRoleScaling> = {}): KthenaRoleScaling {
  return { role: name, minReplicas: 1, maxReplicas: 4, metricSources: { waiting: WAITING }, ...overrides };
}

function disaggregated(c: Chart, overrides: Partial<KthenaDisaggregatedTargetOptions> = {}): KthenaScalingTarget {
  return KthenaScalingTarget.disaggregated({ serving: pdServing(c), roles: [role('prefill'), role('decode')], ...overrides });
}

describe('KthenaAutoscalingPolicy', () => {
  test('scales a ModelServing\'s ServingGroups by a pod metric, with behavior', () => {
    const c = chart();
    const policy = new KthenaAutoscalingPolicy(c, 'asp', {
      metadata: { name: 'qwen' },
      target: homogeneous(c, { metricSources: { waiting: WAITING } }),
      tolerancePercent: 5,
      behavior: {
        scaleUp: {
          stablePolicy: {
            instances: 2,
            percent: 200,
            period: Duration.seconds(30),
            selectPolicy: KthenaScalingSelectPolicy.AND,
            stabilizationWindow: Duration.minutes(1),
          },
          panicPolicy: { period: Duration.seconds(10), percent: 500, panicThresholdPercent: 150, panicModeHold: Duration.minutes(2) },
        },
        scaleDown: { instances: 1, stabilizationWindow: Duration.minutes(5) },
      },
    });
    policy.addMetric('waiting', 10);
    expect(manifestOf(c, 'AutoscalingPolicy').spec).toEqual({
      tolerancePercent: 5,
      metrics: [{ name: 'waiting', targetValue: 10 }],
      behavior: {
        scaleUp: {
          stablePolicy: { instances: 2, percent: 200, period: '30s', selectPolicy: 'And', stabilizationWindow: '1m' },
          panicPolicy: { period: '10s', percent: 500, panicThresholdPercent: 150, panicModeHold: '2m' },
        },
        scaleDown: { instances: 1, stabilizationWindow: '5m' },
      },
      homogeneousTarget: {
        minReplicas: 1,
        maxReplicas: 4,
        target: {
          targetRef: { kind: 'ModelServing', name: 'qwen' },
          metricSources: { waiting: { pod: { name: 'vllm:num_requests_waiting', port: 8000 } } },
        },
      },
    });
    expect(policy.target).toBeInstanceOf(KthenaScalingTarget);
  });

  test('scales several ModelServings by cost, reading a metric from Prometheus', () => {
    const c = chart();
    const rps = KthenaMetricSource.prometheus('http://prometheus.monitoring.svc:9090', 'sum(rate(vllm:request_success_total[1m]))');
    new KthenaAutoscalingPolicy(c, 'asp', {
      metadata: { name: 'qwen' },
      metrics: [{ name: 'rps', targetValue: 2.5 }],
      target: KthenaScalingTarget.heterogeneous({
        costExpansionRatePercent: 150,
        members: [
          { serving: KthenaModelServing.fromModelServingName(c, 'h100', 'qwen-h100'), minReplicas: 0, maxReplicas: 4, cost: 100, metricSources: { rps } },
          { serving: KthenaModelServing.fromModelServingName(c, 'a100', 'qwen-a100'), minReplicas: 1, maxReplicas: 8, cost: 60, metricSources: { rps } },
        ],
      }),
    });
    const spec = manifestOf(c, 'AutoscalingPolicy').spec;
    expect(spec.metrics).toEqual([{ name: 'rps', targetValue: '2.5' }]);
    expect(spec.heterogeneousTarget).toEqual({
      costExpansionRatePercent: 150,
      params: [
        { minReplicas: 0, maxReplicas: 4, cost: 100, target: { targetRef: { kind: 'ModelServing', name: 'qwen-h100' }, metricSources: { rps: { prometheus: { serverURL: 'http://prometheus.monitoring.svc:9090', query: 'sum(rate(vllm:request_success_total[1m]))' } } } } },
        { minReplicas: 1, maxReplicas: 8, cost: 60, target: { targetRef: { kind: 'ModelServing', name: 'qwen-a100' }, metricSources: { rps: { prometheus: { serverURL: 'http://prometheus.monitoring.svc:9090', query: 'sum(rate(vllm:request_success_total[1m]))' } } } } },
      ],
    });
  });

  test('scales the prefill and decode roles of one ModelServing within a ratio; a fixed role needs no metrics', () => {
    const c = chart();
    new KthenaAutoscalingPolicy(c, 'asp', {
      metadata: { name: 'qwen' },
      target: KthenaScalingTarget.disaggregated({
        serving: pdServing(c),
        roles: [
          role('prefill', { metrics: [{ name: 'ttft', targetValue: 0.5 }], metricSources: { ttft: KthenaMetricSource.pod({ path: '/metrics', matchLabels: { 'inference.cdk8s.io/kthena-role': 'prefill' } }) } }),
          { role: 'decode', minReplicas: 2, maxReplicas: 2 },
        ],
        ratioConstraint: { numeratorRole: 'prefill', denominatorRole: 'decode', minRatio: 0.5, maxRatio: 2 },
      }),
    });
    expect(manifestOf(c, 'AutoscalingPolicy').spec).toEqual({
      disaggregatedTarget: {
        targetRef: { kind: 'ModelServing', name: 'qwen' },
        roles: {
          prefill: {
            minReplicas: 1,
            maxReplicas: 4,
            metrics: [{ name: 'ttft', targetValue: '0.5' }],
            metricSources: { ttft: { pod: { uri: '/metrics', labelSelector: { matchLabels: { 'inference.cdk8s.io/kthena-role': 'prefill' } } } } },
          },
          decode: { minReplicas: 2, maxReplicas: 2 },
        },
        ratioConstraint: { numeratorRole: 'prefill', denominatorRole: 'decode', minRatio: '0.5', maxRatio: 2 },
      },
    });
  });

  describe('validation', () => {
    test('fails when a homogeneous or heterogeneous policy has no metric', () => {
      expect(policyErrors((c) => ({ target: homogeneous(c) }))).toEqual([
        'spec.metrics: Required value: a policy with a homogeneousTarget needs at least one metric (metrics, addMetric)',
      ]);
    });

    test('fails when metric names repeat or are empty, or a target value is not above 0', () => {
      expect(policyErrors((c) => ({ target: homogeneous(c), metrics: [{ name: 'a', targetValue: 0 }, { name: 'a', targetValue: 1 }, { name: '', targetValue: Infinity }] }))).toEqual([
        'spec.metrics[0].targetValue: Invalid value: 0: must be a finite number above 0',
        'spec.metrics[1].name: Invalid value: "a": duplicates an earlier metric: metric names are unique',
        'spec.metrics[2].name: Invalid value: "": must not be empty',
        'spec.metrics[2].targetValue: Invalid value: "Infinity": must be a finite number above 0',
      ]);
    });

    test('fails when tolerancePercent is above 100 (also refused by the CRD)', () => {
      const props = (c: Chart) => ({ target: homogeneous(c), metrics: [{ name: 'a', targetValue: 1 }], tolerancePercent: 150 });
      expect(policyErrors(props)).toEqual([
        'spec.tolerancePercent: Invalid value: 150: must be a whole number from 0 to 100: percent of deviation tolerated before scaling',
      ]);
      expect(rawPolicyViolations(props)).toContain('spec.tolerancePercent');
    });

    test('fails when replica bounds are out of range or reversed (range also refused by the CRD)', () => {
      const props = (c: Chart) => ({ target: homogeneous(c, { minReplicas: 5, maxReplicas: 4 }), metrics: [{ name: 'a', targetValue: 1 }] });
      expect(policyErrors(props)).toEqual(['spec.homogeneousTarget.minReplicas: Invalid value: 5: must be at most maxReplicas (4)']);
      const zero = (c: Chart) => ({ target: homogeneous(c, { minReplicas: -1, maxReplicas: 0 }), metrics: [{ name: 'a', targetValue: 1 }] });
      expect(policyErrors(zero)).toEqual([
        'spec.homogeneousTarget.minReplicas: Invalid value: -1: must be a whole number from 0 to 1000000',
        'spec.homogeneousTarget.maxReplicas: Invalid value: 0: must be a whole number from 1 to 1000000',
      ]);
      expect(rawPolicyViolations(zero)).toContain('spec.homogeneousTarget.maxReplicas');
    });

    test('fails when a metricSources key is no metric name', () => {
      expect(policyErrors((c) => ({ target: homogeneous(c, { metricSources: { wating: WAITING } }), metrics: [{ name: 'waiting', targetValue: 1 }] }))).toEqual([
        'spec.homogeneousTarget.target.metricSources.wating: Invalid value: "wating": names no metric of the policy (metrics: "waiting"); metricSources keys are metric names',
      ]);
    });

    test('fails when a metric source is malformed (also refused by the CRD)', () => {
      const bad = (c: Chart) => ({
        target: homogeneous(c, { metricSources: { a: KthenaMetricSource.pod({ path: 'metrics', port: 0 }), b: KthenaMetricSource.prometheus('prometheus:9090/x y', ' ') } }),
        metrics: [{ name: 'a', targetValue: 1 }, { name: 'b', targetValue: 1 }],
      });
      expect(policyErrors(bad)).toEqual([
        'spec.homogeneousTarget.target.metricSources.a.pod.uri: Invalid value: "metrics": must start with "/"',
        'spec.homogeneousTarget.target.metricSources.a.pod.port: Invalid value: 0: must be a whole number from 1 to 65535: a TCP port',
        'spec.homogeneousTarget.target.metricSources.b.prometheus.serverURL: Invalid value: "prometheus:9090/x y": must be the http:// or https:// URL of the Prometheus API, e.g. http://prometheus.monitoring.svc:9090',
        'spec.homogeneousTarget.target.metricSources.b.prometheus.query: Required value: needs a PromQL query',
      ]);
      const upstream = rawPolicyViolations(bad);
      expect(upstream).toContain('metricSources.a.pod.uri');
      expect(upstream).toContain('metricSources.a.pod.port');
    });

    test('fails when the target ModelServing has no name', () => {
      expect(policyErrors((c) => ({ target: homogeneous(c, { serving: KthenaModelServing.fromModelServingName(c, 'x', '') }), metrics: [{ name: 'a', targetValue: 1 }] }))).toEqual([
        'spec.homogeneousTarget.target.targetRef.name: Invalid value: "": the target ModelServing needs a name',
      ]);
    });

    test('fails when a heterogeneous target has no member, or a negative cost or expansion rate', () => {
      expect(policyErrors(() => ({ target: KthenaScalingTarget.heterogeneous({ members: [], costExpansionRatePercent: -1 }), metrics: [{ name: 'a', targetValue: 1 }] }))).toEqual([
        'spec.heterogeneousTarget.costExpansionRatePercent: Invalid value: -1: must be a whole number of at least 0',
        'spec.heterogeneousTarget.params: Required value: a heterogeneous target needs at least one ModelServing',
      ]);
      expect(policyErrors((c) => ({
        target: KthenaScalingTarget.heterogeneous({ members: [{ serving: KthenaModelServing.fromModelServingName(c, 'x', 'x'), minReplicas: 0, maxReplicas: 1, cost: -5 }] }),
        metrics: [{ name: 'a', targetValue: 1 }],
      }))).toEqual(['spec.heterogeneousTarget.params[0].cost: Invalid value: -5: must be a whole number of at least 0: a relative cost']);
    });

    test('fails when a disaggregated target has no role, more than two, a repeated or unknown one', () => {
      expect(policyErrors((c) => ({ target: disaggregated(c, { roles: [] }) }))).toEqual([
        'spec.disaggregatedTarget.roles: Required value: a disaggregated target needs one or two roles',
      ]);
      expect(policyErrors((c) => ({ target: disaggregated(c, { roles: [role('prefill'), role('prefill'), role('router')] }), metrics: [{ name: 'waiting', targetValue: 1 }] }))).toEqual([
        'spec.disaggregatedTarget.roles: Invalid value: "3 roles": Kthena scales at most 2 roles of a ModelServing together',
        'spec.disaggregatedTarget.roles: Invalid value: "prefill": is listed twice',
        'spec.disaggregatedTarget.roles: Invalid value: "router": names no role of ModelServing qwen (roles: "prefill", "decode")',
      ]);
      expect(policyErrors((c) => ({ target: disaggregated(c, { roles: [role('')] }), metrics: [{ name: 'waiting', targetValue: 1 }] }))).toEqual([
        'spec.disaggregatedTarget.roles: Invalid value: "": a role name must not be empty',
      ]);
    });

    test('fails when a scaling role has no metrics anywhere, or no metric sources', () => {
      expect(policyErrors((c) => ({ target: disaggregated(c, { roles: [role('prefill', { metricSources: undefined }), role('decode')] }) }))).toEqual([
        'spec.disaggregatedTarget.roles.prefill.metrics: Required value: role prefill scales (minReplicas 1 < maxReplicas 4) but has no metrics, and the policy has none',
        'spec.disaggregatedTarget.roles.decode.metrics: Required value: role decode scales (minReplicas 1 < maxReplicas 4) but has no metrics, and the policy has none',
        'spec.disaggregatedTarget.roles.decode.metricSources.waiting: Invalid value: "waiting": names no metric of role decode (metrics: none); metricSources keys are metric names',
      ]);
      expect(policyErrors((c) => ({ target: disaggregated(c, { roles: [role('prefill', { metricSources: undefined })] }), metrics: [{ name: 'waiting', targetValue: 1 }] }))).toEqual([
        'spec.disaggregatedTarget.roles.prefill.metricSources: Required value: role prefill scales, so it needs metricSources for its metrics (waiting)',
      ]);
    });

    test('fails when a role\'s metric sources name metrics the role does not use', () => {
      expect(policyErrors((c) => ({
        target: disaggregated(c, { roles: [role('prefill', { metrics: [{ name: 'ttft', targetValue: 1 }] })] }),
        metrics: [{ name: 'waiting', targetValue: 1 }],
      }))).toEqual([
        'spec.disaggregatedTarget.roles.prefill.metricSources.waiting: Invalid value: "waiting": names no metric of role prefill (metrics: "ttft"); metricSources keys are metric names',
      ]);
    });

    test('fails when a ratio constraint has one role, the same role twice, or an unlisted role (CEL rules)', () => {
      const one = (c: Chart) => ({
        target: disaggregated(c, { roles: [role('prefill')], ratioConstraint: { numeratorRole: 'prefill', denominatorRole: 'prefill', minRatio: 1, maxRatio: 2 } }),
        metrics: [{ name: 'waiting', targetValue: 1 }],
      });
      expect(policyErrors(one)).toEqual([
        'spec.disaggregatedTarget.roles: Invalid value: "1 roles": a ratioConstraint needs two roles',
        'spec.disaggregatedTarget.ratioConstraint.denominatorRole: Invalid value: "prefill": must differ from numeratorRole',
      ]);
      const upstream = rawPolicyViolations(one);
      expect(upstream).toContain('roles must contain at least two entries when ratioConstraint');
      expect(upstream).toContain('numeratorRole and denominatorRole must differ');
      expect(policyErrors((c) => ({
        target: disaggregated(c, { ratioConstraint: { numeratorRole: 'prefil', denominatorRole: 'decode', minRatio: 1, maxRatio: 2 } }),
        metrics: [{ name: 'waiting', targetValue: 1 }],
      }))).toEqual(['spec.disaggregatedTarget.ratioConstraint.numeratorRole: Invalid value: "prefil": must be one of the target\'s roles']);
    });

    test('fails when ratios are reversed, negative, zero or infinite', () => {
      const ratio = (minRatio: number, maxRatio: number) => policyErrors((c) => ({
        target: disaggregated(c, { ratioConstraint: { numeratorRole: 'prefill', denominatorRole: 'decode', minRatio, maxRatio } }),
        metrics: [{ name: 'waiting', targetValue: 1 }],
      }));
      expect(ratio(2, 1)).toEqual(['spec.disaggregatedTarget.ratioConstraint.minRatio: Invalid value: 2: must be at most maxRatio (1)']);
      expect(ratio(-1, 0)).toEqual([
        'spec.disaggregatedTarget.ratioConstraint.minRatio: Invalid value: -1: must be at least 0',
        'spec.disaggregatedTarget.ratioConstraint.maxRatio: Invalid value: 0: must be above 0',
      ]);
      expect(ratio(0, Infinity)).toEqual(['spec.disaggregatedTarget.ratioConstraint: Invalid value: "0..Infinity": minRatio and maxRatio must be finite']);
    });

    test('fails when only one ratio role can scale to zero, or the ratio is out of reach of the bounds', () => {
      const bounds = (prefill: [number, number], decode: [number, number], minRatio: number, maxRatio: number) => policyErrors((c) => ({
        target: disaggregated(c, {
          roles: [role('prefill', { minReplicas: prefill[0], maxReplicas: prefill[1] }), role('decode', { minReplicas: decode[0], maxReplicas: decode[1] })],
          ratioConstraint: { numeratorRole: 'prefill', denominatorRole: 'decode', minRatio, maxRatio },
        }),
        metrics: [{ name: 'waiting', targetValue: 1 }],
      }));
      expect(bounds([0, 4], [1, 4], 0.5, 2)).toEqual([
        'spec.disaggregatedTarget.ratioConstraint: Invalid value: "minReplicas 0 and 1": roles prefill and decode must both be able to scale to zero, or neither',
      ]);
      expect(bounds([8, 10], [1, 2], 0.5, 2)).toEqual([
        'spec.disaggregatedTarget.ratioConstraint: Invalid value: "8/2": is not achievable: even 8 prefill over 2 decode exceeds maxRatio 2',
      ]);
      expect(bounds([1, 2], [8, 10], 0.5, 2)).toEqual([
        'spec.disaggregatedTarget.ratioConstraint: Invalid value: "2/8": is not achievable: even 2 prefill over 8 decode is below minRatio 0.5',
      ]);
    });

    test('fails when behavior percents, thresholds or durations are out of range (ranges also refused by the CRD)', () => {
      const props = (c: Chart) => ({
        target: homogeneous(c),
        metrics: [{ name: 'a', targetValue: 1 }],
        behavior: {
          scaleUp: {
            stablePolicy: { percent: 1001, period: Duration.minutes(31) },
            panicPolicy: { period: Duration.hours(1), panicThresholdPercent: 100, percent: -1, panicModeHold: Duration.minutes(45) },
          },
          scaleDown: { instances: -1, stabilizationWindow: Duration.hours(2) },
        },
      });
      expect(policyErrors(props)).toEqual([
        'spec.behavior.scaleUp.stablePolicy.percent: Invalid value: 1001: must be a whole number from 0 to 1000: percent of the current instances per period',
        'spec.behavior.scaleUp.stablePolicy.period: Invalid value: "31m": must be between 0 and 30 minutes',
        'spec.behavior.scaleDown.instances: Invalid value: -1: must be a whole number of at least 0: instances per period',
        'spec.behavior.scaleDown.stabilizationWindow: Invalid value: "2h": must be between 0 and 30 minutes',
        'spec.behavior.scaleUp.panicPolicy.percent: Invalid value: -1: must be a whole number from 0 to 1000: percent of the current instances per period',
        'spec.behavior.scaleUp.panicPolicy.panicThresholdPercent: Invalid value: 100: must be a whole number from 110 to 1000: percent of the target value',
        'spec.behavior.scaleUp.panicPolicy.period: Invalid value: "1h": must be between 0 and 30 minutes',
        'spec.behavior.scaleUp.panicPolicy.panicModeHold: Invalid value: "45m": must be between 0 and 30 minutes',
      ]);
      const upstream = rawPolicyViolations(props);
      for (const field of ['stablePolicy.percent', 'panicPolicy.panicThresholdPercent', 'panicPolicy.percent', 'scaleDown.instances']) expect(upstream).toContain(field);
    });
  });
});
