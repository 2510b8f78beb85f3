/**
 * `--profile FILE`: the cluster the output is for. Only the ready providers it lists are
 * auto-selected, a named provider it lacks is an error, and `explain` says why each provider
 * was skipped.
 */
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { run, tempFolderPerTest } from '../support/cli-run';
import { expectValidManifests } from '../support/schema-validator';

const temp = tempFolderPerTest('cdk8s-inference-profile-');
const file = temp.file;

const EXAMPLES = path.join(__dirname, '..', '..', 'examples', 'cluster-profile');
const EXAMPLE_PROFILE = path.join(EXAMPLES, 'cluster-profile.yaml');
const EXAMPLE_MODELS = path.join(EXAMPLES, 'models.yaml');

const QWEN = `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: {name: qwen, namespace: ml}
spec:
  model: {id: Qwen/Qwen3-0.6B}
  resources: {gpu: {count: 1}}
`;

function ipc(name: string, status = '\nstatus: {ready: true}'): string {
  return `apiVersion: airunway.ai/v1alpha1\nkind: InferenceProviderConfig\nmetadata: {name: ${name}}${status}\n`;
}

function docsOf(stdout: string): any[] {
  return parseAllDocuments(stdout).map((d) => d.toJS());
}

function recordOf(stdout: string, name = 'qwen'): any {
  return docsOf(stdout).find((d) => d.kind === 'ModelDeployment' && d.metadata.name === name);
}

