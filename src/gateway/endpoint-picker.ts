import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { checkPortNumber, inferencePoolGroup, InferencePoolApiVersionString, INFERENCE_POOL_V1 } from './inference-pool';
import { DEFAULT_ENDPOINT_PICKER, defaultEndpointPickerConfig, EndpointPicker, endpointPickerObjectiveGroups } from '../api/gateway/endpoint-picker-choice';
import type { EndpointPickerResources } from '../api/gateway/endpoint-picker-resources';
import { FieldError, invalid } from '../core/field-error';
import { k8s } from '../core/kube-api';
import { compareQuantities, parseQuantity } from '../core/quantity';
import { defaultImageRef } from '../core/version-matrix';

/**
 * The endpoint picker image deployed when neither the provider nor the operator names one: the
 * llm-d Router's (AI Runway's `--epp-image` default is GAIE's v1.5 picker, which GAIE v1.6.0
 * removed; `EndpointPicker.GAIE_V1_5` keeps it).
 */
export const DEFAULT_ENDPOINT_PICKER_IMAGE = defaultImageRef('gateway', 'endpoint-picker');

/** gRPC (ext-proc) port of the endpoint picker, and of its Service. */
export const DEFAULT_ENDPOINT_PICKER_PORT = 9002;

/** The endpoint picker's gRPC health port (the image's default `--grpc-health-port`). */
export const ENDPOINT_PICKER_HEALTH_PORT = 9003;

/**
 * The configuration written when the provider gives none, for the default picker (the llm-d
 * Router): an EndpointPickerConfig with no plugins, so the picker runs its built-in default
 * scheduling. AI Runway writes the same in `inference.networking.x-k8s.io/v1alpha1`, which the
 * llm-d Router deprecates (`defaultEndpointPickerConfig(EndpointPicker.GAIE_V1_5)`).
 */
export const DEFAULT_ENDPOINT_PICKER_CONFIG = defaultEndpointPickerConfig(DEFAULT_ENDPOINT_PICKER);

/** Key of the configuration file in the endpoint picker's ConfigMap. */
export const ENDPOINT_PICKER_CONFIG_FILE = 'default-plugins.yaml';

/** The `grpc.service` the endpoint picker's health server answers for. */
const HEALTH_SERVICE = 'inference-extension';
const CONFIG_VOLUME = 'plugins-config';
const CONFIG_MOUNT_PATH = '/config';
const CONTAINER_NAME = 'epp';
const MAX_NAME_LENGTH = 63;
const SCRATCH_VOLUME = 'tmp';
const SCRATCH_MOUNT_PATH = '/tmp';

/**
 * UID and GID the endpoint picker runs as: the `nonroot` user of the distroless images the
 * picker is built on, set explicitly so that "restricted" holds for an image that declares its
 * user by name (the kubelet cannot verify a named user is not root).
 */
export const ENDPOINT_PICKER_USER_ID = 65532;

/**
 * Compute resources of the endpoint picker when the options give none: it scores every request
 * of the pool on the latency path, so it gets a full request of memory for its metrics cache
 * and room to burst to two cores before it is throttled.
 */
export function defaultEndpointPickerResources(): k8s.ResourceRequirements {
  return {
    requests: { cpu: k8s.Quantity.fromString('250m'), memory: k8s.Quantity.fromString('512Mi') },
    limits: { cpu: k8s.Quantity.fromString('2'), memory: k8s.Quantity.fromString('2Gi') },
  };
}

/**
 * The picker's resources with `chosen` over the defaults. Kubernetes refuses a request above its
 * limit: `endpointPickerResourceErrors` reports that at synth.
 */
export function endpointPickerResources(chosen: EndpointPickerResources | undefined): k8s.ResourceRequirements {
  const defaults = defaultEndpointPickerResources();
  if (!chosen) return defaults;
  const q = (value: string | undefined, fallback: k8s.Quantity | undefined) => (value !== undefined ? k8s.Quantity.fromString(value) : fallback!);
  return {
    requests: { cpu: q(chosen.cpuRequest?.amount, defaults.requests?.cpu), memory: q(chosen.memoryRequest?.asString(), defaults.requests?.memory) },
    limits: { cpu: q(chosen.cpuLimit?.amount, defaults.limits?.cpu), memory: q(chosen.memoryLimit?.asString(), defaults.limits?.memory) },
  };
}

