import { Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { defaultEndpointPickerConfig, EndpointPicker } from '../../src/api/gateway/endpoint-picker-choice';
import { k8s } from '../../src/core/kube-api';
import {
  addEndpointPicker,
  DEFAULT_ENDPOINT_PICKER_CONFIG,
  DEFAULT_ENDPOINT_PICKER_IMAGE,
  DEFAULT_ENDPOINT_PICKER_PORT,
  ENDPOINT_PICKER_HEALTH_PORT,
  EndpointPickerOptions,
} from '../../src/gateway/endpoint-picker';
import { INFERENCE_POOL_V1, INFERENCE_POOL_V1ALPHA2, InferencePoolApiVersionString } from '../../src/gateway/inference-pool';
import {
  LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG,
  LLMD_ENDPOINT_PICKER_CONFIG,
  LLMD_GAIE_V1_5_DISAGGREGATED_ENDPOINT_PICKER_CONFIG,
  LLMD_GAIE_V1_5_ENDPOINT_PICKER_CONFIG,
  LLMD_PD_NON_CACHED_TOKENS,
} from '../../src/providers/llmd/config';
import { commonLabels } from '../support/expected-manifests';
import { expectValidManifests } from '../support/schema-validator';

const LABELS = commonLabels('llama');

const POD_LABELS = {
  'app.kubernetes.io/name': 'llama-epp',
  'app.kubernetes.io/instance': 'llama',
  'app.kubernetes.io/managed-by': 'airunway',
};

function options(overrides: Partial<EndpointPickerOptions> = {}): EndpointPickerOptions {
  return {
    deploymentName: 'llama',
    namespace: 'models',
    labels: LABELS,
    poolName: 'llama',
    poolApiVersion: INFERENCE_POOL_V1,
    image: DEFAULT_ENDPOINT_PICKER_IMAGE,
    configData: '',
    port: DEFAULT_ENDPOINT_PICKER_PORT,
    ...overrides,
  };
}

interface Synthesized {
  readonly returned: ReturnType<typeof addEndpointPicker>;
  readonly manifests: any[];
}

function synth(opts: EndpointPickerOptions = options()): Synthesized {
  const chart = Testing.chart();
  const returned = addEndpointPicker(chart, opts);
  const manifests = Testing.synth(chart);
  expectValidManifests(manifests);
  return { returned, manifests };
}

function find(manifests: any[], kind: string): any {
  const found = manifests.filter((m) => m.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, got ${found.length}`);
  return found[0];
}

function eppContainer(manifests: any[]): any {
  return find(manifests, 'Deployment').spec.template.spec.containers[0];
}

describe('addEndpointPicker', () => {
  test('matches the snapshot (v1 pool)', () => {
    expect(synth().manifests).toMatchSnapshot();
  });

  test('matches the snapshot (v1alpha2 pool, no namespace, llm-d configuration)', () => {
    expect(
      synth(options({
        namespace: undefined,
        poolApiVersion: INFERENCE_POOL_V1ALPHA2,
        image: 'ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0',
        configData: LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG,
      })).manifests,
    ).toMatchSnapshot();
  });

  test('creates ServiceAccount, Role, RoleBinding, ConfigMap, Deployment and Service named <md>-epp, in that order', () => {
    const { returned, manifests } = synth();
    expect(returned.map((o) => [o.node.id, o.apiVersion, o.kind, o.name])).toEqual([
      ['EndpointPickerServiceAccount', 'v1', 'ServiceAccount', 'llama-epp'],
      ['EndpointPickerRole', 'rbac.authorization.k8s.io/v1', 'Role', 'llama-epp'],
      ['EndpointPickerRoleBinding', 'rbac.authorization.k8s.io/v1', 'RoleBinding', 'llama-epp'],
      ['EndpointPickerConfig', 'v1', 'ConfigMap', 'llama-epp'],
      ['EndpointPicker', 'apps/v1', 'Deployment', 'llama-epp'],
      ['EndpointPickerService', 'v1', 'Service', 'llama-epp'],
    ]);
    expect(manifests).toHaveLength(6);
  });

  test('puts the given labels and namespace on every object, and no ownerReferences', () => {
    for (const m of synth().manifests) {
      expect(m.metadata).toEqual({ name: 'llama-epp', namespace: 'models', labels: LABELS });
    }
  });

  test('omits namespace and empty labels', () => {
    for (const m of synth(options({ namespace: undefined, labels: {} })).manifests) {
      expect(m.metadata).toEqual({ name: 'llama-epp' });
    }
  });

  test('the ServiceAccount has no extra fields', () => {
    const sa = find(synth().manifests, 'ServiceAccount');
    expect(Object.keys(sa).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
  });

  describe('Role', () => {
    const objectives = (group: string) => ({ apiGroups: [group], resources: ['inferenceobjectives', 'inferencemodelrewrites'], verbs: ['get', 'watch', 'list'] });

    test('reads pods and v1 InferencePools, manages leases, reads the llm-d Router\'s and GAIE\'s objectives and rewrites', () => {
      expect(find(synth().manifests, 'Role').rules).toEqual([
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'watch', 'list'] },
        { apiGroups: ['inference.networking.k8s.io'], resources: ['inferencepools'], verbs: ['get', 'watch', 'list'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'get', 'update'] },
        objectives('llm-d.ai'),
        objectives('inference.networking.x-k8s.io'),
      ]);
    });

    test('the GAIE v1.5 picker reads objectives and rewrites in GAIE\'s group only', () => {
      const rules = find(synth(options({ endpointPicker: EndpointPicker.GAIE_V1_5 })).manifests, 'Role').rules;
      expect(rules.filter((r: any) => r.resources.includes('inferenceobjectives'))).toEqual([objectives('inference.networking.x-k8s.io')]);
    });

    test('reads InferencePools in the x-k8s.io group for a v1alpha2 pool', () => {
      const rules = find(synth(options({ poolApiVersion: INFERENCE_POOL_V1ALPHA2 })).manifests, 'Role').rules;
      expect(rules[1]).toEqual({ apiGroups: ['inference.networking.x-k8s.io'], resources: ['inferencepools'], verbs: ['get', 'watch', 'list'] });
      expect(rules.filter((r: any) => r.resources.includes('inferencepools'))).toHaveLength(1);
    });
  });

  describe('RoleBinding', () => {
    test('binds the Role to the ServiceAccount in the namespace', () => {
      const binding = find(synth().manifests, 'RoleBinding');
      expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'llama-epp' });
      expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'llama-epp', namespace: 'models' }]);
    });

    test('leaves the subject namespace to the binding\'s when there is none', () => {
      const binding = find(synth(options({ namespace: undefined })).manifests, 'RoleBinding');
      expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'llama-epp' }]);
    });
  });

  describe('ConfigMap', () => {
    test('holds the two-line default configuration when configData is empty', () => {
      expect(find(synth().manifests, 'ConfigMap').data).toEqual({ 'default-plugins.yaml': DEFAULT_ENDPOINT_PICKER_CONFIG });
      expect(DEFAULT_ENDPOINT_PICKER_CONFIG.trimEnd().split('\n')).toEqual([
        'apiVersion: llm-d.ai/v1alpha1',
        'kind: EndpointPickerConfig',
      ]);
    });

    test('holds configData verbatim when given', () => {
      const data = find(synth(options({ configData: LLMD_ENDPOINT_PICKER_CONFIG })).manifests, 'ConfigMap').data;
      expect(data).toEqual({ 'default-plugins.yaml': LLMD_ENDPOINT_PICKER_CONFIG });
    });
  });

  describe('Deployment', () => {
    test('runs one replica, recreated on change, selected by the three app.kubernetes.io labels only', () => {
      const deployment = find(synth().manifests, 'Deployment');
      expect(deployment.spec.replicas).toBe(1);
      expect(deployment.spec.strategy).toEqual({ type: 'Recreate' });
      expect(deployment.spec.selector).toEqual({ matchLabels: POD_LABELS });
      expect(deployment.spec.template.metadata).toEqual({ labels: POD_LABELS });
    });

    test('runs as the ServiceAccount with a 130 s grace period and mounts the ConfigMap and a scratch /tmp', () => {
      const pod = find(synth().manifests, 'Deployment').spec.template.spec;
      expect(pod.serviceAccountName).toBe('llama-epp');
      expect(pod.terminationGracePeriodSeconds).toBe(130);
      // The picker watches pods and its pool: its token stays mounted.
      expect(pod.automountServiceAccountToken).toBeUndefined();
      expect(pod.volumes).toEqual([{ name: 'plugins-config', configMap: { name: 'llama-epp' } }, { name: 'tmp', emptyDir: {} }]);
      expect(pod.containers).toHaveLength(1);
    });

    test('has one container epp with the image, IfNotPresent, ports, env and config mount', () => {
      const container = eppContainer(synth().manifests);
      expect(container.name).toBe('epp');
      expect(container.image).toBe('ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0');
      expect(container.imagePullPolicy).toBe('IfNotPresent');
      expect(container.ports).toEqual([
        { name: 'grpc', containerPort: 9002 },
        { name: 'grpc-health', containerPort: 9003 },
      ]);
      expect(container.env).toEqual([
        { name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      ]);
      expect(container.volumeMounts).toEqual([
        { name: 'plugins-config', mountPath: '/config', readOnly: true },
        { name: 'tmp', mountPath: '/tmp' },
      ]);
    });

    test('runs hardened: non-root 65532, no privilege escalation, no capabilities, RuntimeDefault seccomp, read-only root', () => {
      const pod = find(synth().manifests, 'Deployment').spec.template.spec;
      expect(pod.securityContext).toEqual({ runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, seccompProfile: { type: 'RuntimeDefault' } });
      expect(pod.containers[0].securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    });

    test('sets default requests and limits, and takes the given resources', () => {
      expect(eppContainer(synth().manifests).resources).toEqual({ requests: { cpu: '250m', memory: '512Mi' }, limits: { cpu: '2', memory: '2Gi' } });
      const resources = { requests: { cpu: k8s.Quantity.fromString('1'), memory: k8s.Quantity.fromString('1Gi') }, limits: { memory: k8s.Quantity.fromString('4Gi') } };
      expect(eppContainer(synth(options({ resources })).manifests).resources).toEqual({ requests: { cpu: '1', memory: '1Gi' }, limits: { memory: '4Gi' } });
    });

    test('uses the given image', () => {
      expect(eppContainer(synth(options({ image: 'example.com/epp:dev' })).manifests).image).toBe('example.com/epp:dev');
    });

    test('probes gRPC health on 9003 for the inference-extension service', () => {
      const container = eppContainer(synth().manifests);
      expect(container.livenessProbe).toEqual({
        grpc: { port: 9003, service: 'inference-extension' },
        initialDelaySeconds: 30,
        periodSeconds: 10,
        failureThreshold: 5,
      });
      expect(container.readinessProbe).toEqual({
        grpc: { port: 9003, service: 'inference-extension' },
        initialDelaySeconds: 10,
        periodSeconds: 5,
      });
      expect(container.startupProbe).toBeUndefined();
    });

    test('passes pool name and namespace, JSON logs, the config file and tracing off', () => {
      expect(eppContainer(synth().manifests).args).toEqual([
        '--pool-name', 'llama',
        '--pool-namespace', 'models',
        '--zap-encoder', 'json',
        '--config-file', '/config/default-plugins.yaml',
        '--tracing=false',
      ]);
    });

    test('passes the pool group for a v1alpha2 pool', () => {
      expect(eppContainer(synth(options({ poolApiVersion: INFERENCE_POOL_V1ALPHA2 })).manifests).args).toEqual([
        '--pool-name', 'llama',
        '--pool-namespace', 'models',
        '--pool-group', 'inference.networking.x-k8s.io',
        '--zap-encoder', 'json',
        '--config-file', '/config/default-plugins.yaml',
        '--tracing=false',
      ]);
    });

    test('takes the pool namespace from the pod\'s NAMESPACE env var when there is no namespace', () => {
      const container = eppContainer(synth(options({ namespace: undefined, poolName: 'pool' })).manifests);
      expect(container.args.slice(0, 4)).toEqual(['--pool-name', 'pool', '--pool-namespace', '$(NAMESPACE)']);
      expect(container.env.map((e: any) => e.name)).toContain('NAMESPACE');
    });
  });

  describe('Service', () => {
    test('is a ClusterIP grpc-ext-proc h2c port selecting the picker pods', () => {
      const service = find(synth().manifests, 'Service');
      expect(service.spec).toEqual({
        type: 'ClusterIP',
        selector: POD_LABELS,
        ports: [{ name: 'grpc-ext-proc', protocol: 'TCP', port: 9002, appProtocol: 'kubernetes.io/h2c' }],
      });
    });
  });

  test('uses the given port for the container, the Service and nothing else', () => {
    const manifests = synth(options({ port: 9100 })).manifests;
    const container = eppContainer(manifests);
    expect(container.ports).toEqual([
      { name: 'grpc', containerPort: 9100 },
      { name: 'grpc-health', containerPort: ENDPOINT_PICKER_HEALTH_PORT },
    ]);
    expect(container.livenessProbe.grpc.port).toBe(9003);
    expect(find(manifests, 'Service').spec.ports[0].port).toBe(9100);
  });

  test('creates no Istio DestinationRule', () => {
    expect(synth().manifests.map((m) => m.kind)).not.toContain('DestinationRule');
  });

  test('accepts the longest ModelDeployment name whose <md>-epp fits 63 characters', () => {
    const name = 'm'.repeat(59);
    const manifests = synth(options({ deploymentName: name, poolName: name })).manifests;
    expect(manifests.every((m) => m.metadata.name === `${name}-epp`)).toBe(true);
  });

  test('fails when <md>-epp is longer than 63 characters', () => {
    const name = 'm'.repeat(60);
    expect(() => addEndpointPicker(Testing.chart(), options({ deploymentName: name }))).toThrow(
      `endpoint picker name "${name}-epp" (64 characters) must be at most 63 characters: shorten the ModelDeployment name "${name}" to 59 characters or fewer`,
    );
  });

  test.each([0, 65536, 9002.5])('fails when the port is %d', (port) => {
    expect(() => addEndpointPicker(Testing.chart(), options({ port }))).toThrow(`'port' (${port}) must be an integer from 1 to 65535`);
  });

  test('fails when the port is the health port', () => {
    expect(() => addEndpointPicker(Testing.chart(), options({ port: 9003 }))).toThrow(
      '\'port\' (9003) must differ from the endpoint picker\'s health port 9003',
    );
  });

  test('fails when the pool apiVersion is not supported', () => {
    const poolApiVersion = 'inference.networking.x-k8s.io/v1alpha1' as InferencePoolApiVersionString;
    expect(() => addEndpointPicker(Testing.chart(), options({ poolApiVersion }))).toThrow('is not supported');
  });
});

describe('endpoint picker configurations', () => {
  test('the default is an EndpointPickerConfig with nothing else, in llm-d.ai for the llm-d Router and GAIE\'s group for v1.5', () => {
    expect(YAML.parse(DEFAULT_ENDPOINT_PICKER_CONFIG)).toEqual({ apiVersion: 'llm-d.ai/v1alpha1', kind: 'EndpointPickerConfig' });
    expect(YAML.parse(defaultEndpointPickerConfig(EndpointPicker.GAIE_V1_5))).toEqual({
      apiVersion: 'inference.networking.x-k8s.io/v1alpha1',
      kind: 'EndpointPickerConfig',
    });
  });

  const profiles = ['prefill', 'decode'].map((role) => ({
    name: role,
    plugins: [
      { pluginRef: `${role}-filter` },
      { pluginRef: 'max-score-picker' },
      { pluginRef: 'prefix-cache-scorer', weight: 2 },
    ],
  }));

  test('llm-d disaggregated (llm-d Router): the disaggregation handler with a prefix-based decider, a prefill and a decode profile', () => {
    expect(YAML.parse(LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG)).toEqual({
      apiVersion: 'llm-d.ai/v1alpha1',
      kind: 'EndpointPickerConfig',
      plugins: [
        { type: 'prefix-cache-scorer' },
        { type: 'prefill-filter' },
        { type: 'decode-filter' },
        { type: 'max-score-picker' },
        { type: 'prefix-based-pd-decider', parameters: { nonCachedTokens: LLMD_PD_NON_CACHED_TOKENS } },
        { type: 'disagg-profile-handler', parameters: { deciders: { prefill: 'prefix-based-pd-decider' } } },
      ],
      schedulingProfiles: profiles,
    });
    // 0 is the decider's default and turns disaggregation off.
    expect(LLMD_PD_NON_CACHED_TOKENS).toBeGreaterThan(0);
  });

  test('llm-d aggregated: the same plugins in both generations, only the group differs', () => {
    const router = YAML.parse(LLMD_ENDPOINT_PICKER_CONFIG);
    const gaie = YAML.parse(LLMD_GAIE_V1_5_ENDPOINT_PICKER_CONFIG);
    expect(router.apiVersion).toBe('llm-d.ai/v1alpha1');
    expect(gaie.apiVersion).toBe('inference.networking.x-k8s.io/v1alpha1');
    expect({ ...router, apiVersion: undefined }).toEqual({ ...gaie, apiVersion: undefined });
  });

  test('llm-d disaggregated (GAIE v1.5): the inference scheduler\'s P/D handler and prefill header handler', () => {
    expect(YAML.parse(LLMD_GAIE_V1_5_DISAGGREGATED_ENDPOINT_PICKER_CONFIG)).toEqual({
      apiVersion: 'inference.networking.x-k8s.io/v1alpha1',
      kind: 'EndpointPickerConfig',
      plugins: [
        { type: 'prefill-header-handler' },
        { type: 'prefix-cache-scorer' },
        { type: 'prefill-filter' },
        { type: 'decode-filter' },
        { type: 'max-score-picker' },
        { type: 'pd-profile-handler' },
      ],
      schedulingProfiles: ['prefill', 'decode'].map((role) => ({
        name: role,
        plugins: [
          { pluginRef: `${role}-filter` },
          { pluginRef: 'max-score-picker' },
          { pluginRef: 'prefix-cache-scorer', weight: 2 },
        ],
      })),
    });
  });

  test('every plugin a profile references is declared', () => {
    const configs = [
      LLMD_DISAGGREGATED_ENDPOINT_PICKER_CONFIG,
      LLMD_ENDPOINT_PICKER_CONFIG,
      LLMD_GAIE_V1_5_DISAGGREGATED_ENDPOINT_PICKER_CONFIG,
      LLMD_GAIE_V1_5_ENDPOINT_PICKER_CONFIG,
    ];
    for (const config of configs) {
      const parsed = YAML.parse(config);
      const declared = new Set(parsed.plugins.map((p: any) => p.name ?? p.type));
      for (const profile of parsed.schedulingProfiles) {
        for (const ref of profile.plugins) expect(declared).toContain(ref.pluginRef);
      }
      // A decider a handler names is declared as well.
      for (const p of parsed.plugins) {
        for (const decider of Object.values(p.parameters?.deciders ?? {})) expect(declared).toContain(decider);
      }
    }
  });
});
