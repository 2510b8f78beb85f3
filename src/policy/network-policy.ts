import type { ApiObject } from 'cdk8s';
import type { k8s as k8sTypes } from 'cdk8s-plus-34';
import { Construct } from 'constructs';
import { modelServerPodsOf } from './model-server-pods';
import type { ModelDeployment } from '../constructs/model-deployment';
import { ProviderRegistry } from '../constructs/provider-registry';
import { addBrand, brandSymbol, hasBrand } from '../core/construct-brand';
import { FieldError, formatFieldError, invalid } from '../core/field-error';
import { k8s } from '../core/kube-api';
import { LABEL_MANAGED_BY, LABEL_MODEL_DEPLOYMENT, MANAGED_BY_VALUE } from '../core/labels';

/** The label Kubernetes puts on every namespace with its name. */
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** Props of a `ModelDeploymentNetworkPolicy`. */
export interface ModelDeploymentNetworkPolicyProps {
  /** The deployment whose model-server pods the policy isolates. */
  readonly deployment: ModelDeployment;

  /**
   * Whether every pod of the deployment's namespace may call the serving port (the endpoint
   * picker, the Gateway's proxy when it runs there, clients of the model Service).
   * @default true
   */
  readonly allowSameNamespace?: boolean;

  /**
   * Further namespaces whose pods may call the serving port, by name: the Gateway's namespace
   * (its proxy forwards to the pods), a monitoring namespace that scrapes `/metrics`, the
   * KubeRay operator's namespace (it polls the Ray head's dashboard and Serve ports).
   * @default - the namespace of the ProviderRegistry's Gateway, if one is set
   */
  readonly ingressNamespaces?: string[];

  /**
   * The port the ingress rules open.
   * @default - the model-server port the provider names (its InferencePool target); every port
   * when the provider names none (Dynamo, modelplane)
   */
  readonly port?: number;

  /**
   * Whether the pods may resolve names (UDP and TCP port 53 to any destination).
   * @default true
   */
  readonly allowDns?: boolean;

  /**
   * Whether the pods may open HTTPS connections (TCP 443) to any address: the engines download
   * weights from Hugging Face or an object store on start. Turn it off when the weights come
   * from a volume and nothing else is fetched.
   * @default true
   */
  readonly allowHttpsEgress?: boolean;

  /**
   * More ingress rules (e.g. from a monitoring namespace to a metrics port).
   * @default - none
   */
  readonly extraIngress?: k8sTypes.NetworkPolicyIngressRule[];

  /**
   * More egress rules (e.g. to an in-cluster object store, or Dynamo's etcd and NATS).
   * @default - none
   */
  readonly extraEgress?: k8sTypes.NetworkPolicyEgressRule[];
}

const MODEL_DEPLOYMENT_NETWORK_POLICY_BRAND = brandSymbol('ModelDeploymentNetworkPolicy');

/**
 * A NetworkPolicy (networking.k8s.io/v1) isolating a ModelDeployment's model-server pods, in its
 * namespace and named like it. Ingress: the serving port from the deployment's namespace (unless
 * turned off) and the named namespaces, and every port from the deployment's own pods (a
 * multi-node replica's Ray and NCCL traffic, prefill-to-decode KV transfer). Egress: DNS, HTTPS
 * for model downloads, and the deployment's own pods.
 *
 * It selects `airunway.ai/model-deployment: <name>`, the label every provider puts on the pods
 * that serve; the endpoint picker and the model download Job are not selected.
 */
export class ModelDeploymentNetworkPolicy extends Construct {
  /** True if `x` is a ModelDeploymentNetworkPolicy (also one made by another copy of this library). */
  public static isModelDeploymentNetworkPolicy(x: any): x is ModelDeploymentNetworkPolicy {
    return hasBrand(x, MODEL_DEPLOYMENT_NETWORK_POLICY_BRAND);
  }

  /** The NetworkPolicy. */
  public readonly apiObject: ApiObject;

  public constructor(scope: Construct, id: string, props: ModelDeploymentNetworkPolicyProps) {
    super(scope, id);
    addBrand(this, MODEL_DEPLOYMENT_NETWORK_POLICY_BRAND);
    const deployment = props.deployment;
    const pods = modelServerPodsOf(deployment);
    const errors = policyErrors(props);
    this.node.addValidation({ validate: () => errors.map(formatFieldError) });

    const peers: k8sTypes.NetworkPolicyPeer[] = pods.peerSelectors.map((matchLabels) => ({ podSelector: { matchLabels } }));
    const gatewayNamespace = ProviderRegistry.tryOf(deployment)?.gateway?.namespace;
    const namespaces = props.ingressNamespaces ?? (gatewayNamespace !== undefined ? [gatewayNamespace] : []);
    const callers: k8sTypes.NetworkPolicyPeer[] = [
      ...((props.allowSameNamespace ?? true) ? [{ podSelector: {} }] : []),
      ...[...new Set(namespaces)].map((name) => ({ namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: name } } })),
    ];
    const port = props.port ?? pods.port;
    const ingress: k8sTypes.NetworkPolicyIngressRule[] = [
      { from: peers },
      ...(callers.length > 0
        ? [{ from: callers, ...(port !== undefined && { ports: [{ protocol: 'TCP', port: k8s.IntOrString.fromNumber(port) }] }) }]
        : []),
      ...(props.extraIngress ?? []),
    ];
    const egress: k8sTypes.NetworkPolicyEgressRule[] = [
      { to: peers },
      ...((props.allowDns ?? true)
        ? [{ ports: [{ protocol: 'UDP', port: k8s.IntOrString.fromNumber(53) }, { protocol: 'TCP', port: k8s.IntOrString.fromNumber(53) }] }]
        : []),
      ...((props.allowHttpsEgress ?? true) ? [{ ports: [{ protocol: 'TCP', port: k8s.IntOrString.fromNumber(443) }] }] : []),
      ...(props.extraEgress ?? []),
    ];
    this.apiObject = new k8s.KubeNetworkPolicy(this, 'Resource', {
      metadata: {
        name: deployment.name,
        ...(deployment.namespace !== undefined && { namespace: deployment.namespace }),
        labels: { [LABEL_MANAGED_BY]: MANAGED_BY_VALUE, [LABEL_MODEL_DEPLOYMENT]: deployment.name },
      },
      spec: {
        podSelector: { matchLabels: pods.selector },
        policyTypes: ['Ingress', 'Egress'],
        ingress,
        egress,
      },
    });
  }
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function policyErrors(props: ModelDeploymentNetworkPolicyProps): FieldError[] {
  const errors: FieldError[] = [];
  if (props.port !== undefined && (!Number.isSafeInteger(props.port) || props.port < 1 || props.port > 65535)) {
    errors.push(invalid('port', props.port, 'must be a port number from 1 to 65535'));
  }
  (props.ingressNamespaces ?? []).forEach((name, i) => {
    if (name.length > 63 || !DNS_LABEL.test(name)) {
      errors.push(invalid(`ingressNamespaces[${i}]`, name, 'must be a namespace name (a DNS label: lowercase letters, digits and "-", at most 63 characters)'));
    }
  });
  return errors;
}
