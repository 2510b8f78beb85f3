import { Duration, Size } from 'cdk8s';
import { Cpu, Volume } from 'cdk8s-plus-34';
import { chart, errorsOf, validManifests, vllmContainer, vllmTemplate } from './support';
import {
  KthenaAutoscalingPolicy,
  KthenaInferenceEngine,
  KthenaKvConnectorType,
  KthenaMetricSource,
  KthenaModelRoute,
  KthenaModelServer,
  KthenaModelServing,
  KthenaPodLabels,
  KthenaPodTemplate,
  KthenaRouteTarget,
  KthenaScalingTarget,
} from '../../src/kthena';

/** Whether every label of `selector` is on `labels` (a matchLabels selector). */
function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** Pod templates of a synthesized ModelServing: role, entry or worker, labels. */
function podTemplates(ms: any): Array<{ role: string; entry: boolean; labels: Record<string, string> }> {
  return ms.spec.template.roles.flatMap((r: any) => [
    { role: r.name, entry: true, labels: r.entryTemplate.metadata.labels },
    ...(r.workerTemplate ? [{ role: r.name, entry: false, labels: r.workerTemplate.metadata.labels }] : []),
  ]);
}

function byKind(manifests: any[], kind: string): any {
  return manifests.find((m) => m.kind === kind);
}

