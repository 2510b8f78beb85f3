/**
 * Serving features AI Runway's ModelDeployment has no field for — autoscaling, multi-node
 * replicas, LoRA adapters — travel as one annotation of ours each on the deployment, so the
 * construct and a YAML user write the same object and the record carries the setting to the
 * controller. This module is the one place the pipeline asks about them:
 *
 * 1. admission: each annotation's own problems against the defaulted spec, with field paths;
 * 2. after provider selection: a feature the provider lacks is a Forbidden error naming the
 *    registered providers that have it (`InferenceProvider.supportsFeature`).
 */
import { engineCapability } from '../admission/compatibility';
import { DeploymentFeature } from '../api/provider/deployment-feature';
import type { InferenceProvider } from '../api/provider/inference-provider';
import { ResolvedModelDeployment, toResolvedDeployment } from '../api/resolved-model-deployment';
import { AUTOSCALING_EXTENSION } from '../autoscaling/autoscaling-extension';
import { FieldError, forbidden } from '../core/field-error';
import type { ModelDeploymentObject } from '../core/model-deployment-object';
import { LORA_EXTENSION } from '../lora/lora-extension';
import { MULTI_NODE_EXTENSION } from '../multinode/extension';
import type { DeploymentExtension } from '../provider-kit/deployment-extension';
import type { ProviderCatalog } from '../selection/provider-catalog';

/** Every extension, in the order their errors are reported. */
export const DEPLOYMENT_EXTENSIONS: readonly DeploymentExtension[] = [
  AUTOSCALING_EXTENSION,
  MULTI_NODE_EXTENSION,
  LORA_EXTENSION,
];

/** Admission: the problems of every extension annotation the deployment carries. */
export function extensionErrors(md: ModelDeploymentObject): FieldError[] {
  const errors: FieldError[] = [];
  for (const extension of DEPLOYMENT_EXTENSIONS) {
    if (md.annotations?.[extension.annotation] === undefined) continue;
    errors.push(...extension.errors(md));
  }
  return errors;
}

/**
 * After selection: every extension the deployment asks for must be one its provider carries. The
 * error names the providers of the catalog that would carry it for this deployment.
 */
export function unsupportedFeatureErrors(md: ResolvedModelDeployment, provider: InferenceProvider, catalog: ProviderCatalog): FieldError[] {
  const errors: FieldError[] = [];
  for (const extension of DEPLOYMENT_EXTENSIONS) {
    if (md.annotations[extension.annotation] === undefined) continue;
    if (supports(provider, extension.feature, md)) {
      errors.push(...extension.providerErrors?.(md, provider) ?? []);
      continue;
    }
    const able = providersWith(extension.feature, md, catalog).filter((name) => name !== provider.name);
    errors.push(forbidden(
      extension.path,
      `provider ${provider.displayName} (${md.providerReason}) does not support ${extension.feature}` +
        (able.length > 0 ? `; targets that support it: ${able.join(', ')}` : '; no registered provider supports it'),
    ));
  }
  return errors;
}

/**
 * Names of the catalog's providers that carry `feature` for this deployment, sorted: those that
 * run its engine (by their declared capabilities) and answer `supportsFeature` for it.
 */
export function providersWith(feature: DeploymentFeature, md: ResolvedModelDeployment, catalog: ProviderCatalog): string[] {
  return catalog.entries
    .filter((e) => e.spec.capabilities === undefined || engineCapability(e, md.engine) !== undefined)
    .map((e) => catalog.provider(e.name))
    .filter((p): p is InferenceProvider => p !== undefined && supports(p, feature, { ...md, provider: p.name }))
    .map((p) => p.name)
    .sort();
}

function supports(provider: InferenceProvider, feature: DeploymentFeature, md: ResolvedModelDeployment): boolean {
  return provider.supportsFeature(feature, toResolvedDeployment(md));
}

/**
 * `spec.scaling.replicas: 0` on a provider that cannot run zero: it runs one, as AI Runway does,
 * and the warning says where zero would be honoured.
 */
export function scaleToZeroWarnings(md: ResolvedModelDeployment, provider: InferenceProvider, catalog: ProviderCatalog): string[] {
  if (md.mode !== 'aggregated' || md.spec.scaling?.replicas !== 0) return [];
  if (supports(provider, DeploymentFeature.SCALE_TO_ZERO, md)) return [];
  const able = providersWith(DeploymentFeature.SCALE_TO_ZERO, md, catalog);
  return [`scaling.replicas is 0: provider ${provider.name} cannot run zero replicas and runs one (as AI Runway does)` +
    (able.length > 0 ? `; targets that run zero: ${able.join(', ')}` : '')];
}