describe('synth --profile', () => {
  test('without a profile every shipped provider is assumed: Dynamo takes a one-GPU model', async () => {
    const r = await run('synth', '-f', file('qwen.yaml', QWEN));
    expect(r.code).toBe(0);
    expect(recordOf(r.stdout).spec.provider.name).toBe('dynamo');
  });

  test('auto-selection picks only from the ready providers of the profile; its Gateway takes the routes and is not written', async () => {
    const r = await run('synth', '-f', EXAMPLE_MODELS, '--profile', EXAMPLE_PROFILE);
    expect(r.code).toBe(0);
    expect(r.stderr.filter((l) => l.startsWith('error'))).toEqual([]);
    const docs = docsOf(r.stdout);
    expectValidManifests(docs);
    expect(docs.filter((d) => d.kind === 'ModelDeployment').map((d) => [d.metadata.name, d.spec.provider.name])).toEqual([['qwen', 'kuberay'], ['llama', 'kuberay']]);
    expect(docs.filter((d) => d.kind === 'Gateway')).toEqual([]);
    const route = docs.find((d) => d.kind === 'HTTPRoute' && d.metadata.name === 'qwen');
    expect(route.spec.parentRefs).toEqual([expect.objectContaining({ name: 'inference-gateway', namespace: 'gateway-system' })]);
  });

  test('a provider the profile marks not ready is skipped', async () => {
    const profile = file('profile.yaml', `${ipc('dynamo', '\nstatus: {ready: false}')}---\n${ipc('llmd')}`);
    const r = await run('synth', '-f', file('qwen.yaml', QWEN), '--profile', profile);
    expect(r.code).toBe(0);
    expect(recordOf(r.stdout).spec.provider.name).toBe('llmd');
  });

  test('a named provider the profile lacks is an error naming the profile and its providers; nothing is written', async () => {
    const profile = file('profile.yaml', `${ipc('kuberay')}---\n${ipc('vllm')}`);
    const md = file('qwen.yaml', QWEN.replace('model:', 'provider: {name: dynamo}\n  model:'));
    const r = await run('synth', '-f', md, '--profile', profile);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toEqual([
      `error: ${md}[doc 1]:5:14: ModelDeployment ml/qwen: spec.provider.name: Invalid value: "dynamo": provider selection failed: ` +
        `provider "dynamo" is not in the cluster profile ${profile}, which lists kuberay, vllm`,
      '1 error(s); nothing was written.',
    ]);
  });

  test('reads a List, as kubectl get inferenceproviderconfigs,gateways -A -o yaml prints it', async () => {
    const profile = file('live.yaml', `apiVersion: v1
kind: List
metadata: {resourceVersion: ""}
items:
- apiVersion: airunway.ai/v1alpha1
  kind: InferenceProviderConfig
  metadata:
    name: vllm
    resourceVersion: "1234"
    uid: 6f1c7a52-0000-4000-8000-000000000000
    annotations: {airunway.ai/health: '{"crds":[]}'}
  status: {ready: true, version: v0.1.0}
- apiVersion: gateway.networking.k8s.io/v1
  kind: Gateway
  metadata: {name: gw, namespace: gateway-system}
  spec: {gatewayClassName: istio, listeners: [{name: http, protocol: HTTP, port: 80}]}
`);
    const r = await run('synth', '-f', file('qwen.yaml', QWEN), '--profile', profile);
    expect(r.code).toBe(0);
    expect(recordOf(r.stdout).spec.provider.name).toBe('vllm');
    expect(docsOf(r.stdout).find((d) => d.kind === 'HTTPRoute').spec.parentRefs[0]).toMatchObject({ name: 'gw', namespace: 'gateway-system' });
  });

  test('bad profile documents: field-path errors with file, document number and line', async () => {
    const profile = file('bad.yaml', `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: {name: x}
---
apiVersion: airunway.ai/v1alpha1
kind: InferenceProviderConfig
metadata: {labels: {a: b}}
---
apiVersion: airunway.ai/v1alpha1
kind: InferenceProviderConfig
metadata: {name: vllm}
status:
  ready: "true"
---
apiVersion: v1
kind: List
items:
  - apiVersion: airunway.ai/v1alpha1
    kind: InferenceProviderConfig
    metadata: {name: kaito}
    status: {ready: yes please}
`);
    const r = await run('synth', '-f', file('qwen.yaml', QWEN), '--profile', profile, '-o', path.join(temp.dir(), 'out'));
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      `error: ${profile}[doc 1]:2:1: ModelDeployment x: kind: Unsupported value: "ModelDeployment": supported values: "InferenceProviderConfig", "Gateway", "NodePool", "List", "InferenceProviderConfigList"`,
      `error: ${profile}[doc 2]:7:1: metadata.name: Required value: name is required`,
      `error: ${profile}[doc 3]:13:3: InferenceProviderConfig vllm: status.ready: Invalid value: "true": must be a boolean`,
      `error: ${profile}[doc 4]:21:14: items[0].status.ready: Invalid value: "yes please": must be a boolean`,
      '4 error(s); nothing was written.',
    ]);
  });

  test('a provider document without status.ready counts as not ready, with a note', async () => {
    const profile = file('profile.yaml', `${ipc('dynamo', '')}---\n${ipc('vllm')}`);
    const r = await run('synth', '-f', file('qwen.yaml', QWEN), '--profile', profile);
    expect(r.code).toBe(0);
    expect(recordOf(r.stdout).spec.provider.name).toBe('vllm');
    expect(r.stderr).toContain(`note: ${profile}[doc 1]: status.ready is not set: provider dynamo counts as not ready, as in AI Runway`);
  });

  test('a provider that is neither shipped nor in the input needs its spec in the profile', async () => {
    const profile = file('profile.yaml', ipc('tgi'));
    const r = await run('synth', '-f', file('qwen.yaml', QWEN), '--profile', profile);
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toBe(
      `error: ${profile}[doc 1]: InferenceProviderConfig tgi: spec: Required value: "tgi" is not a registered provider ` +
        '(registered: dynamo, flexinfer, kaito, kthena, kuberay, llmd, modelplane, vllm); give its spec here, or define it with an InferenceProviderConfig of its own',
    );
  });

  test('the profile\'s node pools bound capacity', async () => {
    const big = file('big.yaml', QWEN.replace('count: 1', 'count: 8'));
    const r = await run('synth', '-f', big, '--profile', EXAMPLE_PROFILE);
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toMatch(/InsufficientCapacity: no node pool holds 1 serving pod: pool l40s: /);
  });

  test('Gateways: two in the profile need --gateway to choose; --gateway must be one of the profile\'s', async () => {
    const gateway = (name: string) => `apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: ${name}, namespace: gw}\n`;
    const profile = file('profile.yaml', `${ipc('vllm')}---\n${gateway('a')}---\n${gateway('b')}`);
    const qwen = file('qwen.yaml', QWEN);
    const two = await run('synth', '-f', qwen, '--profile', profile);
    expect(two.code).toBe(1);
    expect(two.stderr[0]).toBe(`error: ${profile}: the profile holds 2 Gateways (gw/a, gw/b); keep the one model routes attach to, or choose it with --gateway NAMESPACE/NAME`);
    const chosen = await run('synth', '-f', qwen, '--profile', profile, '--gateway', 'gw/b');
    expect(chosen.code).toBe(0);
    expect(docsOf(chosen.stdout).find((d) => d.kind === 'HTTPRoute').spec.parentRefs[0]).toMatchObject({ name: 'b', namespace: 'gw' });
    const other = await run('synth', '-f', qwen, '--profile', profile, '--gateway', 'gw/c');
    expect(other.code).toBe(1);
    expect(other.stderr[0]).toBe(`error: ${profile}: --gateway gw/c is neither a Gateway of the profile (gw/a, gw/b) nor a Gateway document of the input`);
  });

  test.each([
    [['--profile', 'a.yaml', '--profile', 'b.yaml'], '--profile may be given only once: a profile describes one cluster'],
    [['--profile', '-'], '--profile - is not supported: give the profile as a file'],
    [['--profile', 'x.yaml'], 'x.yaml is given both with -f and with --profile; give it once'],
    [['--profile'], '--profile needs a value'],
  ])('usage error: %j', async (flags, message) => {
    const r = await run('synth', '-f', 'x.yaml', ...flags);
    expect(r.code).toBe(2);
    expect(r.stderr[0]).toMatch(new RegExp(`^error: ${message.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}\n`));
  });

  test('help synth and help explain describe --profile', async () => {
    for (const command of ['synth', 'explain']) {
      expect((await run('help', command)).stdout).toContain('  --profile FILE                      the target cluster: its InferenceProviderConfigs with');
    }
  });
});