describe('Kthena constructs wired together', () => {
  test('a 1P2D ModelServing served, routed and autoscaled by role, every object accepted by Kthena\'s CRDs', () => {
    const c = chart();
    const shm = Volume.fromEmptyDir(c, 'shm', 'dshm', { sizeLimit: Size.gibibytes(16) });
    const engine = (role: string) => {
      const template = new KthenaPodTemplate({ terminationGracePeriod: Duration.minutes(5) });
      template.addContainer(vllmContainer({
        args: ['--model', 'Qwen/Qwen3-8B', '--kv-transfer-config', `{"kv_connector":"NixlConnector","kv_role":"${role}"}`],
        volumeMounts: [{ path: '/dev/shm', volume: shm }],
      }));
      return template;
    };
    const serving = new KthenaModelServing(c, 'serving', {
      metadata: { name: 'qwen', namespace: 'ml' },
      roles: [
        { name: 'prefill', entryTemplate: engine('kv_producer') },
        { name: 'decode', replicas: 2, entryTemplate: engine('kv_consumer') },
      ],
      gangPolicy: { minRoleReplicas: { prefill: 1, decode: 1 } },
    });
    const server = new KthenaModelServer(c, 'server', {
      metadata: { name: 'qwen', namespace: 'ml' },
      engine: KthenaInferenceEngine.VLLM,
      model: 'Qwen/Qwen3-8B',
      kvConnector: KthenaKvConnectorType.NIXL,
    });
    server.selectServing(serving, { prefillRole: 'prefill', decodeRole: 'decode' });
    const route = new KthenaModelRoute(c, 'route', {
      metadata: { name: 'qwen', namespace: 'ml' },
      modelName: 'qwen3-8b',
      parentRefs: [{ name: 'kthena-gateway', parentNamespace: 'kthena-system' }],
    });
    route.addRule({ name: 'default', targets: [KthenaRouteTarget.modelServer(server)] });
    const waiting = KthenaMetricSource.pod({ seriesName: 'vllm:num_requests_waiting', port: server.port });
    new KthenaAutoscalingPolicy(c, 'autoscaling', {
      metadata: { name: 'qwen', namespace: 'ml' },
      metrics: [{ name: 'waiting', targetValue: 8 }],
      target: KthenaScalingTarget.disaggregated({
        serving,
        roles: [
          { role: 'prefill', minReplicas: 1, maxReplicas: 4, metricSources: { waiting } },
          { role: 'decode', minReplicas: 2, maxReplicas: 8, metricSources: { waiting } },
        ],
        ratioConstraint: { numeratorRole: 'prefill', denominatorRole: 'decode', minRatio: 0.25, maxRatio: 1 },
      }),
    });

    const manifests = validManifests(c);
    expect(manifests.map((m) => m.kind)).toEqual(['ModelServing', 'ModelServer', 'ModelRoute', 'AutoscalingPolicy']);
    const ms = byKind(manifests, 'ModelServing');
    const srv = byKind(manifests, 'ModelServer');
    const rt = byKind(manifests, 'ModelRoute');
    const asp = byKind(manifests, 'AutoscalingPolicy');

    // The ModelServer reaches exactly the entry pods, and splits them into prefill and decode.
    const templates = podTemplates(ms);
    const selected = templates.filter((t) => selects(srv.spec.workloadSelector.matchLabels, t.labels));
    expect(selected.map((t) => t.role)).toEqual(['prefill', 'decode']);
    const pd = srv.spec.workloadSelector.pdGroup;
    expect(selected.filter((t) => selects(pd.prefillLabels, t.labels)).map((t) => t.role)).toEqual(['prefill']);
    expect(selected.filter((t) => selects(pd.decodeLabels, t.labels)).map((t) => t.role)).toEqual(['decode']);
    expect(pd.groupKey).toBe(KthenaPodLabels.KTHENA_SERVING_GROUP);

    // The route sends to the ModelServer, the policy scales the ModelServing's roles.
    expect(rt.spec.rules[0].targetModels).toEqual([{ modelServerName: srv.metadata.name }]);
    expect(asp.spec.disaggregatedTarget.targetRef).toEqual({ kind: 'ModelServing', name: ms.metadata.name });
    expect(Object.keys(asp.spec.disaggregatedTarget.roles).sort()).toEqual(ms.spec.template.roles.map((r: any) => r.name).sort());
    expect(asp.spec.disaggregatedTarget.roles.decode.metricSources.waiting.pod.port).toBe(srv.spec.workloadPort.port);

    expect(manifests).toMatchSnapshot();
  });

  test('an aggregated multi-node ModelServing: the ModelServer never selects worker pods; ServingGroups autoscale', () => {
    const c = chart();
    const serving = new KthenaModelServing(c, 'serving', {
      metadata: { name: 'llama' },
      replicas: 2,
      roles: [{
        name: 'leader',
        entryTemplate: new KthenaPodTemplate({ containers: [vllmContainer({ extendedResources: { 'nvidia.com/gpu': 8 } })] }),
        workerReplicas: 1,
        workerTemplate: new KthenaPodTemplate({
          containers: [vllmContainer({
            name: 'ray-worker',
            portNumber: undefined,
            command: ['ray', 'start', '--block', '--address=$(ENTRY_ADDRESS):6379'],
            extendedResources: { 'nvidia.com/gpu': 8 },
            resources: { cpu: { request: Cpu.units(16) }, memory: { request: Size.gibibytes(128) } },
          })],
        }),
      }],
    });
    const server = new KthenaModelServer(c, 'server', { metadata: { name: 'llama' }, engine: KthenaInferenceEngine.VLLM, serving });
    new KthenaModelRoute(c, 'route', { metadata: { name: 'llama' }, modelName: 'llama-70b', rules: [{ targets: [KthenaRouteTarget.modelServer(server)] }] });
    new KthenaAutoscalingPolicy(c, 'autoscaling', {
      metadata: { name: 'llama' },
      metrics: [{ name: 'waiting', targetValue: 5 }],
      target: KthenaScalingTarget.homogeneous({
        serving, minReplicas: 1, maxReplicas: 6, metricSources: { waiting: KthenaMetricSource.pod({ port: 8000 }) },
      }),
    });

    const manifests = validManifests(c);
    const ms = byKind(manifests, 'ModelServing');
    const srv = byKind(manifests, 'ModelServer');
    const templates = podTemplates(ms);
    expect(templates.map((t) => [t.role, t.entry])).toEqual([['leader', true], ['leader', false]]);
    expect(templates.filter((t) => selects(srv.spec.workloadSelector.matchLabels, t.labels)).map((t) => t.entry)).toEqual([true]);
    expect(byKind(manifests, 'AutoscalingPolicy').spec.homogeneousTarget.target.targetRef.name).toBe(ms.metadata.name);
    expect(serving.warnings).toEqual([]);
  });

  test('fails when a reference crosses namespaces: Kthena resolves each in the referrer\'s namespace', () => {
    const c = chart();
    const serving = new KthenaModelServing(c, 'serving', { metadata: { name: 'qwen', namespace: 'ml' }, roles: [{ name: 'server', entryTemplate: vllmTemplate() }] });
    const server = new KthenaModelServer(c, 'server', { metadata: { name: 'qwen', namespace: 'serving' }, engine: KthenaInferenceEngine.VLLM, serving });
    new KthenaModelRoute(c, 'route', { metadata: { name: 'qwen' }, modelName: 'qwen', rules: [{ targets: [KthenaRouteTarget.modelServer(server)] }] });
    new KthenaAutoscalingPolicy(c, 'autoscaling', {
      metadata: { name: 'qwen', namespace: 'autoscaling' },
      metrics: [{ name: 'waiting', targetValue: 5 }],
      target: KthenaScalingTarget.homogeneous({ serving, minReplicas: 1, maxReplicas: 2 }),
    });
    expect(errorsOf(c)).toEqual([
      'spec.workloadSelector: Invalid value: "ModelServing qwen": is in namespace "ml" but the ModelServer in namespace "serving"; Kthena looks it up in the ModelServer\'s namespace only',
      'spec.rules[0].targetModels[0].modelServerName: Invalid value: "qwen": is in namespace "serving" but the ModelRoute in no namespace (the one it is applied to); ' +
        'Kthena looks it up in the ModelRoute\'s namespace only',
      'spec.homogeneousTarget.target.targetRef.name: Invalid value: "qwen": is in namespace "ml" but the AutoscalingPolicy in namespace "autoscaling"; ' +
        'Kthena looks it up in the AutoscalingPolicy\'s namespace only',
    ]);
  });
});
