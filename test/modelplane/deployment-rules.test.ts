import { formatFieldError } from '../../src/core/field-error';
import { gangModelCacheErrors, modelReplicaErrors, workerNodesErrors } from '../../src/modelplane/deployment-rules';

// Each rule is called with the typed construct's prop path and with the AI Runway path the
// provider passes; the message must name the path it was given.
const messages = (errors: ReturnType<typeof modelReplicaErrors>) => errors.map(formatFieldError);

describe('modelReplicaErrors', () => {
  test('accepts 1 to 10', () => {
    expect([1, 10].flatMap((n) => modelReplicaErrors(n, 'replicas'))).toEqual([]);
  });

  test.each([[0], [11], [2.5]])('fails for %d at the prop or the provider setting', (n) => {
    const why = 'must be a whole number from 1 to 10: ModelReplicas, each a whole serving instance';
    expect(messages(modelReplicaErrors(n, 'replicas'))).toEqual([`replicas: Invalid value: ${n}: ${why}`]);
    expect(messages(modelReplicaErrors(n, 'ModelplaneProvider.modelReplicas'))).toEqual([`ModelplaneProvider.modelReplicas: Invalid value: ${n}: ${why}`]);
  });
});

describe('workerNodesErrors', () => {
  test('accepts 1 to 63 Worker pods', () => {
    expect([1, 63].flatMap((n) => workerNodesErrors(n, 'engines[0].workers.nodes'))).toEqual([]);
  });

  test('fails beyond 63 at the typed prop, with the nodes as the value', () => {
    expect(messages(workerNodesErrors(64, 'engines[0].workers.nodes'))).toEqual([
      'engines[0].workers.nodes: Invalid value: 64: must be a whole number from 1 to 63: the Worker pods, one per node',
    ]);
  });

  test('fails beyond 63 at the field the nodes are derived from, with its value, cause and remedy', () => {
    const derived = { value: 128, because: 'spreads a replica over 128 pods of 1 GPUs', remedy: 'request at most 64 GPUs' };
    expect(messages(workerNodesErrors(127, 'spec.resources.gpu.count', derived))).toEqual([
      'spec.resources.gpu.count: Invalid value: 128: spreads a replica over 128 pods of 1 GPUs, ' +
        'but a modelplane engine has one Leader and at most 63 Worker pods: request at most 64 GPUs',
    ]);
  });
});

describe('gangModelCacheErrors', () => {
  test('asks nothing when no engine spans nodes, or a cache is referenced', () => {
    expect(gangModelCacheErrors(undefined, false, 'modelCache', 'reference one')).toEqual([]);
    expect(gangModelCacheErrors('engines[0].workers', true, 'modelCache', 'reference one')).toEqual([]);
  });

  test('fails for a gang without a cache, naming what spans nodes and the remedy in the caller\'s terms', () => {
    expect(messages(gangModelCacheErrors('engines[1].workers', false, 'modelCache', 'reference one with modelCache'))).toEqual([
      'modelCache: Required value: modelplane requires a ModelCache for an engine that spans nodes (engines[1].workers): ' +
        'every pod of its Leader/Worker gang mounts it and loads the same weights from it; reference one with modelCache',
    ]);
    expect(messages(gangModelCacheErrors('the multi-node annotation', false, 'spec.model.storage.volumes', 'add a modelCache volume with a size'))).toEqual([
      'spec.model.storage.volumes: Required value: modelplane requires a ModelCache for an engine that spans nodes (the multi-node annotation): ' +
        'every pod of its Leader/Worker gang mounts it and loads the same weights from it; add a modelCache volume with a size',
    ]);
  });
});
