import { Chart, Testing } from 'cdk8s';
import {
  EngineType,
  ModelDeployment,
  ModelDeploymentDisruptionBudget,
  ModelDeploymentDisruptionBudgetProps,
  UnhealthyPodEvictionPolicy,
} from '../../src';
import { expectValidManifests } from '../support/schema-validator';

type BudgetOptions = Omit<ModelDeploymentDisruptionBudgetProps, 'deployment'>;

function build(options: BudgetOptions = {}, provider = 'vllm') {
  const app = Testing.app();
  const chart = new Chart(app, 'models', { namespace: 'team-a' });
  const deployment = new ModelDeployment(chart, 'qwen', {
    model: { id: 'Qwen/Qwen3-0.6B' },
    provider: { name: provider },
    engine: { engineType: EngineType.VLLM },
    resources: { gpu: { count: 1 } },
    scaling: { replicas: 3 },
  });
  const budget = new ModelDeploymentDisruptionBudget(chart, 'Budget', { deployment, ...options });
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  const manifests = errors.length > 0 ? [] : Testing.synth(chart);
  return { errors, manifests, budget, pdb: manifests.find((m) => m.kind === 'PodDisruptionBudget') };
}

describe('ModelDeploymentDisruptionBudget', () => {
  test('one pod at a time by default, unhealthy pods always evictable, in the deployment\'s namespace; schema-valid', () => {
    const { errors, manifests, pdb, budget } = build();
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    expect(budget.apiObject.kind).toBe('PodDisruptionBudget');
    expect(pdb).toEqual({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'qwen', namespace: 'team-a', labels: { 'airunway.ai/managed-by': 'airunway', 'airunway.ai/model-deployment': 'qwen' } },
      spec: {
        selector: { matchLabels: { 'airunway.ai/model-deployment': 'qwen' } },
        maxUnavailable: 1,
        unhealthyPodEvictionPolicy: 'AlwaysAllow',
      },
    });
  });

  test.each(['vllm', 'llmd', 'kthena', 'kuberay'])('the %s model-server pods carry the label it selects', (provider) => {
    const { manifests, pdb } = build({}, provider);
    const selector = pdb.spec.selector.matchLabels;
    const templates = manifests.flatMap((m) => {
      if (m.kind === 'Deployment') return [m.spec.template];
      if (m.kind === 'ModelServing') return m.spec.template.roles.map((r: any) => r.entryTemplate);
      if (m.kind === 'RayService') return [m.spec.rayClusterConfig.headGroupSpec.template, ...m.spec.rayClusterConfig.workerGroupSpecs.map((w: any) => w.template)];
      return [];
    });
    expect(templates.length).toBeGreaterThan(0);
    for (const t of templates) expect(t.metadata.labels).toMatchObject(selector);
  });

  test('minAvailable instead of maxUnavailable, and the IfHealthyBudget policy', () => {
    const { pdb } = build({ minAvailable: 2, unhealthyPodEvictionPolicy: UnhealthyPodEvictionPolicy.IF_HEALTHY_BUDGET });
    expect(pdb.spec).toEqual({
      selector: { matchLabels: { 'airunway.ai/model-deployment': 'qwen' } },
      minAvailable: 2,
      unhealthyPodEvictionPolicy: 'IfHealthyBudget',
    });
  });

  test('both counts, or a count that is not a whole number of pods, are errors naming the prop and value', () => {
    expect(build({ maxUnavailable: 1, minAvailable: 2 }).errors).toEqual([
      'minAvailable: Invalid value: 2: set only one of maxUnavailable (1) and minAvailable',
    ]);
    expect(build({ maxUnavailable: 1.5 }).errors).toEqual(['maxUnavailable: Invalid value: 1.5: must be a whole number of pods, 0 or more']);
    expect(build({ minAvailable: -1 }).errors).toEqual(['minAvailable: Invalid value: -1: must be a whole number of pods, 0 or more']);
  });
});
