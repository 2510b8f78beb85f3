import { Chart, Duration, Testing } from 'cdk8s';
import { parse } from 'yaml';
import { Autoscaler, AutoscalingMetric, EngineType, ModelDeployment, ModelDeploymentProps, ServingMode } from '../../src';
import { AUTOSCALING_ANNOTATION } from '../../src/api/autoscaling/autoscaling-annotation';
import { expectValidManifests } from '../support/schema-validator';

const MODEL = { id: 'Qwen/Qwen3-0.6B' };
const QUEUE_AND_CACHE = 'maxReplicas: 4\nmetrics: [{type: queueDepth, target: 5}, {type: kvCacheUsage, target: 80}]';

function synth(props: Partial<ModelDeploymentProps>) {
  const app = Testing.app();
  const chart = new Chart(app, 'test', { namespace: 'ml' });
  const md = new ModelDeployment(chart, 'qwen', { model: MODEL, resources: { gpu: { count: 1 } }, ...props });
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  return { md, errors, manifests: errors.length === 0 ? Testing.synth(chart) : [] };
}

const annotated = (provider: string, value: string, extra: Partial<ModelDeploymentProps> = {}) =>
  synth({ provider: { name: provider }, metadata: { annotations: { [AUTOSCALING_ANNOTATION]: value } }, ...extra });
const find = (manifests: any[], kind: string) => manifests.find((m) => m.kind === kind);

describe('KEDA (the default) on the Deployment-based providers', () => {
  test.each(['vllm', 'llmd'])('%s: a ScaledObject with one Prometheus trigger per metric, a PodMonitor, and a Deployment without a replica count', (provider) => {
    const { errors, manifests } = annotated(provider, QUEUE_AND_CACHE);
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    expect(find(manifests, 'Deployment').spec).not.toHaveProperty('replicas');
    expect(find(manifests, 'ScaledObject').spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'qwen' },
      minReplicaCount: 1,
      maxReplicaCount: 4,
      triggers: [
        {
          type: 'prometheus',
          name: 'queue-depth',
          metadata: {
            serverAddress: 'http://prometheus-operated.monitoring.svc:9090',
            query: 'sum(vllm:num_requests_waiting{namespace="ml",model_deployment="qwen"})',
            threshold: '5',
          },
        },
        {
          type: 'prometheus',
          name: 'kv-cache-usage',
          metadata: {
            serverAddress: 'http://prometheus-operated.monitoring.svc:9090',
            query: 'sum(vllm:kv_cache_usage_perc{namespace="ml",model_deployment="qwen"})',
            threshold: '0.8',
          },
        },
      ],
    });
    const monitor = find(manifests, 'PodMonitor');
    expect(monitor.metadata).toMatchObject({ name: 'qwen', namespace: 'ml' });
    expect(monitor.spec).toEqual({
      selector: { matchLabels: { 'airunway.ai/model-deployment': 'qwen' } },
      podMetricsEndpoints: [{ portNumber: 8000, path: '/metrics', relabelings: [{ action: 'replace', targetLabel: 'model_deployment', replacement: 'qwen' }] }],
    });
    // The pods the PodMonitor selects are the serving pods.
    expect(find(manifests, 'Deployment').spec.template.metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);
  });

  test('scale to zero: minReplicaCount 0, the cooldown, and the activation threshold of the demand metric', () => {
    const { errors, manifests } = annotated('vllm', [
      'minReplicas: 0',
      'maxReplicas: 2',
      'cooldownSeconds: 900',
      'metrics:',
      '  - {type: queueDepth, target: 3}',
      '  - {type: prometheus, query: \'sum(rate(envoy_cluster_upstream_rq_total{envoy_cluster_name=~".*qwen.*"}[1m]))\', target: 2, activationTarget: 0.1}',
    ].join('\n'));
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    const spec = find(manifests, 'ScaledObject').spec;
    expect(spec).toMatchObject({
      minReplicaCount: 0,
      maxReplicaCount: 2,
      cooldownPeriod: 900,
      advanced: { horizontalPodAutoscalerConfig: { behavior: { scaleDown: { stabilizationWindowSeconds: 900 } } } },
    });
    expect(spec.triggers[1]).toEqual({
      type: 'prometheus',
      name: 'prometheus-query',
      metadata: {
        serverAddress: 'http://prometheus-operated.monitoring.svc:9090',
        query: 'sum(rate(envoy_cluster_upstream_rq_total{envoy_cluster_name=~".*qwen.*"}[1m]))',
        threshold: '2',
        activationThreshold: '0.1',
      },
    });
  });

  test('scale to zero with only model server metrics is a field error: nothing would wake the model', () => {
    expect(annotated('vllm', 'minReplicas: 0\nmaxReplicas: 3\nmetrics: [{type: queueDepth, target: 5}]').errors.join('\n')).toContain(
      'metadata.annotations["inference.cdk8s.io/autoscaling"].minReplicas: Invalid value: 0: scaling to zero needs a demand signal that exists while no pod runs',
    );
  });

  test('requestRate and inFlightRequests queries; no PodMonitor when podMonitor is false or only PromQL is read', () => {
    const { manifests } = annotated('vllm', 'maxReplicas: 3\npodMonitor: false\nmetrics: [{type: requestRate, target: 2}, {type: inFlightRequests, target: 16}]');
    expect(find(manifests, 'PodMonitor')).toBeUndefined();
    expect(find(manifests, 'ScaledObject').spec.triggers.map((t: any) => t.metadata.query)).toEqual([
      'sum(rate(vllm:request_success_total{namespace="ml",model_deployment="qwen"}[2m]))',
      'sum(vllm:num_requests_running{namespace="ml",model_deployment="qwen"}) + sum(vllm:num_requests_waiting{namespace="ml",model_deployment="qwen"})',
    ]);
    expect(find(annotated('vllm', 'maxReplicas: 3\nmetrics: [{type: prometheus, query: up, target: 2}]').manifests, 'PodMonitor')).toBeUndefined();
  });
});

