import * as fs from 'fs';
import * as nodePath from 'path';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { ProviderRegistry } from './provider-registry';
import { isDns1123Label } from '../admission/validation';
import type { UpstreamKind } from '../api/provider/provider-status';
import { CRD_API_VERSION, CRD_RESOURCE } from '../controller-contract/crd-compatibility';
import { inferenceProviderConfigCrd, modelDeploymentCrd } from '../controller-contract/crds';
import { MAX_CONCURRENT_RECONCILES } from '../controller-contract/reconcile-concurrency';
import { upstreamCrdNames } from '../controller-contract/upstream-crds';
import { addBrand, brandSymbol, hasBrand } from '../core/construct-brand';
import { k8s } from '../core/kube-api';
import { ROUTING_STATUS_KINDS } from '../gateway/routing-kinds';
import { PIPELINE_EMITTED_KINDS } from '../pipeline/pipeline-kinds';
import { defaultProviderCatalog } from '../pipeline/shipped-providers';

const NAME = 'cdk8s-inference-controller';
const METRICS_PORT = 8080;
const HEALTH_PORT = 8081;
/** Name of the leader-election Lease in the controller's namespace. */
const LEADER_ELECTION_ID = 'cdk8s-inference-controller';

/**
 * The version of this package (its package.json, two levels above src/api and lib/api): the
 * controller image is tagged with the version of the library that synthesized it, so the
 * controller re-validates records with the same rules that rendered them.
 */
function packageVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(nodePath.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  return String(manifest.version);
}


/**
 * Props of a `ModelDeploymentController`.
 */
export interface ModelDeploymentControllerProps {
  /**
   * Namespace the controller runs in.
   * @default 'cdk8s-inference-system'
   */
  readonly namespace?: string;

  /**
   * Also synthesize that Namespace (labelled to enforce the Pod Security Standard "restricted").
   * @default true
   */
  readonly createNamespace?: boolean;

  /**
   * The controller image (built from the package's Dockerfile).
   * @default - `ModelDeploymentController.DEFAULT_IMAGE`: `ghcr.io/cdk8s-inference/controller:<version of this package>`
   */
  readonly image?: string;

  /**
   * Replicas; with more than one, leader election keeps a single writer and fails over within
   * the 15 s lease.
   * @default 2
   */
  readonly replicas?: number;

  /**
   * Also synthesize the `airunway.ai/v1alpha1` ModelDeployment and InferenceProviderConfig CRDs.
   * Turn off on a cluster where AI Runway installed them: its CRDs have the same schema.
   * @default true
   */
  readonly installCrds?: boolean;

  /**
   * The providers whose objects the controller reads (its ClusterRole grants get/list/watch on
   * exactly their `emittedKinds()`, plus the gateway kinds).
   * @default - the nearest `ProviderRegistry` in scope, else the shipped providers
   */
  readonly providerRegistry?: ProviderRegistry;

  /**
   * Reconcile only the ModelDeployments of this namespace.
   * @default - every namespace
   */
  readonly watchNamespace?: string;

  /**
   * Give every object synthesized for a ModelDeployment an ownerReference to its record (the
   * list the record carries in its `inference.cdk8s.io/rendered-objects` annotation), so that
   * deleting the record deletes them. Grants the controller `get` and `patch` on those kinds.
   * Off by default: with GitOps the objects are deleted by removing them from the YAML, and a
   * record deleted and created again (e.g. a replace) lets the garbage collector delete its
   * objects until the tool applies them again.
   * @default false
   */
  readonly setOwnerReferences?: boolean;

  /**
   * Reconciles run at once (`--max-concurrent-reconciles`); one record is never reconciled by
   * two at a time. A reconcile mostly waits on the API server's answer to its status patch, so
   * several workers keep the latency down while changes arrive together and let a large fleet
   * converge sooner: on 5,000 records, 4 workers instead of 1 gave every record its status in
   * 57 s instead of 86 s and took the p99 of a status change, 4 in flight, from 100 to 96 ms,
   * for about 8 MiB more memory (README, "The controller").
   * @default 4 (the controller's default)
   */
  readonly maxConcurrentReconciles?: number;

  /**
   * Compute resources of the controller container.
   * @default - requests 50m CPU and 256Mi memory, limits 500m CPU and 512Mi memory
   */
  readonly resources?: k8s.ResourceRequirements;
}

const MODEL_DEPLOYMENT_CONTROLLER_BRAND = brandSymbol('ModelDeploymentController');

/**
 * The in-cluster controller that keeps the `status` of every ModelDeployment record this library
 * renders true: the CRDs, a least-privilege ServiceAccount and RBAC, a Deployment (leader-elected
 * replicas, probes, Pod Security Standard "restricted") and a metrics Service. It reconciles only
 * records labelled `inference.cdk8s.io/rendered-by: cdk8s-inference` and never creates or deletes
 * the objects the YAML declares.
 */
