import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { DIRECT_VLLM_PORT } from './args';
import { vllmProviderConfig } from './config';
import { directVllmWarnings, validateDirectVllm, VLLM_DISPLAY_NAME } from './validation';
import { DeploymentFeature } from '../../api/deployment-feature';
import { InferenceProvider, InferencePoolTarget, ScaleTargetRef } from '../../api/inference-provider';
import { InferenceProviderConfig } from '../../api/inference-provider-config';
import type { ProviderStatusReport, UpstreamKind, UpstreamObjectRef } from '../../api/provider-status';
import type { ResolvedDeployment } from '../../api/resolved-deployment';
import type { FieldError } from '../../core/field-error';
import { LABEL_MODEL_DEPLOYMENT } from '../../core/labels';
import { fromResolvedDeployment } from '../../core/resolved-model-deployment';
import { reconcileDeploymentStatus } from '../common/deployment-status';
import { DEPLOYMENT_KIND, PERSISTENT_VOLUME_CLAIM_KIND, SERVICE_KIND } from '../common/kinds';
import { toStatusReport } from '../common/reconciled-status';

/**
 * Direct vLLM (`vllm`): a plain vLLM Deployment and Service per deployment, aggregated serving
 * on GPUs, with no operator to install.
 */
export class DirectVllmProvider extends InferenceProvider {
  public constructor() {
    super({ config: InferenceProviderConfig._fromEntry(vllmProviderConfig()), displayName: VLLM_DISPLAY_NAME });
  }

  public validate(deployment: ResolvedDeployment): FieldError[] {
    return validateDirectVllm(fromResolvedDeployment(deployment));
  }

  /** GPUs the vLLM layout leaves idle (`directVllmParallelism`). */
  public warnings(deployment: ResolvedDeployment): string[] {
    return directVllmWarnings(fromResolvedDeployment(deployment));
  }

  /** Its Deployments' pods carry the claims: `spec.resourceClaims` and the serving container's `resources.claims`. */
  public supportsDeviceClaims(_deployment: ResolvedDeployment): boolean {
    return true;
  }

  /**
   * Autoscaling (KEDA or an HPA on its serving Deployment) and scale to zero; multi-node
   * replicas and LoRA adapters are not carried yet.
   */
  public supportsFeature(feature: DeploymentFeature, _deployment: ResolvedDeployment): boolean {
    switch (feature) {
      case DeploymentFeature.AUTOSCALING:
      case DeploymentFeature.SCALE_TO_ZERO:
        return true;
      case DeploymentFeature.MULTI_NODE:
        return false;
      case DeploymentFeature.LORA_ADAPTERS:
        return false;
      default:
        return false;
    }
  }

  /** The serving Deployment `<md>`. */
  public scaleTarget(deployment: ResolvedDeployment): ScaleTargetRef | undefined {
    return { apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.name };
  }

  public translate(scope: Construct, deployment: ResolvedDeployment): ApiObject[] {
    // Loaded on first use: the translator brings cdk8s-plus-34, which the controller (validate
    // and mapStatus only) never needs.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { translateDirectVllm } = require('./translator') as typeof import('./translator');
    return translateDirectVllm(scope, fromResolvedDeployment(deployment));
  }

  public inferencePoolTarget(deployment: ResolvedDeployment): InferencePoolTarget | undefined {
    return { selector: { [LABEL_MODEL_DEPLOYMENT]: deployment.name }, targetPort: DIRECT_VLLM_PORT };
  }

  public emittedKinds(): UpstreamKind[] {
    return [DEPLOYMENT_KIND, SERVICE_KIND, PERSISTENT_VOLUME_CLAIM_KIND];
  }

  public statusSource(deployment: ResolvedDeployment): UpstreamObjectRef | undefined {
    return { apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.name };
  }

  public mapStatus(upstream: any): ProviderStatusReport {
    return toStatusReport(reconcileDeploymentStatus(upstream));
  }
}
