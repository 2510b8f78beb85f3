import { Size, Testing } from 'cdk8s';
import { ModelplaneCacheSource, ModelplaneModelCache } from '../../src/modelplane';
import { expectValidManifests } from '../support/schema-validator';

function cacheOf(props: ConstructorParameters<typeof ModelplaneModelCache>[2]): { cache: ModelplaneModelCache; errors: string[]; manifests: any[] } {
  const chart = Testing.chart();
  const cache = new ModelplaneModelCache(chart, 'cache', props);
  const errors = chart.node.findAll().flatMap((c) => c.node.validate());
  return { cache, errors, manifests: errors.length === 0 ? Testing.synth(chart) : [] };
}

describe('ModelplaneModelCache', () => {
  test('renders a Hugging Face cache with revision, auth Secret and cluster selector', () => {
    const { cache, errors, manifests } = cacheOf({
      metadata: { name: 'llama', namespace: 'ml' },
      source: ModelplaneCacheSource.huggingFace('meta-llama/Llama-3.1-8B-Instruct', { revision: 'main', authSecretName: 'hf', authSecretKey: 'token' }),
      size: Size.gibibytes(40),
      clusterSelector: { region: 'eu' },
    });
    expect(errors).toEqual([]);
    expectValidManifests(manifests);
    expect(cache.name).toBe('llama');
    expect(manifests).toEqual([{
      apiVersion: 'modelplane.ai/v1alpha1',
      kind: 'ModelCache',
      metadata: { name: 'llama', namespace: 'ml' },
      spec: {
        source: 'HuggingFace',
        huggingFace: { repo: 'meta-llama/Llama-3.1-8B-Instruct', revision: 'main', authSecret: { name: 'hf', key: 'token' }, sizeGiB: 40 },
        clusterSelector: { matchLabels: { region: 'eu' } },
      },
    }]);
  });

  test('leaves the auth key to modelplane\'s default and rounds the size up to whole GiB', () => {
    const { manifests } = cacheOf({ source: ModelplaneCacheSource.huggingFace('Qwen/Qwen3-8B', { authSecretName: 'hf' }), size: Size.mebibytes(1536) });
    expectValidManifests(manifests);
    expect(manifests[0].spec.huggingFace).toEqual({ repo: 'Qwen/Qwen3-8B', authSecret: { name: 'hf' }, sizeGiB: 2 });
    expect(ModelplaneCacheSource.huggingFace('Qwen/Qwen3-8B').sourceKind).toBe('HuggingFace');
  });

  test('fromName references a cache defined elsewhere', () => {
    expect(ModelplaneModelCache.fromName('shared').name).toBe('shared');
  });

  test('fails for an empty repository, an empty auth Secret, a size outside 1 to 100000 GiB and an invalid name', () => {
    expect(cacheOf({ metadata: { name: 'Bad' }, source: ModelplaneCacheSource.huggingFace('', { authSecretName: '' }), size: Size.tebibytes(100) }).errors).toEqual([
      'source.repo: Required value: name the Hugging Face repository, e.g. "Qwen/Qwen3-8B"',
      'source.authSecretName: Invalid value: "": must name a Secret, or be left out',
      'size: Invalid value: "100Ti": a modelplane ModelCache holds 1 to 100000 GiB (the size is rounded up to whole GiB)',
      expect.stringMatching(/^metadata\.name: Invalid value: "Bad": /),
    ]);
    expect(cacheOf({ source: ModelplaneCacheSource.huggingFace('q/q'), size: Size.gibibytes(0) }).errors).toEqual([
      'size: Invalid value: "0Gi": a modelplane ModelCache holds 1 to 100000 GiB (the size is rounded up to whole GiB)',
    ]);
  });
});
