import { Duration } from 'cdk8s';
import { k8s, PersistentVolumeClaim, Volume } from 'cdk8s-plus-34';
import { chart, errorsOf, manifestOf, vllmContainer, vllmTemplate } from './support';
import { Warnings } from '../../src/api/warnings';
import { KthenaModelServing, KthenaPodTemplate } from '../../src/kthena';

/** The entry template of the first role of a one-role ModelServing built around `template`. */
function renderedEntry(template: KthenaPodTemplate): any {
  const c = chart();
  new KthenaModelServing(c, 'ms', { metadata: { name: 'qwen' }, roles: [{ name: 'server', entryTemplate: template }] });
  return manifestOf(c, 'ModelServing').spec.template.roles[0].entryTemplate;
}

function entryErrors(template: KthenaPodTemplate): string[] {
  const c = chart();
  new KthenaModelServing(c, 'ms', { metadata: { name: 'qwen' }, roles: [{ name: 'server', entryTemplate: template }] });
  return errorsOf(c);
}

describe('KthenaPodTemplate', () => {
  test('renders cdk8s-plus containers as cdk8s-plus does, with extended resources as limits', () => {
    const entry = renderedEntry(vllmTemplate());
    expect(entry.spec.containers).toEqual([{
      name: 'vllm',
      image: 'vllm/vllm-openai:v0.11.0',
      imagePullPolicy: 'Always',
      args: ['--model', 'Qwen/Qwen3-8B'],
      ports: [{ containerPort: 8000 }],
      resources: {
        limits: { 'memory': '65536Mi', 'nvidia.com/gpu': 1 },
        requests: { cpu: '4', memory: '32768Mi' },
      },
      securityContext: { allowPrivilegeEscalation: false, privileged: false, readOnlyRootFilesystem: false, runAsNonRoot: false },
      startupProbe: { failureThreshold: 3, tcpSocket: { port: 8000 } },
    }]);
  });

  test('adds the volumes the containers mount, and extra volumes, each once', () => {
    const template = new KthenaPodTemplate({ terminationGracePeriod: Duration.minutes(5), nodeSelector: { pool: 'gpu' } });
    const scope = chart();
    const shm = Volume.fromEmptyDir(scope, 'shm', 'dshm');
    const cache = Volume.fromPersistentVolumeClaim(scope, 'cache', PersistentVolumeClaim.fromClaimName(scope, 'claim', 'models'), { name: 'models' });
    const vllm = template.addContainer(vllmContainer({ volumeMounts: [{ path: '/dev/shm', volume: shm }] }));
    vllm.mount('/models', cache);
    template.addVolume(shm);
    const entry = renderedEntry(template);
    expect(entry.spec.volumes).toEqual([{ name: 'dshm', emptyDir: {} }, { name: 'models', persistentVolumeClaim: { claimName: 'models', readOnly: false } }]);
    expect(entry.spec.containers[0].volumeMounts).toEqual([{ name: 'dshm', mountPath: '/dev/shm' }, { name: 'models', mountPath: '/models' }]);
    expect(entry.spec.terminationGracePeriodSeconds).toBe(300);
    expect(entry.spec.nodeSelector).toEqual({ pool: 'gpu' });
  });

  test('takes a plain k8s.PodSpec, and containers added to it follow its own', () => {
    const template = KthenaPodTemplate.fromPodSpec({
      containers: [{ name: 'engine', image: 'lmsysorg/sglang:v0.5.4', resources: { limits: { 'nvidia.com/gpu': k8s.Quantity.fromNumber(8) } } }],
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
    }, { labels: { team: 'ml' }, annotations: { 'example.com/note': 'x' } });
    template.addContainer({ name: 'sidecar', image: 'busybox:1.36', command: ['sleep', 'infinity'], resources: {} });
    template.addLabel('tier', 'gold');
    template.addAnnotation('example.com/owner', 'ml');
    expect(template.containerNames).toEqual(['engine', 'sidecar']);
    const entry = renderedEntry(template);
    expect(entry.metadata.labels).toEqual({
      'team': 'ml',
      'tier': 'gold',
      'inference.cdk8s.io/kthena-model-serving': 'qwen',
      'inference.cdk8s.io/kthena-role': 'server',
      'inference.cdk8s.io/kthena-entry': 'true',
    });
    expect(entry.metadata.annotations).toEqual({ 'example.com/note': 'x', 'example.com/owner': 'ml' });
    expect(entry.spec.containers.map((c: any) => c.name)).toEqual(['engine', 'sidecar']);
    expect(entry.spec.containers[0].resources).toEqual({ limits: { 'nvidia.com/gpu': 8 } });
    expect(entry.spec.tolerations).toEqual([{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
  });

  test('renders the pod-level props', () => {
    const entry = renderedEntry(new KthenaPodTemplate({
      containers: [vllmContainer()],
      initContainers: [{ name: 'fetch', image: 'busybox:1.36', resources: {} }],
      serviceAccountName: 'engine',
      tolerations: [{ key: 'gpu', operator: 'Exists' }],
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'gpu', operator: 'Exists' }] }] } } },
      securityContext: { ensureNonRoot: false, fsGroup: 1000 },
      runtimeClassName: 'nvidia',
      priorityClassName: 'inference',
      imagePullSecrets: ['registry'],
      hostNetwork: true,
    }));
    expect(entry.spec).toMatchObject({
      initContainers: [{ name: 'fetch', image: 'busybox:1.36' }],
      serviceAccountName: 'engine',
      tolerations: [{ key: 'gpu', operator: 'Exists' }],
      securityContext: { runAsNonRoot: false, fsGroup: 1000 },
      runtimeClassName: 'nvidia',
      priorityClassName: 'inference',
      imagePullSecrets: [{ name: 'registry' }],
      hostNetwork: true,
    });
    expect(entry.spec.affinity.nodeAffinity).toBeDefined();
  });

  test('fails when a template has no container', () => {
    expect(entryErrors(new KthenaPodTemplate())).toEqual([
      'spec.template.roles[0].entryTemplate.spec.containers: Required value: a pod template needs at least one container (addContainer, or containers in props or the pod spec)',
    ]);
  });

  test('fails when two containers share a name (cdk8s-plus names unnamed containers "main")', () => {
    const template = new KthenaPodTemplate({ containers: [vllmContainer({ name: undefined }), vllmContainer({ name: undefined })] });
    expect(entryErrors(template)).toEqual([
      'spec.template.roles[0].entryTemplate.spec.containers[1].name: Invalid value: "main": duplicates spec.template.roles[0].entryTemplate.spec.containers[0].name: ' +
        'container names are unique in a pod (cdk8s-plus names a container "main" unless given a name)',
    ]);
  });

  test('fails when an image is blank or contains whitespace (Kthena\'s webhook)', () => {
    const template = KthenaPodTemplate.fromPodSpec({ containers: [{ name: 'a', image: '  ' }], initContainers: [{ name: 'b', image: 'busybox :1' }] });
    expect(entryErrors(template)).toEqual([
      'spec.template.roles[0].entryTemplate.spec.containers[0].image: Invalid value: "  ": Kthena refuses a container image that is blank',
      'spec.template.roles[0].entryTemplate.spec.initContainers[0].image: Invalid value: "busybox :1": Kthena refuses a container image that contains whitespace',
    ]);
  });

  test('fails when a pod label uses a key this library or Kthena\'s controller writes', () => {
    const template = vllmTemplate();
    template.addLabel('inference.cdk8s.io/kthena-role', 'x');
    template.addLabel('modelserving.volcano.sh/role', 'x');
    template.addLabel('bad key', 'x');
    expect(entryErrors(template)).toEqual([
      'spec.template.roles[0].entryTemplate.metadata.labels.inference.cdk8s.io/kthena-role: Forbidden: is written by KthenaModelServing, which selects the pods by it (see KthenaPodLabels)',
      'spec.template.roles[0].entryTemplate.metadata.labels.modelserving.volcano.sh/role: Forbidden: Kthena\'s controller owns the pod labels under modelserving.volcano.sh/ ' +
        '(the ModelServer pairs prefill and decode pods by them)',
      expect.stringContaining('spec.template.roles[0].entryTemplate.metadata.labels: Invalid value: "bad key": label key name part must consist of alphanumeric characters'),
    ]);
  });

  test('fails when an extended resource has a bad name or count', () => {
    const template = new KthenaPodTemplate({ containers: [vllmContainer({ extendedResources: { 'gpu': 1, 'nvidia.com/gpu': 0.5 } })] });
    expect(entryErrors(template)).toEqual([
      'spec.template.roles[0].entryTemplate.spec.containers[0].resources.limits: Invalid value: "gpu": is not an extended resource name: ' +
        'it has no domain prefix (a name without one is a native resource such as cpu or memory)',
      'spec.template.roles[0].entryTemplate.spec.containers[0].resources.limits.nvidia.com/gpu: Invalid value: 0.5: must be a whole number of at least 1',
    ]);
  });

  test('fails when two different volumes share a name', () => {
    const template = new KthenaPodTemplate({ containers: [vllmContainer()] });
    template.addVolume(Volume.fromEmptyDir(chart(), 'a', 'cache'));
    template.addVolume(Volume.fromEmptyDir(chart(), 'b', 'cache'));
    expect(entryErrors(template)).toEqual([
      'spec.template.roles[0].entryTemplate.spec.volumes: Invalid value: "cache": two different volumes have this name; volume names are unique in a pod',
    ]);
  });

  test('warns about containers left with cdk8s-plus\'s default resources, once per synth', () => {
    const c = chart();
    const serving = new KthenaModelServing(c, 'ms', {
      metadata: { name: 'qwen' },
      roles: [{ name: 'server', entryTemplate: new KthenaPodTemplate({ containers: [vllmContainer({ resources: undefined })] }) }],
    });
    const expected = 'spec.template.roles[0].entryTemplate.spec.containers[0] sets no resources, so cdk8s-plus\'s defaults apply ' +
      '(requests 1 CPU and 512Mi, limits 1.5 CPU and 2048Mi of memory), far below what an inference engine needs; set resources (and extendedResources for GPUs)';
    expect(serving.warnings).toEqual([expected]);
    expect(errorsOf(c)).toEqual([]);
    errorsOf(c);
    expect(Warnings.collect(c).map((w) => w.message)).toEqual([expected]);
  });
});