export class ModelDeploymentController extends Construct {
  /**
   * Image the controller runs unless `image` says otherwise (see the README for building it):
   * tagged with the version of this package, never a moving tag.
   */
  public static readonly DEFAULT_IMAGE = `ghcr.io/cdk8s-inference/controller:${packageVersion()}`;

  /** True if `x` is a ModelDeploymentController (also one made by another copy of this library). */
  public static isModelDeploymentController(x: any): x is ModelDeploymentController {
    return hasBrand(x, MODEL_DEPLOYMENT_CONTROLLER_BRAND);
  }

  /** Namespace the controller runs in. */
  public readonly namespace: string;

  /** The ServiceAccount the controller runs as. */
  public readonly serviceAccountName: string;

  /** The controller Deployment. */
  public readonly deployment: ApiObject;

  /** The Service in front of the metrics endpoint (port `metrics`, 8080). */
  public readonly metricsService: ApiObject;

  public constructor(scope: Construct, id: string, props: ModelDeploymentControllerProps = {}) {
    super(scope, id);
    addBrand(this, MODEL_DEPLOYMENT_CONTROLLER_BRAND);
    this.namespace = props.namespace ?? 'cdk8s-inference-system';
    this.serviceAccountName = NAME;
    const labels = { 'app.kubernetes.io/name': NAME, 'app.kubernetes.io/component': 'controller', 'app.kubernetes.io/part-of': 'cdk8s-inference' };
    const meta = (name: string) => ({ name, namespace: this.namespace, labels });

    if (props.createNamespace ?? true) {
      new k8s.KubeNamespace(this, 'Namespace', {
        metadata: {
          name: this.namespace,
          labels: { ...labels, 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'latest' },
        },
      });
    }
    if (props.installCrds ?? true) {
      new ApiObject(this, 'ModelDeploymentCrd', modelDeploymentCrd() as any);
      new ApiObject(this, 'InferenceProviderConfigCrd', inferenceProviderConfigCrd() as any);
    }

    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: meta(NAME) });
    new k8s.KubeClusterRole(this, 'ClusterRole', { metadata: { name: NAME, labels }, rules: clusterRules(props.providerRegistry ?? ProviderRegistry.tryOf(this), props.setOwnerReferences ?? false) });
    new k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
      metadata: { name: NAME, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: NAME },
      subjects: [{ kind: 'ServiceAccount', name: NAME, namespace: this.namespace }],
    });
    // Leader election only needs its own Lease, in its own namespace.
    new k8s.KubeRole(this, 'LeaderElectionRole', {
      metadata: meta(`${NAME}-leader-election`),
      rules: [
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: [LEADER_ELECTION_ID], verbs: ['get', 'update'] },
      ],
    });
    new k8s.KubeRoleBinding(this, 'LeaderElectionRoleBinding', {
      metadata: meta(`${NAME}-leader-election`),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: `${NAME}-leader-election` },
      subjects: [{ kind: 'ServiceAccount', name: NAME, namespace: this.namespace }],
    });

    this.deployment = new k8s.KubeDeployment(this, 'Deployment', {
      metadata: meta(NAME),
      spec: {
        replicas: props.replicas ?? 2,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: controllerPodSpec(this.namespace, props),
        },
      },
    });
    this.metricsService = new k8s.KubeService(this, 'MetricsService', {
      metadata: meta(`${NAME}-metrics`),
      spec: {
        selector: labels,
        ports: [{ name: 'metrics', port: METRICS_PORT, targetPort: k8s.IntOrString.fromString('metrics'), protocol: 'TCP' }],
      },
    });
    this.node.addValidation({ validate: () => this.validateProps(props) });
  }

  private validateProps(props: ModelDeploymentControllerProps): string[] {
    const errors: string[] = [];
    const replicas = props.replicas ?? 2;
    if (!Number.isInteger(replicas) || replicas < 1) errors.push(`'replicas' (${replicas}) must be an integer of at least 1`);
    if (!isDns1123Label(this.namespace)) errors.push(`'namespace' (${JSON.stringify(this.namespace)}) must be a lowercase RFC 1123 label`);
    const workers = props.maxConcurrentReconciles;
    if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1 && workers <= MAX_CONCURRENT_RECONCILES)) {
      errors.push(`'maxConcurrentReconciles' (${workers}) must be an integer from 1 to ${MAX_CONCURRENT_RECONCILES}`);
    }
    if (props.watchNamespace !== undefined && !isDns1123Label(props.watchNamespace)) {
      errors.push(`'watchNamespace' (${JSON.stringify(props.watchNamespace)}) must be a lowercase RFC 1123 label`);
    }
    return errors;
  }
}

