import { extensionErrors, scaleToZeroWarnings, unsupportedFeatureErrors } from './deployment-extensions';
import { applyDefaults } from '../admission/defaulting';
import { validateModelDeployment, validateResolvedEngine } from '../admission/validation';
import type { InferenceProvider, SimulatedBackend } from '../api/provider/inference-provider';
import type { DeploymentDescription } from '../api/resolved-deployment';
import { ResolvedModelDeployment, toResolvedDeployment } from '../api/resolved-model-deployment';
import { FieldError, forbidden, invalid } from '../core/field-error';
import { cloneJson } from '../core/json-clone';
import { ModelDeploymentObject, resolvedServingMode } from '../core/model-deployment-object';
import { didYouMean } from '../core/suggest';
import { DEVICES_ANNOTATION_PATH, hasDeviceRequests } from '../provider-kit/device-annotation';
import { selectEngine, EngineSelection } from '../selection/engine-selection';
import type { ProviderCatalog } from '../selection/provider-catalog';
import { selectProvider, ProviderSelection } from '../selection/provider-selection';

/**
 * The outcome of taking one ModelDeployment through AI Runway's admission and selection at build
 * time. `resolved` and `provider` are set only when there are no errors.
 */
export interface Resolution {
  readonly defaulted?: ModelDeploymentObject;
  readonly engineSelection?: EngineSelection;
  readonly providerSelection?: ProviderSelection;
  readonly resolved?: ResolvedModelDeployment;
  /** The selected provider, which accepted the deployment. */
  readonly provider?: InferenceProvider;
  readonly errors: FieldError[];
  readonly warnings: string[];
}

/**
 * Runs the stages AI Runway runs at admission and in its reconcilers, in their order, stopping
 * at the first stage that fails (later stages assume an admitted spec). Within a stage every
 * error is reported:
 *
 * 1. defaulting (mutating webhook), 2. validation (validating webhook), 3. engine selection,
 * 4. the reconciler's compatibility check with every registered provider, 5. provider
 * selection, 6. the provider's own checks (or: the provider has no translation); a provider that
 * accepts the deployment adds its warnings to admission's.
 *
 * Shared by the construct, the CLI and `explain`, so all three decide identically.
 */
