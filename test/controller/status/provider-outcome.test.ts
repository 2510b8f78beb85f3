import { catalogWith, CustomHooks, CustomProvider, customDeployment, report, SOURCE, sourceObject } from './custom-provider';
import { recordOf, translated, World } from './support';
import { RecordingLookup } from '../../../src/controller/status/object-ref';
import { desiredReplicasFromSpec, providerOutcome } from '../../../src/controller/status/provider-outcome';
import { readRecord, ValidRecord } from '../../../src/controller/status/record-deployment';
import { defaultProviderCatalog } from '../../../src/pipeline/shipped-providers';
import type { ProviderCatalog } from '../../../src/selection/provider-catalog';
import { dynamoDeployment } from '../../providers/dynamo/fixtures';
import { disaggregatedLlmdDeployment } from '../../providers/llmd/fixtures';
import { vllmDeployment } from '../../providers/vllm/fixtures';

function valid(md = vllmDeployment(), catalog: ProviderCatalog = defaultProviderCatalog()): ValidRecord {
  const read = readRecord(recordOf(md), catalog);
  if (read.errors) throw new Error(read.errors.join('\n'));
  return read;
}

function custom(hooks: CustomHooks, spec: Record<string, unknown> = {}): ValidRecord {
  return valid(customDeployment(spec), catalogWith(new CustomProvider(hooks)));
}

function outcome(record: ValidRecord, world = new World()): { result: ReturnType<typeof providerOutcome>; lookup: RecordingLookup } {
  const lookup = new RecordingLookup(world.lookup);
  return { result: providerOutcome(record, lookup), lookup };
}

/** `status.provider.requestRef` (and workloadRef) of the vLLM fixture's Deployment, with the uid the API server gave it. */
const DEPLOYMENT_REF = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'qwen', namespace: 'ml', uid: 'uid-qwen' };

