import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { run, runWithStdin, tempFolderPerTest } from '../support/cli-run';
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
    expect(fs.readdirSync(out, { recursive: true }).sort()).toEqual(['.cdk8s-inference-files', 'qwen.k8s.yaml', 'team-a', path.join('team-a', 'phi.k8s.yaml')]);
    const docs = parseAllDocuments(fs.readFileSync(path.join(out, 'qwen.k8s.yaml'), 'utf8')).map((d) => d.toJS());
    expect(docs.map((d) => d.kind)).toEqual(['Deployment', 'Service', 'ModelDeployment']);
    expect(r.stdout).toBe('');
  });

  test('-o removes the files an earlier run wrote that are no longer produced, and nothing else', async () => {
    const out = path.join(temp.dir(), 'out');
    const both = file('both.yaml', `${PHI}---\n${QWEN_AUTO}---\n${ONLY_VLLM_READY}`);
    expect((await run('synth', '-f', both, '-o', out)).code).toBe(0);
    fs.writeFileSync(path.join(out, 'team-a', 'kustomization.yaml'), 'resources: [phi.k8s.yaml]\n');
    fs.writeFileSync(path.join(out, 'mine.k8s.yaml'), '# written by hand\n');
    const phiOnly = file('phi.yaml', PHI);
    const r = await run('synth', '-f', phiOnly, '-o', out);
    expect(r.code).toBe(0);
    expect(r.stderr).toEqual([`wrote ${path.join(out, 'team-a', 'phi.k8s.yaml')}`, `removed ${path.join(out, 'qwen.k8s.yaml')} (no longer produced)`]);
    expect(fs.readdirSync(out, { recursive: true }).sort()).toEqual([
      '.cdk8s-inference-files', 'mine.k8s.yaml', 'team-a', path.join('team-a', 'kustomization.yaml'), path.join('team-a', 'phi.k8s.yaml'),
    ]);
    expect(fs.readFileSync(path.join(out, '.cdk8s-inference-files'), 'utf8')).toMatch(/\nteam-a\/phi\.k8s\.yaml\n$/);
    expect(fs.readdirSync(temp.dir()).filter((n) => n.includes('.tmp-'))).toEqual([]);
    // A later run without phi removes its file and the directory it leaves empty, not the one holding a file of the user's.
    const moved = file('moved.yaml', PHI.replace('namespace: team-a', 'namespace: team-b'));
    expect((await run('synth', '-f', moved, '-o', out)).code).toBe(0);
    expect(fs.readdirSync(out, { recursive: true }).sort()).toEqual([
      '.cdk8s-inference-files', 'mine.k8s.yaml', 'team-a', path.join('team-a', 'kustomization.yaml'), 'team-b', path.join('team-b', 'phi.k8s.yaml'),
    ]);
  });

  test('-o writes nothing and removes nothing when an input is invalid', async () => {
    const out = path.join(temp.dir(), 'out');
    expect((await run('synth', '-f', file('phi.yaml', PHI), '-o', out)).code).toBe(0);
    const before = fs.readFileSync(path.join(out, 'team-a', 'phi.k8s.yaml'), 'utf8');
    const r = await run('synth', '-f', file('bad.yaml', QWEN_AUTO.replace('count: 1', 'count: 65')), '-o', out);
    expect(r.code).toBe(1);
    expect(fs.readFileSync(path.join(out, 'team-a', 'phi.k8s.yaml'), 'utf8')).toBe(before);
  });

  test('fails when -o names a file', async () => {
    const notDir = file('not-a-dir', 'x');
    const r = await run('synth', '-f', file('phi.yaml', PHI), '-o', notDir);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([`error: cannot write ${notDir}: ${notDir} exists and is not a directory`]);
  });

  test('-o keeps deployments apart whose namespace and name would join to the same file name', async () => {
    const md = (ns: string, name: string) => PHI.replace('{name: phi, namespace: team-a}', `{name: ${name}, namespace: ${ns}}`);
    const out = path.join(temp.dir(), 'out');
    const r = await run('synth', '-f', file('two.yaml', `${md('a-b', 'c')}---\n${md('a', 'b-c')}`), '-o', out);
    expect(r.code).toBe(0);
    expect(fs.readdirSync(out, { recursive: true }).sort()).toEqual(['.cdk8s-inference-files', 'a', 'a-b', path.join('a-b', 'c.k8s.yaml'), path.join('a', 'b-c.k8s.yaml')]);
  });

  test('warnings name the document they come from, also past ten documents', async () => {
    const docs = Array.from({ length: 11 }, (_, i) =>
      PHI.replace('name: phi', `name: phi-${i}`).replace('engine: {type: vllm}', i === 10 ? 'engine: {type: vllm, trustRemoteCode: true}' : 'engine: {type: vllm}'),
    );
    const many = file('many.yaml', docs.join('---\n'));
    const r = await run('synth', '-f', many);
    expect(r.code).toBe(0);
    expect(r.stderr).toEqual([`warning: ${many}[doc 11]: trustRemoteCode=true allows execution of arbitrary code from HuggingFace`]);
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
      `error: ${bad}[doc 2]:11:12: ModelDeployment llama-3.1: metadata.name: Invalid value: "llama-3.1": name must not contain dots (dots are invalid in derived Kubernetes volume and service names)`,
      `error: ${bad}[doc 2]:13:3: ModelDeployment llama-3.1: spec.model.id: Required value: model.id is required when source is huggingface`,
      `error: ${bad}[doc 2]:14:13: ModelDeployment llama-3.1: spec.scaling.replicas: Invalid value: 40: exceeds maximum allowed (32)`,
      `error: ${bad}[doc 3]: unsupported kind "ConfigMap": expected ModelDeployment or InferenceProviderConfig (apiVersion airunway.ai/v1alpha1), or Gateway (gateway.networking.k8s.io/v1), or NodePool (inference.cdk8s.io/v1alpha1)`,
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
    expect(r.stderr[0]).toBe(`error: ${broken}[doc 1]:2:1: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]`);
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
    expect(r.stderr[0]).toMatch(/p\.yaml\[doc 1\]:5:29: InferenceProviderConfig mine: spec\.capabilities\.engines\[0\]\.name: /);
    expect(r.stderr[0]).toContain('InferenceProviderConfig mine: spec.capabilities.engines[0].name: Unsupported value: "tgi": supported values: "vllm", "sglang", "trtllm", "llamacpp"');
  });

  test('fails with the line and column of the field, or of its closest ancestor the document has; none for messages without a field', async () => {
    const input = file('pos.yaml', `# a comment
${PHI}---

apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata:
  name: qwen
spec:
  model:
    source: huggingface
  resources:
    gpu:
      count: 65
---
kind: ConfigMap
`);
    const r = await run('synth', '-f', input);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      `error: ${input}[doc 2]:16:3: ModelDeployment qwen: spec.model.id: Required value: model.id is required when source is huggingface`,
      `error: ${input}[doc 2]:20:7: ModelDeployment qwen: spec.resources.gpu.count: Invalid value: 65: exceeds maximum allowed (64)`,
      expect.stringMatching(new RegExp(`^error: ${input}\\[doc 3\\]: unsupported kind "ConfigMap": `)),
      '3 error(s); nothing was written.',
    ]);
  });

  test('fails with "did you mean" for an unknown provider (listing the known ones), enum value or spec field', async () => {
    const input = file('typos.yaml', PHI.replace('{name: vllm}', '{name: vlm}').replace('{type: vllm}', '{type: vlmm}') + '  scalng: {replicas: 2}\n');
    const r = await run('synth', '-f', input);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      `error: ${input}[doc 1]:8:3: ModelDeployment team-a/phi: spec.scalng: Forbidden: unknown field (not in the schema); did you mean "scaling"?`,
      `error: ${input}[doc 1]:7:12: ModelDeployment team-a/phi: spec.engine.type: Unsupported value: "vlmm": supported values: "vllm", "sglang", "trtllm", "llamacpp"; did you mean "vllm"?`,
      '2 error(s); nothing was written.',
    ]);
    const provider = await run('synth', '-f', file('provider.yaml', PHI.replace('{name: vllm}', '{name: kube}')));
    expect(provider.stderr[0]).toMatch(
      /\[doc 1\]:6:14: ModelDeployment team-a\/phi: spec\.provider\.name: Invalid value: "kube": InferenceProviderConfig "kube" not found; known providers: dynamo, flexinfer, kaito, kthena, kuberay, llmd, modelplane, vllm; did you mean "kuberay"\?$/,
    );
    const unrelated = await run('synth', '-f', file('nim.yaml', PHI.replace('{name: vllm}', '{name: nim}')));
    expect(unrelated.stderr[0]).toMatch(/InferenceProviderConfig "nim" not found; known providers: dynamo, flexinfer, kaito, kthena, kuberay, llmd, modelplane, vllm$/);
    // Without an engine the admission rule that checks a named provider does not run; the same
    // message comes from the pipeline once the provider is looked up.
    const noEngine = await run('synth', '-f', file('no-engine.yaml', PHI.replace('{name: vllm}', '{name: vlm}').replace('  engine: {type: vllm}\n', '')));
    expect(noEngine.stderr[0]).toMatch(/spec\.provider\.name: Invalid value: "vlm": InferenceProviderConfig "vlm" not found; known providers: .*; did you mean "vllm"\?$/);
  });

  test('fails when two documents synthesize the same object', async () => {
    const dup = file('dup.yaml', `${PHI}---\n${PHI}`);
    const r = await run('synth', '-f', dup);
    expect(r.code).toBe(1);
    // Named by file and document (the later one), as every error is.
    expect(r.stderr).toContain(`error: ${dup}[doc 2]: Deployment "team-a/phi" is synthesized twice: by ${dup}[doc 1] and by ${dup}[doc 2]; give one of the deployments another name or namespace`);
  });

  test('prints warnings to stderr and still succeeds', async () => {
    const r = await run('synth', '-f', file('w.yaml', PHI.replace('engine: {type: vllm}', 'engine: {type: vllm, trustRemoteCode: true}')));
    expect(r.code).toBe(0);
    expect(r.stderr).toEqual([expect.stringMatching(/^warning: .*w\.yaml\[doc 1\]: trustRemoteCode=true allows execution of arbitrary code from HuggingFace$/)]);
  });
});

