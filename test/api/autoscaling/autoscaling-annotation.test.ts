import { applyDefaults } from '../../../src/admission/defaulting';
import { AUTOSCALING_ANNOTATION, DEFAULT_PROMETHEUS_ADDRESS, readAutoscaling } from '../../../src/api/autoscaling/autoscaling-annotation';
import { formatFieldError } from '../../../src/core/field-error';
import type { ModelDeploymentObject } from '../../../src/core/model-deployment-object';
import { resolveModelDeployment } from '../../../src/pipeline/resolve';
import { defaultProviderCatalog } from '../../../src/pipeline/shipped-providers';

const P = 'metadata.annotations["inference.cdk8s.io/autoscaling"]';
const read = (value: string) => readAutoscaling({ [AUTOSCALING_ANNOTATION]: value });
const messages = (value: string) => read(value).errors.map(formatFieldError);

describe('the autoscaling annotation', () => {
  test('reads the bounds, the metrics and the defaults', () => {
    expect(read('maxReplicas: 4\nmetrics: [{type: queueDepth, target: 5}]')).toEqual({
      spec: { minReplicas: 1, maxReplicas: 4, metrics: [{ type: 'queueDepth', target: 5 }], prometheusAddress: DEFAULT_PROMETHEUS_ADDRESS, podMonitor: true },
      errors: [],
    });
    expect(read(JSON.stringify({
      minReplicas: 0,
      maxReplicas: 8,
      autoscaler: 'keda',
      prometheusAddress: 'https://prom.example.com',
      podMonitor: false,
      cooldownSeconds: 600,
      metrics: [{ type: 'kvCacheUsage', target: 80 }, { type: 'prometheus', query: 'sum(rate(x[1m]))', target: 2, activationTarget: 0.5 }],
    })).spec).toEqual({
      minReplicas: 0,
      maxReplicas: 8,
      autoscaler: 'keda',
      prometheusAddress: 'https://prom.example.com',
      podMonitor: false,
      cooldownSeconds: 600,
      metrics: [{ type: 'kvCacheUsage', target: 80 }, { type: 'prometheus', query: 'sum(rate(x[1m]))', target: 2, activationTarget: 0.5 }],
    });
  });

  test.each([
    ['not a mapping', '[1, 2]', `${P}: Invalid value: "[1, 2]": must be a mapping with maxReplicas and metrics`],
    ['not YAML', 'maxReplicas: [', `${P}: Invalid value: "maxReplicas: [": is not YAML or JSON:`],
    ['no maxReplicas', 'metrics: [{type: queueDepth, target: 5}]', `${P}.maxReplicas: Required value: the most replicas the autoscaler may run, 1 to 32`],
    ['maxReplicas above 32', 'maxReplicas: 33\nmetrics: [{type: queueDepth, target: 5}]', `${P}.maxReplicas: Invalid value: 33: must be an integer from 1 to 32`],
    ['a fractional minReplicas', 'minReplicas: 1.5\nmaxReplicas: 3\nmetrics: [{type: queueDepth, target: 5}]', `${P}.minReplicas: Invalid value: 1.5: must be an integer from 0 to 32`],
    ['minReplicas above maxReplicas', 'minReplicas: 4\nmaxReplicas: 3\nmetrics: [{type: queueDepth, target: 5}]', `${P}.minReplicas: Invalid value: 4: is more than maxReplicas (3)`],
    ['an unknown key', 'maxReplicas: 3\nmaxReplica: 4\nmetrics: [{type: queueDepth, target: 5}]', `${P}.maxReplica: Invalid value: 4: unknown key; known keys: minReplicas, maxReplicas,`],
    ['an unknown autoscaler', 'maxReplicas: 3\nautoscaler: vpa\nmetrics: [{type: queueDepth, target: 5}]', `${P}.autoscaler: Unsupported value: "vpa": supported values: "keda", "hpa"`],
    ['no metrics', 'maxReplicas: 3', `${P}.metrics: Required value: a list of 1 to 4 metrics`],
    ['five metrics', 'maxReplicas: 3\nmetrics: [{type: queueDepth, target: 1}, {type: kvCacheUsage, target: 1}, {type: requestRate, target: 1}, {type: inFlightRequests, target: 1}, {type: prometheus, query: up, target: 1}]', `${P}.metrics: Invalid value: [`],
    ['an unknown metric type', 'maxReplicas: 3\nmetrics: [{type: gpuUtil, target: 5}]', `${P}.metrics[0].type: Unsupported value: "gpuUtil": supported values: "queueDepth", "kvCacheUsage", "requestRate", "inFlightRequests", "prometheus"`],
    ['a zero target', 'maxReplicas: 3\nmetrics: [{type: queueDepth, target: 0}]', `${P}.metrics[0].target: Invalid value: 0: must be a number from 0.001 to 1000000000: requests waiting per replica (vllm:num_requests_waiting)`],
    ['a KV-cache target above 100 %', 'maxReplicas: 3\nmetrics: [{type: kvCacheUsage, target: 120}]', `${P}.metrics[0].target: Invalid value: 120: is a percentage of the KV cache in use: at most 100`],
    ['a metric given twice', 'maxReplicas: 3\nmetrics: [{type: queueDepth, target: 5}, {type: queueDepth, target: 6}]', `${P}.metrics[1].type: Invalid value: "queueDepth": duplicates metrics[0]; give each metric once`],
    ['a prometheus metric without a query', 'maxReplicas: 3\nmetrics: [{type: prometheus, target: 5}]', `${P}.metrics[0].query: Required value: the PromQL query`],
    ['a query on a vLLM metric', 'maxReplicas: 3\nmetrics: [{type: queueDepth, target: 5, query: up}]', `${P}.metrics[0].query: Invalid value: "up": only a metric of type prometheus takes a query; queueDepth has its own`],
    ['a negative activation target', 'maxReplicas: 3\nmetrics: [{type: queueDepth, target: 5, activationTarget: -1}]', `${P}.metrics[0].activationTarget: Invalid value: -1: must be a number from 0 to 1000000000`],
    ['a Prometheus address that is no URL', 'maxReplicas: 3\nprometheusAddress: prometheus:9090\nmetrics: [{type: queueDepth, target: 5}]', `${P}.prometheusAddress: Invalid value: "prometheus:9090": must be an http:// or https:// URL`],
    ['podMonitor as a string', 'maxReplicas: 3\npodMonitor: "yes"\nmetrics: [{type: queueDepth, target: 5}]', `${P}.podMonitor: Invalid value: "yes": must be true or false`],
    ['scale to zero with an HPA', 'minReplicas: 0\nmaxReplicas: 3\nautoscaler: hpa\nmetrics: [{type: queueDepth, target: 5}]', `${P}.minReplicas: Invalid value: 0: a HorizontalPodAutoscaler runs at least one replica`],
    ['a PromQL metric with an HPA', 'maxReplicas: 3\nautoscaler: hpa\nmetrics: [{type: prometheus, query: up, target: 5}]', `${P}.metrics[0].type: Invalid value: "prometheus": an HPA reads one pods metric per entry`],
    ['an activation target with an HPA', 'maxReplicas: 3\nautoscaler: hpa\nmetrics: [{type: queueDepth, target: 5, activationTarget: 1}]', `${P}.metrics[0].activationTarget: Invalid value: 1: only KEDA wakes a workload from zero`],
  ])('%s is a field error under the annotation', (_what, value, expected) => {
    const found = messages(value);
    expect(found.length).toBeGreaterThan(0);
    expect(found.some((m) => m.startsWith(expected))).toBe(true);
  });

  test('an oversized value is refused before it is parsed', () => {
    expect(messages(`maxReplicas: 3\n#${'x'.repeat(20000)}`)[0]).toMatch(/is \d+ bytes, more than the 16384 allowed/);
  });

  test('an alias bomb is refused, not expanded', () => {
    const bomb = 'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]';
    expect(messages(bomb)[0]).toMatch(/is not YAML or JSON/);
  });
});