describe('providerOutcome', () => {
  test('the status source not found: Pending, waiting for it, desired replicas from the spec', () => {
    const { result, lookup } = outcome(valid(vllmDeployment({ spec: { scaling: { replicas: 3 } } })));
    expect(result).toEqual({
      phase: 'Pending',
      message: 'waiting for Deployment ml/qwen (apps/v1) to be created',
      replicas: { desired: 3, ready: 0, available: 0 },
      resource: { name: 'qwen', kind: 'Deployment' },
      ready: { type: 'Ready', status: 'False', reason: 'ResourceNotFound', message: 'waiting for Deployment ml/qwen (apps/v1) to be created' },
    });
    expect(lookup.watched).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ml', name: 'qwen' }]);
  });

  test('the status source found: the provider\'s report, with the resource it came from', () => {
    const md = vllmDeployment();
    const world = new World(translated(defaultProviderCatalog().provider('vllm')!, md));
    world.setStatus('apps/v1', 'Deployment', 'qwen', { conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: '' }], readyReplicas: 1, availableReplicas: 1 });
    expect(outcome(valid(md), world).result).toEqual({
      phase: 'Running',
      message: 'Deployments created, pods are ready',
      replicas: { desired: 1, ready: 1, available: 1 },
      endpoint: { service: 'qwen', port: 8000 },
      resource: { name: 'qwen', kind: 'Deployment' },
      // A Deployment runs the pods itself: the request is the workload.
      request: DEPLOYMENT_REF,
      workload: DEPLOYMENT_REF,
      ready: { type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' },
    });
  });

  test('requestRef and workloadRef: the status source with its uid; workloadRef only for a kind that runs the pods itself', () => {
    const dynamo = dynamoDeployment();
    const world = new World(translated(defaultProviderCatalog().provider('dynamo')!, dynamo));
    const { result, lookup } = outcome(valid(dynamo), world);
    expect(lookup.watched[0]).toMatchObject({ kind: 'DynamoGraphDeployment', name: dynamo.name, namespace: 'ml' });
    expect(result.request).toEqual({ ...lookup.watched[0], uid: `uid-${dynamo.name}` });
    // Dynamo's pods belong to the component deployments its operator creates, which the controller does not read.
    expect(result).not.toHaveProperty('workload');

    const md = vllmDeployment();
    const vllm = new World(translated(defaultProviderCatalog().provider('vllm')!, md));
    const source = vllm.get('apps/v1', 'Deployment', 'qwen');
    vllm.put({ ...source, metadata: { ...source.metadata, uid: '' } });
    const noUid = outcome(valid(md), vllm).result;
    // A ref never has an empty uid: no ref at all.
    expect(noUid).not.toHaveProperty('request');
    expect(noUid).not.toHaveProperty('workload');
    expect(noUid.resource).toEqual({ name: 'qwen', kind: 'Deployment' });
  });

  test('the status source is looked up in the record\'s namespace, under the name the provider gives (llm-d decode)', () => {
    const { lookup } = outcome(valid(disaggregatedLlmdDeployment()));
    expect(lookup.watched).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ml', name: 'llama-decode' }]);
  });

  test('a provider without a status mapping: Pending, Ready Unknown, nothing looked up', () => {
    const { result, lookup } = outcome(custom({}));
    expect(result).toEqual({
      phase: 'Pending',
      message: 'provider custom has no status mapping: the controller cannot observe this deployment',
      replicas: { desired: 1, ready: 0, available: 0 },
      ready: { type: 'Ready', status: 'Unknown', reason: 'NoStatusMapping', message: 'provider custom has no status mapping: the controller cannot observe this deployment' },
    });
    expect(lookup.watched).toEqual([]);
  });

  test('a custom provider\'s report is taken as it is; only the known endpoint parts are written', () => {
    const world = new World([sourceObject('qwen', {})]);
    const hooks = (r: any): CustomHooks => ({ statusSource: SOURCE, mapStatus: () => r });
    expect(outcome(custom(hooks(report('Running'))), world).result).toMatchObject({ phase: 'Running', message: 'custom is Running', endpoint: { service: 'svc', port: 8080 }, resource: { name: 'qwen', kind: 'ConfigMap' } });
    expect(outcome(custom(hooks(report('Running', { endpoint: { service: '', port: 8080 } }))), world).result.endpoint).toEqual({ port: 8080 });
    expect(outcome(custom(hooks(report('Running', { endpoint: { service: 'svc', port: 0 } }))), world).result.endpoint).toEqual({ service: 'svc' });
    expect(outcome(custom(hooks(report('Running', { endpoint: { service: '', port: 0 } }))), world).result).not.toHaveProperty('endpoint');
    expect(outcome(custom(hooks(report('Running', { endpoint: undefined }))), world).result).not.toHaveProperty('endpoint');
    expect(outcome(custom(hooks(report('Deploying', { message: undefined }))), world).result.message).toBe('');
  });

  describe('fails when', () => {
    test('mapStatus throws on a malformed upstream object: Failed with the error text', () => {
      const md = vllmDeployment();
      const world = new World(translated(defaultProviderCatalog().provider('vllm')!, md));
      world.setStatus('apps/v1', 'Deployment', 'qwen', { conditions: 'Available' });
      const { result } = outcome(valid(md), world);
      const message = 'cannot read the status of Deployment ml/qwen: failed to get status conditions: status.conditions is not a list';
      expect(result).toEqual({
        phase: 'Failed',
        message,
        replicas: { desired: 1, ready: 0, available: 0 },
        resource: { name: 'qwen', kind: 'Deployment' },
        request: DEPLOYMENT_REF,
        workload: DEPLOYMENT_REF,
        ready: { type: 'Ready', status: 'False', reason: 'StatusMappingFailed', message },
      });
    });

    test('statusSource throws', () => {
      const { result, lookup } = outcome(custom({ statusSource: () => { throw new Error('no idea'); } }));
      expect(result).toMatchObject({
        phase: 'Failed',
        message: 'provider custom could not name the object to observe: no idea',
        ready: { status: 'False', reason: 'StatusSourceFailed' },
      });
      expect(lookup.watched).toEqual([]);
    });

    test.each([
      ['a non-object', () => 'Deployment/qwen', 'statusSource returned a non-object'],
      ['no kind', () => ({ apiVersion: 'v1', name: 'qwen' }), 'statusSource returned no kind'],
      ['an empty name', () => ({ apiVersion: 'v1', kind: 'ConfigMap', name: '' }), 'statusSource returned no name'],
      ['a numeric apiVersion', () => ({ apiVersion: 1, kind: 'ConfigMap', name: 'qwen' }), 'statusSource returned no apiVersion'],
    ])('statusSource returns %s', (_what, statusSource, text) => {
      const { result } = outcome(custom({ statusSource: statusSource as any }));
      expect(result.phase).toBe('Failed');
      expect(result.message).toBe(`provider custom could not name the object to observe: ${text}`);
    });

    test.each([
      ['no report', undefined, 'the provider returned no status report'],
      ['an unknown phase', report('Running', { phase: 'Terminating' }), 'the provider reported an unknown phase "Terminating"'],
      ['a numeric message', report('Running', { message: 3 }), 'the provider reported a non-string message'],
      ['no replicas', report('Running', { replicas: undefined }), 'the provider reported no replica counts'],
      ['negative replicas', report('Running', { replicas: { desired: -1, ready: 0, available: 0 } }), 'the provider reported replicas.desired -1, not a count'],
      ['fractional replicas', report('Running', { replicas: { desired: 1, ready: 0.5, available: 0 } }), 'the provider reported replicas.ready 0.5, not a count'],
      ['replicas beyond int32', report('Running', { replicas: { desired: 1, ready: 1, available: 2 ** 31 } }), 'the provider reported replicas.available 2147483648, not a count'],
      ['an endpoint string', report('Running', { endpoint: 'svc:8080' }), 'the provider reported a non-object endpoint'],
      ['a numeric service', report('Running', { endpoint: { service: 1, port: 80 } }), 'the provider reported a non-string endpoint service'],
      ['a port out of range', report('Running', { endpoint: { service: 's', port: 70000 } }), 'the provider reported endpoint port 70000'],
      ['no Ready condition', report('Running', { ready: undefined }), 'the provider reported no Ready condition'],
      ['a Ready status outside True/False/Unknown', report('Running', { ready: { type: 'Ready', status: 'Yes', reason: 'R', message: '' } }), 'the provider reported Ready status "Yes"'],
      ['a Ready reason with spaces', report('Running', { ready: { type: 'Ready', status: 'True', reason: 'All good', message: '' } }), 'the provider reported Ready reason "All good", not a CamelCase reason'],
      ['a numeric Ready message', report('Running', { ready: { type: 'Ready', status: 'True', reason: 'Ok', message: 5 } }), 'the provider reported a non-string Ready message'],
    ])('mapStatus returns a report the status cannot hold: %s', (_what, r, text) => {
      const world = new World([sourceObject('qwen', {})]);
      const { result } = outcome(custom({ statusSource: SOURCE, mapStatus: () => r }), world);
      expect(result).toMatchObject({
        phase: 'Failed',
        message: `cannot read the status of ConfigMap ml/qwen: ${text}`,
        ready: { status: 'False', reason: 'StatusMappingFailed' },
        resource: { name: 'qwen', kind: 'ConfigMap' },
      });
    });
  });
});

