import type { ProviderConfigEntry } from '../api/provider/provider-config-entry';
import type { EngineCapability } from '../core/generated/inference-provider-config-spec';

/**
 * Whether an engine, serving mode and GPU count fit a provider's declared capabilities
 * (AI Runway `CheckProviderCompatibility`), shared by admission and the reconciler.
 */

export enum CompatibilityViolationKind {
  ENGINE_UNSUPPORTED = 'EngineUnsupported',
  SERVING_MODE_UNSUPPORTED = 'ServingModeUnsupported',
  GPU_REQUIRED = 'GPURequired',
}

export interface CompatibilityViolation {
  readonly kind: CompatibilityViolationKind;
  /** The spec field to blame: `spec.engine.type`, `spec.serving.mode` or `spec.resources.gpu.count`. */
  readonly path: string;
  /** The value found at `path`. */
  readonly value: string | number;
  readonly message: string;
}

/** The capability a provider declares for `engine`, if any. */
export function engineCapability(config: ProviderConfigEntry | undefined, engine: string): EngineCapability | undefined {
  return config?.spec.capabilities?.engines?.find((e) => e.name === engine);
}

/**
 * Checks an engine/mode/GPU combination against the provider named by the user, or — when no
 * provider is named and `allConfigs` is given and non-empty — asks that some config (ready or
 * not) runs `engine` on CPU before allowing a GPU-less aggregated deployment.
 *
 * A named provider whose config is missing or declares no capabilities is not checked at all.
 * Admission passes `allConfigs = undefined`, so the "no provider named" rule only applies in the
 * reconciler.
 *
 * `registered` (ours) only names alternatives: a violation of the named provider ends with the
 * other registered targets that do support the engine, mode or CPU serving, so the user learns
 * where the deployment could go (AI Runway's text is kept as the message's start).
 */
export function checkProviderCompatibility(
  providerName: string | undefined,
  namedConfig: ProviderConfigEntry | undefined,
  allConfigs: readonly ProviderConfigEntry[] | undefined,
  engine: string | undefined,
  mode: string,
  gpuCount: number,
  registered: readonly ProviderConfigEntry[] = [],
): CompatibilityViolation[] {
  const violations: CompatibilityViolation[] = [];
  if (!engine) return violations;

  if (providerName) {
    if (!namedConfig?.spec.capabilities) return violations;
    const capability = engineCapability(namedConfig, engine);
    if (!capability) {
      violations.push({
        kind: CompatibilityViolationKind.ENGINE_UNSUPPORTED,
        path: 'spec.engine.type',
        value: engine,
        message: `provider ${providerName} does not support engine ${engine}` +
          alternatives(registered, providerName, (c) => engineCapability(c, engine) !== undefined),
      });
      return violations;
    }
    if (!(capability.servingModes ?? []).includes(mode as never)) {
      violations.push({
        kind: CompatibilityViolationKind.SERVING_MODE_UNSUPPORTED,
        path: 'spec.serving.mode',
        value: mode,
        message: `provider ${providerName} does not support ${mode} mode for engine ${engine}` +
          alternatives(registered, providerName, (c) => (engineCapability(c, engine)?.servingModes ?? []).includes(mode as never)),
      });
    }
    if (mode === 'aggregated' && gpuCount === 0 && capability.cpuSupport !== true) {
      violations.push({
        kind: CompatibilityViolationKind.GPU_REQUIRED,
        path: 'spec.resources.gpu.count',
        value: gpuCount,
        message: `${engine} engine on provider ${providerName} requires GPU (set resources.gpu.count > 0)` +
          alternatives(registered, providerName, (c) => engineCapability(c, engine)?.cpuSupport === true, `run ${engine} on CPU`),
      });
    }
    return violations;
  }

  if (allConfigs && allConfigs.length > 0 && mode === 'aggregated' && gpuCount === 0) {
    // Only providers auto-selection may pick count: an explicit-selection-only one that runs the
    // engine on CPU is named in the message instead.
    const runsOnCpu = (config: ProviderConfigEntry) => engineCapability(config, engine)?.cpuSupport === true;
    const someCpu = allConfigs.some((config) => !config.explicitSelectionOnly && runsOnCpu(config));
    if (!someCpu) {
      const byName = allConfigs.filter((c) => c.explicitSelectionOnly && runsOnCpu(c)).map((c) => c.name).sort();
      violations.push({
        kind: CompatibilityViolationKind.GPU_REQUIRED,
        path: 'spec.resources.gpu.count',
        value: gpuCount,
        message: `${engine} engine requires GPU (set resources.gpu.count > 0)` +
          (byName.length > 0 ? `, or name a target that runs it on CPU in spec.provider.name: ${byName.join(', ')}` : ''),
      });
    }
  }
  return violations;
}

/** `; targets that support it: a, b` naming the other registered providers that pass `supports`; empty when none do. */
function alternatives(
  registered: readonly ProviderConfigEntry[],
  named: string,
  supports: (config: ProviderConfigEntry) => boolean,
  what = 'support it',
): string {
  const names = registered.filter((c) => c.name !== named && supports(c)).map((c) => c.name).sort();
  return names.length > 0 ? `; targets that ${what}: ${names.join(', ')}` : '';
}
