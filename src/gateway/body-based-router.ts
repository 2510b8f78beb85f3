import { ApiObject, Chart } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { Warnings } from '../api/warnings';
import { addBrand, brandSymbol, hasBrand } from '../core/construct-brand';
import { parseImageReference } from '../core/image-reference';
import { k8s } from '../core/kube-api';
import { movingImageTagWarning } from '../core/moving-image-tag';
import { defaultImageRef } from '../core/version-matrix';

const BODY_BASED_ROUTER_SYMBOL = brandSymbol('BodyBasedRouter');

/** ext_proc gRPC port of the router (the binary's default `--grpc-port`). */
const GRPC_PORT = 9004;
/** gRPC health port (the binary's default `--grpc-health-port`); any service name is answered. */
const HEALTH_PORT = 9005;
/** Prometheus metrics port (the binary's default `--metrics-port`). */
const METRICS_PORT = 9090;
const CONTAINER_NAME = 'bbr';
const MAX_NAME_LENGTH = 63;

/**
 * A body-based router the model routes can rely on: one synthesized by `BodyBasedRouter`, or one
 * installed outside this app and declared with `BodyBasedRouter.fromExisting`.
 */
export interface IBodyBasedRouter extends IConstruct {
  /** Name of the router's Deployment and Service. */
  readonly routerName: string;
  /**
   * Namespace of the router.
   * @default - not known (a router declared without one)
   */
  readonly routerNamespace?: string;
}

/**
 * A body-based router installed outside this app, for `BodyBasedRouter.fromExisting`.
 */
export interface BodyBasedRouterReference {
  /**
   * Name of its Deployment.
   * @default 'body-based-router'
   */
  readonly name?: string;
  /**
   * Its namespace.
   * @default - not stated
   */
  readonly namespace?: string;
}

/**
 * Props of a `BodyBasedRouter`.
 */
export interface BodyBasedRouterProps {
  /**
   * Name of every object. AI Runway's controller restarts the Deployment of this name in the
   * Gateway's namespace (or the one its `airunway.ai/bbr-namespace` annotation names) when a new
   * InferencePool appears, so keep the default where AI Runway also runs.
   * @default 'body-based-router'
   */
  readonly name?: string;

  /**
   * Namespace of the router: the Gateway's, by convention (see `name`).
   * @default - the chart's namespace; one of the two is required
   */
  readonly namespace?: string;

  /**
   * Container image.
   * @default BodyBasedRouter.DEFAULT_IMAGE ('registry.k8s.io/gateway-api-inference-extension/bbr:v1.5.0':
   * the last GAIE release with a body-based router; GAIE v1.6.0 removed it and the llm-d Router,
   * which took over GAIE's endpoint picker, ships none)
   */
  readonly image?: string;

  /**
   * Replicas. The router keeps no state of its own, so more replicas only add capacity and
   * availability; it sits in the path of every request through the Gateway.
   * @default 1
   */
  readonly replicas?: number;

  /**
   * Compute resources of the router container.
   * @default - requests 100m CPU and 128Mi memory, limit 512Mi memory
   */
  readonly resources?: k8s.ResourceRequirements;

  /**
   * Security context of the router container.
   * @default - the Pod Security Standard "restricted": no privilege escalation, every capability
   * dropped, read-only root filesystem (the pod runs as non-root user 65532 with the runtime's
   * default seccomp profile)
   */
  readonly securityContext?: k8s.SecurityContext;

  /**
   * Serve Envoy's full-duplex streamed body mode (`--streaming`), which the gateway integrations
   * of the Inference Extension (Istio's EnvoyFilter, GKE's GCPRoutingExtension) configure. Turn it
   * off only for a gateway that sends the body buffered.
   * @default true
   */
  readonly streaming?: boolean;

  /**
   * Serve ext_proc over TLS with a self-signed certificate (the binary's default). The gateway
   * must then connect with TLS and skip verification (Istio: a DestinationRule with
   * `tls.mode: SIMPLE` and `insecureSkipVerify: true`). With `false` the router speaks cleartext
   * HTTP/2 (`--secure-serving=false`) and its Service port says `appProtocol: kubernetes.io/h2c`.
   * @default true
   */
  readonly secureServing?: boolean;

  /**
   * Further flags of the router, after ours (e.g. `['--v=3']`).
   * @default - none
   */
  readonly extraArgs?: string[];
}

