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
 *
 * Written line by line, not with a YAML library: its shape is fixed, its strings are the
 * constants above (plain scalars) and its keys snake-case names, so only the numbers vary. It is
 * the text the yaml package writes for the same object (test/providers/kuberay/serve-config.test.ts
 * compares them), without loading yaml for every KubeRay synth (a twentieth of a fleet's time).
 */
export function kuberayServeConfig(numReplicas: number, autoscalingConfig?: Record<string, number>): string {
  // Ray Serve takes a fixed `num_replicas` or an `autoscaling_config`, not both.
  const replicas = autoscalingConfig
    ? ['        autoscaling_config:', ...Object.entries(autoscalingConfig).map(([key, value]) => `          ${key}: ${yamlNumber(value)}`)]
    : [`        num_replicas: ${yamlNumber(numReplicas)}`];
  return [
    'applications:',
    `  - name: ${SERVE_APPLICATION_NAME}`,
    `    route_prefix: ${SERVE_ROUTE_PREFIX}`,
    `    import_path: ${SERVE_IMPORT_PATH}`,
    '    deployments:',
    `      - name: ${SERVE_DEPLOYMENT_NAME}`,
    ...replicas,
    '',
  ].join('\n');
}

/** A number as YAML writes it (the specs are validated finite; the rest is spelled as yaml would). */
function yamlNumber(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (!Number.isFinite(n)) return n > 0 ? '.inf' : '-.inf';
  return Object.is(n, -0) ? '-0' : String(n);
}
