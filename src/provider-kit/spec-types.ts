import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';

/*
 * Names for the nested parts of the generated `ModelDeploymentSpec` that the providers read.
 * Derived by indexed access so they follow the generated bindings (the CRD) without depending on
 * the generator's choice of interface names.
 */

/** One entry of `spec.model.storage.volumes`. */
export type SpecStorageVolume = NonNullable<NonNullable<ModelDeploymentSpec['model']['storage']>['volumes']>[number];
/** One entry of `spec.env` (a core/v1 EnvVar in JSON shape). */
export type SpecEnvVar = NonNullable<ModelDeploymentSpec['env']>[number];
/** `spec.env[].valueFrom` (a core/v1 EnvVarSource in JSON shape). */
export type SpecEnvVarSource = NonNullable<SpecEnvVar['valueFrom']>;
/** One entry of `spec.tolerations` (a core/v1 Toleration in JSON shape). */
export type SpecToleration = NonNullable<ModelDeploymentSpec['tolerations']>[number];
/** `spec.scaling.prefill` / `spec.scaling.decode`. */
export type SpecComponentScaling = NonNullable<NonNullable<ModelDeploymentSpec['scaling']>['decode']>;
/** `spec.resources`. */
export type SpecResources = NonNullable<ModelDeploymentSpec['resources']>;
