import type { ModelDeploymentSpec } from './generated/model-deployment-spec';

/** Engine names of AI Runway's `EngineType`, in auto-selection preference order. */
export const ENGINE_PREFERENCE = ['vllm', 'sglang', 'trtllm', 'llamacpp'] as const;
export type EngineName = (typeof ENGINE_PREFERENCE)[number];

export const SERVING_MODES = ['aggregated', 'disaggregated'] as const;
export type ServingModeName = (typeof SERVING_MODES)[number];

/**
 * A ModelDeployment as the translation core sees it: the metadata that matters for validation
 * and naming, and the `spec` in its JSON (AI Runway YAML) shape. Props of the construct and
 * YAML manifests both become this before defaulting.
 */
export interface ModelDeploymentObject {
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
  readonly spec: ModelDeploymentSpec;
}

/** `spec.serving.mode`, or aggregated when unset (AI Runway `ResolvedServingMode`). */
export function resolvedServingMode(spec: ModelDeploymentSpec): ServingModeName {
  return spec.serving?.mode === 'disaggregated' ? 'disaggregated' : 'aggregated';
}

/** `spec.engine.image`, else the legacy `spec.image` (AI Runway `ImageOverride`). */
export function imageOverride(spec: ModelDeploymentSpec): string | undefined {
  return spec.engine?.image || spec.image || undefined;
}

/** The claim a volume mounts: `claimName`, else `<deployment>-<volume>`. */
export function resolvedClaimName(deploymentName: string, volume: { name: string; claimName?: string }): string {
  return volume.claimName || `${deploymentName}-${volume.name}`;
}