describe('cdk8s-inference inputs', () => {
  test('-f - reads stdin, named <stdin> in messages', async () => {
    const fromFile = await run('synth', '-f', file('phi.yaml', PHI));
    const fromStdin = await runWithStdin(PHI, 'synth', '-f', '-');
    expect(fromStdin).toEqual(fromFile);
    const bad = await runWithStdin(PHI.replace('name: phi', 'name: phi.x'), 'synth', '-f', '-');
    expect(bad.code).toBe(1);
    expect(bad.stderr[0]).toMatch(/^error: <stdin>\[doc 1\]:3:12: ModelDeployment team-a\/phi\.x: metadata\.name: /);
  });

  test('-f - mixes with files, and explain reads stdin too', async () => {
    const r = await runWithStdin(QWEN_AUTO, 'explain', '-f', '-', '-f', file('providers.yaml', ONLY_VLLM_READY));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('ModelDeployment qwen (<stdin>[doc 1])\n');
    expect(r.stdout).toContain('  provider: vllm (');
  });

  test('fails when stdin cannot be read', async () => {
    const r = await run('synth', '-f', '-');
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toBe('error: <stdin>: cannot read standard input: EBADF');
  });

  test('-f DIR reads its *.yaml and *.yml files sorted by name, not its subdirectories', async () => {
    const dir = path.join(temp.dir(), 'models');
    fs.mkdirSync(path.join(dir, 'nested'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'b-qwen.yml'), QWEN_AUTO);
    fs.writeFileSync(path.join(dir, 'a-phi.yaml'), PHI);
    fs.writeFileSync(path.join(dir, 'c-providers.yaml'), ONLY_VLLM_READY);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not: yaml: at all');
    fs.writeFileSync(path.join(dir, 'nested', 'broken.yaml'), 'apiVersion: [unclosed\n');
    const r = await run('synth', '-f', dir);
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS());
    expect(docs.filter((d) => d.kind === 'ModelDeployment').map((d) => `${d.metadata.name} ${d.spec.provider.name}`)).toEqual(['phi vllm', 'qwen vllm']);
    const explained = await run('explain', '-f', dir);
    expect(explained.stdout).toContain(`ModelDeployment team-a/phi (${path.join(dir, 'a-phi.yaml')}[doc 1])`);
  });

  test('fails when a directory holds no YAML file', async () => {
    const dir = path.join(temp.dir(), 'empty');
    fs.mkdirSync(dir);
    const r = await run('synth', '-f', dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([`error: ${dir}: no *.yaml or *.yml files in the directory`, '1 error(s); nothing was written.']);
  });

  test('fails when the input holds no ModelDeployment, naming the input', async () => {
    const providers = file('providers.yaml', ONLY_VLLM_READY);
    const out = path.join(temp.dir(), 'out');
    const r = await run('synth', '-f', providers, '-o', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      `error: ${providers}: no ModelDeployment document in the input: nothing to translate (apiVersion airunway.ai/v1alpha1, kind ModelDeployment)`,
      '1 error(s); nothing was written.',
    ]);
    expect(fs.existsSync(out)).toBe(false);
    const empty = await runWithStdin('', 'explain', '-f', '-', '-f', providers);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toEqual([`error: <stdin>, ${providers}: no ModelDeployment document in the input: nothing to translate (apiVersion airunway.ai/v1alpha1, kind ModelDeployment)`]);
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
    const r = await run('synth', '-f', file('all.yaml', `${PHI}---\n${GATEWAY_DOC}`), '--gateway', 'gateway-system/inference-gateway', '--body-based-router-installed');
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
    const r = await run('synth', '-f', file('phi.yaml', PHI), '--gateway=gateway-system/external', '--inference-pool-api-version', 'v1alpha2', '--body-based-router-installed');
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS());
    expectValidManifests(docs);
    expect(docs.find((d) => d.kind === 'InferencePool').apiVersion).toBe('inference.networking.x-k8s.io/v1alpha2');
    expect(r.stderr).toEqual([expect.stringMatching(/^warning: .*phi\.yaml\[doc 1\]: .*external.*team-a/)]);
  });

  test('-o writes the Gateway to its own file', async () => {
    const out = path.join(temp.dir(), 'out');
    const r = await run('synth', '-f', file('all.yaml', `${PHI}---\n${GATEWAY_DOC}`), '--gateway', 'gateway-system/inference-gateway', '-o', out);
    expect(r.code).toBe(0);
    expect(fs.readdirSync(out, { recursive: true }).sort()).toEqual([
      '.cdk8s-inference-files',
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
    expect(r.stderr).toEqual([expect.stringContaining('bad.yaml[doc 1]:6:21: ModelDeployment qwen: spec.resources.gpu.count: Invalid value: 65')]);
  });

  test('says how the model is routed, or why it is not', async () => {
    const off = await run('explain', '-f', file('phi.yaml', PHI));
    expect(off.stdout).toContain('  routing: off (no Gateway known; pass --gateway NAMESPACE/NAME)');
    const on = await run('explain', '-f', file('phi.yaml', PHI), '--gateway', 'gateway-system/gw');
    expect(on.stdout).toContain(
      '  routing: HTTPRoute team-a/phi on Gateway gateway-system/gw, model name "microsoft/Phi-4-mini-instruct", ' +
        'InferencePool team-a/phi + endpoint picker ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0',
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
    [['synth', '-f', 'x.yaml', 'extra'], 2],
    [['synth', '-f', '--gateway', 'a/b'], 2],
    [['synth', '-f', 'x.yaml', '--help=yes'], 2],
    [['synth', '-f', '-', '-f', '-'], 2],
    [['help', 'deploy'], 2],
  ])('%j exits %d', async (argv, code) => {
    const r = await run(...(argv as string[]));
    expect(r.code).toBe(code);
    if (code === 2) expect(r.stderr[0]).toMatch(/^error: .*\n\nUsage:/s);
    else expect(r.stdout).toMatch(/^Usage:/);
  });

  test('fails when a flag is unknown, naming the flag and printing the usage of the command', async () => {
    const r = await run('synth', '-f', 'x.yaml', '--bogus');
    expect(r.code).toBe(2);
    expect(r.stderr).toHaveLength(1);
    expect(r.stderr[0]).toMatch(/^error: unknown flag "--bogus" for synth\n\nUsage:\n  cdk8s-inference synth -f /);
    expect(r.stderr[0]).toMatch(/Run 'cdk8s-inference help synth' for examples\.$/);
    expect((await run('explain', '-f', 'x.yaml', '-o', 'out')).stderr[0]).toMatch(/^error: unknown flag "-o" for explain\n/);
    expect((await run('synth', '-f', 'x.yaml', '-z')).stderr[0]).toMatch(/^error: unknown flag "-z" for synth\n/);
  });

  test('fails when a command or flag is unknown, suggesting the closest one', async () => {
    expect((await run('synt', '-f', 'x.yaml')).stderr[0]).toMatch(/^error: unknown command "synt"; commands: synth, explain, controller, validate; did you mean "synth"\?\n\nUsage:/);
    expect((await run('help', 'explian')).stderr[0]).toMatch(/^error: unknown command "explian"; commands: synth, explain, controller, validate; did you mean "explain"\?\n/);
    expect((await run('synth', '-f', 'x.yaml', '--output')).stderr[0]).toMatch(/^error: unknown flag "--output" for synth; did you mean "--output-dir"\?\n/);
    expect((await run('synth', '--file', 'x.yaml')).stderr[0]).toMatch(/^error: unknown flag "--file" for synth; did you mean "--filename"\?\n/);
  });

  test('fails when a flag that takes a value has none', async () => {
    expect((await run('synth', '-f')).stderr[0]).toMatch(/^error: -f needs a value\n/);
    expect((await run('synth', '-f', '--gateway', 'a/b')).stderr[0]).toMatch(/^error: -f needs a value\n/);
    expect((await run('synth', '-f', 'x.yaml', '--output-dir')).stderr[0]).toMatch(/^error: --output-dir needs a value\n/);
  });

  test('--version prints the version of package.json', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { version } = require('../../package.json');
    for (const argv of [['--version'], ['version']]) {
      const r = await run(...argv);
      expect(r).toEqual({ code: 0, stdout: `${version}\n`, stderr: [] });
    }
  });

  test.each([
    [['help', 'synth']],
    [['synth', '--help']],
    [['synth', '-h']],
    [['synth', '-f', 'x.yaml', '--help']],
  ])('%j prints the flags and examples of synth', async (argv) => {
    const r = await run(...argv);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage:\n  cdk8s-inference synth -f FILE\|DIR\|- /);
    for (const flag of ['--filename', '--output-dir', '--gateway', '--inference-pool-api-version']) expect(r.stdout).toContain(flag);
    expect(r.stdout).toContain('Examples:\n');
    expect(r.stdout).toContain('cdk8s-inference synth -f - | kubectl apply -f -');
  });

  test('help explain and help controller print their flags and examples', async () => {
    const explain = await run('help', 'explain');
    expect(explain.stdout).toMatch(/^Usage:\n  cdk8s-inference explain /);
    expect(explain.stdout).not.toContain('--output-dir');
    expect(explain.stdout).toContain('Examples:\n');
    for (const argv of [['help', 'controller'], ['controller', '--help']]) {
      const r = await run(...argv);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage:\n  cdk8s-inference controller \[FLAGS\]/);
      expect(r.stdout).toContain('cdk8s-inference controller --leader-elect');
    }
  });

  test('repeated -f, --flag=value and -fVALUE forms are all accepted', async () => {
    const a = file('a.yaml', PHI);
    const b = file('b.yaml', QWEN_AUTO.replace('name: qwen', 'name: qwen, namespace: team-a'));
    const r = await run('synth', `--filename=${a}`, `-f${b}`, '--gateway=gw/one', '--gateway', 'gateway-system/gw');
    expect(r.code).toBe(0);
    const routes = parseAllDocuments(r.stdout).map((d) => d.toJS()).filter((d) => d.kind === 'HTTPRoute');
    expect(routes.map((d) => `${d.metadata.name} ${d.spec.parentRefs[0].namespace}/${d.spec.parentRefs[0].name}`)).toEqual(['phi gateway-system/gw', 'qwen gateway-system/gw']);
  });
});
