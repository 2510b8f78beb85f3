import type { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { modelServerPodsOf } from './model-server-pods';
import type { ModelDeployment } from '../constructs/model-deployment';
import { addBrand, brandSymbol, hasBrand } from '../core/construct-brand';
import { FieldError, formatFieldError, invalid } from '../core/field-error';
import { k8s } from '../core/kube-api';
import { LABEL_MANAGED_BY, LABEL_MODEL_DEPLOYMENT, MANAGED_BY_VALUE } from '../core/labels';

/** When a pod that is not Ready may be evicted (`spec.unhealthyPodEvictionPolicy`). */
export enum UnhealthyPodEvictionPolicy {
  /**
   * A pod that is not Ready may always be evicted: a model server stuck loading or crash-looping
   * does not block a node drain.
   */
  ALWAYS_ALLOW = 'AlwaysAllow',
  /** A pod that is not Ready may be evicted only while the budget is met (Kubernetes' default). */
  IF_HEALTHY_BUDGET = 'IfHealthyBudget',
}

/** Props of a `ModelDeploymentDisruptionBudget`. */
export interface ModelDeploymentDisruptionBudgetProps {
  /** The deployment whose model-server pods the budget protects. */
  readonly deployment: ModelDeployment;

  /**
   * Model-server pods that a voluntary disruption (a node drain, a cluster upgrade) may take
   * down at once. Give this or `minAvailable`, not both.
   * @default 1 (unless `minAvailable` is set)
   */
  readonly maxUnavailable?: number;

  /**
   * Model-server pods that must stay up through voluntary disruptions, instead of `maxUnavailable`.
   * With as many pods as replicas this blocks every drain: prefer `maxUnavailable`.
   * @default - unset: `maxUnavailable` applies
   */
  readonly minAvailable?: number;

  /**
   * Whether pods that are not Ready may be evicted regardless of the budget.
   * @default UnhealthyPodEvictionPolicy.ALWAYS_ALLOW
   */
  readonly unhealthyPodEvictionPolicy?: UnhealthyPodEvictionPolicy;
}

const MODEL_DEPLOYMENT_DISRUPTION_BUDGET_BRAND = brandSymbol('ModelDeploymentDisruptionBudget');

/**
 * A PodDisruptionBudget (policy/v1) for a ModelDeployment's model-server pods, in its namespace
 * and named like it: node drains and cluster upgrades take at most `maxUnavailable` of them down
 * at once, so a model with several replicas keeps serving.
 *
 * It selects `airunway.ai/model-deployment: <name>`, the label every provider puts on the pods
 * that serve. The worker pods of a multi-node replica (LeaderWorkerSet, Kthena) do not carry it:
 * the budget protects their leaders.
 */
export class ModelDeploymentDisruptionBudget extends Construct {
  /** True if `x` is a ModelDeploymentDisruptionBudget (also one made by another copy of this library). */
  public static isModelDeploymentDisruptionBudget(x: any): x is ModelDeploymentDisruptionBudget {
    return hasBrand(x, MODEL_DEPLOYMENT_DISRUPTION_BUDGET_BRAND);
  }

  /** The PodDisruptionBudget. */
  public readonly apiObject: ApiObject;

  public constructor(scope: Construct, id: string, props: ModelDeploymentDisruptionBudgetProps) {
    super(scope, id);
    addBrand(this, MODEL_DEPLOYMENT_DISRUPTION_BUDGET_BRAND);
    const errors = budgetErrors(props);
    this.node.addValidation({ validate: () => errors.map(formatFieldError) });
    const deployment = props.deployment;
    const pods = modelServerPodsOf(deployment);
    const budget = props.minAvailable !== undefined
      ? { minAvailable: k8s.IntOrString.fromNumber(props.minAvailable) }
      : { maxUnavailable: k8s.IntOrString.fromNumber(props.maxUnavailable ?? 1) };
    this.apiObject = new k8s.KubePodDisruptionBudget(this, 'Resource', {
      metadata: {
        name: deployment.name,
        ...(deployment.namespace !== undefined && { namespace: deployment.namespace }),
        labels: { [LABEL_MANAGED_BY]: MANAGED_BY_VALUE, [LABEL_MODEL_DEPLOYMENT]: deployment.name },
      },
      spec: {
        selector: { matchLabels: pods.selector },
        ...budget,
        unhealthyPodEvictionPolicy: props.unhealthyPodEvictionPolicy ?? UnhealthyPodEvictionPolicy.ALWAYS_ALLOW,
      },
    });
  }
}

function budgetErrors(props: ModelDeploymentDisruptionBudgetProps): FieldError[] {
  const errors: FieldError[] = [];
  if (props.maxUnavailable !== undefined && props.minAvailable !== undefined) {
    errors.push(invalid('minAvailable', props.minAvailable, `set only one of maxUnavailable (${props.maxUnavailable}) and minAvailable`));
  }
  for (const [path, value] of [['maxUnavailable', props.maxUnavailable], ['minAvailable', props.minAvailable]] as const) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      errors.push(invalid(path, value, 'must be a whole number of pods, 0 or more'));
    }
  }
  return errors;
}
