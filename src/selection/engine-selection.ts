import type { ProviderConfigEntry } from '../api/provider/provider-config-entry';
import type { EngineCapability } from '../core/generated/inference-provider-config-spec';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import { ENGINE_PREFERENCE, EngineName, ModelDeploymentObject, resolvedServingMode, ServingModeName } from '../core/model-deployment-object';

/** `status.engine.selectedReason` when the spec names the engine. */
export const EXPLICIT_ENGINE_REASON = 'explicit engine selection';

/** Both selections fail with this text when no InferenceProviderConfig exists at all. */
export const NO_PROVIDERS_REGISTERED = 'no providers registered (InferenceProviderConfig resources not found)';

/** Why one engine capability of a ready provider did or did not make its engine available. */
export type EngineCapabilityOutcome =
  /** This provider is the first (in name order) to offer the engine for this deployment. */
  | 'available'
  /** Compatible, but a provider earlier in name order already offered the engine. */
  | 'already-available'
  /** The deployment has GPUs (or is disaggregated) and the engine has no `gpuSupport`. */
  | 'no-gpu-support'
  /** The deployment has no GPUs and the engine has no `cpuSupport`. */
  | 'no-cpu-support'
  /** The engine's `servingModes` do not list the deployment's mode. */
  | 'serving-mode-unsupported';

export interface EngineCapabilityTrace {
  readonly engine: string;
  readonly outcome: EngineCapabilityOutcome;
  /** One line for `explain`. */
  readonly detail: string;
}

/**
 * Why a provider as a whole was not looked at. `not-in-profile` (ours): a cluster profile is in
 * effect and does not list it, so the target cluster has no InferenceProviderConfig of that name.
 */
export type EngineProviderExclusion = 'not-in-profile' | 'not-ready' | 'explicit-selection-only' | 'no-capabilities';

export interface EngineProviderTrace {
  readonly provider: string;
  readonly excluded?: EngineProviderExclusion;
  /** Each engine capability in declaration order (empty when excluded). */
  readonly engines: readonly EngineCapabilityTrace[];
}

interface EngineSelectionFacts {
  /** `resources.gpu.count > 0`, or disaggregated serving (which always counts as GPU). */
  readonly hasGpu: boolean;
  readonly mode: ServingModeName;
  /** Every provider in name order with what happened to it; empty for an explicit engine. */
  readonly trace: readonly EngineProviderTrace[];
  /** Engine → the provider it is attributed to (first in name order); empty for an explicit engine. */
  readonly available: ReadonlyMap<string, string>;
}

export interface EngineSelected extends EngineSelectionFacts {
  readonly engine: EngineName;
  /** `explicit engine selection` or `auto-selected from provider <name> capabilities`. */
  readonly reason: string;
  readonly explicit: boolean;
  readonly error?: undefined;
}

export interface EngineSelectionFailed extends EngineSelectionFacts {
  readonly engine?: undefined;
  readonly reason?: undefined;
  readonly explicit?: undefined;
  /** AI Runway's selection error text. */
  readonly error: string;
}

export type EngineSelection = EngineSelected | EngineSelectionFailed;

