import { Chart, Duration, Testing } from 'cdk8s';
import {
  EngineType, ModelDeployment, ModelDeploymentMonitoring, ModelDeploymentMonitoringProps, ModelDeploymentProps,
} from '../../src';
import { AUTOSCALING_ANNOTATION } from '../../src/api/autoscaling/autoscaling-annotation';
import { promqlSyntaxErrors } from '../../src/observability/promql-check';
import { validateManifest } from '../../src/schema-validation/manifest-validator';

const MODEL = { id: 'Qwen/Qwen3-0.6B' };
const GPU = { gpu: { count: 1 } };

function build(mdProps: Partial<ModelDeploymentProps>, monitoring: Partial<ModelDeploymentMonitoringProps> = {}) {
  const app = Testing.app();
  const chart = new Chart(app, 'test', { namespace: 'ml' });
  const md = new ModelDeployment(chart, 'qwen', { model: MODEL, resources: GPU, ...mdProps });
  const mon = new ModelDeploymentMonitoring(chart, 'Monitoring', { deployment: md, ...monitoring });
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  const manifests = errors.length === 0 ? Testing.synth(chart) : [];
  return { md, mon, errors, manifests };
}

const ofKind = (manifests: any[], kind: string) => manifests.filter((m) => m.kind === kind);
const monitorOf = (manifests: any[]) => ofKind(manifests, 'PodMonitor')[0];
const rulesOf = (manifests: any[]) => ofKind(manifests, 'PrometheusRule')[0]?.spec.groups[0].rules ?? [];

/** Every pod template in the rendered objects whose labels the selector matches (ignoring labels the LWS controller adds). */
function matchingTemplates(manifests: any[], selector: Record<string, string>): any[] {
  const templates: any[] = [];
  const walk = (node: any) => {
    if (!node || typeof node !== 'object') return;
    if (node.metadata?.labels && Array.isArray(node.spec?.containers)) templates.push(node);
    for (const v of Object.values(node)) walk(v);
  };
  manifests.filter((m) => !m.apiVersion.startsWith('monitoring.coreos.com/')).forEach(walk);
  const keys = Object.entries(selector).filter(([k]) => !k.startsWith('leaderworkerset.sigs.k8s.io/'));
  return templates.filter((t) => keys.every(([k, v]) => t.metadata.labels[k] === v));
}

describe('objects validate against the Prometheus Operator v0.93 schemas', () => {
  test('PodMonitor and PrometheusRule of a vLLM deployment', () => {
    const { errors, manifests } = build({ provider: { name: 'vllm' } });
    expect(errors).toEqual([]);
    const monitoring = manifests.filter((m) => m.apiVersion === 'monitoring.coreos.com/v1');
    expect(monitoring.map((m) => m.kind)).toEqual(['PodMonitor', 'PrometheusRule']);
    for (const m of monitoring) expect(validateManifest(m)).toEqual([]);
  });

  test('the schema check is real: a malformed duration in the rule is refused by the upstream schema', () => {
    const { manifests } = build({ provider: { name: 'vllm' } });
    const rule = structuredClone(ofKind(manifests, 'PrometheusRule')[0]);
    rule.spec.groups[0].rules[0].for = '5 minutes';
    expect(validateManifest(rule).map((v) => v.path)).toEqual(['spec.groups[0].rules[0].for']);
    const monitor = structuredClone(monitorOf(manifests));
    monitor.spec.podMetricsEndpoints[0].portNumber = 70000;
    expect(validateManifest(monitor).map((v) => v.path)).toEqual(['spec.podMetricsEndpoints[0].portNumber']);
  });

  test('the PrometheusRule CRD\'s Go case-insensitive pattern (?i) is honoured: partial_response_strategy', () => {
    const { manifests } = build({ provider: { name: 'vllm' } });
    const withStrategy = (value: string) => {
      const rule = structuredClone(ofKind(manifests, 'PrometheusRule')[0]);
      rule.spec.groups[0].partial_response_strategy = value;
      return validateManifest(rule).map((v) => v.path);
    };
    expect(withStrategy('WARN')).toEqual([]);
    expect(withStrategy('abort')).toEqual([]);
    expect(withStrategy('ignore')).toEqual(['spec.groups[0].partial_response_strategy']);
  });

  test('named after the deployment, in its namespace, labelled as ours and with the caller\'s labels', () => {
    const { manifests } = build({ provider: { name: 'vllm' } }, { labels: { release: 'kube-prometheus-stack' } });
    for (const m of [monitorOf(manifests), ofKind(manifests, 'PrometheusRule')[0]]) {
      expect(m.metadata).toMatchObject({
        name: 'qwen',
        namespace: 'ml',
        labels: { 'release': 'kube-prometheus-stack', 'app.kubernetes.io/part-of': 'cdk8s-inference', 'airunway.ai/deployment': 'qwen' },
      });
    }
  });
});