describe('RecordingLookup', () => {
  test('records every reference once, in the order first asked, found or not; null reads as not found', () => {
    const a = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ml', name: 'a' };
    const b = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ml', name: 'b' };
    const lookup = new RecordingLookup((ref) => (ref.name === 'a' ? { found: true } : null));
    expect(lookup.get(b)).toBeUndefined();
    expect(lookup.get({ ...a })).toEqual({ found: true });
    expect(lookup.get({ ...b })).toBeUndefined();
    expect(lookup.watched).toEqual([b, a]);
  });
});

describe('desiredReplicasFromSpec', () => {
  test.each([
    ['aggregated replicas', { scaling: { replicas: 4 } }, 4],
    ['no scaling', {}, 1],
    ['replicas 0 (rendered as one)', { scaling: { replicas: 0 } }, 1],
    ['disaggregated: prefill plus decode', { serving: { mode: 'disaggregated' }, scaling: { prefill: { replicas: 2 }, decode: { replicas: 3 } } }, 5],
    ['disaggregated without counts', { serving: { mode: 'disaggregated' }, scaling: { prefill: {}, decode: {} } }, 2],
    ['a hostile spec', 'spec', 1],
    ['hostile scaling', { scaling: { replicas: 'many' } }, 1],
    ['a count beyond int32', { serving: { mode: 'disaggregated' }, scaling: { prefill: { replicas: 2 ** 31 - 1 }, decode: { replicas: 2 ** 31 - 1 } } }, 2 ** 31 - 1],
  ])('%s', (_what, spec, desired) => {
    expect(desiredReplicasFromSpec(spec)).toBe(desired);
  });
});