describe('autoscaling multi-node replicas', () => {
  test('KEDA scales the LeaderWorkerSet, which has no replica count of its own; the PodMonitor scrapes the leaders', () => {
    const { errors, manifests } = annotated('vllm', QUEUE_AND_CACHE, {
      resources: { gpu: { count: 16 } },
      multiNode: { gpusPerNode: 8 },
    });
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    expect(find(manifests, 'ScaledObject').spec.scaleTargetRef).toEqual({ apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet', name: 'qwen' });
    expect(find(manifests, 'LeaderWorkerSet').spec).not.toHaveProperty('replicas');
    expect(find(manifests, 'PodMonitor').spec.selector.matchLabels).toMatchObject({ 'leaderworkerset.sigs.k8s.io/worker-index': '0' });
  });
});

describe('an HPA when asked for', () => {
  test('autoscaling/v2 on pods metrics, averaged per replica (quantities as the API server stores them), with the cooldown as the scale-down window', () => {
    const { errors, manifests } = annotated('vllm', 'maxReplicas: 6\nminReplicas: 2\nautoscaler: hpa\ncooldownSeconds: 120\nmetrics: [{type: queueDepth, target: 5}, {type: kvCacheUsage, target: 75}, {type: requestRate, target: 1.5}]');
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    expect(find(manifests, 'ScaledObject')).toBeUndefined();
    const hpa = find(manifests, 'HorizontalPodAutoscaler');
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'qwen' },
      minReplicas: 2,
      maxReplicas: 6,
      metrics: [
        { type: 'Pods', pods: { metric: { name: 'vllm:num_requests_waiting' }, target: { type: 'AverageValue', averageValue: '5' } } },
        { type: 'Pods', pods: { metric: { name: 'vllm:kv_cache_usage_perc' }, target: { type: 'AverageValue', averageValue: '750m' } } },
        { type: 'Pods', pods: { metric: { name: 'vllm:request_success' }, target: { type: 'AverageValue', averageValue: '1500m' } } },
      ],
      behavior: { scaleDown: { stabilizationWindowSeconds: 120 } },
    });
  });
});

