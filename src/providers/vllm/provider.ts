import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { DIRECT_VLLM_PORT, DIRECT_VLLM_ARGUMENTS } from './args';
import { vllmProviderConfig } from './config';
import { DIRECT_VLLM_VERSION } from './images';
import { directVllmWarnings, validateDirectVllm, VLLM_DISPLAY_NAME } from './validation';
import { DeploymentFeature } from '../../api/provider/deployment-feature';
import { InferenceProvider, InferencePoolTarget, ScaleTargetRef } from '../../api/provider/inference-provider';
import { InferenceProviderConfig } from '../../api/provider/inference-provider-config';
import type { ProviderStatusReport, UpstreamKind, UpstreamObjectRef } from '../../api/provider/provider-status';
import type { ResolvedDeployment } from '../../api/resolved-deployment';
import { fromResolvedDeployment, ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import type { FieldError } from '../../core/field-error';
import { LABEL_MODEL_DEPLOYMENT } from '../../core/labels';
import { reconcileDeploymentStatus } from '../../provider-kit/deployment-status';
import { DEPLOYMENT_KIND, PERSISTENT_VOLUME_CLAIM_KIND, SERVICE_KIND } from '../../provider-kit/kinds';
import { LEADER_POD_LABELS, LEADER_WORKER_SET_KIND } from '../../provider-kit/leader-worker-set-kind';
import { reconcileLeaderWorkerSetStatus } from '../../provider-kit/leader-worker-set-status';
import { isMultiNodeComponent } from '../../provider-kit/multi-node-layout';
import { withProviderImage } from '../../provider-kit/provider-image';
import { toStatusReport } from '../../provider-kit/reconciled-status';
import { deprecatedEngineFlagWarnings } from '../../provider-kit/retired-engine-flags';
import { servingWorkloadRef } from '../../provider-kit/serving-workload';

/** The serving features Direct vLLM carries, in either of its layouts. */
const DIRECT_VLLM_FEATURES: ReadonlySet<DeploymentFeature> = new Set([
  DeploymentFeature.AUTOSCALING,
  DeploymentFeature.SCALE_TO_ZERO,
  DeploymentFeature.MULTI_NODE,
  DeploymentFeature.LORA_ADAPTERS,
]);

/**
 * Settings of the Direct vLLM provider.
 */
export interface DirectVllmProviderProps {
  /**
   * Image of the vLLM containers of deployments that name none (`spec.engine.image`,
   * `spec.image`): how a team keeps its vLLM release across a library upgrade that moves the
   * default (README, "Pinning images"). Deployments are then checked and rendered as if they
   * named it.
   * @default 'vllm/vllm-openai:v0.33.0' (the version matrix's vLLM)
   */
  readonly image?: string;
}

/**
 * Direct vLLM (`vllm`): a plain vLLM Deployment and Service per deployment, aggregated serving
 * on GPUs, with no operator to install.
 */
export class DirectVllmProvider extends InferenceProvider {
  private readonly image?: string;

  public constructor(props: DirectVllmProviderProps = {}) {
    super({ config: InferenceProviderConfig._fromEntry(vllmProviderConfig()), displayName: VLLM_DISPLAY_NAME });
    this.image = props.image;
  }

  /** The deployment as this provider renders it: with the provider's image when it names none. */
  private resolved(deployment: ResolvedDeployment): ResolvedModelDeployment {
    return withProviderImage(fromResolvedDeployment(deployment), this.image);
  }

  public validate(deployment: ResolvedDeployment): FieldError[] {
    return validateDirectVllm(this.resolved(deployment));
  }

  /** GPUs the vLLM layout leaves idle (`directVllmParallelism`). */
  public warnings(deployment: ResolvedDeployment): string[] {
    const md = this.resolved(deployment);
    return [...directVllmWarnings(md), ...deprecatedEngineFlagWarnings(md.spec, DIRECT_VLLM_ARGUMENTS, `vLLM ${DIRECT_VLLM_VERSION}`)];
  }

  /** Its Deployments' pods carry the claims: `spec.resourceClaims` and the serving container's `resources.claims`. */
  public supportsDeviceClaims(_deployment: ResolvedDeployment): boolean {
    return true;
  }

  /**
   * Autoscaling (KEDA or an HPA on its serving Deployment), scale to zero, LoRA adapters, and
   * multi-node replicas (a LeaderWorkerSet in place of the Deployment, vLLM on a Ray cluster per replica).
   */
  public supportsFeature(feature: DeploymentFeature, _deployment: ResolvedDeployment): boolean {
    return DIRECT_VLLM_FEATURES.has(feature);
  }

  /** The serving Deployment `<md>`, or the LeaderWorkerSet `<md>` of multi-node replicas. */
  public scaleTarget(deployment: ResolvedDeployment): ScaleTargetRef | undefined {
    return servingWorkloadRef(deployment, 'resources', deployment.name);
  }

  public translate(scope: Construct, deployment: ResolvedDeployment): ApiObject[] {
    // Loaded on first use: the translator brings cdk8s-plus-34, which the controller (validate
    // and mapStatus only) never needs.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { translateDirectVllm } = require('./translator') as typeof import('./translator');
    return translateDirectVllm(scope, this.resolved(deployment));
  }

  /** The model server pods; of multi-node replicas, only the leaders (the workers serve no HTTP). */
  public inferencePoolTarget(deployment: ResolvedDeployment): InferencePoolTarget | undefined {
    const leaders = isMultiNodeComponent(deployment, 'resources') ? LEADER_POD_LABELS : {};
    return { selector: { [LABEL_MODEL_DEPLOYMENT]: deployment.name, ...leaders }, targetPort: DIRECT_VLLM_PORT };
  }

  public emittedKinds(): UpstreamKind[] {
    return [DEPLOYMENT_KIND, SERVICE_KIND, PERSISTENT_VOLUME_CLAIM_KIND, LEADER_WORKER_SET_KIND];
  }

  /** The Deployment `<md>`, or the LeaderWorkerSet `<md>` of multi-node replicas. */
  public statusSource(deployment: ResolvedDeployment): UpstreamObjectRef | undefined {
    return servingWorkloadRef(deployment, 'resources', deployment.name);
  }

  /** A Deployment, or a LeaderWorkerSet (multi-node replicas), by its kind. */
  public mapStatus(upstream: any): ProviderStatusReport {
    if (upstream?.kind === LEADER_WORKER_SET_KIND.kind) return toStatusReport(reconcileLeaderWorkerSetStatus(upstream));
    return toStatusReport(reconcileDeploymentStatus(upstream));
  }
}
