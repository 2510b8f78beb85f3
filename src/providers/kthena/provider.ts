import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { KTHENA_ENGINE_PORT, KTHENA_ENGINE_ARGUMENTS, kthenaEngineName } from './args';
import { KTHENA_DEFAULT_SCHEDULER, kthenaProviderConfig } from './config';
import { KTHENA_DEFAULT_SGLANG_IMAGE, KTHENA_DEFAULT_VLLM_IMAGE, KthenaEngineImages } from './images';
import { kthenaServesLora } from './lora';
import { kthenaRunsMultiNode } from './multi-node';
import { deploymentPodSelector } from './roles';
import { reconcileModelServingStatus } from './status';
import { KTHENA_DISPLAY_NAME, kthenaWarnings, validateKthena } from './validation';
import { DeploymentFeature } from '../../api/provider/deployment-feature';
import { InferencePoolTarget, InferenceProvider } from '../../api/provider/inference-provider';
import { InferenceProviderConfig } from '../../api/provider/inference-provider-config';
import type { ProviderStatusReport, UpstreamKind, UpstreamObjectRef } from '../../api/provider/provider-status';
import type { ResolvedDeployment } from '../../api/resolved-deployment';
import { fromResolvedDeployment } from '../../api/resolved-model-deployment';
import { ServingMode } from '../../api/serving';
import type { FieldError } from '../../core/field-error';
import { dnsSubdomainErrors } from '../../core/kubernetes-names';
import { imageProblem } from '../../kthena/checks';
import { PERSISTENT_VOLUME_CLAIM_KIND, SERVICE_KIND } from '../../provider-kit/kinds';
import { toStatusReport } from '../../provider-kit/reconciled-status';
import { deprecatedEngineFlagWarnings } from '../../provider-kit/retired-engine-flags';

const MODEL_SERVING_API_VERSION = 'workload.serving.volcano.sh/v1alpha1';
const NETWORKING_API_VERSION = 'networking.serving.volcano.sh/v1alpha1';

/**
 * Settings of the Kthena provider.
 */
export interface KthenaProviderProps {
  /**
   * Scheduler of the ModelServing's pods (`spec.schedulerName`). Kthena creates a Volcano
   * PodGroup per ServingGroup only with `volcano`; with another scheduler the roles are not
   * gang-scheduled.
   * @default 'volcano'
   */
  readonly schedulerName?: string;

  /**
   * vLLM image of deployments that name none (`spec.engine.image`, `spec.image`).
   * @default 'vllm/vllm-openai:v0.33.0'
   */
  readonly vllmImage?: string;

  /**
   * SGLang image of deployments that name none (`spec.engine.image`, `spec.image`).
   * @default 'lmsysorg/sglang:v0.5.23'
   */
  readonly sglangImage?: string;
}

function checkedImage(prop: string, image: string | undefined, fallback: string): string {
  if (image === undefined) return fallback;
  const problem = imageProblem(image);
  if (problem) throw new Error(`KthenaProvider: '${prop}' (${JSON.stringify(image)}) ${problem}; Kthena refuses such container images`);
  return image;
}

/**
 * Kthena (`kthena`, volcano-sh/kthena): a `workload.serving.volcano.sh` ModelServing running vLLM
 * or SGLang, aggregated or as prefill and decode roles of one gang-scheduled ServingGroup, with a
 * `networking.serving.volcano.sh` ModelServer and ModelRoute for kthena-router. Explicit
 * selection only (`spec.provider.name: kthena`).
 */
export class KthenaProvider extends InferenceProvider {
  private readonly schedulerName: string;
  private readonly images: KthenaEngineImages;

  public constructor(props: KthenaProviderProps = {}) {
    super({ config: InferenceProviderConfig._fromEntry(kthenaProviderConfig()), displayName: KTHENA_DISPLAY_NAME });
    const scheduler = props.schedulerName ?? KTHENA_DEFAULT_SCHEDULER;
    if (dnsSubdomainErrors(scheduler).length > 0) {
      throw new Error(`KthenaProvider: 'schedulerName' (${JSON.stringify(scheduler)}) must be a DNS subdomain (lowercase letters, digits, "-" and "."), as pod scheduler names are`);
    }
    this.schedulerName = scheduler;
    this.images = {
      vllm: checkedImage('vllmImage', props.vllmImage, KTHENA_DEFAULT_VLLM_IMAGE),
      sglang: checkedImage('sglangImage', props.sglangImage, KTHENA_DEFAULT_SGLANG_IMAGE),
    };
  }

