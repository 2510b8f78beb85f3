/**
 * The spec of a modelplane ModelDeployment in the XRD's shape, from parts already checked: the
 * one place that decides how replicas, placement, the cache reference, serving mode and engines
 * are written. The typed `ModelplaneDeployment` and the AI Runway provider both build their spec
 * here, for the reason given in ./engine-spec: each holds checked parts, not the other's props.
 */
import { ModelplaneClusterToleration, clusterTolerationsJson } from './cluster-toleration';
import { ModelplaneServingMode } from './serving';
import * as modelplane from '../imports/modelplane.ai';

/** What a ModelDeployment spec is made of; each optional part is left out when absent or empty, as noted. */
export interface DeploymentSpecParts {
  readonly replicas: number;
  /** Labels of the composed ModelReplicas and ModelEndpoints; left out when empty. */
  readonly replicaLabels?: Readonly<Record<string, string>>;
  /** InferenceCluster labels; written when given, even empty (matching every cluster). */
  readonly clusterSelector?: Readonly<Record<string, string>>;
  readonly modelCacheName?: string;
  readonly servingMode?: ModelplaneServingMode;
  /** Left out when empty. */
  readonly tolerations?: readonly ModelplaneClusterToleration[];
  /** From `engineSpec`. */
  readonly engines: modelplane.ModelDeploymentSpecTemplateSpecEngines[];
}

/** The ModelDeployment spec. */
export function modelDeploymentSpec(parts: DeploymentSpecParts): modelplane.ModelDeploymentSpec {
  const replicaLabels = parts.replicaLabels ?? {};
  const tolerations = parts.tolerations ?? [];
  return {
    replicas: parts.replicas,
    template: {
      ...(Object.keys(replicaLabels).length > 0 && { metadata: { labels: { ...replicaLabels } } }),
      spec: {
        ...(parts.clusterSelector !== undefined && { clusterSelector: { matchLabels: { ...parts.clusterSelector } } }),
        ...(parts.modelCacheName !== undefined && { modelCacheRef: { name: parts.modelCacheName } }),
        ...(parts.servingMode !== undefined && {
          serving: { mode: parts.servingMode as string as modelplane.ModelDeploymentSpecTemplateSpecServingMode },
        }),
        ...(tolerations.length > 0 && {
          tolerations: clusterTolerationsJson(tolerations) as unknown as modelplane.ModelDeploymentSpecTemplateSpecTolerations[],
        }),
        engines: parts.engines,
      },
    },
  };
}