describe("Kthena's own AutoscalingPolicy", () => {
  test('a homogeneous target on the ModelServing, metrics scraped from the engine port, no ServingGroup count', () => {
    const { errors, manifests } = annotated('kthena', QUEUE_AND_CACHE);
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    expect(find(manifests, 'ScaledObject')).toBeUndefined();
    expect(find(manifests, 'ModelServing').spec).not.toHaveProperty('replicas');
    expect(find(manifests, 'AutoscalingPolicy').spec).toEqual({
      metrics: [{ name: 'queueDepth', targetValue: 5 }, { name: 'kvCacheUsage', targetValue: '0.8' }],
      homogeneousTarget: {
        minReplicas: 1,
        maxReplicas: 4,
        target: {
          targetRef: { kind: 'ModelServing', name: 'qwen' },
          metricSources: {
            queueDepth: { pod: { name: 'vllm:num_requests_waiting', port: 8000 } },
            kvCacheUsage: { pod: { name: 'vllm:kv_cache_usage_perc', port: 8000 } },
          },
        },
      },
    });
  });

  test('multi-node replicas: the ServingGroups still scale, and only the entry pods (the servers) are scraped', () => {
    const { errors, manifests } = annotated('kthena', QUEUE_AND_CACHE, { resources: { gpu: { count: 16 } }, multiNode: { gpusPerNode: 8 } });
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    expect(find(manifests, 'ModelServing').spec.template.roles[0].workerReplicas).toBe(1);
    const target = find(manifests, 'AutoscalingPolicy').spec.homogeneousTarget.target;
    expect(target.targetRef).toEqual({ kind: 'ModelServing', name: 'qwen' });
    const entryOnly = { matchLabels: { 'airunway.ai/model-deployment': 'qwen' } };
    expect(target.metricSources).toEqual({
      queueDepth: { pod: { name: 'vllm:num_requests_waiting', port: 8000, labelSelector: entryOnly } },
      kvCacheUsage: { pod: { name: 'vllm:kv_cache_usage_perc', port: 8000, labelSelector: entryOnly } },
    });
  });

  test('SGLang: its own series, and --enable-metrics so that it exports them', () => {
    const { errors, manifests } = annotated('kthena', QUEUE_AND_CACHE, { engine: { engineType: EngineType.SGLANG } });
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    expect(find(manifests, 'AutoscalingPolicy').spec.homogeneousTarget.target.metricSources).toEqual({
      queueDepth: { pod: { name: 'sglang:num_queue_reqs', port: 8000 } },
      kvCacheUsage: { pod: { name: 'sglang:token_usage', port: 8000 } },
    });
    const args: string[] = find(manifests, 'ModelServing').spec.template.roles[0].entryTemplate.spec.containers[0].args;
    expect(args.filter((a) => a === '--enable-metrics')).toHaveLength(1);
    const plain = synth({ provider: { name: 'kthena' }, engine: { engineType: EngineType.SGLANG } });
    expect(find(plain.manifests, 'ModelServing').spec.template.roles[0].entryTemplate.spec.containers[0].args).not.toContain('--enable-metrics');
  });

  test('a metric Kthena cannot scrape, scaling to zero, or an autoscaler by name, is a field error', () => {
    expect(annotated('kthena', 'minReplicas: 0\nmaxReplicas: 3\nmetrics: [{type: queueDepth, target: 2}]').errors.join('\n')).toContain(
      'metadata.annotations["inference.cdk8s.io/autoscaling"].minReplicas: Invalid value: 0: Kthena\'s autoscaler reads its metrics from the serving pods',
    );
    expect(annotated('kthena', 'maxReplicas: 3\nmetrics: [{type: requestRate, target: 2}]').errors.join('\n')).toContain(
      'metadata.annotations["inference.cdk8s.io/autoscaling"].metrics[0].type: Invalid value: "requestRate": Kthena\'s autoscaler scrapes gauges from the pods: queueDepth or kvCacheUsage',
    );
    expect(annotated('kthena', 'maxReplicas: 3\nautoscaler: keda\nmetrics: [{type: queueDepth, target: 2}]').errors.join('\n')).toContain(
      'metadata.annotations["inference.cdk8s.io/autoscaling"].autoscaler: Invalid value: "keda": provider Kthena scales the deployment with its target\'s own autoscaler; remove autoscaler',
    );
  });
});

describe("KubeRay's own autoscaling (Ray Serve and the in-tree Ray autoscaler)", () => {
  test('autoscaling_config on in-flight requests, the in-tree autoscaler on, the worker group between the bounds', () => {
    const { errors, manifests } = annotated('kuberay', 'minReplicas: 0\nmaxReplicas: 4\ncooldownSeconds: 300\nmetrics: [{type: inFlightRequests, target: 8}]');
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    const spec = find(manifests, 'RayService').spec;
    expect(parse(spec.serveConfigV2).applications[0].args.llm_configs[0].deployment_config).toEqual({
      autoscaling_config: { min_replicas: 0, max_replicas: 4, target_ongoing_requests: 8, downscale_delay_s: 300 },
    });
    expect(spec.rayClusterConfig.enableInTreeAutoscaling).toBe(true);
    expect(spec.rayClusterConfig.workerGroupSpecs[0]).toMatchObject({ groupName: 'gpu-workers', replicas: 0, minReplicas: 0, maxReplicas: 4 });
    expect(find(manifests, 'ScaledObject')).toBeUndefined();
  });

  test('another metric is a field error naming the one Ray Serve scales on', () => {
    expect(annotated('kuberay', QUEUE_AND_CACHE).errors.join('\n')).toContain(
      'metadata.annotations["inference.cdk8s.io/autoscaling"].metrics[0].type: Invalid value: "queueDepth": Ray Serve scales on the requests each replica has in flight: use inFlightRequests',
    );
  });
});

