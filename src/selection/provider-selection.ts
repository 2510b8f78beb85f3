import { evaluateRule, RuleEvaluation } from './cel-rules';
import { CelSpecConversionError, celSpecMap, CelSpecMap } from './cel-spec-map';
import { capabilityMismatch, compareNames, deploymentHasGpu, NO_PROVIDERS_REGISTERED, sortedByName } from './engine-selection';
import { notInProfileMessage, ProviderConfigEntry } from '../api/provider/provider-config-entry';
import { ModelDeploymentObject, resolvedServingMode, ServingModeName } from '../core/model-deployment-object';
import { didYouMean } from '../core/suggest';

/** `status.provider.selectedReason` when the spec names the provider. */
export const EXPLICIT_PROVIDER_REASON = 'explicit provider selection';

/** Why a provider is not a candidate. */
export type ProviderExclusion =
  /** Ours: a cluster profile is in effect and does not list it (not installed in the cluster). */
  | 'not-in-profile'
  | 'not-ready'
  /** It is selected only when the deployment names it. */
  | 'explicit-selection-only'
  | 'no-capabilities'
  /** Its capabilities list no entry for the resolved engine. */
  | 'no-engine-capability'
  | 'no-gpu-support'
  | 'no-cpu-support'
  | 'serving-mode-unsupported';

/** One selection rule of a candidate and how it evaluated. */
export interface RuleTrace extends RuleEvaluation {
  readonly condition: string;
  readonly priority: number;
}

export interface ProviderTrace {
  readonly provider: string;
  /** Set when the provider is not a candidate. */
  readonly excluded?: ProviderExclusion;
  /** One line for `explain`. */
  readonly detail: string;
  /** Every rule of a candidate, in declaration order (empty when excluded). */
  readonly rules: readonly RuleTrace[];
  /** A candidate's priority: the highest priority among its matching rules, at least 0. */
  readonly priority?: number;
}

export interface ProviderCandidate {
  readonly name: string;
  readonly priority: number;
}

interface ProviderSelectionFacts {
  readonly engine: string;
  readonly hasGpu: boolean;
  readonly mode: ServingModeName;
  /** Every provider in name order with what happened to it; empty for an explicit provider. */
  readonly trace: readonly ProviderTrace[];
  /** Candidates, best first (priority descending, then name). */
  readonly candidates: readonly ProviderCandidate[];
}

export interface ProviderSelected extends ProviderSelectionFacts {
  readonly provider: string;
  /** `explicit provider selection` or `matched capabilities: engine=<e>, gpu=<bool>, mode=<m>`. */
  readonly reason: string;
  readonly explicit: boolean;
  readonly error?: undefined;
}

export interface ProviderSelectionFailed extends ProviderSelectionFacts {
  readonly provider?: undefined;
  readonly reason?: undefined;
  readonly explicit?: undefined;
  /** AI Runway's selection error text. */
  readonly error: string;
}

export type ProviderSelection = ProviderSelected | ProviderSelectionFailed;

/**
 * AI Runway's provider auto-selection (`selectProvider` / `runSelectionAlgorithm`), at build time.
 *
 * An explicit `spec.provider.name` is taken as is (readiness and existence are not checked here;
 * validation does that), unless a cluster profile is in effect and does not list it: then the
 * cluster has no such provider, and selection fails saying which ones it has. Otherwise every
 * ready provider the profile (if any) lists whose capability for `engine` suits the
 * deployment (GPU or CPU, serving mode) is a candidate with priority = the highest priority of
 * its selection rules that evaluate to `true` on the CEL spec map, or 0. Every rule of every
 * candidate is evaluated. The highest priority wins; ties go to the byte-wise smallest name.
 *
 * @param engine the resolved engine (explicit or auto-selected)
 */