/**
 * The Gateway API Inference Extension's body-based router (BBR): an Envoy external processor
 * (ext_proc) that reads the `model` field of each OpenAI-style request body and copies it into the
 * `X-Gateway-Model-Name` header, which the model HTTPRoutes match on. Without a router clients
 * would have to send that header themselves.
 *
 * Synthesized: a ServiceAccount, a Role and RoleBinding that let it read ConfigMaps in its
 * namespace (it watches those labelled `inference.networking.k8s.io/bbr-managed: "true"`, which
 * map LoRA adapter names to base models), a Deployment (gRPC health probes, Pod Security Standard
 * "restricted") and a ClusterIP Service on port 9004 (`grpc-ext-proc`). All named `name`.
 *
 * Not synthesized: the hook that makes the Gateway call the router, which is specific to the
 * gateway implementation and whose kinds have no schema this library validates against. Add it
 * by hand, pointing at Service `<name>.<namespace>` port 9004 with the request body sent
 * full-duplex streamed: Istio — an EnvoyFilter inserting `envoy.filters.http.ext_proc` into the
 * gateway's HTTP filter chain (and a DestinationRule when `secureServing`); GKE — a
 * GCPRoutingExtension targeting the Gateway plus a HealthCheckPolicy (gRPC, port 9005); Envoy
 * Gateway — an EnvoyExtensionPolicy with an extProc backend. The Inference Extension's
 * `body-based-routing` Helm chart renders the Istio and GKE ones (`provider.name`). Gateways
 * that route on the body natively (agentgateway) need no router: declare that with
 * `BodyBasedRouter.fromExisting`.
 */
export class BodyBasedRouter extends Construct implements IBodyBasedRouter {
  /** Image the router runs unless `image` says otherwise. */
  public static readonly DEFAULT_IMAGE = defaultImageRef('gateway', 'body-based-router');

  /** Name of the router's objects unless `name` says otherwise (the name AI Runway looks for). */
  public static readonly DEFAULT_NAME = 'body-based-router';

  /** ext_proc gRPC port of the router and its Service. */
  public static readonly PORT = GRPC_PORT;

  /**
   * True if `x` is a body-based router of this app, synthesized or declared with `fromExisting`
   * (works across copies of this module).
   */
  public static isBodyBasedRouter(x: any): x is IBodyBasedRouter {
    return hasBrand(x, BODY_BASED_ROUTER_SYMBOL);
  }

  /**
   * Declares a body-based router installed outside this app (the Inference Extension's Helm
   * chart, or a gateway that sets `X-Gateway-Model-Name` itself). Synthesizes nothing; it only
   * tells the model routes that the header is set, so no warning says a router is missing.
   */
  public static fromExisting(scope: Construct, id: string, reference: BodyBasedRouterReference = {}): IBodyBasedRouter {
    return new ExistingBodyBasedRouter(scope, id, reference);
  }

  /** Name of the router's objects. */
  public readonly routerName: string;

  /** Namespace of the router (always set for a synthesized one). */
  public readonly routerNamespace?: string;

  /** The router Deployment. */
  public readonly deployment: ApiObject;

  /** The Service the gateway's ext_proc hook points at (port `grpc-ext-proc`, 9004). */
  public readonly service: ApiObject;