/** A request above its limit, as `ProviderRegistryProps.endpointPickerResources` field errors. */
export function endpointPickerResourceErrors(chosen: EndpointPickerResources | undefined): FieldError[] {
  if (!chosen) return [];
  const resources = endpointPickerResources(chosen);
  const errors: FieldError[] = [];
  for (const [resource, field] of [['cpu', 'cpuRequest'], ['memory', 'memoryRequest']] as const) {
    const request = parseQuantity(resources.requests![resource].value);
    const limit = parseQuantity(resources.limits![resource].value);
    if (request && limit && compareQuantities(request, limit) > 0) {
      errors.push(invalid(`endpointPickerResources.${field}`, resources.requests![resource].value,
        `must be at most the ${resource} limit (${resources.limits![resource].value}): Kubernetes refuses a request above its limit`));
    }
  }
  return errors;
}

/** What the controller-managed endpoint picker of one ModelDeployment is made of. */
export interface EndpointPickerOptions {
  /** The ModelDeployment name; every object is named `<deploymentName>-epp`. */
  readonly deploymentName: string;
  /**
   * Namespace of the objects and of the pool. When undefined, metadata carries none (the chart's
   * namespace applies) and the pool namespace comes from the pod's own namespace.
   */
  readonly namespace?: string;
  /** Labels on every object's metadata (not on selectors or pods). */
  readonly labels: Record<string, string>;
  /** Name of the InferencePool the picker serves. */
  readonly poolName: string;
  /** API version of that pool: decides its RBAC group and the picker's `--pool-group`. */
  readonly poolApiVersion: InferencePoolApiVersionString;
  /** Container image. */
  readonly image: string;
  /** Content of `default-plugins.yaml`; an empty string means DEFAULT_ENDPOINT_PICKER_CONFIG. */
  readonly configData: string;
  /** gRPC port of the picker and its Service (also the pool's endpoint picker port). */
  readonly port: number;
  /**
   * Compute resources of the `epp` container.
   * @default - `defaultEndpointPickerResources()`: requests 250m CPU and 512Mi memory, limits 2 CPUs and 2Gi memory
   */
  readonly resources?: k8s.ResourceRequirements;
  /**
   * The generation of the picker `image` runs: decides which API groups' InferenceObjectives and
   * InferenceModelRewrites its Role lets it read.
   * @default EndpointPicker.LLMD_ROUTER
   */
  readonly endpointPicker?: EndpointPicker;
}

/** Name of every endpoint picker object of a ModelDeployment. */
export function endpointPickerName(deploymentName: string): string {
  return `${deploymentName}-epp`;
}

/** Selector and pod labels of the endpoint picker Deployment. */
export function endpointPickerSelectorLabels(deploymentName: string): Record<string, string> {
  return {
    'app.kubernetes.io/name': endpointPickerName(deploymentName),
    'app.kubernetes.io/instance': deploymentName,
    'app.kubernetes.io/managed-by': 'airunway',
  };
}

function metadata(options: EndpointPickerOptions): k8s.ObjectMeta {
  return {
    name: endpointPickerName(options.deploymentName),
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    ...(Object.keys(options.labels).length > 0 ? { labels: { ...options.labels } } : {}),
  };
}

function checkOptions(options: EndpointPickerOptions): void {
  const name = endpointPickerName(options.deploymentName);
  // The Service name and the app.kubernetes.io/name label value are both limited to 63 characters.
  if (name.length > MAX_NAME_LENGTH) {
    throw new Error(
      `endpoint picker name ${JSON.stringify(name)} (${name.length} characters) must be at most ${MAX_NAME_LENGTH} characters: ` +
        `shorten the ModelDeployment name ${JSON.stringify(options.deploymentName)} to ${MAX_NAME_LENGTH - 4} characters or fewer`,
    );
  }
  checkPortNumber('port', options.port);
  if (options.port === ENDPOINT_PICKER_HEALTH_PORT) {
    throw new Error(`'port' (${options.port}) must differ from the endpoint picker's health port ${ENDPOINT_PICKER_HEALTH_PORT}`);
  }
  inferencePoolGroup(options.poolApiVersion);
}

