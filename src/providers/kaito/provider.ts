import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { kaitoProviderConfig } from './config';
import type { KaitoNodeProvisioning } from './node-provisioning';
import { reconcileWorkspaceStatus } from './status';
import { KAITO_DISPLAY_NAME, validateKaito } from './validation';
import { KAITO_LLAMACPP_PORT, KAITO_WORKSPACE_LABEL } from './workspace-pods';
import { InferenceProvider, InferencePoolTarget } from '../../api/provider/inference-provider';
import { InferenceProviderConfig } from '../../api/provider/inference-provider-config';
import type { ProviderStatusReport, UpstreamKind, UpstreamObjectRef } from '../../api/provider/provider-status';
import type { ResolvedDeployment } from '../../api/resolved-deployment';
import { fromResolvedDeployment } from '../../api/resolved-model-deployment';
import type { FieldError } from '../../core/field-error';
import { toStatusReport } from '../../provider-kit/reconciled-status';

/**
 * Settings of the KAITO provider. KAITO node auto-provisioning: setting an instance type means
 * KAITO creates nodes of that SKU for such deployments; leaving both unset is the
 * bring-your-own-nodes setup AI Runway installs KAITO with.
 */
export interface KaitoProviderProps {
  /**
   * `resource.instanceType` of Workspaces whose deployment requests GPUs, e.g.
   * `Standard_NC24ads_A100_v4`.
   * @default - none: bring-your-own GPU nodes
   */
  readonly gpuInstanceType?: string;

  /**
   * `resource.instanceType` of Workspaces whose deployment requests no GPUs.
   * @default - none: bring-your-own CPU nodes
   */
  readonly cpuInstanceType?: string;
}

/**
 * KAITO (`kaito`): one `kaito.sh/v1beta1` Workspace — KAITO's vLLM preset on GPUs, or a llama.cpp
 * pod template on CPUs or GPUs.
 */
export class KaitoProvider extends InferenceProvider {
  private readonly provisioning: KaitoNodeProvisioning;

  public constructor(props: KaitoProviderProps = {}) {
    super({ config: InferenceProviderConfig._fromEntry(kaitoProviderConfig()), displayName: KAITO_DISPLAY_NAME });
    this.provisioning = { gpuInstanceType: props.gpuInstanceType, cpuInstanceType: props.cpuInstanceType };
  }

  public validate(deployment: ResolvedDeployment): FieldError[] {
    return validateKaito(fromResolvedDeployment(deployment));
  }

  public translate(scope: Construct, deployment: ResolvedDeployment): ApiObject[] {
    // Loaded on first use: the translator brings cdk8s-plus-34 and the generated bindings, which
    // the controller (validate and mapStatus only) never needs.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { translateKaito } = require('./translator') as typeof import('./translator');
    return translateKaito(scope, fromResolvedDeployment(deployment), this.provisioning);
  }

  /** KAITO labels every pod of a Workspace with its name; presets and templates serve on 5000. */
  public inferencePoolTarget(deployment: ResolvedDeployment): InferencePoolTarget | undefined {
    return { selector: { [KAITO_WORKSPACE_LABEL]: deployment.name }, targetPort: KAITO_LLAMACPP_PORT };
  }

  public emittedKinds(): UpstreamKind[] {
    return [{ apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', resource: 'workspaces' }];
  }

  public statusSource(deployment: ResolvedDeployment): UpstreamObjectRef | undefined {
    return { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: deployment.name };
  }

  public mapStatus(upstream: any): ProviderStatusReport {
    return toStatusReport(reconcileWorkspaceStatus(upstream));
  }
}