describe('autoscaling at admission', () => {
  const md = (annotation: string | undefined, scaling?: object): ModelDeploymentObject => ({
    name: 'qwen',
    namespace: 'ml',
    ...(annotation !== undefined && { annotations: { [AUTOSCALING_ANNOTATION]: annotation } }),
    spec: { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } }, ...(scaling && { scaling }) },
  });
  const VALID = 'maxReplicas: 3\nmetrics: [{type: queueDepth, target: 5}]';

  test('no replica count is defaulted for an autoscaled deployment, and an empty scaling block is dropped', () => {
    expect(applyDefaults(md(VALID)).spec.scaling).toBeUndefined();
    expect(applyDefaults(md(VALID, {})).spec.scaling).toBeUndefined();
    expect(applyDefaults(md(undefined)).spec.scaling).toEqual({ replicas: 1 });
  });

  test('a fixed replica count and autoscaling are mutually exclusive', () => {
    const result = resolveModelDeployment(md(VALID, { replicas: 2 }), defaultProviderCatalog());
    expect(result.errors.map(formatFieldError)).toEqual([
      'spec.scaling.replicas: Invalid value: 2: a fixed replica count and autoscaling (metadata.annotations["inference.cdk8s.io/autoscaling"]) are mutually exclusive: ' +
        'the autoscaler sets the replicas between minReplicas and maxReplicas; remove spec.scaling.replicas, or the annotation',
    ]);
  });

  test('the annotation\'s own errors are admission errors', () => {
    const result = resolveModelDeployment(md('maxReplicas: 0\nmetrics: [{type: queueDepth, target: 5}]'), defaultProviderCatalog());
    expect(result.errors.map(formatFieldError)).toEqual([`${P}.maxReplicas: Invalid value: 0: must be an integer from 1 to 32`]);
  });
});
