import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { run, tempFolderPerTest } from '../support/cli-run';
import { expectValidManifests } from '../support/schema-validator';

const temp = tempFolderPerTest('cdk8s-inference-cli-');
const file = temp.file;

const PHI = `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: {name: phi, namespace: team-a}
spec:
  model: {id: microsoft/Phi-4-mini-instruct}
  provider: {name: vllm}
  engine: {type: vllm}
`;

const QWEN_AUTO = `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: {name: qwen}
spec:
  model: {id: Qwen/Qwen3-0.6B}
  resources: {gpu: {count: 1}}
`;

/** Declares the shipped providers other than vllm absent from the cluster. */
const ONLY_VLLM_READY = ['dynamo', 'kaito', 'kuberay', 'llmd']
  .map((name) => `apiVersion: airunway.ai/v1alpha1
kind: InferenceProviderConfig
metadata: {name: ${name}}
spec: {}
status: {ready: false}
`)
  .join('---\n');

describe('cdk8s-inference synth', () => {
  test('writes schema-valid multi-document YAML to stdout', async () => {
    const r = await run('synth', '-f', file('phi.yaml', PHI));
    expect(r.code).toBe(0);
    expect(r.stderr).toEqual([]);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS());
    expect(docs.map((d) => `${d.kind}/${d.metadata.namespace}/${d.metadata.name}`)).toEqual([
      'Deployment/team-a/phi',
      'Service/team-a/phi',
      'ModelDeployment/team-a/phi',
    ]);
    expectValidManifests(docs);
  });

  test('InferenceProviderConfig documents add or replace providers, from any file and position', async () => {
    const r = await run('synth', '-f', file('qwen.yaml', QWEN_AUTO), '-f', file('providers.yaml', ONLY_VLLM_READY));
    expect(r.code).toBe(0);
    const record = parseAllDocuments(r.stdout).map((d) => d.toJS()).find((d) => d.kind === 'ModelDeployment');
    expect(record.spec.provider.name).toBe('vllm');
    expect(record.metadata.annotations['inference.cdk8s.io/provider-selected-reason']).toBe('matched capabilities: engine=vllm, gpu=true, mode=aggregated');
  });

  test('-o writes one file per deployment', async () => {
    const out = path.join(temp.dir(), 'out');
    const r = await run('synth', '-f', file('all.yaml', `${PHI}---\n${QWEN_AUTO}---\n${ONLY_VLLM_READY}`), '-o', out);
    expect(r.code).toBe(0);
    expect(fs.readdirSync(out, { recursive: true }).sort()).toEqual(['qwen.k8s.yaml', 'team-a', path.join('team-a', 'phi.k8s.yaml')]);
    const docs = parseAllDocuments(fs.readFileSync(path.join(out, 'qwen.k8s.yaml'), 'utf8')).map((d) => d.toJS());
    expect(docs.map((d) => d.kind)).toEqual(['Deployment', 'Service', 'ModelDeployment']);
    expect(r.stdout).toBe('');
  });

  test('-o keeps deployments apart whose namespace and name would join to the same file name', async () => {
    const md = (ns: string, name: string) => PHI.replace('{name: phi, namespace: team-a}', `{name: ${name}, namespace: ${ns}}`);
    const out = path.join(temp.dir(), 'out');
    const r = await run('synth', '-f', file('two.yaml', `${md('a-b', 'c')}---\n${md('a', 'b-c')}`), '-o', out);
    expect(r.code).toBe(0);
    expect(fs.readdirSync(out, { recursive: true }).sort()).toEqual(['a', 'a-b', path.join('a-b', 'c.k8s.yaml'), path.join('a', 'b-c.k8s.yaml')]);
  });

  test('warnings name the document they come from, also past ten documents', async () => {
    const docs = Array.from({ length: 11 }, (_, i) =>
      PHI.replace('name: phi', `name: phi-${i}`).replace('engine: {type: vllm}', i === 10 ? 'engine: {type: vllm, trustRemoteCode: true}' : 'engine: {type: vllm}'),
    );
    const many = file('many.yaml', docs.join('---\n'));
    const r = await run('synth', '-f', many);
    expect(r.code).toBe(0);
    expect(r.stderr).toEqual([`warning: ${many}[doc 10]: trustRemoteCode=true allows execution of arbitrary code from HuggingFace`]);
  });

  test('fails with every error, each with file, document index and field path, and writes nothing', async () => {
    const bad = file('bad.yaml', `${PHI}---
apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: {name: llama-3.1}
spec:
  model: {source: huggingface}
  scaling: {replicas: 40}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: x}
`);
    const out = path.join(temp.dir(), 'out');
    const r = await run('synth', '-f', bad, '-o', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      `error: ${bad}[doc 1]: ModelDeployment llama-3.1: metadata.name: Invalid value: "llama-3.1": name must not contain dots (dots are invalid in derived Kubernetes volume and service names)`,
      `error: ${bad}[doc 1]: ModelDeployment llama-3.1: spec.model.id: Required value: model.id is required when source is huggingface`,
      `error: ${bad}[doc 1]: ModelDeployment llama-3.1: spec.scaling.replicas: Invalid value: 40: exceeds maximum allowed (32)`,
      `error: ${bad}[doc 2]: unsupported kind "ConfigMap": expected ModelDeployment or InferenceProviderConfig (apiVersion airunway.ai/v1alpha1), or Gateway (gateway.networking.k8s.io/v1), or NodePool (inference.cdk8s.io/v1alpha1)`,
      '4 error(s); nothing was written.',
    ]);
    expect(fs.existsSync(out)).toBe(false);
    expect(r.stdout).toBe('');
  });

  test('fails on invalid YAML and unreadable files without a stack trace', async () => {
    const broken = file('broken.yaml', 'apiVersion: [unclosed\n');
    const missing = path.join(temp.dir(), 'missing.yaml');
    const r = await run('synth', '-f', broken, '-f', missing);
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toMatch(new RegExp(`^error: ${broken}\\[doc 0\\]: invalid YAML: `));
    expect(r.stderr[1]).toBe(`error: ${missing}: cannot read file: ENOENT`);
    expect(r.stderr.join('\n')).not.toMatch(/\n\s+at /);
  });

  test('fails on an invalid InferenceProviderConfig with its field path', async () => {
    const r = await run('synth', '-f', file('p.yaml', `apiVersion: airunway.ai/v1alpha1
kind: InferenceProviderConfig
metadata: {name: mine}
spec:
  capabilities: {engines: [{name: tgi}]}
`));
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toContain('InferenceProviderConfig mine: spec.capabilities.engines[0].name: Unsupported value: "tgi": supported values: "vllm", "sglang", "trtllm", "llamacpp"');
  });

  test('fails when two documents synthesize the same object', async () => {
    const r = await run('synth', '-f', file('dup.yaml', `${PHI}---\n${PHI}`));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: <all inputs>: Deployment "team-a/phi" is synthesized twice: by models/document-0/Deployment and by models/document-1/Deployment; give one of the deployments another name or namespace');
  });

  test('prints warnings to stderr and still succeeds', async () => {
    const r = await run('synth', '-f', file('w.yaml', PHI.replace('engine: {type: vllm}', 'engine: {type: vllm, trustRemoteCode: true}')));
    expect(r.code).toBe(0);
    expect(r.stderr).toEqual([expect.stringMatching(/^warning: .*w\.yaml\[doc 0\]: trustRemoteCode=true allows execution of arbitrary code from HuggingFace$/)]);
  });
});