describe('targets without autoscaling', () => {
  test.each(['kaito', 'modelplane', 'flexinfer'])('%s: Forbidden, naming the targets that autoscale', (provider) => {
    const { errors, manifests } = annotated(provider, QUEUE_AND_CACHE);
    expect(manifests).toEqual([]);
    expect(errors.join('\n')).toMatch(
      /metadata\.annotations\["inference\.cdk8s\.io\/autoscaling"\]: Forbidden: provider .* does not support autoscaling; targets that support it: kthena, kuberay, llmd, vllm/,
    );
  });

  test('llm-d disaggregated: Forbidden (its prefill and decode Deployments are scaled by their counts)', () => {
    const { errors } = annotated('llmd', QUEUE_AND_CACHE, {
      servingMode: ServingMode.DISAGGREGATED,
      resources: undefined,
      scaling: { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 1 } } },
    });
    // Kthena's autoscaler scales ServingGroups, and a disaggregated Kthena deployment is one group.
    expect(errors.join('\n')).toContain('does not support autoscaling; targets that support it: vllm');
  });
});

describe('the typed API', () => {
  test('scaling.autoscaling writes the annotation a YAML user writes, and synthesizes the same objects', () => {
    const typed = synth({
      provider: { name: 'vllm' },
      scaling: {
        autoscaling: {
          maxReplicas: 4,
          metrics: [AutoscalingMetric.queueDepth(5), AutoscalingMetric.kvCacheUsage(80)],
          autoscaler: Autoscaler.KEDA,
          cooldown: Duration.minutes(10),
        },
      },
    });
    expect(typed.errors).toEqual([]);
    const written = parse(find(typed.manifests, 'ModelDeployment').metadata.annotations[AUTOSCALING_ANNOTATION]);
    expect(written).toEqual({
      maxReplicas: 4,
      autoscaler: 'keda',
      metrics: [{ type: 'queueDepth', target: 5 }, { type: 'kvCacheUsage', target: 80 }],
      cooldownSeconds: 600,
    });
    const yaml = annotated('vllm', JSON.stringify(written));
    const strip = (ms: any[]) => ms.filter((m) => m.kind !== 'ModelDeployment');
    expect(strip(typed.manifests)).toEqual(strip(yaml.manifests));
  });

  test('scaling.replicas with scaling.autoscaling is the mutual-exclusion error; the annotation written twice is Forbidden', () => {
    const both = synth({ provider: { name: 'vllm' }, scaling: { replicas: 2, autoscaling: { maxReplicas: 3, metrics: [AutoscalingMetric.queueDepth(5)] } } });
    expect(both.errors.join('\n')).toContain('spec.scaling.replicas: Invalid value: 2: a fixed replica count and autoscaling');
    const twice = synth({
      provider: { name: 'vllm' },
      metadata: { annotations: { [AUTOSCALING_ANNOTATION]: QUEUE_AND_CACHE } },
      scaling: { autoscaling: { maxReplicas: 3, metrics: [AutoscalingMetric.queueDepth(5)] } },
    });
    expect(twice.errors.join('\n')).toContain(
      'metadata.annotations["inference.cdk8s.io/autoscaling"]: Forbidden: is set in metadata.annotations and by scaling.autoscaling; set only one of them',
    );
  });

  test('the record lists the autoscaler objects as rendered, so the controller can own them', () => {
    const { manifests } = annotated('vllm', QUEUE_AND_CACHE);
    const rendered: string = find(manifests, 'ModelDeployment').metadata.annotations['inference.cdk8s.io/rendered-objects'];
    expect(rendered).toContain('keda.sh/v1alpha1');
    expect(rendered).toContain('monitoring.coreos.com/v1');
  });
});

describe('scale to zero (scaling.replicas: 0)', () => {
  test.each([['vllm', 'Deployment'], ['llmd', 'Deployment'], ['kthena', 'ModelServing']])('%s runs no pods and does not warn', (provider, kind) => {
    const { md, errors, manifests } = synth({ provider: { name: provider }, scaling: { replicas: 0 } });
    expect(errors).toEqual([]);
    expect(find(manifests, kind).spec.replicas).toBe(0);
    expect(md.warnings.filter((w) => w.includes('replicas is 0'))).toEqual([]);
  });

  test('a target that cannot run zero runs one and says which targets can', () => {
    const { md, manifests } = synth({ provider: { name: 'kuberay' }, scaling: { replicas: 0 } });
    expect(manifests.length).toBeGreaterThan(0);
    expect(md.warnings).toContain(
      'scaling.replicas is 0: provider kuberay cannot run zero replicas and runs one (as AI Runway does); targets that run zero: dynamo, kthena, llmd, vllm',
    );
  });
});
