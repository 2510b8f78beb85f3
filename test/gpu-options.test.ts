/**
 * GPU types and the GPU taint toleration through the construct (`GpuOptions.resourceName`,
 * `GpuOptions.tolerateTaint`): admission, selection and every shipped provider's translation.
 * The per-provider details are tested with each provider; here the props reach the output.
 */
import { Chart, Testing } from 'cdk8s';
import { ModelDeployment, ModelDeploymentProps, ServingMode } from '../src';
import { expectValidManifests } from './support/schema-validator';

const ANNOTATION = 'inference.cdk8s.io/tolerate-gpu-taint';
const MODEL = { id: 'Qwen/Qwen3-0.6B' };

function taint(key: string) {
  return { key, operator: 'Exists', effect: 'NoSchedule' };
}

interface Built {
  readonly md: ModelDeployment;
  readonly manifests: any[];
  readonly errors: string[];
}

function build(props: ModelDeploymentProps): Built {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'ml' });
  const md = new ModelDeployment(chart, 'qwen', props);
  const errors = chart.node.findAll().flatMap((c) => c.node.validate());
  // App.synth() refuses an invalid deployment; there is nothing to read then.
  const manifests = errors.length === 0 ? Testing.synth(chart) : [];
  if (errors.length === 0) expectValidManifests(manifests);
  return { md, manifests, errors };
}

function recordOf(manifests: any[]): any {
  return manifests.find((m) => m.kind === 'ModelDeployment');
}

/** Every `tolerations` list anywhere in the manifests (pod specs, Dynamo's extraPodSpec). */
function tolerationLists(node: any): any[][] {
  if (Array.isArray(node)) return node.flatMap(tolerationLists);
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => (k === 'tolerations' && Array.isArray(v) ? [v, ...tolerationLists(v)] : tolerationLists(v)));
}