describe('the PodMonitor selects the model server pods of each provider', () => {
  const cases: Array<[string, Partial<ModelDeploymentProps>, number]> = [
    ['vllm', { provider: { name: 'vllm' } }, 8000],
    ['llmd', { provider: { name: 'llmd' } }, 8000],
    ['vllm multi-node (LeaderWorkerSet leaders)', {
      provider: { name: 'vllm' }, resources: { gpu: { count: 16 } }, multiNode: { gpusPerNode: 8 },
    }, 8000],
    ['kthena', { provider: { name: 'kthena' } }, 8000],
  ];
  test.each(cases)('%s: selector matches the rendered pod template, port is the container\'s', (_name, props, port) => {
    const { errors, manifests } = build(props);
    expect(errors).toEqual([]);
    const monitor = monitorOf(manifests);
    expect(validateManifest(monitor)).toEqual([]);
    expect(monitor.spec.podMetricsEndpoints[0]).toMatchObject({ portNumber: port, path: '/metrics', interval: '30s', scrapeTimeout: '10s' });
    const templates = matchingTemplates(manifests, monitor.spec.selector.matchLabels);
    expect(templates.length).toBeGreaterThan(0);
    // The scraped port is declared by a container of the selected pods (the Prometheus Operator keeps only declared ports).
    const ports = templates.flatMap((t) => t.spec.containers.flatMap((c: any) => (c.ports ?? []).map((p: any) => p.containerPort)));
    expect(ports).toContain(port);
    // The endpoint picker and download pods are not selected.
    expect(templates.every((t) => t.metadata.labels['airunway.ai/job-type'] === undefined)).toBe(true);
  });

  test('without a ModelDeployment record (emitRecord: false) the pods are found as the provider named them', () => {
    const { errors, manifests } = build({ provider: { name: 'vllm' }, emitRecord: false });
    expect(errors).toEqual([]);
    expect(ofKind(manifests, 'ModelDeployment')).toEqual([]);
    const monitor = monitorOf(manifests);
    expect(monitor.spec.podMetricsEndpoints[0].portNumber).toBe(8000);
    expect(matchingTemplates(manifests, monitor.spec.selector.matchLabels).length).toBeGreaterThan(0);
  });

  test('KAITO: the Workspace label KAITO puts on its pods and the llama.cpp port 5000', () => {
    const { errors, manifests } = build({
      model: { id: 'x/y-gguf' }, provider: { name: 'kaito' }, resources: {}, engine: { engineType: EngineType.LLAMACPP, image: 'example.com/llama:1' },
    });
    expect(errors).toEqual([]);
    expect(monitorOf(manifests).spec).toMatchObject({ selector: { matchLabels: { 'kaito.sh/workspace': 'qwen' } }, podMetricsEndpoints: [{ portNumber: 5000 }] });
    // llama.cpp (AIKit) exports no engine series we know: only the replica alert, judged by the scrape targets.
    expect(rulesOf(manifests).map((r: any) => r.alert)).toEqual(['LLMNoReadyReplica']);
    expect(rulesOf(manifests)[0].expr).toBe('absent(up{namespace="ml",model_deployment="qwen"} == 1)');
  });

  test('FlexInfer: the label its operator puts on the model\'s pods, the engine backend\'s port', () => {
    const { errors, manifests } = build({ provider: { name: 'flexinfer' } });
    expect(errors).toEqual([]);
    const monitor = monitorOf(manifests);
    expect(validateManifest(monitor)).toEqual([]);
    expect(monitor.spec).toMatchObject({ selector: { matchLabels: { 'flexinfer.ai/model': 'qwen' } }, podMetricsEndpoints: [{ portNumber: 8000 }] });
  });

  test.each(['kuberay', 'dynamo'])('%s: refused with the reason, the prop to set and the alternative', (provider) => {
    const { errors } = build({ provider: { name: provider } });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^podSelector: Invalid value: <nil>: cannot find the model server pods of qwen \\(provider ${provider}\\): .+; set podSelector and metricsPort, or podMonitor: false$`));
  });

  test('dynamo with podSelector and metricsPort: scraped as told', () => {
    const selector = { 'nvidia.com/dynamo-component-type': 'frontend', 'nvidia.com/metrics-enabled': 'true' };
    const { errors, manifests } = build({ provider: { name: 'dynamo' } }, { podSelector: selector, metricsPort: 8000 });
    expect(errors).toEqual([]);
    expect(monitorOf(manifests).spec.selector.matchLabels).toEqual(selector);
    expect(validateManifest(monitorOf(manifests))).toEqual([]);
  });

  test('dynamo with podMonitor: false: no PodMonitor and no rule that would need one', () => {
    const { errors, manifests, mon } = build({ provider: { name: 'dynamo' } }, { podMonitor: false });
    expect(errors).toEqual([]);
    expect(mon.podMonitor).toBeUndefined();
    expect(ofKind(manifests, 'PodMonitor')).toEqual([]);
  });

  test('reuses the autoscaling PodMonitor instead of scraping the pods twice, and says when its props do not apply', () => {
    const { errors, manifests, mon } = build({
      provider: { name: 'vllm' },
      metadata: { annotations: { [AUTOSCALING_ANNOTATION]: 'maxReplicas: 4\nmetrics: [{type: queueDepth, target: 5}]' } },
    }, { scrapeInterval: Duration.seconds(15) });
    expect(errors).toEqual([]);
    expect(ofKind(manifests, 'PodMonitor')).toHaveLength(1);
    expect(mon.podMonitor?.node.path).toBe('test/qwen/PodMonitor');
    expect(mon.node.metadata.map((m) => m.data)).toEqual([expect.stringContaining('already has a PodMonitor')]);
  });
});

describe('alert rules per engine', () => {
  test('vLLM: queue, KV cache (both gauge names), error rate on 5xx API responses, no ready replica from kube-state-metrics', () => {
    const { manifests } = build({ provider: { name: 'vllm' } });
    const rules = rulesOf(manifests);
    expect(rules.map((r: any) => [r.alert, r.for, r.labels.severity])).toEqual([
      ['LLMRequestQueueHigh', '5m', 'warning'],
      ['LLMKVCacheNearlyFull', '5m', 'warning'],
      ['LLMHighErrorRate', '5m', 'critical'],
      ['LLMNoReadyReplica', '15m', 'critical'],
    ]);
    const s = '{namespace="ml",model_deployment="qwen"}';
    expect(rules.map((r: any) => r.expr)).toEqual([
      `max by (namespace, pod) (vllm:num_requests_waiting${s}) > 10`,
      `max by (namespace, pod) ((vllm:kv_cache_usage_perc${s} or vllm:gpu_cache_usage_perc${s})) > 0.9`,
      'sum(rate(http_requests_total{namespace="ml",model_deployment="qwen",handler=~"/v1/.*",status="5xx"}[5m])) / ' +
        'sum(rate(http_requests_total{namespace="ml",model_deployment="qwen",handler=~"/v1/.*"}[5m])) > 0.05',
      '(kube_deployment_status_replicas_available{namespace="ml",deployment=~"qwen"} == 0 and on (namespace, deployment) ' +
        'kube_deployment_spec_replicas{namespace="ml",deployment=~"qwen"} > 0)',
    ]);
    for (const r of rules) {
      expect(promqlSyntaxErrors(r.expr)).toEqual([]);
      expect(Object.keys(r.annotations).sort()).toEqual(['description', 'summary']);
    }
  });

  test('SGLang: its own queue and KV pool gauges, no error-rate alert; warns when --enable-metrics is not passed', () => {
    const { errors, manifests, mon } = build({ provider: { name: 'kthena' }, engine: { engineType: EngineType.SGLANG } });
    expect(errors).toEqual([]);
    const rules = rulesOf(manifests);
    expect(rules.map((r: any) => r.alert)).toEqual(['LLMRequestQueueHigh', 'LLMKVCacheNearlyFull', 'LLMNoReadyReplica']);
    expect(rules[0].expr).toBe('max by (namespace, pod) (sglang:num_queue_reqs{namespace="ml",model_deployment="qwen"}) > 10');
    expect(rules[1].expr).toBe('max by (namespace, pod) (sglang:token_usage{namespace="ml",model_deployment="qwen"}) > 0.9');
    // Kthena runs the pods itself: readiness from the scrape targets.
    expect(rules[2].expr).toBe('absent(up{namespace="ml",model_deployment="qwen"} == 1)');
    expect(mon.node.metadata.map((m) => m.data)).toEqual([expect.stringContaining('serves /metrics only with --enable-metrics')]);
  });

  test('SGLang with --enable-metrics passed: no warning', () => {
    const { mon } = build({ provider: { name: 'kthena' }, engine: { engineType: EngineType.SGLANG, extraArgs: ['--enable-metrics'] } });
    expect(mon.node.metadata).toEqual([]);
  });

  test('multi-node vLLM: no ready replica reads the LeaderWorkerSet\'s leader StatefulSet', () => {
    const { manifests } = build({ provider: { name: 'vllm' }, resources: { gpu: { count: 16 } }, multiNode: { gpusPerNode: 8 } });
    expect(rulesOf(manifests).at(-1).expr).toBe('(kube_statefulset_status_replicas_ready{namespace="ml",statefulset=~"qwen"} == 0 and on (namespace, statefulset) ' +
      'kube_statefulset_replicas{namespace="ml",statefulset=~"qwen"} > 0)');
  });

  test('thresholds, durations and severities from props', () => {
    const { errors, manifests } = build({ provider: { name: 'vllm' } }, {
      queueDepthThreshold: 25,
      kvCacheUsagePercent: 95.5,
      errorRatePercent: 1,
      alertFor: Duration.minutes(2),
      noReadyReplicaFor: Duration.hours(1),
      warningSeverity: 'info',
      criticalSeverity: 'page',
    });
    expect(errors).toEqual([]);
    const rules = rulesOf(manifests);
    expect(rules.map((r: any) => [r.expr.slice(r.expr.lastIndexOf(' ') + 1), r.for, r.labels.severity])).toEqual([
      ['25', '2m', 'info'], ['0.955', '2m', 'info'], ['0.01', '2m', 'page'], ['0)', '1h', 'page'],
    ]);
  });

  test('alertRules: false gives the PodMonitor only', () => {
    const { manifests, mon } = build({ provider: { name: 'vllm' } }, { alertRules: false });
    expect(ofKind(manifests, 'PrometheusRule')).toEqual([]);
    expect(mon.alertNames).toEqual([]);
  });
});

describe('bad props: the prop, the value and what is allowed', () => {
  test.each<[Partial<ModelDeploymentMonitoringProps>, string]>([
    [{ kvCacheUsagePercent: 150 }, 'kvCacheUsagePercent: Invalid value: 150: must be a percentage above 0 and at most 100'],
    [{ errorRatePercent: 0 }, 'errorRatePercent: Invalid value: 0: must be a percentage above 0 and at most 100'],
    [{ queueDepthThreshold: -1 }, 'queueDepthThreshold: Invalid value: -1: must be a number of requests, 0 or more'],
    [{ queueDepthThreshold: Infinity }, 'queueDepthThreshold: Invalid value: null: must be a number of requests, 0 or more'],
    [{ scrapeTimeout: Duration.seconds(60) }, 'scrapeTimeout: Invalid value: "1m": must not exceed scrapeInterval (30s)'],
    [{ scrapeInterval: Duration.millis(1500) }, 'scrapeInterval: Invalid value: "1500ms": must be a whole number of seconds, at least 1s'],
    [{ metricsPort: 0 }, 'metricsPort: Invalid value: 0: must be a port number, 1 to 65535'],
    [{ metricsPath: 'metrics' }, 'metricsPath: Invalid value: "metrics": must be an absolute HTTP path without whitespace, e.g. /metrics'],
    [{ warningSeverity: 'very bad' }, 'warningSeverity: Invalid value: "very bad": must be a label value: a valid label must be an empty string or consist of'],
    [{ labels: { 'bad key!': 'x' } }, 'labels["bad key!"]: Invalid value: "bad key!": invalid label key:'],
    [{ podSelector: { app: 'x' } }, 'metricsPort: Invalid value: <nil>: required with podSelector'],
  ])('%p', (props, message) => {
    const { errors, manifests } = build({ provider: { name: 'vllm' } }, props);
    expect(errors).toEqual([expect.stringContaining(message)]);
    expect(errors[0].startsWith(message)).toBe(true);
    expect(manifests).toEqual([]);
  });

  test('an invalid deployment reports its own errors only, and nothing is monitored', () => {
    const { errors, mon } = build({ provider: { name: 'vllm' }, resources: { gpu: { count: 0 } }, scaling: { replicas: -1 } });
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.some((e) => /podSelector|metricsPort/.test(e))).toBe(false);
    expect(mon.podMonitor).toBeUndefined();
    expect(mon.prometheusRule).toBeUndefined();
  });
});

describe('promqlSyntaxErrors', () => {
  test.each([
    ['sum(rate(x{a="b"}[5m])) > 1', []],
    ['max by (pod) (x) > 1 and on (namespace) y', []],
    ['x{a=")"}', []],
    ['sum(rate(x[5m]) > 1', ['"(" opened at 3 is not closed']],
    ['x{a="b"]', ['"]" at 7 closes "{" opened at 1']],
    ['summ(x)', ['"summ" at 0 is called like a function but is not a PromQL function or aggregation']],
    ['x{a="b}', ['the string opened at 4 is not closed']],
    ['  ', ['the expression is empty']],
  ])('%s', (expr, expected) => {
    expect(promqlSyntaxErrors(expr)).toEqual(expected);
  });
});
