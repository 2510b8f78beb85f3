/**
 * Multi-node replicas through both faces: the construct's `multiNode` prop (written to the
 * annotation) and `cdk8s-inference synth` on YAML carrying the annotation; admission errors with
 * their field paths, and the Forbidden error of a provider that does not carry the feature.
 */
import { Chart, Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { EngineType, ModelDeployment, ProviderRegistry } from '../../src';
import { MULTI_NODE_ANNOTATION } from '../../src/api/multi-node/multi-node-annotation';
import { run, tempFolderPerTest } from '../support/cli-run';
import { expectValidManifests } from '../support/schema-validator';

const PATH = 'metadata.annotations["inference.cdk8s.io/multi-node"]';

function chart(): Chart {
  const app = Testing.app();
  new ProviderRegistry(app, 'Providers');
  return new Chart(app, 'test', { namespace: 'ml' });
}

function validationErrors(scope: Chart): string[] {
  return scope.node.root.node.findAll().flatMap((c) => c.node.validate());
}

describe('ModelDeployment multiNode', () => {
  test('writes the annotation and synthesizes a LeaderWorkerSet on Direct vLLM', () => {
    const c = chart();
    new ModelDeployment(c, 'llama', {
      model: { id: 'meta-llama/Llama-3.1-70B-Instruct' },
      provider: { name: 'vllm' },
      resources: { gpu: { count: 16 } },
      multiNode: { gpusPerNode: 8 },
    });
    expect(validationErrors(c)).toEqual([]);
    const manifests = Testing.synth(c);
    expectValidManifests(manifests);
    expect(manifests.map((m) => `${m.kind}/${m.metadata.name}`)).toEqual(['LeaderWorkerSet/llama', 'Service/llama', 'ModelDeployment/llama']);
    const record = manifests.find((m) => m.kind === 'ModelDeployment');
    expect(record.metadata.annotations[MULTI_NODE_ANNOTATION]).toBe('gpusPerNode: 8\n');
  });

  test('fails when the GPUs do not fill whole nodes, with the field path', () => {
    const c = chart();
    new ModelDeployment(c, 'llama', {
      model: { id: 'meta-llama/Llama-3.1-70B-Instruct' },
      provider: { name: 'vllm' },
      resources: { gpu: { count: 12 } },
      multiNode: { gpusPerNode: 8 },
    });
    expect(validationErrors(c)).toEqual([
      expect.stringMatching(/^spec\.resources\.gpu\.count: Invalid value: 12: a multi-node replica takes whole nodes of 8 GPUs .*set it to 16/),
    ]);
  });

  test('fails when the annotation is also written by hand', () => {
    const c = chart();
    new ModelDeployment(c, 'llama', {
      metadata: { annotations: { [MULTI_NODE_ANNOTATION]: 'gpusPerNode: 4' } },
      model: { id: 'meta-llama/Llama-3.1-70B-Instruct' },
      resources: { gpu: { count: 16 } },
      multiNode: { gpusPerNode: 8 },
    });
    expect(validationErrors(c)).toEqual([`${PATH}: Forbidden: is set in metadata.annotations and by multiNode; set only one of them`]);
  });

  test('fails when gpusPerNode is out of range, at the annotation path', () => {
    const c = chart();
    new ModelDeployment(c, 'llama', { model: { id: 'm/m' }, resources: { gpu: { count: 16 } }, multiNode: { gpusPerNode: 0 } });
    expect(validationErrors(c)).toEqual([`${PATH}.gpusPerNode: Invalid value: 0: must be an integer from 1 to 64 (the GPUs each node gives one pod)`]);
  });

  test('fails on a provider without multi-node replicas, naming the ones that have them', () => {
    const c = chart();
    new ModelDeployment(c, 'llama', {
      model: { id: 'meta-llama/Llama-3.1-70B-Instruct' },
      provider: { name: 'kaito' },
      resources: { gpu: { count: 16 } },
      multiNode: { gpusPerNode: 8 },
    });
    const errors = validationErrors(c);
    expect(errors).toEqual([expect.stringMatching(new RegExp(`^${PATH.replace(/[.[\]"/]/g, '\\$&')}: Forbidden: provider KAITO .* does not support multi-node; targets that support it: dynamo, .*kuberay, .*llmd, .*vllm$`))]);
  });

  test('names Kthena and modelplane among the providers that have vLLM multi-node replicas', () => {
    const c = chart();
    new ModelDeployment(c, 'llama', {
      model: { id: 'meta-llama/Llama-3.1-70B-Instruct' },
      provider: { name: 'kaito' },
      resources: { gpu: { count: 16 } },
      multiNode: { gpusPerNode: 8 },
    });
    const [error] = validationErrors(c);
    const targets = error.split('targets that support it: ')[1].split(', ');
    // Other providers join the list over time: assert each one rather than the whole list.
    for (const name of ['kthena', 'llmd', 'modelplane', 'vllm']) expect(targets).toContain(name);
  });

  test('renders worker pods on Kthena: the role\'s entry pod and one worker pod per further node', () => {
    const c = chart();
    new ModelDeployment(c, 'llama', {
      model: { id: 'meta-llama/Llama-3.1-70B-Instruct' },
      provider: { name: 'kthena' },
      resources: { gpu: { count: 16 } },
      multiNode: { gpusPerNode: 8 },
    });
    expect(validationErrors(c)).toEqual([]);
    const manifests = Testing.synth(c);
    expectValidManifests(manifests);
    const role = manifests.find((m) => m.kind === 'ModelServing').spec.template.roles[0];
    expect(role.workerReplicas).toBe(1);
    expect(role.workerTemplate.spec.containers[0].command[3]).toBe('multi-node-worker');
  });

  test('fails with SGLang on Kthena: the feature is refused for that engine, and Kthena is not offered for it', () => {
    const c = chart();
    new ModelDeployment(c, 'llama', {
      model: { id: 'meta-llama/Llama-3.1-70B-Instruct' },
      provider: { name: 'kthena' },
      engine: { engineType: EngineType.SGLANG },
      resources: { gpu: { count: 16 } },
      multiNode: { gpusPerNode: 8 },
    });
    const errors = validationErrors(c);
    expect(errors).toEqual([expect.stringMatching(/^metadata\.annotations\["inference\.cdk8s\.io\/multi-node"\]: Forbidden: provider Kthena .* does not support multi-node; targets that support it: /)]);
    expect(errors[0]).not.toMatch(/kthena|modelplane/);
  });
});

const temp = tempFolderPerTest('cdk8s-inference-cli-multinode-');

function manifest(gpus: number, annotation = 'gpusPerNode: 8'): string {
  return `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata:
  name: llama
  namespace: ml
  annotations:
    ${MULTI_NODE_ANNOTATION}: "${annotation}"
spec:
  model: {id: meta-llama/Llama-3.1-70B-Instruct}
  provider: {name: llmd}
  resources: {gpu: {count: ${gpus}}}
`;
}

describe('cdk8s-inference synth with the multi-node annotation', () => {
  test('a LeaderWorkerSet on stdout, schema-valid', async () => {
    const r = await run('synth', '-f', temp.file('md.yaml', manifest(16)));
    expect(r.stderr).toEqual([]);
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS());
    expectValidManifests(docs);
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual(['LeaderWorkerSet/llama', 'Service/llama', 'ModelDeployment/llama']);
    expect(docs[0].spec.leaderWorkerTemplate.size).toBe(2);
  });

  test('modelplane from AI Runway YAML: a Leader and a Worker member, each requesting gpusPerNode GPUs', async () => {
    const yaml = manifest(16)
      .replace('provider: {name: llmd}', 'provider: {name: modelplane}')
      .replace('model: {id: meta-llama/Llama-3.1-70B-Instruct}', 'model: {id: meta-llama/Llama-3.1-70B-Instruct, storage: {volumes: [{name: cache, purpose: modelCache, size: 200Gi}]}}');
    const r = await run('synth', '-f', temp.file('modelplane.yaml', yaml));
    expect(r.stderr).toEqual([]);
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS());
    expectValidManifests(docs);
    const xr = docs.find((d) => d.apiVersion === 'modelplane.ai/v1alpha1' && d.kind === 'ModelDeployment');
    const members = xr.spec.template.spec.engines[0].members;
    expect(members.map((m: any) => [m.role, m.nodeSelector.devices[0].count, m.worker?.nodes])).toEqual([['Leader', 8, undefined], ['Worker', 8, 1]]);
  });

  test('exit 1 with the field path when the GPUs do not fill whole nodes', async () => {
    const input = temp.file('bad.yaml', manifest(12));
    const r = await run('synth', '-f', input);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr[0]).toMatch(/ModelDeployment ml\/llama: spec\.resources\.gpu\.count: Invalid value: 12: a multi-node replica takes whole nodes of 8 GPUs/);
  });

  test('exit 1 with the annotation path for an unknown key', async () => {
    const r = await run('synth', '-f', temp.file('bad.yaml', manifest(16, '{gpusPerNode: 8, nodes: 2}')));
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toContain(`${PATH}.nodes: Invalid value: 2: unknown key; known keys: gpusPerNode`);
  });
});
