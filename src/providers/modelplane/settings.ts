import { defaultImageRef } from '../../core/version-matrix';
import type { ModelplaneClusterToleration } from '../../modelplane/cluster-toleration';

/** Default image of vLLM engines: the OpenAI-compatible server, which ships NIXL for prefill/decode. */
export const MODELPLANE_VLLM_IMAGE = defaultImageRef('modelplane', 'vllm');
/** Default image of SGLang engines. */
export const MODELPLANE_SGLANG_IMAGE = defaultImageRef('modelplane', 'sglang');

/**
 * The provider's settings with defaults applied: what every deployment on this provider gets
 * besides its own spec (none of them has an AI Runway field).
 */
export interface ModelplaneSettings {
  /** `spec.replicas` of every modelplane ModelDeployment. */
  readonly modelReplicas: number;
  /** InferenceCluster labels (deployment and ModelCache). */
  readonly clusterSelector: Readonly<Record<string, string>>;
  readonly clusterTolerations: readonly ModelplaneClusterToleration[];
  readonly imagePullSecrets: readonly string[];
  readonly vllmImage: string;
  readonly sglangImage: string;
}
