import { stringify } from 'yaml';
import { kuberayServeConfig, SERVE_APPLICATION_NAME, SERVE_DEPLOYMENT_NAME, SERVE_IMPORT_PATH, SERVE_ROUTE_PREFIX } from '../../../src/providers/kuberay/serve-config';
import { Rng } from '../../support/rng';

/** What the yaml package writes for the Serve config (what kuberayServeConfig wrote before it was written by hand). */
function viaYaml(numReplicas: number, autoscalingConfig?: Record<string, number>): string {
  const replicas = autoscalingConfig ? { autoscaling_config: autoscalingConfig } : { num_replicas: numReplicas };
  return stringify({
    applications: [{
      name: SERVE_APPLICATION_NAME,
      route_prefix: SERVE_ROUTE_PREFIX,
      import_path: SERVE_IMPORT_PATH,
      deployments: [{ name: SERVE_DEPLOYMENT_NAME, ...replicas }],
    }],
  });
}

describe('kuberayServeConfig', () => {
  test('the text yaml writes, for fixed replicas and autoscaling, over many numbers', () => {
    const rng = new Rng(20261127);
    const numbers = [0, 1, 2, 7, 40, 1000, 2 ** 31 - 1, 2 ** 53, 1e21, 0.5, 2.5, 1e-7, -1, -0, NaN, Infinity, -Infinity];
    for (let i = 0; i < 500; i++) numbers.push(rng.int(0, 10_000), rng.int(0, 1000) / rng.pick([1, 3, 7, 100]));
    for (const n of numbers) {
      expect(kuberayServeConfig(n)).toBe(viaYaml(n));
      const autoscaling = { min_replicas: n, max_replicas: 10, target_ongoing_requests: n, ...(n > 5 && { downscale_delay_s: n }) };
      expect(kuberayServeConfig(1, autoscaling)).toBe(viaYaml(1, autoscaling));
    }
  });
});
