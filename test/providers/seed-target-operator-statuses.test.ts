/**
 * The operator statuses the envtest lifecycle of the other seed systems' targets writes
 * (test/support/operator-statuses.ts): each is valid under its CRD's status schema, and each
 * provider maps it to the phase the lifecycle expects.
 */
import { Chart, Testing } from 'cdk8s';
import { DeploymentPhase, InferenceProvider, ModelDeployment } from '../../src';
import { shippedProviders } from '../../src/pipeline/shipped-providers';
import { flexInferModelStatuses, modelplaneStatuses, modelServingStatuses, UpstreamStatuses } from '../support/operator-statuses';
import { formatViolation, validateManifests } from '../support/schema-validator';

const providers = Object.fromEntries(shippedProviders().map((p) => [p.name, p])) as Record<string, InferenceProvider>;

/** The status source a provider emits for a one-GPU vLLM deployment named `qwen`. */
function sourceOf(provider: string): any {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'ml' });
  new ModelDeployment(chart, 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: provider }, resources: { gpu: { count: 1 } } });
  const ref = providers[provider].statusSource({ name: 'qwen' } as any)!;
  return Testing.synth(chart).find((m) => m.apiVersion === ref.apiVersion && m.kind === ref.kind && m.metadata.name === ref.name);
}

const CASES: Array<[string, UpstreamStatuses, Record<keyof UpstreamStatuses, DeploymentPhase>]> = [
  ['kthena', modelServingStatuses(1), { deploying: DeploymentPhase.DEPLOYING, running: DeploymentPhase.RUNNING, failed: DeploymentPhase.DEPLOYING }],
  ['flexinfer', flexInferModelStatuses('qwen', 'ml'), { deploying: DeploymentPhase.DEPLOYING, running: DeploymentPhase.RUNNING, failed: DeploymentPhase.FAILED }],
  ['modelplane', modelplaneStatuses(1), { deploying: DeploymentPhase.DEPLOYING, running: DeploymentPhase.RUNNING, failed: DeploymentPhase.FAILED }],
];

describe.each(CASES)('%s operator statuses', (provider, statuses, phases) => {
  test.each(['deploying', 'running', 'failed'] as const)('%s: valid under the status schema, and mapped to the expected phase', (stage) => {
    const source = { ...sourceOf(provider), status: statuses[stage] };
    expect(validateManifests([source]).map(formatViolation)).toEqual([]);
    expect(providers[provider].mapStatus(source).phase).toBe(phases[stage]);
  });
});