function rules(poolApiVersion: InferencePoolApiVersionString, endpointPicker: EndpointPicker): k8s.PolicyRule[] {
  const read = ['get', 'watch', 'list'];
  return [
    { apiGroups: [''], resources: ['pods'], verbs: read },
    { apiGroups: [inferencePoolGroup(poolApiVersion)], resources: ['inferencepools'], verbs: read },
    // Leader election, should the picker be run with it.
    { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'get', 'update'] },
    ...endpointPickerObjectiveGroups(endpointPicker).map((group) => ({
      apiGroups: [group], resources: ['inferenceobjectives', 'inferencemodelrewrites'], verbs: read,
    })),
  ];
}

/**
 * The picker's arguments (§6.5.3), the same for both generations: the llm-d Router's picker kept
 * GAIE's flags (its own Helm chart passes these, and 9003 as `--grpc-health-port`, its default).
 * Two additions, each for a case AI Runway does not have:
 * - without a namespace, `--pool-namespace` is the pod's own (`$(NAMESPACE)`, expanded by the
 *   kubelet from the env var of the same name), which is where the chart puts the pool;
 * - for a v1alpha2 pool, `--pool-group inference.networking.x-k8s.io` (the picker watches
 *   `inference.networking.k8s.io` pools otherwise).
 */
function args(options: EndpointPickerOptions): string[] {
  return [
    '--pool-name', options.poolName,
    '--pool-namespace', options.namespace ?? '$(NAMESPACE)',
    ...(options.poolApiVersion !== INFERENCE_POOL_V1 ? ['--pool-group', inferencePoolGroup(options.poolApiVersion)] : []),
    '--zap-encoder', 'json',
    '--config-file', `${CONFIG_MOUNT_PATH}/${ENDPOINT_PICKER_CONFIG_FILE}`,
    '--tracing=false',
  ];
}

function grpcHealthProbe(initialDelaySeconds: number, periodSeconds: number, failureThreshold?: number): k8s.Probe {
  return {
    grpc: { port: ENDPOINT_PICKER_HEALTH_PORT, service: HEALTH_SERVICE },
    initialDelaySeconds,
    periodSeconds,
    ...(failureThreshold !== undefined ? { failureThreshold } : {}),
  };
}

