import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { kuberayProviderConfig } from './config';
import { RAY_SERVE_PORT, reconcileRayServiceStatus } from './status';
import { KUBERAY_DISPLAY_NAME, kuberayWarnings, validateKubeRay } from './validation';
import { DeploymentFeature } from '../../api/provider/deployment-feature';
import { InferenceProvider, InferencePoolTarget } from '../../api/provider/inference-provider';
import { InferenceProviderConfig } from '../../api/provider/inference-provider-config';
import type { ProviderStatusReport, UpstreamKind, UpstreamObjectRef } from '../../api/provider/provider-status';
import type { ResolvedDeployment } from '../../api/resolved-deployment';
import { fromResolvedDeployment } from '../../api/resolved-model-deployment';
import { ServingMode } from '../../api/serving';
import type { FieldError } from '../../core/field-error';
import { LABEL_MODEL_DEPLOYMENT } from '../../core/labels';
import { PERSISTENT_VOLUME_CLAIM_KIND } from '../../provider-kit/kinds';
import { toStatusReport } from '../../provider-kit/reconciled-status';

/**
 * KubeRay (`kuberay`): one `ray.io/v1` RayService running vLLM on Ray Serve, with a head group
 * and GPU worker groups.
 */
export class KubeRayProvider extends InferenceProvider {
  public constructor() {
    super({ config: InferenceProviderConfig._fromEntry(kuberayProviderConfig()), displayName: KUBERAY_DISPLAY_NAME });
  }

  public validate(deployment: ResolvedDeployment): FieldError[] {
    return validateKubeRay(fromResolvedDeployment(deployment));
  }

  /** GPUs the vLLM layout leaves idle in a worker pod (`kuberayParallelism`). */
  public warnings(deployment: ResolvedDeployment): string[] {
    return kuberayWarnings(fromResolvedDeployment(deployment));
  }

  /** Its worker pods carry the claims (`spec.resourceClaims`, the `ray-worker` container's `resources.claims`); the head claims nothing. */
  public supportsDeviceClaims(_deployment: ResolvedDeployment): boolean {
    return true;
  }

  /**
   * Of an aggregated deployment: autoscaling by Ray (Serve replicas on in-flight requests, worker
   * pods by the in-tree autoscaler; see `kuberayAutoscalingErrors` for the metric), and multi-node
   * replicas (a group of worker pods per Serve replica, `./multi-node`). Disaggregated KubeRay has
   * neither: its one Serve deployment has no per-component replicas to scale or to group.
   */
  public supportsFeature(feature: DeploymentFeature, deployment: ResolvedDeployment): boolean {
    const aggregated = deployment.servingMode === ServingMode.AGGREGATED;
    return (feature === DeploymentFeature.AUTOSCALING || feature === DeploymentFeature.MULTI_NODE) && aggregated;
  }

  public translate(scope: Construct, deployment: ResolvedDeployment): ApiObject[] {
    // Loaded on first use: the translator brings cdk8s-plus-34 and the generated bindings, which
    // the controller (validate and mapStatus only) never needs.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { translateKubeRay } = require('./translator') as typeof import('./translator');
    return translateKubeRay(scope, fromResolvedDeployment(deployment));
  }

  /** Ray Serve's HTTP proxy listens on every Ray pod (head and workers), all of which carry the label. */
  public inferencePoolTarget(deployment: ResolvedDeployment): InferencePoolTarget | undefined {
    return { selector: { [LABEL_MODEL_DEPLOYMENT]: deployment.name }, targetPort: RAY_SERVE_PORT };
  }

  public emittedKinds(): UpstreamKind[] {
    return [{ apiVersion: 'ray.io/v1', kind: 'RayService', resource: 'rayservices' }, PERSISTENT_VOLUME_CLAIM_KIND];
  }

  public statusSource(deployment: ResolvedDeployment): UpstreamObjectRef | undefined {
    return { apiVersion: 'ray.io/v1', kind: 'RayService', name: deployment.name };
  }

  public mapStatus(upstream: any): ProviderStatusReport {
    return toStatusReport(reconcileRayServiceStatus(upstream));
  }
}