describe('GpuOptions', () => {
  test.each(['vllm', 'llmd', 'kuberay', 'dynamo'])('%s requests resourceName and tolerates its taint with tolerateTaint', (provider) => {
    const { manifests, errors } = build({
      model: MODEL,
      provider: { name: provider },
      engine: { image: 'example.com/vllm-rocm:0.1.0' },
      resources: { gpu: { count: 1, resourceName: 'amd.com/gpu', tolerateTaint: true } },
    });
    expect(errors).toEqual([]);
    expect(recordOf(manifests).metadata.annotations[ANNOTATION]).toBe('true');
    const objects = manifests.filter((m) => m.kind !== 'ModelDeployment');
    expect(JSON.stringify(objects)).toContain('amd.com/gpu');
    expect(JSON.stringify(objects)).not.toContain('nvidia.com/gpu');
    expect(tolerationLists(objects)).toContainEqual([taint('amd.com/gpu')]);
  });

  test('a MIG profile per disaggregated component, the toleration set on both', () => {
    const mig = { count: 1, resourceName: 'nvidia.com/mig-1g.10gb', tolerateTaint: true };
    const { manifests, errors } = build({
      model: MODEL,
      provider: { name: 'llmd' },
      servingMode: ServingMode.DISAGGREGATED,
      scaling: { prefill: { gpu: mig }, decode: { gpu: { ...mig, resourceName: 'nvidia.com/mig-3g.40gb' } } },
    });
    expect(errors).toEqual([]);
    const pods: Record<string, any> = Object.fromEntries(manifests.filter((m) => m.kind === 'Deployment').map((d) => [d.metadata.name, d.spec.template.spec]));
    expect(pods['qwen-prefill'].containers[0].resources.limits).toEqual({ 'nvidia.com/mig-1g.10gb': '1' });
    expect(pods['qwen-decode'].containers[0].resources.limits).toEqual({ 'nvidia.com/mig-3g.40gb': '1' });
    for (const pod of Object.values(pods)) expect(pod.tolerations).toEqual([taint('nvidia.com/gpu')]);
  });

  test('tolerateTaint: false is written as "false" and adds no toleration', () => {
    const { manifests, errors } = build({ model: MODEL, provider: { name: 'vllm' }, resources: { gpu: { count: 1, tolerateTaint: false } } });
    expect(errors).toEqual([]);
    expect(recordOf(manifests).metadata.annotations[ANNOTATION]).toBe('false');
    expect(tolerationLists(manifests)).toEqual([]);
  });

  test('without tolerateTaint no annotation is written', () => {
    const { manifests } = build({ model: MODEL, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } });
    expect(recordOf(manifests).metadata.annotations[ANNOTATION]).toBeUndefined();
  });

  test('the annotation written in metadata works like the prop', () => {
    const { manifests, errors } = build({
      metadata: { annotations: { [ANNOTATION]: 'true' } },
      model: MODEL,
      provider: { name: 'vllm' },
      resources: { gpu: { count: 1, tolerateTaint: true } },
    });
    expect(errors).toEqual([]);
    expect(manifests.find((m) => m.kind === 'Deployment').spec.template.spec.tolerations).toEqual([taint('nvidia.com/gpu')]);
  });

  test('fails when prefill and decode disagree on tolerateTaint', () => {
    const { md, errors } = build({
      model: MODEL,
      provider: { name: 'llmd' },
      servingMode: ServingMode.DISAGGREGATED,
      scaling: { prefill: { gpu: { count: 1, tolerateTaint: true } }, decode: { gpu: { count: 1, tolerateTaint: false } } },
    });
    expect(errors).toEqual([
      'scaling.decode.gpu.tolerateTaint: Invalid value: false: disagrees with scaling.prefill.gpu.tolerateTaint (true): ' +
        'the GPU taint toleration (annotation inference.cdk8s.io/tolerate-gpu-taint) applies to every GPU pod of the deployment, so give it one value',
    ]);
    expect(md.apiObjects).toEqual([]);
  });

  test('fails when metadata.annotations says otherwise than tolerateTaint', () => {
    const { errors } = build({
      metadata: { annotations: { [ANNOTATION]: 'false' } },
      model: MODEL,
      resources: { gpu: { count: 1, tolerateTaint: true } },
    });
    expect(errors).toEqual([
      'metadata.annotations["inference.cdk8s.io/tolerate-gpu-taint"]: Invalid value: "false": disagrees with resources.gpu.tolerateTaint (true); set only one of them',
    ]);
  });

  test('fails when resourceName is no extended resource name', () => {
    const { md, errors } = build({ model: MODEL, provider: { name: 'vllm' }, resources: { gpu: { count: 1, resourceName: 'gpu' } } });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^spec\.resources\.gpu\.type: Invalid value: "gpu": must be an extended resource name: .*; it has no domain prefix/);
    expect(md.apiObjects).toEqual([]);
  });

  test('fails on KAITO with any GPU type but nvidia.com/gpu, naming KAITO', () => {
    const { errors } = build({ model: MODEL, provider: { name: 'kaito' }, resources: { gpu: { count: 1, resourceName: 'amd.com/gpu' } } });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^spec\.resources\.gpu\.type: Invalid value: "amd\.com\/gpu": KAITO cannot request this GPU type/);
  });

  test('fromManifest: fails when the annotation is neither "true" nor "false"', () => {
    const chart = new Chart(Testing.app(), 'test');
    ModelDeployment.fromManifest(chart, 'qwen', {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: { name: 'qwen', annotations: { [ANNOTATION]: 'yes' } },
      spec: { model: MODEL, resources: { gpu: { count: 1 } } },
    });
    expect(chart.node.findAll().flatMap((c) => c.node.validate())).toEqual([
      'metadata.annotations["inference.cdk8s.io/tolerate-gpu-taint"]: Unsupported value: "yes": supported values: "true", "false"',
    ]);
  });
});
