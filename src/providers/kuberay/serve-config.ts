import { yamlPackage } from '../../core/yaml-package';

/** Name of the single Ray Serve application. */
export const SERVE_APPLICATION_NAME = 'llm';
/** HTTP route prefix of the application. */
export const SERVE_ROUTE_PREFIX = '/';
/**
 * Import path of the application: module `vllm_serve`, attribute `deployment`. The module reads
 * `MODEL_ID` and `VLLM_ENGINE_ARGS`; it has to be importable in the Ray image.
 */
export const SERVE_IMPORT_PATH = 'vllm_serve:deployment';
/** Name of the Serve deployment inside the application. */
export const SERVE_DEPLOYMENT_NAME = 'VLLMDeployment';

/**
 * The number of Serve replicas: `scaling.replicas` when positive, else 1, in either serving
 * mode (AI Runway's rule; disaggregated deployments usually leave it unset, hence 1).
 */
export function serveReplicas(configuredReplicas: number | undefined): number {
  return configuredReplicas !== undefined && configuredReplicas > 0 ? configuredReplicas : 1;
}

/**
 * `spec.serveConfigV2`: a YAML document with one application (`llm` on `/`, import path
 * `vllm_serve:deployment`) holding one deployment (`VLLMDeployment`) with `numReplicas` replicas,
 * or, when the deployment is autoscaled, Ray Serve's `autoscaling_config` instead.
 * Rendered with a YAML library rather than a text template, so it is always well-formed.
 */
export function kuberayServeConfig(numReplicas: number, autoscalingConfig?: Record<string, number>): string {
  // Ray Serve takes a fixed `num_replicas` or an `autoscaling_config`, not both.
  const replicas = autoscalingConfig ? { autoscaling_config: autoscalingConfig } : { num_replicas: numReplicas };
  return yamlPackage().stringify({
    applications: [
      {
        name: SERVE_APPLICATION_NAME,
        route_prefix: SERVE_ROUTE_PREFIX,
        import_path: SERVE_IMPORT_PATH,
        deployments: [{ name: SERVE_DEPLOYMENT_NAME, ...replicas }],
      },
    ],
  });
}