  public constructor(scope: Construct, id: string, props: BodyBasedRouterProps = {}) {
    super(scope, id);
    addBrand(this, BODY_BASED_ROUTER_SYMBOL);
    const name = props.name ?? BodyBasedRouter.DEFAULT_NAME;
    const namespace = props.namespace ?? chartNamespace(this);
    checkProps(name, namespace, props);
    this.routerName = name;
    this.routerNamespace = namespace;
    const image = props.image ?? BodyBasedRouter.DEFAULT_IMAGE;
    const sameRepository = parseImageReference(image).repository === parseImageReference(BodyBasedRouter.DEFAULT_IMAGE).repository;
    const imageWarning = movingImageTagWarning('image', image, sameRepository ? BodyBasedRouter.DEFAULT_IMAGE : undefined);
    if (imageWarning) Warnings.add(this, imageWarning);

    const selector = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/instance': name };
    const labels = { ...selector, 'app.kubernetes.io/component': 'body-based-router', 'app.kubernetes.io/part-of': 'cdk8s-inference' };
    const metadata = { name, namespace, labels };
    const secure = props.secureServing ?? true;

    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata });
    new k8s.KubeRole(this, 'Role', {
      metadata,
      // The router's manager caches ConfigMaps (only those labelled bbr-managed); it cannot start without list and watch.
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
    });
    new k8s.KubeRoleBinding(this, 'RoleBinding', {
      metadata,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
    });
    const grpcHealth = (initialDelaySeconds: number): k8s.Probe => ({ grpc: { port: HEALTH_PORT }, initialDelaySeconds, periodSeconds: 10 });
    this.deployment = new k8s.KubeDeployment(this, 'Deployment', {
      metadata,
      spec: {
        replicas: props.replicas ?? 1,
        selector: { matchLabels: selector },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: name,
            securityContext: { runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: CONTAINER_NAME,
              image,
              imagePullPolicy: 'IfNotPresent',
              args: [
                `--grpc-port=${GRPC_PORT}`,
                `--grpc-health-port=${HEALTH_PORT}`,
                `--metrics-port=${METRICS_PORT}`,
                ...((props.streaming ?? true) ? ['--streaming'] : []),
                ...(secure ? [] : ['--secure-serving=false']),
                ...(props.extraArgs ?? []),
              ],
              // Limits the router's ConfigMap cache to its own namespace, which the Role covers.
              env: [{ name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
              ports: [
                { name: 'grpc', containerPort: GRPC_PORT, protocol: 'TCP' },
                { name: 'grpc-health', containerPort: HEALTH_PORT, protocol: 'TCP' },
                { name: 'metrics', containerPort: METRICS_PORT, protocol: 'TCP' },
              ],
              readinessProbe: grpcHealth(5),
              livenessProbe: grpcHealth(15),
              resources: props.resources ?? {
                requests: { cpu: k8s.Quantity.fromString('100m'), memory: k8s.Quantity.fromString('128Mi') },
                limits: { memory: k8s.Quantity.fromString('512Mi') },
              },
              securityContext: props.securityContext ?? {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                capabilities: { drop: ['ALL'] },
              },
            }],
          },
        },
      },
    });
    this.service = new k8s.KubeService(this, 'Service', {
      metadata,
      spec: {
        type: 'ClusterIP',
        selector,
        ports: [{
          name: 'grpc-ext-proc',
          protocol: 'TCP',
          port: GRPC_PORT,
          targetPort: k8s.IntOrString.fromNumber(GRPC_PORT),
          // Declared only for cleartext: over TLS the gateway's hook itself says how to connect.
          ...(secure ? {} : { appProtocol: 'kubernetes.io/h2c' }),
        }],
      },
    });
  }
}

/** A router installed outside the app: a marker construct with nothing to synthesize. */
class ExistingBodyBasedRouter extends Construct implements IBodyBasedRouter {
  public readonly routerName: string;
  public readonly routerNamespace?: string;

  public constructor(scope: Construct, id: string, reference: BodyBasedRouterReference) {
    super(scope, id);
    addBrand(this, BODY_BASED_ROUTER_SYMBOL);
    this.routerName = reference.name ?? BodyBasedRouter.DEFAULT_NAME;
    this.routerNamespace = reference.namespace;
  }
}

function checkProps(name: string, namespace: string | undefined, props: BodyBasedRouterProps): void {
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) || name.length > MAX_NAME_LENGTH) {
    throw new Error(`BodyBasedRouter 'name' (${JSON.stringify(name)}) must be a lowercase RFC 1123 label of at most ${MAX_NAME_LENGTH} characters`);
  }
  if (namespace === undefined || namespace === '') {
    throw new Error("BodyBasedRouter needs a namespace: set 'namespace' (the Gateway's, by convention) or put it in a chart with a namespace");
  }
  if (props.image !== undefined && props.image.trim() === '') {
    throw new Error("BodyBasedRouter 'image' must name an image, or be left out");
  }
  const replicas = props.replicas;
  if (replicas !== undefined && (!Number.isInteger(replicas) || replicas < 1)) {
    throw new Error(`BodyBasedRouter 'replicas' (${replicas}) must be an integer of at least 1`);
  }
}

function chartNamespace(scope: Construct): string | undefined {
  try {
    return Chart.of(scope).namespace;
  } catch {
    return undefined;
  }
}