describe('cdk8s-inference synth with a Gateway', () => {
  const GATEWAY_DOC = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: inference-gateway, namespace: gateway-system}
spec:
  gatewayClassName: istio
  listeners: [{name: http, port: 80, protocol: HTTP}]
`;

  test('--gateway names a Gateway of the input: routes attach and its listeners admit their namespaces', async () => {
    const r = await run('synth', '-f', file('all.yaml', `${PHI}---\n${GATEWAY_DOC}`), '--gateway', 'gateway-system/inference-gateway');
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS());
    expectValidManifests(docs);
    expect(docs.map((d) => d.kind)).toEqual([
      'Deployment', 'Service', 'InferencePool', 'ServiceAccount', 'Role', 'RoleBinding', 'ConfigMap', 'Deployment', 'Service', 'HTTPRoute', 'ModelDeployment', 'Gateway',
    ]);
    const gateway = docs[docs.length - 1];
    expect(gateway.spec.listeners[0].allowedRoutes.namespaces.selector.matchExpressions[0].values).toEqual(['gateway-system', 'team-a']);
    expect(r.stderr).toEqual([]);
  });

  test('--gateway naming a Gateway outside the input warns about allowedRoutes; v1alpha2 pools on request', async () => {
    const r = await run('synth', '-f', file('phi.yaml', PHI), '--gateway=gateway-system/external', '--inference-pool-api-version', 'v1alpha2');
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS());
    expectValidManifests(docs);
    expect(docs.find((d) => d.kind === 'InferencePool').apiVersion).toBe('inference.networking.x-k8s.io/v1alpha2');
    expect(r.stderr).toEqual([expect.stringMatching(/^warning: .*phi\.yaml\[doc 0\]: .*external.*team-a/)]);
  });

  test('-o writes the Gateway to its own file', async () => {
    const out = path.join(temp.dir(), 'out');
    const r = await run('synth', '-f', file('all.yaml', `${PHI}---\n${GATEWAY_DOC}`), '--gateway', 'gateway-system/inference-gateway', '-o', out);
    expect(r.code).toBe(0);
    expect(fs.readdirSync(out, { recursive: true }).sort()).toEqual([
      'gateway-system',
      path.join('gateway-system', 'inference-gateway.gateway.k8s.yaml'),
      'team-a',
      path.join('team-a', 'phi.k8s.yaml'),
    ]);
  });
});

describe('cdk8s-inference explain', () => {
  test('prints the engine and provider chosen and why', async () => {
    const r = await run('explain', '-f', file('qwen.yaml', QWEN_AUTO));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  engine: vllm (auto-selected from provider dynamo capabilities)');
    expect(r.stdout).toContain('  provider: dynamo (matched capabilities: engine=vllm, gpu=true, mode=aggregated)');
    expect(r.stdout).toContain('    candidates: dynamo=50, kaito=0, kuberay=0, llmd=0, vllm=0 (highest priority wins; ties go to the smallest name)');
    expect(r.stdout).toContain("      [50] has(spec.resources.gpu) && spec.resources.gpu.count > 0 && spec.engine.type == 'vllm' -> matched");
  });

  test('exits 1 and prints the errors when a deployment is invalid', async () => {
    const r = await run('explain', '-f', file('bad.yaml', QWEN_AUTO.replace('count: 1', 'count: 65')));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  error: spec.resources.gpu.count: Invalid value: 65: exceeds maximum allowed (64)');
    expect(r.stderr).toEqual([expect.stringContaining('bad.yaml[doc 0]: ModelDeployment qwen: spec.resources.gpu.count: Invalid value: 65')]);
  });

  test('says how the model is routed, or why it is not', async () => {
    const off = await run('explain', '-f', file('phi.yaml', PHI));
    expect(off.stdout).toContain('  routing: off (no Gateway known; pass --gateway NAMESPACE/NAME)');
    const on = await run('explain', '-f', file('phi.yaml', PHI), '--gateway', 'gateway-system/gw');
    expect(on.stdout).toContain(
      '  routing: HTTPRoute team-a/phi on Gateway gateway-system/gw, model name "microsoft/Phi-4-mini-instruct", ' +
        'InferencePool team-a/phi + endpoint picker registry.k8s.io/gateway-api-inference-extension/epp:v1.5.0',
    );
  });

  test('shows excluded providers and exits 0 when everything resolves', async () => {
    const r = await run('explain', '-f', file('qwen.yaml', QWEN_AUTO), '-f', file('providers.yaml', ONLY_VLLM_READY));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  provider: vllm (matched capabilities: engine=vllm, gpu=true, mode=aggregated)');
    expect(r.stdout).toMatch(/dynamo: .*not ready/);
  });
});

describe('usage', () => {
  test.each([
    [[], 0],
    [['--help'], 0],
    [['synth'], 2],
    [['synth', '-f'], 2],
    [['synth', '-f', 'x.yaml', '--bogus'], 2],
    [['explain', '-f', 'x.yaml', '-o', 'out'], 2],
    [['deploy'], 2],
    [['synth', '-f', 'x.yaml', '--gateway', 'no-slash'], 2],
    [['synth', '-f', 'x.yaml', '--inference-pool-api-version', 'v2'], 2],
  ])('%j exits %d', async (argv, code) => {
    const r = await run(...(argv as string[]));
    expect(r.code).toBe(code);
    if (code === 2) expect(r.stderr[0]).toMatch(/^error: .*\n\nUsage:/s);
    else expect(r.stdout).toMatch(/^Usage:/);
  });
});