  public validate(deployment: ResolvedDeployment): FieldError[] {
    return validateKthena(fromResolvedDeployment(deployment));
  }

  /** GPUs a role's engine layout leaves idle, and DRA claims left to a scheduler other than kube-scheduler (`kthenaWarnings`). */
  public warnings(deployment: ResolvedDeployment): string[] {
    const md = fromResolvedDeployment(deployment);
    const engine = md.engine === 'sglang' ? 'sglang' : 'vllm';
    const deprecated = deprecatedEngineFlagWarnings(md.spec, KTHENA_ENGINE_ARGUMENTS[engine], kthenaEngineName(engine));
    return [...kthenaWarnings(md, this.schedulerName), ...deprecated];
  }

  /** Its entry pod templates are full pod specs: `spec.resourceClaims` and the engine container's `resources.claims`. */
  public supportsDeviceClaims(_deployment: ResolvedDeployment): boolean {
    return true;
  }

  /**
   * LoRA adapters with vLLM (`kthenaServesLora`): its ModelRoute lists them, its pods load them.
   * Autoscaling by Kthena's own AutoscalingPolicy, and scale to zero, of an aggregated deployment
   * (its ServingGroups are the replicas; a disaggregated deployment is one group). Multi-node
   * replicas with vLLM (`kthenaRunsMultiNode`): a role's entry pod and worker pods, one Ray cluster.
   */
  public supportsFeature(feature: DeploymentFeature, deployment: ResolvedDeployment): boolean {
    switch (feature) {
      case DeploymentFeature.AUTOSCALING:
      case DeploymentFeature.SCALE_TO_ZERO:
        return deployment.servingMode === ServingMode.AGGREGATED;
      case DeploymentFeature.LORA_ADAPTERS:
        return kthenaServesLora(deployment.engineType);
      case DeploymentFeature.MULTI_NODE:
        return kthenaRunsMultiNode(deployment.engineType);
      default:
        return false;
    }
  }

  public translate(scope: Construct, deployment: ResolvedDeployment): ApiObject[] {
    // Loaded on first use: the translator brings cdk8s-plus-34 and the generated bindings, which
    // the controller (validate and mapStatus only) never needs.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { translateKthena } = require('./translator') as typeof import('./translator');
    return translateKthena(scope, fromResolvedDeployment(deployment), { schedulerName: this.schedulerName, images: this.images });
  }

  /**
   * Aggregated serving pods, by the model-deployment label in their template, on port 8000.
   * Prefill/decode pods are routed by kthena-router, not pooled (validation refuses the gateway
   * for them).
   */
  public inferencePoolTarget(deployment: ResolvedDeployment): InferencePoolTarget | undefined {
    if (deployment.servingMode === ServingMode.DISAGGREGATED) return undefined;
    return { selector: deploymentPodSelector(deployment), targetPort: KTHENA_ENGINE_PORT };
  }

  public emittedKinds(): UpstreamKind[] {
    return [
      { apiVersion: MODEL_SERVING_API_VERSION, kind: 'ModelServing', resource: 'modelservings' },
      { apiVersion: NETWORKING_API_VERSION, kind: 'ModelServer', resource: 'modelservers' },
      { apiVersion: NETWORKING_API_VERSION, kind: 'ModelRoute', resource: 'modelroutes' },
      { apiVersion: MODEL_SERVING_API_VERSION, kind: 'AutoscalingPolicy', resource: 'autoscalingpolicies' },
      SERVICE_KIND,
      PERSISTENT_VOLUME_CLAIM_KIND,
    ];
  }

  public statusSource(deployment: ResolvedDeployment): UpstreamObjectRef | undefined {
    return { apiVersion: MODEL_SERVING_API_VERSION, kind: 'ModelServing', name: deployment.name };
  }

  public mapStatus(upstream: any): ProviderStatusReport {
    return toStatusReport(reconcileModelServingStatus(upstream));
  }
}