describe('explain --profile', () => {
  test('says what the profile holds and why each skipped provider was skipped', async () => {
    const r = await run('explain', '-f', EXAMPLE_MODELS, '--profile', EXAMPLE_PROFILE);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(
      `cluster profile: ${EXAMPLE_PROFILE}: ready: kuberay, vllm; installed, not ready: kaito; ` +
        'not installed: dynamo, flexinfer, kthena, llmd, modelplane; Gateway gateway-system/inference-gateway',
    );
    const qwen = lines.slice(lines.indexOf(`ModelDeployment ml/qwen (${EXAMPLE_MODELS}[doc 1])`));
    expect(qwen).toContain(`    dynamo: excluded (not in the cluster profile ${EXAMPLE_PROFILE})`);
    expect(qwen).toContain(`    kaito: excluded (not ready in the cluster profile ${EXAMPLE_PROFILE})`);
    expect(qwen).toContain('  provider: kuberay (matched capabilities: engine=vllm, gpu=true, mode=aggregated)');
    expect(qwen).toContain('    candidates: kuberay=0, vllm=0 (highest priority wins; ties go to the smallest name)');
    expect(qwen).toContain(`    dynamo: not in the cluster profile ${EXAMPLE_PROFILE}`);
    expect(qwen).toContain(`    kaito: not ready in the cluster profile ${EXAMPLE_PROFILE}`);
    // Capability reasons stay apart from the profile's.
    expect(qwen).toContain('    vllm: candidate without selection rules');
    expect(qwen).toContain(`    dynamo: not installed (not in the cluster profile ${EXAMPLE_PROFILE})`);
    expect(qwen).toContain(`    kaito: can (engine vllm, aggregated), but not ready in the cluster profile ${EXAMPLE_PROFILE}`);
  });

  test('capability reasons are kept for installed providers', async () => {
    const cpu = file('cpu.yaml', 'apiVersion: airunway.ai/v1alpha1\nkind: ModelDeployment\nmetadata: {name: tiny, namespace: ml}\nspec:\n  model: {id: Qwen/Qwen3-0.6B}\n  engine: {type: vllm}\n  resources: {gpu: {count: 1}}\n');
    const profile = file('profile.yaml', `${ipc('kaito')}---\n${ipc('vllm')}`);
    const r = await run('explain', '-f', cpu, '--profile', profile);
    expect(r.stdout).toContain(`    dynamo: not in the cluster profile ${profile}\n`);
    expect(r.stdout).toContain('    kaito: candidate; 0 of 2 rules matched\n');
  });

  test('without a profile, says that every provider is assumed installed', async () => {
    const r = await run('explain', '-f', file('qwen.yaml', QWEN), '-f', file('providers.yaml', ipc('kaito', '\nspec: {}\nstatus: {ready: false}')));
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(
      'cluster profile: none (--profile FILE not given): every provider is assumed installed; ' +
        'ready: dynamo, flexinfer, kthena, kuberay, llmd, modelplane, vllm; not ready: kaito; no Gateway',
    );
  });

  test('a named provider the profile lacks: the error, and the targets that are installed', async () => {
    const profile = file('profile.yaml', `${ipc('kuberay')}---\n${ipc('vllm')}`);
    const md = file('qwen.yaml', QWEN.replace('model:', 'provider: {name: dynamo}\n  model:'));
    const r = await run('explain', '-f', md, '--profile', profile);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`  provider: not selected: provider "dynamo" is not in the cluster profile ${profile}, which lists kuberay, vllm\n`);
    expect(r.stdout).toContain('    kuberay: can (engine vllm, aggregated)\n');
  });

  test('a bad profile is reported on stderr with exit 1', async () => {
    const profile = file('bad.yaml', ipc('vllm', '\nstatus: {ready: 1}'));
    const r = await run('explain', '-f', file('qwen.yaml', QWEN), '--profile', profile);
    expect(r.code).toBe(1);
    // Only the profile's error: an invalid profile is not applied, so the deployment is not failed by it.
    expect(r.stderr).toEqual([`error: ${profile}[doc 1]:4:10: InferenceProviderConfig vllm: status.ready: Invalid value: 1: must be a boolean`]);
    expect(r.stdout.split('\n')[0]).toBe(`cluster profile: ${profile} is invalid (see the errors) and was not applied`);
  });
});
