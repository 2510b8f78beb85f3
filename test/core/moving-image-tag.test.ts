import { Chart, Testing } from 'cdk8s';
import { EngineType, ModelDeployment } from '../../src';

/** A direct-vLLM deployment with routing off, so only the image warnings can appear. */
function manifest(spec: Record<string, any> = {}, annotations?: Record<string, string>): any {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'qwen', namespace: 'team-a', ...(annotations && { annotations }) },
    spec: { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'vllm' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } }, ...spec },
  };
}

function warningsOf(doc: any): string[] {
  const app = Testing.app();
  const md = ModelDeployment.fromManifest(new Chart(app, 'models'), 'qwen', doc);
  expect(md.node.validate()).toEqual([]);
  return md.warnings;
}

describe('moving image tags chosen by the author', () => {
  test('spec.engine.image with tag latest: the warning names the field, the image and the pinned default of that repository', () => {
    const warnings = warningsOf(manifest({ engine: { type: 'vllm', image: 'vllm/vllm-openai:latest' } }));
    expect(warnings).toEqual([
      'spec.engine.image "vllm/vllm-openai:latest" is a moving image (tag "latest" follows the latest builds): a new node or a rescheduled pod ' +
        'may pull another build than the one you tested; pin it, e.g. vllm/vllm-openai:v0.33.0 (the version cdk8s-inference uses by default), ' +
        'or a digest (vllm/vllm-openai@sha256:...); or annotate the deployment inference.cdk8s.io/allow-moving-image-tag: "true" if that is intended',
    ]);
  });

  test('spec.image without a tag, from a repository we have no default for: pin a version or a digest', () => {
    const [warning] = warningsOf(manifest({ image: 'ghcr.io/team/vllm' }));
    expect(warning).toContain('spec.image "ghcr.io/team/vllm" is a moving image (no tag, so "latest" is pulled)');
    expect(warning).toContain('pin a version tag or a digest (ghcr.io/team/vllm:<version> or ghcr.io/team/vllm@sha256:...)');
  });

  test('an image in the provider overrides is named by its path', () => {
    const overrides = { spec: { template: { spec: { containers: [{ name: 'vllm', image: 'vllm/vllm-openai:nightly' }] } } } };
    const [warning] = warningsOf(manifest({ provider: { name: 'vllm', overrides } }));
    expect(warning).toMatch(/^spec\.provider\.overrides\.spec\.template\.spec\.containers\[0\]\.image "vllm\/vllm-openai:nightly" is a moving image/);
  });

  test('silent for a version tag, a digest, or a deployment annotated as allowing moving tags', () => {
    expect(warningsOf(manifest({ engine: { type: 'vllm', image: 'vllm/vllm-openai:v0.11.0' } }))).toEqual([]);
    expect(warningsOf(manifest({ engine: { type: 'vllm', image: 'vllm/vllm-openai:latest@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' } }))).toEqual([]);
    expect(warningsOf(manifest({ engine: { type: 'vllm', image: 'vllm/vllm-openai:latest' } }, { 'inference.cdk8s.io/allow-moving-image-tag': 'true' }))).toEqual([]);
  });

  test('the providers\' own default images are not the author\'s choice and give no warning', () => {
    // The direct vLLM default is `cu130-nightly` (AI Runway's), which the author did not write.
    expect(warningsOf(manifest())).toEqual([]);
  });

  test('the typed construct warns on engine.image the same way', () => {
    const app = Testing.app();
    const md = new ModelDeployment(new Chart(app, 'models', { namespace: 'team-a' }), 'qwen', {
      model: { id: 'Qwen/Qwen3-0.6B' },
      provider: { name: 'vllm' },
      engine: { engineType: EngineType.VLLM, image: 'vllm/vllm-openai:dev' },
      resources: { gpu: { count: 1 } },
    });
    expect(md.warnings).toEqual([expect.stringMatching(/^spec\.engine\.image "vllm\/vllm-openai:dev" is a moving image \(tag "dev"/)]);
  });
});