export function resolveModelDeployment(
  input: ModelDeploymentObject,
  catalog: ProviderCatalog,
  routing: { readonly gatewayKnown?: boolean } = {},
): Resolution {
  const configs = catalog.entries;
  const defaulted = applyDefaults(input);
  const simulated = simulatedBackendOf(defaulted, catalog);
  const admission = validateModelDeployment(defaulted, configs, simulated);
  const warnings = admission.warnings;
  const admissionErrors = [...admission.errors, ...extensionErrors(defaulted)];
  if (admissionErrors.length > 0) return { defaulted, errors: admissionErrors, warnings };

  const engineSelection = selectEngine(defaulted, configs);
  if (engineSelection.engine === undefined) {
    return { defaulted, engineSelection, errors: [invalid('spec.engine.type', defaulted.spec.engine?.type, withPrefix('engine selection failed: ', engineSelection.error))], warnings };
  }
  const engine = engineSelection.engine;

  const compatibility = validateResolvedEngine(defaulted, engine, configs, simulated);
  if (compatibility.length > 0) return { defaulted, engineSelection, errors: compatibility, warnings };

  const providerSelection = selectProvider(defaulted, engine, configs);
  if (providerSelection.provider === undefined) {
    return {
      defaulted,
      engineSelection,
      providerSelection,
      errors: [invalid('spec.provider.name', defaulted.spec.provider?.name, withPrefix('provider selection failed: ', providerSelection.error))],
      warnings,
    };
  }
  const provider = providerSelection.provider;

  const spec = cloneJson(defaulted.spec);
  spec.engine = { ...spec.engine, type: engine };
  spec.provider = { ...spec.provider, name: provider };
  // Routing is decided at build time too: unset means "on when a Gateway is known" (AI Runway:
  // "on when the Inference Extension is installed"). The decision is written down so providers
  // (a graph with or without its own gateway services), the routing objects and the record all agree.
  if (spec.gateway?.enabled === undefined && routing.gatewayKnown !== undefined) {
    spec.gateway = { ...spec.gateway, enabled: routing.gatewayKnown };
  }
  const resolved: ResolvedModelDeployment = {
    name: defaulted.name,
    ...(defaulted.namespace !== undefined && { namespace: defaulted.namespace }),
    labels: { ...defaulted.labels },
    annotations: { ...defaulted.annotations },
    spec,
    engine,
    mode: resolvedServingMode(spec),
    provider,
    engineReason: engineSelection.reason,
    providerReason: providerSelection.reason,
  };

  const providerObject = catalog.provider(provider);
  if (!providerObject && !catalog.entries.some((e) => e.name === provider)) {
    // Named explicitly, but neither a config nor a provider has that name (a typo, usually).
    const known = catalog.entries.map((e) => e.name).sort();
    return {
      defaulted,
      engineSelection,
      providerSelection,
      resolved,
      errors: [invalid('spec.provider.name', provider,
        `InferenceProviderConfig ${JSON.stringify(provider)} not found; known providers: ${known.join(', ') || '(none)'}${didYouMean(provider, known)}`)],
      warnings,
    };
  }
  if (!providerObject) {
    return {
      defaulted,
      engineSelection,
      providerSelection,
      resolved,
      errors: [
        invalid(
          'spec.provider.name',
          provider,
          `provider "${provider}" (${providerSelection.reason}) is only an InferenceProviderConfig, with no InferenceProvider to translate it; ` +
            `add one (ProviderRegistry.addProvider), set spec.provider.name to another provider, or declare "${provider}" not ready ` +
            '(ProviderRegistry.setReady, or an InferenceProviderConfig document with status.ready: false)',
        ),
      ],
      warnings,
    };
  }
  const claimErrors = [...deviceClaimErrors(resolved, providerObject, catalog), ...unsupportedFeatureErrors(resolved, providerObject, catalog)];
  if (claimErrors.length > 0) return { defaulted, engineSelection, providerSelection, resolved, errors: claimErrors, warnings };
  const providerErrors = providerObject.validate(toResolvedDeployment(resolved));
  if (providerErrors.length > 0) return { defaulted, engineSelection, providerSelection, resolved, errors: providerErrors, warnings };
  const allWarnings = [
    ...warnings,
    ...scaleToZeroWarnings(resolved, providerObject, catalog),
    ...providerObject.warnings(toResolvedDeployment(resolved)),
  ];
  return { defaulted, engineSelection, providerSelection, resolved, provider: providerObject, errors: [], warnings: allWarnings };
}

/**
 * A deployment that claims DRA devices needs a provider whose pods carry the claims; the error
 * names the provider and the ones in the catalog that would.
 */
function deviceClaimErrors(md: ResolvedModelDeployment, provider: InferenceProvider, catalog: ProviderCatalog): FieldError[] {
  if (!hasDeviceRequests(md.annotations)) return [];
  const view = toResolvedDeployment(md);
  const takesDevices = (p: InferenceProvider) => p.supportsDeviceClaims(view) || p.schedulesDevicesItself(view);
  if (takesDevices(provider)) return [];
  const able = catalog.entries
    .map((e) => catalog.provider(e.name))
    .filter((p): p is InferenceProvider => p !== undefined && p.name !== provider.name && takesDevices(p))
    .map((p) => p.name);
  return [forbidden(
    DEVICES_ANNOTATION_PATH,
    `provider ${provider.displayName} (${md.providerReason}) cannot carry DRA device claims in its pods` +
      (able.length > 0 ? `; set spec.provider.name to one that can: ${able.join(', ')}` : '') +
      ', or request GPUs through spec.resources.gpu instead',
  )];
}

/** What admission asks the provider the deployment names: whether it runs on a simulated backend. */
function simulatedBackendOf(md: ModelDeploymentObject, catalog: ProviderCatalog): SimulatedBackend | undefined {
  const name = md.spec.provider?.name;
  const provider = name ? catalog.provider(name) : undefined;
  return provider?.simulatedBackend(describe(md));
}

function describe(md: ModelDeploymentObject): DeploymentDescription {
  return {
    name: md.name,
    ...(md.namespace !== undefined && { namespace: md.namespace }),
    labels: md.labels ?? {},
    annotations: md.annotations ?? {},
    spec: md.spec,
  };
}

/** AI Runway's own texts sometimes already carry the prefix; never say it twice. */
function withPrefix(prefix: string, message: string): string {
  return message.startsWith(prefix) ? message : prefix + message;
}
