import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { LLMD_VLLM_PORT, LLMD_VLLM_ARGUMENTS, LLMD_VLLM_NAME } from './args';
import { llmdEndpointPickerConfig, llmdProviderConfig } from './config';
import { LLMD_DISPLAY_NAME, llmdWarnings, validateLlmd } from './validation';
import { DEFAULT_ENDPOINT_PICKER, EndpointPicker } from '../../api/gateway/endpoint-picker-choice';
import { DeploymentFeature } from '../../api/provider/deployment-feature';
import { InferenceProvider, InferencePoolTarget, ScaleTargetRef } from '../../api/provider/inference-provider';
import { InferenceProviderConfig } from '../../api/provider/inference-provider-config';
import type { ProviderStatusReport, UpstreamKind, UpstreamObjectRef } from '../../api/provider/provider-status';
import type { ResolvedDeployment } from '../../api/resolved-deployment';
import { fromResolvedDeployment, ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { ServingMode } from '../../api/serving';
import type { FieldError } from '../../core/field-error';
import { LABEL_MODEL_DEPLOYMENT } from '../../core/labels';
import { reconcileDeploymentStatus } from '../../provider-kit/deployment-status';
import { DEPLOYMENT_KIND, SERVICE_KIND } from '../../provider-kit/kinds';
import { LEADER_POD_LABELS, LEADER_WORKER_SET_KIND } from '../../provider-kit/leader-worker-set-kind';
import { reconcileLeaderWorkerSetStatus } from '../../provider-kit/leader-worker-set-status';
import { isMultiNodeComponent, servingComponents } from '../../provider-kit/multi-node-layout';
import { withProviderImage } from '../../provider-kit/provider-image';
import { combineComponentReports, toStatusReport } from '../../provider-kit/reconciled-status';
import { deprecatedEngineFlagWarnings } from '../../provider-kit/retired-engine-flags';
import { servingWorkloadRef } from '../../provider-kit/serving-workload';

/**
 * Settings of the llm-d provider.
 */
export interface LlmdProviderProps {
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
 * llm-d (`llmd`): vLLM Deployments and Services, aggregated or split into prefill and decode
 * workers with KV-cache transfer, routed by llm-d's inference scheduler.
 */
export class LlmdProvider extends InferenceProvider {
  private readonly image?: string;

  public constructor(props: LlmdProviderProps = {}) {
    super({ config: InferenceProviderConfig._fromEntry(llmdProviderConfig()), displayName: LLMD_DISPLAY_NAME });
    this.image = props.image;
  }

  /** The deployment as this provider renders it: with the provider's image when it names none. */
  private resolved(deployment: ResolvedDeployment): ResolvedModelDeployment {
    return withProviderImage(fromResolvedDeployment(deployment), this.image);
  }

  public validate(deployment: ResolvedDeployment): FieldError[] {
    return validateLlmd(this.resolved(deployment));
  }

  /** GPUs a component's vLLM layout leaves idle (`llmdParallelism`). */
  public warnings(deployment: ResolvedDeployment): string[] {
    const md = this.resolved(deployment);
    return [...llmdWarnings(md), ...deprecatedEngineFlagWarnings(md.spec, LLMD_VLLM_ARGUMENTS, LLMD_VLLM_NAME)];
  }

  /** Its Deployments' pods carry the claims: `spec.resourceClaims` and the serving container's `resources.claims`. */
  public supportsDeviceClaims(_deployment: ResolvedDeployment): boolean {
    return true;
  }

  /**
   * Autoscaling (KEDA or an HPA on its aggregated Deployment) and scale to zero (aggregated;
   * disaggregated components keep their counts, 0 included); LoRA adapters in both modes (prefill and decode pods alike load them); multi-node replicas in both
   * modes (a LeaderWorkerSet in place of each multi-node component's Deployment).
   */
  public supportsFeature(feature: DeploymentFeature, deployment: ResolvedDeployment): boolean {
    switch (feature) {
      case DeploymentFeature.AUTOSCALING:
      case DeploymentFeature.SCALE_TO_ZERO:
        return deployment.servingMode === ServingMode.AGGREGATED;
      case DeploymentFeature.MULTI_NODE:
      case DeploymentFeature.LORA_ADAPTERS:
        return true;
      default:
        return false;
    }
  }

  /** The serving Deployment `<md>`, or the LeaderWorkerSet `<md>` of multi-node replicas. */
  public scaleTarget(deployment: ResolvedDeployment): ScaleTargetRef | undefined {
    return servingWorkloadRef(deployment, 'resources', deployment.name);
  }

  public translate(scope: Construct, deployment: ResolvedDeployment): ApiObject[] {
    // Loaded on first use: the translator brings cdk8s-plus-34, which the controller (validate
    // and mapStatus only) never needs.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { translateLlmd } = require('./translator') as typeof import('./translator');
    return translateLlmd(scope, this.resolved(deployment));
  }

  /**
   * Prefill and decode pods are one pool; llm-d's endpoint picker tells them apart by their role
   * label. Workers of multi-node replicas never carry the model-deployment label (they serve no
   * HTTP); when every component is multi-node the selector names the leaders outright as well.
   */
  public inferencePoolTarget(deployment: ResolvedDeployment): InferencePoolTarget | undefined {
    const components = servingComponents(deployment.spec);
    const allLeaders = components.every((c) => isMultiNodeComponent(deployment, c));
    return { selector: { [LABEL_MODEL_DEPLOYMENT]: deployment.name, ...(allLeaders ? LEADER_POD_LABELS : {}) }, targetPort: LLMD_VLLM_PORT };
  }

  /**
   * llm-d's shipped configuration schedules decode pods only; a disaggregated deployment that
   * keeps it gets the prefill/decode configuration instead (its pods carry `llm-d.ai/role`). A
   * shipped configuration is written for the picker generation the deployment routes with
   * (`llmdEndpointPickerConfig`); any other is kept as configured.
   */
  public endpointPickerConfig(deployment: ResolvedDeployment, configured?: string, endpointPicker?: EndpointPicker): string | undefined {
    const disaggregated = deployment.servingMode === ServingMode.DISAGGREGATED;
    return llmdEndpointPickerConfig(configured, disaggregated, endpointPicker ?? DEFAULT_ENDPOINT_PICKER);
  }

  public emittedKinds(): UpstreamKind[] {
    return [DEPLOYMENT_KIND, SERVICE_KIND, LEADER_WORKER_SET_KIND];
  }

  /**
   * The primary workload: `<md>`, or `<md>-decode` when disaggregated; a LeaderWorkerSet when that
   * component runs multi-node replicas, else a Deployment.
   */
  public statusSource(deployment: ResolvedDeployment): UpstreamObjectRef | undefined {
    const disaggregated = deployment.servingMode === ServingMode.DISAGGREGATED;
    const name = disaggregated ? `${deployment.name}-decode` : deployment.name;
    return servingWorkloadRef(deployment, disaggregated ? 'decode' : 'resources', name);
  }

  /** A Deployment, or a LeaderWorkerSet (multi-node replicas), by its kind. */
  public mapStatus(upstream: any): ProviderStatusReport {
    if (upstream?.kind === LEADER_WORKER_SET_KIND.kind) return toStatusReport(reconcileLeaderWorkerSetStatus(upstream));
    return toStatusReport(reconcileDeploymentStatus(upstream));
  }

  /**
   * The prefill workload (`<md>-prefill`) of a disaggregated deployment: AI Runway maps the decode
   * Deployment alone, so a prefill side that never starts leaves the record Running while no
   * request can be served (README, "Where we differ").
   */
  public additionalStatusSources(deployment: ResolvedDeployment): UpstreamObjectRef[] {
    if (deployment.servingMode !== ServingMode.DISAGGREGATED) return [];
    return [servingWorkloadRef(deployment, 'prefill', `${deployment.name}-prefill`)];
  }

  /** Decode and prefill together (`combineComponentReports`); the decode workload alone when aggregated. */
  public mapStatuses(upstream: any, additional: any[]): ProviderStatusReport {
    const decode = this.mapStatus(upstream);
    if (additional.length === 0) return decode;
    return combineComponentReports([{ component: 'decode', report: decode }, ...additional.map((a) => ({ component: 'prefill', report: this.mapStatus(a) }))]);
  }
}
