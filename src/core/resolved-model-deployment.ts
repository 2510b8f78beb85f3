import type { ModelDeploymentSpec } from './generated/model-deployment-spec';
import type { EngineName, ServingModeName } from './model-deployment-object';

/**
 * A ModelDeployment after defaulting, validation and selection: everything a provider needs to
 * translate it. `spec.engine.type` and `spec.provider.name` hold the resolved engine and provider.
 */
export interface ResolvedModelDeployment {
  readonly name: string;
  readonly namespace?: string;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly spec: ModelDeploymentSpec;
  readonly engine: EngineName;
  readonly mode: ServingModeName;
  readonly provider: string;
  /** `explicit engine selection` or `auto-selected from provider <p> capabilities`. */
  readonly engineReason: string;
  /** `explicit provider selection` or `matched capabilities: engine=<e>, gpu=<b>, mode=<m>`. */
  readonly providerReason: string;
}