export function selectProvider(md: ModelDeploymentObject, engine: string, configs: readonly ProviderConfigEntry[]): ProviderSelection {
  const spec = md.spec;
  const mode = resolvedServingMode(spec);
  const hasGpu = deploymentHasGpu(spec);
  const facts = { engine, hasGpu, mode };

  const explicitProvider = spec.provider?.name;
  const profile = configs.find((c) => c.profile)?.profile;
  if (explicitProvider && profile && !profile.providers.includes(explicitProvider)) {
    const error = notInProfileMessage(explicitProvider, profile) + didYouMean(explicitProvider, profile.providers);
    return { error, ...facts, trace: [], candidates: [] };
  }
  if (explicitProvider) {
    return { provider: explicitProvider, reason: EXPLICIT_PROVIDER_REASON, explicit: true, ...facts, trace: [], candidates: [] };
  }
  const sorted = sortedByName(configs);
  // Providers the cluster profile lacks are not in the cluster at all: they are only traced.
  const absent: ProviderTrace[] = sorted
    .filter((c) => c.notInProfile)
    .map((c) => ({ provider: c.name, excluded: 'not-in-profile' as const, detail: `not in the cluster profile ${c.profile?.source}`, rules: [] }));
  if (absent.length === sorted.length) return { error: NO_PROVIDERS_REGISTERED, ...facts, trace: absent, candidates: [] };

  const notReady: ProviderTrace[] = sorted
    .filter((c) => !c.ready && !c.notInProfile)
    .map((c) => ({ provider: c.name, excluded: 'not-ready' as const, detail: c.profile ? `not ready in the cluster profile ${c.profile.source}` : 'not ready', rules: [] }));
  const skipped = sortedTrace([...absent, ...notReady]);
  if (notReady.length + absent.length === sorted.length) return { error: 'no healthy providers available', ...facts, trace: skipped, candidates: [] };

  let celSpec: CelSpecMap;
  try {
    celSpec = celSpecMap(spec, engine);
  } catch (e) {
    if (!(e instanceof CelSpecConversionError)) throw e;
    return {
      error: `provider selection failed: failed to convert spec for CEL evaluation: ${e.message}`,
      ...facts,
      trace: skipped,
      candidates: [],
    };
  }

  const trace: ProviderTrace[] = [];
  const candidates: ProviderCandidate[] = [];
  for (const config of sorted) {
    if (config.notInProfile || !config.ready) {
      trace.push(skipped.find((t) => t.provider === config.name)!);
      continue;
    }
    if (config.explicitSelectionOnly) {
      trace.push({ provider: config.name, excluded: 'explicit-selection-only', detail: 'selected only when spec.provider.name names it', rules: [] });
      continue;
    }
    const exclusion = excludedBecause(config, engine, hasGpu, mode);
    if (exclusion) {
      trace.push({ provider: config.name, ...exclusion, rules: [] });
      continue;
    }
    let priority = 0;
    const rules: RuleTrace[] = [];
    for (const rule of config.spec.selectionRules ?? []) {
      const rulePriority = rule.priority ?? 0;
      const evaluation = evaluateRule(rule.condition, celSpec);
      rules.push({ condition: rule.condition, priority: rulePriority, ...evaluation });
      if (evaluation.matched && rulePriority > priority) priority = rulePriority;
    }
    const matched = rules.filter((r) => r.matched).length;
    trace.push({
      provider: config.name,
      detail: rules.length === 0 ? 'candidate without selection rules' : `candidate; ${matched} of ${rules.length} rules matched`,
      rules,
      priority,
    });
    candidates.push({ name: config.name, priority });
  }

  candidates.sort((a, b) => b.priority - a.priority || compareNames(a.name, b.name));
  if (candidates.length === 0) return { error: 'no compatible provider found for this configuration', ...facts, trace, candidates };
  return {
    provider: candidates[0].name,
    reason: `matched capabilities: engine=${engine}, gpu=${hasGpu}, mode=${mode}`,
    explicit: false,
    ...facts,
    trace,
    candidates,
  };
}

function excludedBecause(
  config: ProviderConfigEntry,
  engine: string,
  hasGpu: boolean,
  mode: ServingModeName,
): { excluded: ProviderExclusion; detail: string } | undefined {
  const capabilities = config.spec.capabilities;
  if (!capabilities) return { excluded: 'no-capabilities', detail: 'declares no capabilities' };
  const capability = (capabilities.engines ?? []).find((e) => e.name === engine);
  if (!capability) return { excluded: 'no-engine-capability', detail: `declares no capability for engine ${engine}` };
  const mismatch = capabilityMismatch(capability, hasGpu, mode);
  if (mismatch) return { excluded: mismatch.outcome, detail: `${engine}: ${mismatch.detail}` };
  return undefined;
}

/** Traces in provider name order (byte order, as selection iterates). */
function sortedTrace(traces: ProviderTrace[]): ProviderTrace[] {
  return traces.sort((a, b) => compareNames(a.provider, b.provider));
}