/**
 * Read access to the records and to exactly the kinds the providers emit and the gateway kinds;
 * read access to the CRDs of those kinds, by name (the controller compares them with what a
 * record's objects need: `IncompatibleUpstream`); `patch` on the records' status; events; with
 * `setOwnerReferences`, `get` and `patch` on every kind a deployment's objects can have. No wildcards.
 */
function clusterRules(registry: ProviderRegistry | undefined, setOwnerReferences: boolean): k8s.PolicyRule[] {
  const catalog = registry ? registry._catalog() : defaultProviderCatalog();
  const emitted: UpstreamKind[] = [];
  for (const entry of catalog.entries) emitted.push(...(catalog.provider(entry.name)?.emittedKinds() ?? []));
  return [
    { apiGroups: ['airunway.ai'], resources: ['modeldeployments'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['airunway.ai'], resources: ['modeldeployments/status'], verbs: ['patch'] },
    ...rulesByGroup([...emitted, ...ROUTING_STATUS_KINDS], ['get', 'list', 'watch']),
    { apiGroups: [CRD_API_VERSION.split('/')[0]], resources: [CRD_RESOURCE], resourceNames: upstreamCrdNames(catalog), verbs: ['get', 'list', 'watch'] },
    ...(setOwnerReferences ? rulesByGroup([...emitted, ...PIPELINE_EMITTED_KINDS], ['get', 'patch']) : []),
    { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
  ];
}

/** One rule per API group, naming its resources, sorted. */
function rulesByGroup(kinds: readonly UpstreamKind[], verbs: string[]): k8s.PolicyRule[] {
  const resourcesByGroup = new Map<string, Set<string>>();
  for (const k of kinds) {
    const group = k.apiVersion.includes('/') ? k.apiVersion.split('/')[0] : '';
    if (!resourcesByGroup.has(group)) resourcesByGroup.set(group, new Set());
    resourcesByGroup.get(group)!.add(k.resource);
  }
  return [...resourcesByGroup.keys()].sort().map((group) => ({
    apiGroups: [group],
    resources: [...resourcesByGroup.get(group)!].sort(),
    verbs,
  }));
}

function controllerPodSpec(namespace: string, props: ModelDeploymentControllerProps): k8s.PodSpec {
  const probe = (path: string): k8s.Probe => ({ httpGet: { path, port: k8s.IntOrString.fromString('health') }, periodSeconds: 10 });
  const args = [
    'controller',
    '--leader-elect',
    `--leader-election-namespace=${namespace}`,
    `--leader-election-id=${LEADER_ELECTION_ID}`,
    `--metrics-bind-address=:${METRICS_PORT}`,
    `--health-probe-bind-address=:${HEALTH_PORT}`,
    ...(props.watchNamespace !== undefined ? [`--namespace=${props.watchNamespace}`] : []),
    ...(props.setOwnerReferences ? ['--set-owner-references'] : []),
    ...(props.maxConcurrentReconciles !== undefined ? [`--max-concurrent-reconciles=${props.maxConcurrentReconciles}`] : []),
  ];
  return {
    serviceAccountName: NAME,
    // The Pod Security Standard "restricted": non-root, no privilege escalation, no capabilities,
    // the runtime's default seccomp profile, a read-only root filesystem (the controller writes no
    // file: its state is in the API server, its logs go to stdout).
    // The ServiceAccount token stays mounted: the controller watches and patches records.
    securityContext: { runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, seccompProfile: { type: 'RuntimeDefault' } },
    terminationGracePeriodSeconds: 30,
    containers: [{
      name: 'controller',
      image: props.image ?? ModelDeploymentController.DEFAULT_IMAGE,
      args,
      ports: [
        { name: 'metrics', containerPort: METRICS_PORT, protocol: 'TCP' },
        { name: 'health', containerPort: HEALTH_PORT, protocol: 'TCP' },
      ],
      livenessProbe: { ...probe('/healthz'), initialDelaySeconds: 15 },
      readinessProbe: { ...probe('/readyz'), initialDelaySeconds: 5 },
      resources: props.resources ?? {
        requests: { cpu: k8s.Quantity.fromString('50m'), memory: k8s.Quantity.fromString('256Mi') },
        limits: { cpu: k8s.Quantity.fromString('500m'), memory: k8s.Quantity.fromString('512Mi') },
      },
      // V8 grows its heap lazily up to its default limit (several hundred MiB of garbage before a
      // major collection); a cap well under the memory limit keeps the pod's footprint to what is
      // live (measured with `npx projen bench:controller`: 153 MiB peak RSS with 5,000
      // ModelDeployments, of which about 50 MiB is the node binary's own pages; a 160 MiB cap saved
      // no RSS and doubled the latency; `--v8-pool-size=1` saved about 4 MiB of malloc arenas in one
      // run, within the noise, so it is not set).
      env: [{ name: 'NODE_OPTIONS', value: '--max-old-space-size=320 --max-semi-space-size=1' }],
      securityContext: {
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      },
    }],
  };
}