/** Byte-wise string order (Go's `<` on strings), so results do not depend on the caller's locale. */
export function compareNames(a: string, b: string): number {
  return a === b ? 0 : Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Configs sorted by name: AI Runway iterates its informer cache in no defined order. */
export function sortedByName(configs: readonly ProviderConfigEntry[]): ProviderConfigEntry[] {
  return [...configs].sort((a, b) => compareNames(a.name, b.name));
}

/** `resources.gpu.count > 0` or serving mode literally `disaggregated`. */
export function deploymentHasGpu(spec: ModelDeploymentSpec): boolean {
  return (spec.resources?.gpu?.count ?? 0) > 0 || spec.serving?.mode === 'disaggregated';
}

/**
 * Why an engine capability cannot serve the deployment, or undefined when it can: GPU/CPU
 * support first, then the serving mode (AI Runway's filter order).
 */
export function capabilityMismatch(
  capability: EngineCapability,
  hasGpu: boolean,
  mode: ServingModeName,
): { outcome: 'no-gpu-support' | 'no-cpu-support' | 'serving-mode-unsupported'; detail: string } | undefined {
  if (hasGpu && capability.gpuSupport !== true) {
    return { outcome: 'no-gpu-support', detail: 'the deployment uses GPUs and the engine has no gpuSupport' };
  }
  if (!hasGpu && capability.cpuSupport !== true) {
    return { outcome: 'no-cpu-support', detail: 'the deployment has no GPUs and the engine has no cpuSupport' };
  }
  if (!(capability.servingModes ?? []).includes(mode)) {
    return { outcome: 'serving-mode-unsupported', detail: `servingModes [${(capability.servingModes ?? []).join(', ')}] do not include ${mode}` };
  }
  return undefined;
}

/**
 * AI Runway's engine auto-selection (`selectEngine`), at build time.
 *
 * An explicit `spec.engine.type` wins. Otherwise every ready provider's engine capabilities that
 * suit the deployment (GPU or CPU, serving mode) make their engine available, attributed to the
 * first provider by name that offers it, and the first available engine in the order
 * vllm > sglang > trtllm > llamacpp is chosen. `spec.provider.name` is not consulted.
 * Providers a cluster profile does not list count as absent from the cluster (only traced).
 *
 * The status-sticky step of the reconciler (an engine already in `status` is kept) has no
 * build-time counterpart: every synth selects afresh from the same inputs.
 */
export function selectEngine(md: ModelDeploymentObject, configs: readonly ProviderConfigEntry[]): EngineSelection {
  const spec = md.spec;
  const mode = resolvedServingMode(spec);
  const hasGpu = deploymentHasGpu(spec);
  const explicitEngine = spec.engine?.type;
  if (explicitEngine) {
    return { engine: explicitEngine, reason: EXPLICIT_ENGINE_REASON, explicit: true, hasGpu, mode, trace: [], available: new Map() };
  }

  const available = new Map<string, string>();
  // Providers the cluster profile lacks are not in the cluster at all: they are only traced.
  if (configs.every((c) => c.notInProfile)) {
    const absent = sortedByName(configs).map((c) => ({ provider: c.name, excluded: 'not-in-profile' as const, engines: [] }));
    return { error: NO_PROVIDERS_REGISTERED, hasGpu, mode, trace: absent, available };
  }
  const trace: EngineProviderTrace[] = [];

  const advertised = new Map<string, string[]>();
  for (const config of sortedByName(configs)) {
    if (config.notInProfile) {
      trace.push({ provider: config.name, excluded: 'not-in-profile', engines: [] });
      continue;
    }
    if (!config.ready) {
      trace.push({ provider: config.name, excluded: 'not-ready', engines: [] });
      continue;
    }
    if (config.explicitSelectionOnly && spec.provider?.name !== config.name) {
      trace.push({ provider: config.name, excluded: 'explicit-selection-only', engines: [] });
      continue;
    }
    const capabilities = config.spec.capabilities;
    if (!capabilities) {
      trace.push({ provider: config.name, excluded: 'no-capabilities', engines: [] });
      continue;
    }
    const engines = capabilities.engines ?? [];
    advertised.set(config.name, engines.map((e) => e.name));
    const engineTrace: EngineCapabilityTrace[] = [];
    for (const capability of engines) {
      const mismatch = capabilityMismatch(capability, hasGpu, mode);
      if (mismatch) {
        engineTrace.push({ engine: capability.name, ...mismatch });
      } else if (available.has(capability.name)) {
        engineTrace.push({ engine: capability.name, outcome: 'already-available', detail: `compatible; already offered by ${available.get(capability.name)}` });
      } else {
        available.set(capability.name, config.name);
        engineTrace.push({ engine: capability.name, outcome: 'available', detail: 'compatible' });
      }
    }
    trace.push({ provider: config.name, engines: engineTrace });
  }

  if (available.size === 0) {
    return {
      error: `no engines available from registered providers (hasGPU=${hasGpu}, servingMode=${mode}, advertised=${goMapString(advertised, (v) => `[${v.join(' ')}]`)})`,
      hasGpu,
      mode,
      trace,
      available,
    };
  }
  for (const engine of ENGINE_PREFERENCE) {
    const provider = available.get(engine);
    if (provider !== undefined) {
      return { engine, reason: `auto-selected from provider ${provider} capabilities`, explicit: false, hasGpu, mode, trace, available };
    }
  }
  // Only reachable with an engine name outside AI Runway's EngineType enum.
  return {
    error: `no engine in preference list matches available engines ${goMapString(available, (v) => v)} (enginePreference may be missing a newly added EngineType)`,
    hasGpu,
    mode,
    trace,
    available,
  };
}

/** A map as Go's `%v` prints it: `map[k1:v1 k2:v2]`, keys in byte order. */
function goMapString<V>(map: ReadonlyMap<string, V>, value: (v: V) => string): string {
  const keys = [...map.keys()].sort(compareNames);
  return `map[${keys.map((k) => `${k}:${value(map.get(k)!)}`).join(' ')}]`;
}