function container(options: EndpointPickerOptions): k8s.Container {
  return {
    name: CONTAINER_NAME,
    image: options.image,
    imagePullPolicy: 'IfNotPresent',
    args: args(options),
    ports: [
      { name: 'grpc', containerPort: options.port },
      { name: 'grpc-health', containerPort: ENDPOINT_PICKER_HEALTH_PORT },
    ],
    env: [
      { name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ],
    livenessProbe: grpcHealthProbe(30, 10, 5),
    readinessProbe: grpcHealthProbe(10, 5),
    resources: options.resources ?? defaultEndpointPickerResources(),
    volumeMounts: [
      { name: CONFIG_VOLUME, mountPath: CONFIG_MOUNT_PATH, readOnly: true },
      { name: SCRATCH_VOLUME, mountPath: SCRATCH_MOUNT_PATH },
    ],
    securityContext: {
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    },
  };
}

/**
 * Creates the controller-managed endpoint picker of one ModelDeployment (spec §6.5.3), every
 * object named `<md>-epp`, and returns them in this order (construct ids in parentheses):
 * ServiceAccount (`EndpointPickerServiceAccount`), Role (`EndpointPickerRole`), RoleBinding
 * (`EndpointPickerRoleBinding`), ConfigMap (`EndpointPickerConfig`), Deployment
 * (`EndpointPicker`), Service (`EndpointPickerService`).
 *
 * - Role: read pods and InferencePools (in the group of `poolApiVersion`), leader-election
 *   leases, read InferenceObjectives and InferenceModelRewrites (`llm-d.ai` and
 *   `inference.networking.x-k8s.io` for the llm-d Router, the latter alone for GAIE v1.5).
 * - ConfigMap: `default-plugins.yaml` = `configData`, or the default when empty.
 * - Deployment: one replica, `Recreate` (two pickers must not serve one pool during a rollout),
 *   130 s termination grace, container `epp` with gRPC ports `grpc` and `grpc-health` (9003),
 *   gRPC liveness/readiness probes, the ConfigMap mounted at `/config`, `resources` (default
 *   `defaultEndpointPickerResources()`). The pod passes the Pod Security Standard "restricted":
 *   UID/GID 65532, no privilege escalation, no capabilities, the runtime's seccomp profile, a
 *   read-only root filesystem with an emptyDir at `/tmp`. It keeps its ServiceAccount token: the
 *   picker watches pods and its InferencePool.
 * - Service: ClusterIP, port `grpc-ext-proc` with `appProtocol: kubernetes.io/h2c` so gateways
 *   speak HTTP/2 cleartext to the ext-proc server.
 *
 * `labels` go on every object's metadata; the Deployment selector, pod labels and Service
 * selector use only the three `app.kubernetes.io` labels (`endpointPickerSelectorLabels`). No
 * ownerReferences: the ModelDeployment's uid is unknown at build time.
 *
 * Not created: the Istio DestinationRule AI Runway adds (TLS `SIMPLE`, `insecureSkipVerify`)
 * when the cluster serves `networking.istio.io` DestinationRules. Whether it is needed depends
 * on the cluster's mesh, which is unknown at build time; Istio users add it themselves.
 *
 * Throws when `<md>-epp` is longer than 63 characters, or `port` is not a port number or is
 * the health port.
 */
export function addEndpointPicker(scope: Construct, options: EndpointPickerOptions): ApiObject[] {
  checkOptions(options);
  const name = endpointPickerName(options.deploymentName);
  const podLabels = endpointPickerSelectorLabels(options.deploymentName);

  const serviceAccount = new k8s.KubeServiceAccount(scope, 'EndpointPickerServiceAccount', {
    metadata: metadata(options),
  });
  const role = new k8s.KubeRole(scope, 'EndpointPickerRole', {
    metadata: metadata(options),
    rules: rules(options.poolApiVersion, options.endpointPicker ?? DEFAULT_ENDPOINT_PICKER),
  });
  const roleBinding = new k8s.KubeRoleBinding(scope, 'EndpointPickerRoleBinding', {
    metadata: metadata(options),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
    subjects: [{
      kind: 'ServiceAccount',
      name,
      // A ServiceAccount subject without namespace means the RoleBinding's own.
      ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    }],
  });
  const configMap = new k8s.KubeConfigMap(scope, 'EndpointPickerConfig', {
    metadata: metadata(options),
    data: { [ENDPOINT_PICKER_CONFIG_FILE]: options.configData !== '' ? options.configData : DEFAULT_ENDPOINT_PICKER_CONFIG },
  });
  const deployment = new k8s.KubeDeployment(scope, 'EndpointPicker', {
    metadata: metadata(options),
    spec: {
      replicas: 1,
      strategy: { type: 'Recreate' },
      selector: { matchLabels: { ...podLabels } },
      template: {
        metadata: { labels: { ...podLabels } },
        spec: {
          serviceAccountName: name,
          terminationGracePeriodSeconds: 130,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: ENDPOINT_PICKER_USER_ID,
            runAsGroup: ENDPOINT_PICKER_USER_ID,
            seccompProfile: { type: 'RuntimeDefault' },
          },
          containers: [container(options)],
          volumes: [{ name: CONFIG_VOLUME, configMap: { name } }, { name: SCRATCH_VOLUME, emptyDir: {} }],
        },
      },
    },
  });
  const service = new k8s.KubeService(scope, 'EndpointPickerService', {
    metadata: metadata(options),
    spec: {
      type: 'ClusterIP',
      selector: { ...podLabels },
      ports: [{ name: 'grpc-ext-proc', protocol: 'TCP', port: options.port, appProtocol: 'kubernetes.io/h2c' }],
    },
  });
  return [serviceAccount, role, roleBinding, configMap, deployment, service];
}
