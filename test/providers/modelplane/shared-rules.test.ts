import { Size, Testing } from 'cdk8s';
import { modelplaneHarness } from './fixtures';
import { DeviceSelector } from '../../../src/api/devices/devices';
import { MULTI_NODE_ANNOTATION } from '../../../src/api/multi-node/multi-node-annotation';
import { ModelplaneCacheSource, ModelplaneDeployment, ModelplaneDeploymentProps, ModelplaneModelCache } from '../../../src/modelplane';
import { ModelplaneProvider } from '../../../src/providers/modelplane';

/*
 * One rule of modelplane, two faces: the typed constructs blame their prop, the provider the AI
 * Runway field the value came from, and both say the same thing because src/modelplane says it once.
 */

const { errorsOf } = modelplaneHarness();

function constructErrors(build: (chart: ReturnType<typeof Testing.chart>) => void): string[] {
  const chart = Testing.chart();
  build(chart);
  return chart.node.findAll().flatMap((c) => c.node.validate());
}

const engine = {
  name: 'qwen',
  container: { image: 'vllm/vllm-openai:v0.11.0' },
  devices: [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', selectors: [DeviceSelector.driver('gpu.nvidia.com')] }],
};
const deploymentErrors = (props: ModelplaneDeploymentProps) => constructErrors((c) => new ModelplaneDeployment(c, 'md', props));

describe('modelplane rules shared by the typed constructs and the provider', () => {
  test('ModelReplicas: at replicas, and at ModelplaneProvider.modelReplicas', () => {
    const why = 'must be a whole number from 1 to 10: ModelReplicas, each a whole serving instance';
    expect(deploymentErrors({ replicas: 11, engines: [engine] })).toEqual([`replicas: Invalid value: 11: ${why}`]);
    expect(() => new ModelplaneProvider({ modelReplicas: 11 })).toThrow(`ModelplaneProvider.modelReplicas: Invalid value: 11: ${why}`);
  });

  test('ModelCache size: at size, and at the modelCache volume\'s size', () => {
    const why = 'a modelplane ModelCache holds 1 to 100000 GiB (the size is rounded up to whole GiB)';
    expect(constructErrors((c) => new ModelplaneModelCache(c, 'cache', { source: ModelplaneCacheSource.huggingFace('q/q'), size: Size.gibibytes(100001) })))
      .toEqual([`size: Invalid value: "100001Gi": ${why}`]);
    expect(errorsOf({ spec: { model: { storage: { volumes: [{ name: 'cache', purpose: 'modelCache', size: '100001Gi' }] } } } }))
      .toEqual([`spec.model.storage.volumes[0].size: Invalid value: "100001Gi": ${why}`]);
  });

  test('a gang needs a ModelCache: at modelCache, and at spec.model.storage.volumes', () => {
    const why = 'every pod of its Leader/Worker gang mounts it and loads the same weights from it';
    expect(deploymentErrors({ engines: [{ ...engine, workers: { nodes: 1 } }] })).toEqual([
      `modelCache: Required value: modelplane requires a ModelCache for an engine that spans nodes (engines[0].workers): ${why}; reference one with modelCache`,
    ]);
    expect(errorsOf({ annotations: { [MULTI_NODE_ANNOTATION]: 'gpusPerNode: 1' }, spec: { resources: { gpu: { count: 2, type: 'nvidia.com/gpu' } } } })).toEqual([
      'spec.model.storage.volumes: Required value: modelplane requires a ModelCache for an engine that spans nodes ' +
        `(metadata.annotations["inference.cdk8s.io/multi-node"]): ${why}; add a modelCache volume with a size`,
    ]);
  });

  test('env sources: at the container\'s env, and at spec.env, where the provider adds the targets that have the source', () => {
    const why = "modelplane's engine container takes values from secretKeyRef, configMapKeyRef, fieldRef only";
    const valueFrom = { resourceFieldRef: { resource: 'limits.memory' } };
    expect(deploymentErrors({ engines: [{ ...engine, container: { ...engine.container, env: [{ name: 'MEM', valueFrom }] } }] })).toEqual([
      `engines[0].container.env[0].valueFrom.resourceFieldRef: Invalid value: {"resource":"limits.memory"}: ${why}`,
    ]);
    expect(errorsOf({ spec: { env: [{ name: 'MEM', valueFrom }] } })).toEqual([
      'spec.env[0].valueFrom.resourceFieldRef: Invalid value: {"resource":"limits.memory"}: ' +
        `target modelplane does not support environment values from this source: ${why}; targets that have it: dynamo, kuberay, llmd, vllm`,
    ]);
  });

  test('at most 63 Worker pods: at workers.nodes, and at the gpu.count they are derived from', () => {
    const cache = ModelplaneModelCache.fromName('weights');
    expect(deploymentErrors({ modelCache: cache, engines: [{ ...engine, workers: { nodes: 64 } }] })).toEqual([
      'engines[0].workers.nodes: Invalid value: 64: must be a whole number from 1 to 63: the Worker pods, one per node',
    ]);
    expect(errorsOf({
      annotations: { [MULTI_NODE_ANNOTATION]: 'gpusPerNode: 1' },
      spec: { resources: { gpu: { count: 65, type: 'nvidia.com/gpu' } }, model: { storage: { volumes: [{ name: 'cache', purpose: 'modelCache', size: '10Gi' }] } } },
    })).toEqual([expect.stringMatching(/^spec\.resources\.gpu\.count: Invalid value: 65: spreads a replica over 65 pods .* at most 63 Worker pods: request at most 64 GPUs/)]);
  });
});
