import type { EngineType } from './engine';
import type { ResolvedDeployment } from './resolved-deployment';
import type { ServingMode } from './serving';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import type { EngineName, ServingModeName } from '../core/model-deployment-object';

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

/** The public view of a resolved deployment, as providers receive it. */
export function toResolvedDeployment(md: ResolvedModelDeployment): ResolvedDeployment {
  return {
    name: md.name,
    ...(md.namespace !== undefined && { namespace: md.namespace }),
    labels: md.labels,
    annotations: md.annotations,
    spec: md.spec,
    engineType: md.engine as string as EngineType,
    servingMode: md.mode as string as ServingMode,
    providerName: md.provider,
    engineSelectedReason: md.engineReason,
    providerSelectedReason: md.providerReason,
  };
}

/**
 * The typed view of a deployment a provider received. Shipped providers translate this view; a
 * deployment from another language arrives as plain JSON, so nothing is assumed beyond its shape.
 */
export function fromResolvedDeployment(d: ResolvedDeployment): ResolvedModelDeployment {
  return {
    name: d.name,
    ...(d.namespace !== undefined && d.namespace !== null && { namespace: d.namespace }),
    labels: d.labels ?? {},
    annotations: d.annotations ?? {},
    spec: d.spec as ModelDeploymentSpec,
    engine: d.engineType as string as EngineName,
    mode: d.servingMode as string as ServingModeName,
    provider: d.providerName,
    engineReason: d.engineSelectedReason,
    providerReason: d.providerSelectedReason,
  };
}
